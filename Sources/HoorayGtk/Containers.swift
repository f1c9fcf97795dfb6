import CGtk

/// Widgets in a row or a column (`GtkBox`).
@MainActor
public final class Box: Widget {
    /// Which way a box lays out its children.
    public enum Direction: Sendable {
        case vertical, horizontal
    }

    /// An empty box.
    ///
    /// - Parameters:
    ///   - direction: A column or a row.
    ///   - spacing: Pixels between children.
    public init(_ direction: Direction, spacing: Int = 0) {
        let orientation = direction == .vertical ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL
        super.init(constructed: gtk_box_new(orientation, Int32(spacing)))
    }

    /// Adds `child` after the others; the box holds it from now on.
    public func append(_ child: Widget) {
        gtk_box_append(box, child.widget)
    }

    /// Takes `child` out of the box, which lets go of it.
    public func remove(_ child: Widget) {
        gtk_box_remove(box, child.widget)
    }

    /// Gives every child the same room, as a row of buttons of one kind has.
    public func setHomogeneous(_ homogeneous: Bool) {
        gtk_box_set_homogeneous(box, homogeneous ? 1 : 0)
    }

    private var box: UnsafeMutablePointer<GtkBox> {
        UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkBox.self)
    }
}

/// Pages of which one shows at a time (`GtkStack`), switched with a crossfade when the desktop
/// has animations on (GTK leaves them out otherwise).
@MainActor
public final class Stack: Widget {
    /// An empty stack.
    public init() {
        super.init(constructed: gtk_stack_new())
        gtk_stack_set_transition_type(stack, GTK_STACK_TRANSITION_TYPE_CROSSFADE)
    }

    /// Adds a page; the stack holds it from now on.
    ///
    /// - Parameters:
    ///   - page: The page.
    ///   - name: Its name, for ``visiblePage``.
    public func add(_ page: Widget, name: String) {
        gtk_stack_add_named(stack, page.widget, name)
        pages.append((name, page))
        hideFromScreenReaders()
    }

    /// The name of the page shown; setting it shows another. Screen readers see that page alone:
    /// GTK 4.8 would report every page as visible.
    public var visiblePage: String {
        get { gtk_stack_get_visible_child_name(stack).map { String(cString: $0) } ?? "" }
        set {
            gtk_stack_set_visible_child_name(stack, newValue)
            hideFromScreenReaders()
        }
    }

    private var pages: [(name: String, widget: Widget)] = []

    private func hideFromScreenReaders() {
        let shown = visiblePage
        for page in pages { hooray_gtk_set_accessible_hidden(page.widget.widget, page.name == shown ? 0 : 1) }
    }

    private var stack: OpaquePointer { OpaquePointer(object) }
}

/// A window's title bar with its buttons (`AdwHeaderBar`).
@MainActor
public final class HeaderBar: Widget {
    /// A header bar showing the window's title.
    public init() {
        super.init(constructed: adw_header_bar_new())
    }

    /// Puts `child` at the start (left in left-to-right languages), such as a back button.
    public func packStart(_ child: Widget) {
        adw_header_bar_pack_start(bar, child.widget)
    }

    /// Puts `child` at the end, such as a menu button.
    public func packEnd(_ child: Widget) {
        adw_header_bar_pack_end(bar, child.widget)
    }

    /// What the middle shows instead of the window's title, such as a view switcher.
    public var titleWidget: Widget? {
        didSet { adw_header_bar_set_title_widget(bar, titleWidget?.widget) }
    }

    private var bar: OpaquePointer { OpaquePointer(object) }
}

/// A page that says what state something is in, with an icon, a title, a description and a
/// widget below, such as a button that puts it right (`AdwStatusPage`).
@MainActor
public final class StatusPage: Widget {
    /// A status page.
    ///
    /// - Parameters:
    ///   - title: What the state is, in a few words.
    ///   - description: More, such as what to do.
    ///   - iconName: An icon of the theme, such as `"dialog-warning-symbolic"`.
    public init(title: String, description: String = "", iconName: String? = nil) {
        super.init(constructed: adw_status_page_new())
        self.title = title
        self.details = description
        if let iconName { adw_status_page_set_icon_name(page, iconName) }
    }

    /// The title.
    public var title: String {
        get { adw_status_page_get_title(page).map { String(cString: $0) } ?? "" }
        set { adw_status_page_set_title(page, newValue) }
    }

    /// The description below the title.
    public var details: String {
        get { adw_status_page_get_description(page).map { String(cString: $0) } ?? "" }
        set { adw_status_page_set_description(page, newValue) }
    }

    /// The widget below the description.
    public var child: Widget? {
        didSet { adw_status_page_set_child(page, child?.widget) }
    }

    private var page: OpaquePointer { OpaquePointer(object) }
}

/// A short message over the window's content that goes by itself (`AdwToast`).
@MainActor
public final class Toast: GObjectReference {
    /// A toast saying `title`, word for word: libadwaita 1.2 reads a toast's title as Pango markup,
    /// so `&`, `<` and `>` (a path, an error from elsewhere) are escaped first.
    ///
    /// - Parameters:
    ///   - title: The message.
    ///   - timeout: Seconds it stays; 0 keeps it until dismissed.
    public init(_ title: String, timeout: Int = 5) {
        let escaped = g_markup_escape_text(title, -1)
        defer { g_free(escaped) }
        super.init(owning: UnsafeMutableRawPointer(adw_toast_new(escaped)!))
        adw_toast_set_timeout(toast, UInt32(timeout))
    }

    /// The message, as markup (``init(_:timeout:)`` escaped it).
    public var title: String { adw_toast_get_title(toast).map { String(cString: $0) } ?? "" }

    /// Adds a button to the toast that runs `action`, such as "Retry".
    ///
    /// - Parameters:
    ///   - label: The button's text.
    ///   - action: What a click does.
    public func setButton(_ label: String, _ action: @escaping @MainActor () -> Void) {
        adw_toast_set_button_label(toast, label)
        connect("button-clicked", action)
    }

    /// Runs `action` once the toast is gone, timed out or dismissed.
    @discardableResult
    public func onDismissed(_ action: @escaping @MainActor () -> Void) -> SignalConnection {
        connect("dismissed", action)
    }

    var toast: OpaquePointer { OpaquePointer(object) }
}

/// Shows toasts over its child (`AdwToastOverlay`).
@MainActor
public final class ToastOverlay: Widget {
    /// An overlay with nothing in it yet.
    public init() {
        super.init(constructed: adw_toast_overlay_new())
    }

    /// What the toasts show over.
    public var child: Widget? {
        didSet { adw_toast_overlay_set_child(overlay, child?.widget) }
    }

    /// Shows `toast` (after the one shown, if any).
    public func show(_ toast: Toast) {
        // The overlay takes a reference of its own ("transfer full"): Swift keeps the one it has.
        g_object_ref(toast.object)
        adw_toast_overlay_add_toast(overlay, toast.toast)
    }

    private var overlay: OpaquePointer { OpaquePointer(object) }
}
