import CGtk

/// A GTK widget.
@MainActor
open class Widget: GObjectReference {
    /// The widget, a `GtkWidget *`.
    public var widget: UnsafeMutablePointer<GtkWidget> {
        UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkWidget.self)
    }

    /// Gives the widget the name a screen reader says, when its text does not say what it is for
    /// (an icon-only button, say).
    ///
    /// - Parameter label: The name.
    public func setAccessibleLabel(_ label: String) {
        hooray_gtk_set_accessible_label(widget, label)
    }
}

/// A button (`GtkButton`).
@MainActor
public final class Button: Widget {
    /// A button showing `label`; an underscore marks its mnemonic (`"_Save"`: Alt+S).
    public init(label: String) {
        super.init(constructed: gtk_button_new_with_mnemonic(label))
    }

    /// The button's text.
    public var label: String {
        get { gtk_button_get_label(button).map { String(cString: $0) } ?? "" }
        set { gtk_button_set_label(button, newValue) }
    }

    /// Runs `action` each time the button is clicked (by the pointer, the keyboard or a screen reader).
    @discardableResult
    public func onClicked(_ action: @escaping @MainActor () -> Void) -> SignalConnection {
        connect("clicked", action)
    }

    private var button: UnsafeMutablePointer<GtkButton> {
        UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkButton.self)
    }
}

/// A text (`GtkLabel`).
@MainActor
public final class Label: Widget {
    /// A label showing `text`.
    public init(_ text: String) {
        super.init(constructed: gtk_label_new(text))
    }

    /// The text shown.
    public var text: String {
        get { String(cString: gtk_label_get_text(label)) }
        set { gtk_label_set_text(label, newValue) }
    }

    private var label: OpaquePointer { OpaquePointer(object) }
}

/// A top-level window (`GtkWindow`).
///
/// GTK keeps a window until ``destroy()`` (or a close that is not stopped); Swift keeps it while
/// it holds this. Both must let go for it to be freed.
@MainActor
public final class Window: Widget {
    /// A new window, not shown yet.
    public init(title: String = "") {
        super.init(constructed: gtk_window_new())
        self.title = title
    }

    /// The title.
    public var title: String {
        get { gtk_window_get_title(window).map { String(cString: $0) } ?? "" }
        set { gtk_window_set_title(window, newValue) }
    }

    /// The widget inside, which the window then holds too.
    public var child: Widget? {
        didSet { gtk_window_set_child(window, child?.widget) }
    }

    /// Shows the window and brings it to the front.
    public func present() {
        gtk_window_present(window)
    }

    /// Asks the window to close, as its close button does: `close-request` handlers may keep it.
    public func close() {
        gtk_window_close(window)
    }

    /// Destroys the window at once: GTK lets go of it.
    public func destroy() {
        gtk_window_destroy(window)
    }

    /// Whether the window is shown.
    public var isVisible: Bool { gtk_widget_get_visible(widget) != 0 }

    /// Runs `decide` when the window is asked to close; `true` keeps it open.
    @discardableResult
    public func onCloseRequest(_ decide: @escaping @MainActor () -> Bool) -> SignalConnection {
        connectAnswering("close-request", decide)
    }

    private var window: UnsafeMutablePointer<GtkWindow> {
        UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkWindow.self)
    }
}
