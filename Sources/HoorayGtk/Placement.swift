import CGtk

extension Window {
    /// Keeps the window centred on its monitor, where the app may place its own windows (X11, where
    /// GTK 4 has no call for it: the window is moved each time it gets a new size, as it is shown
    /// and when its content grows). On Wayland the compositor places windows; README says how to have
    /// it centre one.
    public func keepCentered() {
        hooray_gtk_keep_centered(widget)
    }
}

extension Application {
    /// Calls `report` with a window's title once each window of the app has painted its first frame
    /// (the first `after-paint` of its `GdkFrameClock`: laid out, drawn and handed to the display):
    /// the signal the cold-start benchmark waits for. A C function, as it is called from GTK's.
    ///
    /// - Parameter report: What to do with the window's title.
    public func reportFirstFrames(_ report: @convention(c) (UnsafePointer<CChar>?) -> Void) {
        hooray_gtk_report_first_frames(object, report)
    }
}
