import CGtk

/// A window of settings in pages of groups of rows, with libadwaita's search of its rows
/// (`AdwPreferencesWindow`), over the window it belongs to.
@MainActor
public final class PreferencesWindow: Window {
    /// A settings window titled `title` over `parent`, not shown yet. Closed, it is hidden, to be
    /// shown again as it was.
    public init(parent: Window, title: String) {
        super.init(constructedWindow: adw_preferences_window_new(), title: title)
        let window = UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkWindow.self)
        gtk_window_set_transient_for(
            window, UnsafeMutableRawPointer(parent.object).assumingMemoryBound(to: GtkWindow.self))
        gtk_window_set_hide_on_close(window, 1)
    }

    /// Adds a page after the others.
    public func add(_ page: PreferencesPage) {
        adw_preferences_window_add(
            UnsafeMutableRawPointer(object).assumingMemoryBound(to: AdwPreferencesWindow.self),
            UnsafeMutableRawPointer(page.object).assumingMemoryBound(to: AdwPreferencesPage.self))
    }

    /// Runs `action` each time the window becomes the active one or stops being it, such as when
    /// the user comes back from editing a file.
    @discardableResult
    public func onActiveChanged(_ action: @escaping @MainActor () -> Void) -> SignalConnection {
        connect("notify::is-active", action)
    }

    /// Shows a toast at the window's foot, such as what an action did.
    public func show(_ toast: Toast) {
        // The window takes a reference of its own ("transfer full"): Swift keeps the one it has.
        g_object_ref(toast.object)
        adw_preferences_window_add_toast(
            UnsafeMutableRawPointer(object).assumingMemoryBound(to: AdwPreferencesWindow.self), toast.toast)
    }

    /// Whether the window is the one the user works in now.
    public var isActive: Bool {
        gtk_window_is_active(UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkWindow.self)) != 0
    }
}

/// A page of a ``PreferencesWindow``: groups of rows, one under the other (`AdwPreferencesPage`).
@MainActor
public final class PreferencesPage: Widget {
    /// A page named `title`, with a theme icon for the window's switcher.
    public init(title: String, iconName: String) {
        super.init(constructed: adw_preferences_page_new())
        adw_preferences_page_set_title(page, title)
        adw_preferences_page_set_icon_name(page, iconName)
    }

    /// Adds a group after the others.
    public func add(_ group: PreferencesGroup) {
        adw_preferences_page_add(
            page, UnsafeMutableRawPointer(group.object).assumingMemoryBound(to: AdwPreferencesGroup.self))
    }

    private var page: UnsafeMutablePointer<AdwPreferencesPage> {
        UnsafeMutableRawPointer(object).assumingMemoryBound(to: AdwPreferencesPage.self)
    }
}

/// An on/off switch (`GtkSwitch`), such as a setting's at the end of its row.
@MainActor
public final class Switch: Widget {
    /// A switch named `name` for screen readers.
    public init(name: String) {
        super.init(constructed: gtk_switch_new())
        hooray_gtk_set_accessible_label(widget, name)
    }

    /// Whether it is on; setting it runs ``onToggled(_:)``'s action too.
    public var isOn: Bool {
        get { gtk_switch_get_active(OpaquePointer(object)) != 0 }
        set { gtk_switch_set_active(OpaquePointer(object), newValue ? 1 : 0) }
    }

    /// Runs `action` each time it is turned on or off, by the user or by ``isOn``.
    @discardableResult
    public func onToggled(_ action: @escaping @MainActor () -> Void) -> SignalConnection {
        connect("notify::active", action)
    }
}

/// A row that is a one-line field, its title inside it (`AdwEntryRow`, libadwaita 1.2), with
/// widgets at its end, such as a button that applies what was typed.
@MainActor
public final class EntryRow: Widget {
    /// A field titled `title`; with `isPassword`, what is typed shows as dots (`AdwPasswordEntryRow`),
    /// for a secret such as an API key.
    public init(title: String, isPassword: Bool = false) {
        super.init(constructed: isPassword ? adw_password_entry_row_new() : adw_entry_row_new())
        adw_preferences_row_set_title(
            UnsafeMutableRawPointer(object).assumingMemoryBound(to: AdwPreferencesRow.self), title)
    }

    /// Puts `widget` at the row's end, such as a button.
    public func addSuffix(_ widget: Widget) {
        gtk_widget_set_valign(widget.widget, GTK_ALIGN_CENTER)
        adw_entry_row_add_suffix(row, widget.widget)
    }

    /// What it holds.
    public var text: String {
        get { String(cString: gtk_editable_get_text(OpaquePointer(object))) }
        set { gtk_editable_set_text(OpaquePointer(object), newValue) }
    }

    /// Runs `action` at each change of its text, typed or set.
    @discardableResult
    public func onChanged(_ action: @escaping @MainActor () -> Void) -> SignalConnection {
        connect("changed", action)
    }

    /// Runs `action` when the user presses Enter in it.
    @discardableResult
    public func onActivated(_ action: @escaping @MainActor () -> Void) -> SignalConnection {
        connect("entry-activated", action)
    }

    private var row: UnsafeMutablePointer<AdwEntryRow> {
        UnsafeMutableRawPointer(object).assumingMemoryBound(to: AdwEntryRow.self)
    }
}

/// A row that chooses one of a few texts from a list that drops down (`AdwComboRow`).
@MainActor
public final class ComboRow: Widget {
    /// A row titled `title` offering `choices`, the first chosen.
    public init(title: String, choices: [String]) {
        super.init(constructed: adw_combo_row_new())
        adw_preferences_row_set_title(
            UnsafeMutableRawPointer(object).assumingMemoryBound(to: AdwPreferencesRow.self), title)
        var strings = choices.map { strdup($0) } + [nil]
        defer { for string in strings { free(string) } }
        let model = strings.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                gtk_string_list_new($0)
            }
        }
        adw_combo_row_set_model(row, model)
        g_object_unref(UnsafeMutableRawPointer(model))
    }

    /// The position of the choice made, from 0.
    public var selected: Int {
        get { Int(adw_combo_row_get_selected(row)) }
        set { adw_combo_row_set_selected(row, UInt32(newValue)) }
    }

    /// Runs `action` each time another choice is made, by the user or by ``selected``.
    @discardableResult
    public func onSelected(_ action: @escaping @MainActor () -> Void) -> SignalConnection {
        connect("notify::selected", action)
    }

    private var row: UnsafeMutablePointer<AdwComboRow> {
        UnsafeMutableRawPointer(object).assumingMemoryBound(to: AdwComboRow.self)
    }
}
