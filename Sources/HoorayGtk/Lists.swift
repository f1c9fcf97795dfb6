import CGtk

/// A titled group of rows, drawn as one card, such as a day of moments (`AdwPreferencesGroup`).
@MainActor
public final class PreferencesGroup: Widget {
    /// An empty group headed `title`, shown as it is: libadwaita reads a group's title and
    /// description as markup, so `&`, `<` and `>` are escaped (a plugin's card, a user's words).
    public init(title: String) {
        self.title = title
        super.init(constructed: adw_preferences_group_new())
        adw_preferences_group_set_title(group, Self.escaped(title))
    }

    private static func escaped(_ text: String) -> String {
        guard let escaped = g_markup_escape_text(text, -1) else { return "" }
        defer { g_free(escaped) }
        return String(cString: escaped)
    }

    /// The heading, as it was given.
    public let title: String

    /// The line under the heading that says what the group is for.
    public var details: String = "" {
        didSet { adw_preferences_group_set_description(group, Self.escaped(details)) }
    }

    /// Adds a row after the others; the group holds it from now on. A widget that is not a row,
    /// such as a label, goes under the rows.
    public func add(_ row: Widget) {
        adw_preferences_group_add(group, row.widget)
    }

    /// Takes a row out of the group, which lets go of it.
    public func remove(_ row: Widget) {
        adw_preferences_group_remove(group, row.widget)
    }

    private var group: UnsafeMutablePointer<AdwPreferencesGroup> {
        UnsafeMutableRawPointer(object).assumingMemoryBound(to: AdwPreferencesGroup.self)
    }
}

/// A row of a list with a title, a line below it and widgets at its end (`AdwActionRow`). Its
/// texts are shown as they are: what a user typed is never read as markup.
@MainActor
public final class ActionRow: Widget {
    /// A row showing `title` and `subtitle`.
    public init(title: String, subtitle: String = "") {
        super.init(constructed: adw_action_row_new())
        adw_preferences_row_set_use_markup(row, 0)
        self.title = title
        self.subtitle = subtitle
    }

    /// The title, on the first line.
    public var title: String {
        get { adw_preferences_row_get_title(row).map { String(cString: $0) } ?? "" }
        set { adw_preferences_row_set_title(row, newValue) }
    }

    /// The line below the title.
    public var subtitle: String {
        get { adw_action_row_get_subtitle(actionRow).map { String(cString: $0) } ?? "" }
        set { adw_action_row_set_subtitle(actionRow, newValue) }
    }

    /// Puts `widget` at the row's end, after the ones put there before, such as a button.
    public func addSuffix(_ widget: Widget) {
        gtk_widget_set_valign(widget.widget, GTK_ALIGN_CENTER)
        adw_action_row_add_suffix(actionRow, widget.widget)
    }

    private var row: UnsafeMutablePointer<AdwPreferencesRow> {
        UnsafeMutableRawPointer(object).assumingMemoryBound(to: AdwPreferencesRow.self)
    }
    private var actionRow: UnsafeMutablePointer<AdwActionRow> {
        UnsafeMutableRawPointer(object).assumingMemoryBound(to: AdwActionRow.self)
    }
}

/// A button that stays pressed or not, such as a favourite's star (`GtkToggleButton`).
@MainActor
public final class ToggleButton: Widget {
    /// A toggle showing an icon of the theme, named `name` for screen readers and as its tooltip.
    public init(iconName: String, name: String) {
        super.init(constructed: gtk_toggle_button_new())
        gtk_button_set_icon_name(
            UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkButton.self), iconName)
        hooray_gtk_set_accessible_label(widget, name)
        gtk_widget_set_tooltip_text(widget, name)
    }

    /// A toggle showing a short text, such as a weekday's "Mo", named `name` for screen readers and
    /// as its tooltip.
    public init(label: String, name: String) {
        super.init(constructed: gtk_toggle_button_new())
        // The text as a child of its own: a button's own label would name it ("labelled by"), which
        // GTK prefers to `name`.
        gtk_button_set_child(
            UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkButton.self), gtk_label_new(label))
        hooray_gtk_set_accessible_label(widget, name)
        gtk_widget_set_tooltip_text(widget, name)
    }

    /// Whether it is pressed; setting it runs ``onToggled(_:)``'s action too.
    public var isActive: Bool {
        get { gtk_toggle_button_get_active(toggle) != 0 }
        set { gtk_toggle_button_set_active(toggle, newValue ? 1 : 0) }
    }

    /// Makes it one of a group of which one at most is pressed, as radio buttons are: pressing it lets
    /// go of the one pressed before.
    public func join(_ other: ToggleButton) {
        gtk_toggle_button_set_group(toggle, other.toggle)
    }

    /// The icon shown, such as `"starred-symbolic"`.
    public func setIcon(_ iconName: String) {
        gtk_button_set_icon_name(UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkButton.self), iconName)
    }

    /// Runs `action` each time it is pressed or let go, by the user or by ``isActive``.
    @discardableResult
    public func onToggled(_ action: @escaping @MainActor () -> Void) -> SignalConnection {
        connect("toggled", action)
    }

    private var toggle: UnsafeMutablePointer<GtkToggleButton> {
        UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkToggleButton.self)
    }
}
