import CGtk

/// The app (`AdwApplication`): one per process, one running instance per session.
///
/// Its id, such as `org.hooray.Hooray`, is its name on the session bus: a second launch finds the
/// first one there, hands it `activate` and exits, so the first can raise its window. libadwaita
/// also loads its style and follows the desktop's dark or light preference.
@MainActor
public final class Application: GObjectReference {
    /// An application with the reverse-DNS `id`.
    public init(id: String) {
        super.init(owning: adw_application_new(id, G_APPLICATION_DEFAULT_FLAGS))
    }

    /// Runs `action` when the app is launched: once as it starts, and again in the first instance
    /// each time another launch hands over to it.
    @discardableResult
    public func onActivate(_ action: @escaping @MainActor () -> Void) -> SignalConnection {
        connect("activate", action)
    }

    /// Runs the app until its last window closes or ``quit()``; serves the main actor meanwhile
    /// (``MainLoop/serveMainActor()``). Command-line arguments are the caller's to read.
    ///
    /// - Returns: The status to exit with.
    public func run() -> Int32 {
        MainLoop.serveMainActor()
        return g_application_run(application, 0, nil)
    }

    /// Registers the app on the session bus without running it: tells whether another instance
    /// has the id already (``isRemote``).
    ///
    /// - Returns: Whether it could register; `false` when the session bus cannot be reached.
    @discardableResult
    public func register() -> Bool {
        g_application_register(application, nil, nil) != 0
    }

    /// Whether another process is the running instance, so activating this one hands over to it.
    public var isRemote: Bool { g_application_get_is_remote(application) != 0 }

    /// Activates the app: in the running instance, wherever it is.
    public func activate() {
        g_application_activate(application)
    }

    /// Stops ``run()``.
    public func quit() {
        g_application_quit(application)
    }

    var application: UnsafeMutablePointer<GApplication> {
        UnsafeMutableRawPointer(object).assumingMemoryBound(to: GApplication.self)
    }
}

/// The app's main window (`AdwApplicationWindow`): it belongs to the application, which runs as
/// long as one is open. Its content is set with ``content``, header bar included.
@MainActor
public final class ApplicationWindow: Window {
    /// A new window of `application`, not shown yet.
    public init(application: Application, title: String) {
        super.init(
            constructedWindow: adw_application_window_new(
                UnsafeMutableRawPointer(application.object).assumingMemoryBound(to: GtkApplication.self)),
            title: title)
    }

    /// What the window shows, all of it.
    public var content: Widget? {
        didSet {
            adw_application_window_set_content(
                UnsafeMutableRawPointer(object).assumingMemoryBound(to: AdwApplicationWindow.self), content?.widget)
        }
    }
}
