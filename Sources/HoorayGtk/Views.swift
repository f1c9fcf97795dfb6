import CGtk

/// The window's top-level views, one shown at a time, each with a title and an icon for a view
/// switcher (`AdwViewStack`). Screen readers see the view shown alone: GTK 4.8 would report every
/// view as visible.
@MainActor
public final class ViewStack: Widget {
    /// An empty stack of views.
    public init() {
        super.init(constructed: adw_view_stack_new())
        // Weakly: the stack may outlive this object in its container, and notify as it goes.
        connect("notify::visible-child") { [weak self] in self?.hideFromScreenReaders() }
    }

    /// Adds a view; the stack holds it from now on.
    ///
    /// - Parameters:
    ///   - view: The view.
    ///   - name: Its name, for ``visibleView``.
    ///   - title: What a view switcher calls it, such as "Moments".
    ///   - iconName: Its icon in a view switcher, such as `"view-list-symbolic"`.
    public func add(_ view: Widget, name: String, title: String, iconName: String) {
        let page = adw_view_stack_add_titled(stack, view.widget, name, title)
        adw_view_stack_page_set_icon_name(page, iconName)
        views.append((name, view))
        hideFromScreenReaders()
    }

    /// The name of the view shown; setting it shows another.
    public var visibleView: String {
        get { adw_view_stack_get_visible_child_name(stack).map { String(cString: $0) } ?? "" }
        set { adw_view_stack_set_visible_child_name(stack, newValue) }
    }

    /// Runs `action` each time another view shows, switched from the code or by the user.
    @discardableResult
    public func onViewChanged(_ action: @escaping @MainActor () -> Void) -> SignalConnection {
        connect("notify::visible-child", action)
    }

    private var views: [(name: String, widget: Widget)] = []

    private func hideFromScreenReaders() {
        let shown = visibleView
        for view in views { hooray_gtk_set_accessible_hidden(view.widget.widget, view.name == shown ? 0 : 1) }
    }

    var stack: OpaquePointer { OpaquePointer(object) }
}

/// A header bar's title that turns into a view switcher where the window is wide enough
/// (`AdwViewSwitcherTitle`); pair it with a ``ViewSwitcherBar`` for narrow windows.
@MainActor
public final class ViewSwitcherTitle: Widget {
    /// A title switching the views of `stack`.
    public init(stack: ViewStack, title: String) {
        super.init(constructed: adw_view_switcher_title_new())
        adw_view_switcher_title_set_stack(switcher, stack.stack)
        adw_view_switcher_title_set_title(switcher, title)
        // libadwaita 1.2 keeps the switcher it squeezed out in the accessibility tree, where a screen
        // reader would find a second row of tabs, wider than the window: hidden from it while so.
        for property in ["notify::title-visible", "notify::view-switcher-enabled"] {
            connect(property) { [weak self] in self?.hideSqueezedSwitcher() }
        }
    }

    /// Hides the inner switcher from screen readers while the title shows in its place.
    private func hideSqueezedSwitcher() {
        let hidden: gboolean = isTitleVisible || !isSwitcherEnabled ? 1 : 0
        var pending = [widget]
        while let next = pending.popLast() {
            let instance = UnsafeMutableRawPointer(next).assumingMemoryBound(to: GTypeInstance.self)
            if g_type_check_instance_is_a(instance, adw_view_switcher_get_type()) != 0 {
                hooray_gtk_set_accessible_hidden(next, hidden)
                continue
            }
            var child = gtk_widget_get_first_child(next)
            while let found = child {
                pending.append(found)
                child = gtk_widget_get_next_sibling(found)
            }
        }
    }

    /// Whether it offers the switcher; off, it shows the title alone (on a page that is no view).
    public var isSwitcherEnabled: Bool {
        get { adw_view_switcher_title_get_view_switcher_enabled(switcher) != 0 }
        set { adw_view_switcher_title_set_view_switcher_enabled(switcher, newValue ? 1 : 0) }
    }

    /// Whether it shows the title, the switcher not fitting: a ``ViewSwitcherBar`` should show then.
    public var isTitleVisible: Bool { adw_view_switcher_title_get_title_visible(switcher) != 0 }

    /// Runs `action` each time ``isTitleVisible`` changes.
    @discardableResult
    public func onTitleVisibleChanged(_ action: @escaping @MainActor () -> Void) -> SignalConnection {
        connect("notify::title-visible", action)
    }

    private var switcher: OpaquePointer { OpaquePointer(object) }
}

/// A view switcher at the bottom of a narrow window (`AdwViewSwitcherBar`).
@MainActor
public final class ViewSwitcherBar: Widget {
    /// A bar switching the views of `stack`, hidden until ``isRevealed``.
    public init(stack: ViewStack) {
        super.init(constructed: adw_view_switcher_bar_new())
        adw_view_switcher_bar_set_stack(bar, stack.stack)
    }

    /// Whether the bar shows.
    public var isRevealed: Bool {
        get { adw_view_switcher_bar_get_reveal(bar) != 0 }
        set { adw_view_switcher_bar_set_reveal(bar, newValue ? 1 : 0) }
    }

    private var bar: OpaquePointer { OpaquePointer(object) }
}

/// Scrolls its child when it is taller than the room it has (`GtkScrolledWindow`).
@MainActor
public final class ScrolledWindow: Widget {
    /// An empty scrolled window, scrolling down only.
    public init() {
        super.init(constructed: gtk_scrolled_window_new())
        gtk_scrolled_window_set_policy(scrolled, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
    }

    /// What scrolls.
    public var child: Widget? {
        didSet { gtk_scrolled_window_set_child(scrolled, child?.widget) }
    }

    /// The least height it takes, in pixels, however short its child: room for a few lines of a note.
    public func setMinimumHeight(_ pixels: Int) {
        gtk_scrolled_window_set_min_content_height(scrolled, Int32(pixels))
    }

    private var scrolled: OpaquePointer { OpaquePointer(object) }
}

/// Keeps its child no wider than a size, centred, as lists are in libadwaita (`AdwClamp`).
@MainActor
public final class Clamp: Widget {
    /// A clamp at most `maximumWidth` pixels wide.
    public init(maximumWidth: Int = 600) {
        super.init(constructed: adw_clamp_new())
        adw_clamp_set_maximum_size(clamp, Int32(maximumWidth))
    }

    /// What is clamped.
    public var child: Widget? {
        didSet { adw_clamp_set_child(clamp, child?.widget) }
    }

    private var clamp: OpaquePointer { OpaquePointer(object) }
}
