import CGtk
import Glibc

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

    /// Marks what the widget holds as something to fix, described by `problem` (the line under it that
    /// says why): a screen reader says it is invalid and reads the line. `nil` takes both back.
    public func markInvalid(describedBy problem: Widget?) {
        hooray_gtk_set_invalid(widget, problem?.widget)
    }

    /// Adds a style class, such as libadwaita's `"title-1"`, `"suggested-action"` or `"pill"`.
    public func addCSSClass(_ name: String) {
        gtk_widget_add_css_class(widget, name)
    }

    /// Removes a style class.
    public func removeCSSClass(_ name: String) {
        gtk_widget_remove_css_class(widget, name)
    }

    /// Whether the widget is shown (when its parent is).
    public var isVisible: Bool {
        get { gtk_widget_get_visible(widget) != 0 }
        set { gtk_widget_set_visible(widget, newValue ? 1 : 0) }
    }

    /// Whether the widget takes input; a button that is not greys out.
    public var isSensitive: Bool {
        get { gtk_widget_get_sensitive(widget) != 0 }
        set { gtk_widget_set_sensitive(widget, newValue ? 1 : 0) }
    }

    /// Whether the widget takes the room its parent has to spare, across and down.
    public func expand(horizontally: Bool = false, vertically: Bool = false) {
        gtk_widget_set_hexpand(widget, horizontally ? 1 : 0)
        gtk_widget_set_vexpand(widget, vertically ? 1 : 0)
    }

    /// Centres the widget in the room it is given, across and down.
    public func center() {
        gtk_widget_set_halign(widget, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(widget, GTK_ALIGN_CENTER)
    }

    /// Puts the widget at the start of the room it is given across (the left, in a left-to-right
    /// language), as a list's text is.
    public func alignStart() {
        gtk_widget_set_halign(widget, GTK_ALIGN_START)
    }

    /// Room around the widget, in pixels, on every side.
    public func setMargin(_ pixels: Int) {
        gtk_widget_set_margin_top(widget, Int32(pixels))
        gtk_widget_set_margin_bottom(widget, Int32(pixels))
        gtk_widget_set_margin_start(widget, Int32(pixels))
        gtk_widget_set_margin_end(widget, Int32(pixels))
    }

    /// Puts `text` on the desktop's clipboard, as Ctrl+C would: the display's clipboard, which the app
    /// holds until something else is copied.
    public func copyToClipboard(_ text: String) {
        gdk_clipboard_set_text(gtk_widget_get_clipboard(widget), text)
    }

    /// Gives the widget the keyboard focus.
    public func grabFocus() {
        _ = gtk_widget_grab_focus(widget)
    }
}

/// A button (`GtkButton`).
@MainActor
public final class Button: Widget {
    /// A button showing `label`; an underscore marks its mnemonic (`"_Save"`: Alt+S).
    public init(label: String) {
        super.init(constructed: gtk_button_new_with_mnemonic(label))
        nameForScreenReaders(label)
    }

    /// A button showing `text` exactly as it is: no mnemonic, for words that are not the app's own
    /// (a plugin's button label).
    public init(plainLabel text: String) {
        super.init(constructed: gtk_button_new_with_label(text))
    }

    /// A button showing an icon of the theme, such as `"user-trash-symbolic"`, named `name` for
    /// screen readers and shown as its tooltip: an icon alone says nothing to a screen reader.
    public init(iconName: String, name: String) {
        super.init(constructed: gtk_button_new_from_icon_name(iconName))
        setAccessibleLabel(name)
        gtk_widget_set_tooltip_text(widget, name)
    }

    /// A button showing another widget, such as a label that wraps; name it with
    /// ``Widget/setAccessibleLabel(_:)`` when its content does not say what it does.
    public init(child: Widget) {
        super.init(constructed: gtk_button_new())
        gtk_button_set_child(button, child.widget)
    }

    /// The button's text.
    public var label: String {
        get { gtk_button_get_label(button).map { String(cString: $0) } ?? "" }
        set {
            gtk_button_set_label(button, newValue)
            nameForScreenReaders(newValue)
        }
    }

    /// Names the button as its label reads: GTK 4.8 names a button with a mnemonic "_Save Save".
    private func nameForScreenReaders(_ label: String) {
        setAccessibleLabel(Self.withoutMnemonic(label))
        hooray_gtk_reset_labelled_by(widget)
    }

    /// A mnemonic label as read aloud: `"_Save"` is "Save" (`"__"` is one underscore).
    static func withoutMnemonic(_ label: String) -> String {
        var text = ""
        var underscore = false
        for character in label {
            if character == "_" && !underscore {
                underscore = true
                continue
            }
            underscore = false
            text.append(character)
        }
        return text
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

    /// Breaks long text into centred lines, for a phrase or praise.
    public func wrapCentered() {
        gtk_label_set_wrap(label, 1)
        gtk_label_set_justify(label, GTK_JUSTIFY_CENTER)
    }

    /// Breaks long text into lines that start at the left edge (in a left-to-right language), for a
    /// list's or a card's text.
    public func wrapStart() {
        gtk_label_set_wrap(label, 1)
        gtk_label_set_xalign(label, 0)
        gtk_widget_set_halign(widget, GTK_ALIGN_FILL)
    }

    private var label: OpaquePointer { OpaquePointer(object) }
}

/// A top-level window (`GtkWindow`).
///
/// GTK keeps a window until ``destroy()`` (or a close that is not stopped); Swift keeps it while
/// it holds this. Both must let go for it to be freed.
@MainActor
open class Window: Widget {
    /// A new window, not shown yet.
    public convenience init(title: String = "") {
        self.init(constructedWindow: gtk_window_new(), title: title)
    }

    /// Holds a window a GTK constructor returned, such as `adw_application_window_new`.
    init(constructedWindow pointer: UnsafeMutableRawPointer, title: String) {
        super.init(constructed: pointer)
        self.title = title
    }

    /// The size the window opens with, in pixels.
    public func setDefaultSize(width: Int, height: Int) {
        gtk_window_set_default_size(window, Int32(width), Int32(height))
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

    /// Runs `decide` when the window is asked to close; `true` keeps it open.
    @discardableResult
    public func onCloseRequest(_ decide: @escaping @MainActor () -> Bool) -> SignalConnection {
        connectAnswering("close-request", decide)
    }

    private var window: UnsafeMutablePointer<GtkWindow> {
        UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkWindow.self)
    }
}

/// A one-line text field (`GtkEntry`).
@MainActor
public final class Entry: Widget {
    /// An empty field showing `placeholder` until something is typed.
    public init(placeholder: String = "") {
        super.init(constructed: gtk_entry_new())
        gtk_entry_set_placeholder_text(entry, placeholder)
    }

    /// What the field holds.
    public var text: String {
        get { String(cString: gtk_editable_get_text(editable)) }
        set { gtk_editable_set_text(editable, newValue) }
    }

    /// The most characters it takes (0: no limit); typing stops there, and nothing is cut silently.
    public var maximumLength: Int {
        get { Int(gtk_entry_get_max_length(entry)) }
        set { gtk_entry_set_max_length(entry, Int32(newValue)) }
    }

    /// Whether Enter in the field gives its window's or dialog's default answer, such as Save.
    public var activatesDefault: Bool {
        get { gtk_entry_get_activates_default(entry) != 0 }
        set { gtk_entry_set_activates_default(entry, newValue ? 1 : 0) }
    }

    /// Runs `action` when Enter is pressed in the field.
    @discardableResult
    public func onActivate(_ action: @escaping @MainActor () -> Void) -> SignalConnection {
        connect("activate", action)
    }

    /// Runs `action` each time the text changes, typed or set.
    @discardableResult
    public func onChanged(_ action: @escaping @MainActor () -> Void) -> SignalConnection {
        connect("changed", action)
    }

    private var entry: UnsafeMutablePointer<GtkEntry> {
        UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkEntry.self)
    }

    private var editable: OpaquePointer { OpaquePointer(object) }
}

/// A choice of one among a few texts, shown as a button that opens the list (`GtkDropDown`).
@MainActor
public final class DropDown: Widget {
    /// A drop-down offering `choices`, the first chosen.
    public init(choices: [String]) {
        var strings = choices.map { strdup($0) } + [nil]
        defer { for string in strings { free(string) } }
        let pointer = strings.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                gtk_drop_down_new_from_strings($0)
            }
        }
        super.init(constructed: pointer!)
    }

    /// The position of the choice made, from 0.
    public var selected: Int {
        get { Int(gtk_drop_down_get_selected(dropDown)) }
        set { gtk_drop_down_set_selected(dropDown, UInt32(newValue)) }
    }

    /// Names the drop-down for screen readers, and the button inside it that opens the list: GTK 4.8
    /// names that one by its type ("GtkToggleButton"), and it is what a screen reader reaches first.
    public override func setAccessibleLabel(_ label: String) {
        super.setAccessibleLabel(label)
        var child = gtk_widget_get_first_child(widget)
        while let inner = child {
            let instance = UnsafeMutableRawPointer(inner).assumingMemoryBound(to: GTypeInstance.self)
            if g_type_check_instance_is_a(instance, gtk_toggle_button_get_type()) != 0 {
                hooray_gtk_set_accessible_label(inner, label)
            }
            child = gtk_widget_get_next_sibling(inner)
        }
    }

    /// Runs `action` each time another choice is made.
    @discardableResult
    public func onSelected(_ action: @escaping @MainActor () -> Void) -> SignalConnection {
        connect("notify::selected", action)
    }

    private var dropDown: OpaquePointer { OpaquePointer(object) }
}
