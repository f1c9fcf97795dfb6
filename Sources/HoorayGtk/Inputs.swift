import CGtk
import Glibc

/// A number field with − and + buttons (`GtkSpinButton`): whole numbers only, typed or stepped.
@MainActor
public final class SpinButton: Widget {
    /// A field taking whole numbers from `minimum` to `maximum`, showing `value`.
    ///
    /// The range is what the field lets through at all; a value within it that is still wrong
    /// (too far back for the unit chosen, say) is for the caller to name.
    public init(minimum: Int, maximum: Int, value: Int) {
        super.init(constructed: gtk_spin_button_new_with_range(Double(minimum), Double(maximum), 1))
        gtk_spin_button_set_numeric(spin, 1)
        gtk_spin_button_set_digits(spin, 0)
        self.value = value
    }

    /// The number shown; what is being typed counts once the field takes it (Enter, or focus leaving).
    public var value: Int {
        get { Int(gtk_spin_button_get_value_as_int(spin)) }
        set { gtk_spin_button_set_value(spin, Double(newValue)) }
    }

    /// What the field shows, typed or not yet taken.
    public var text: String {
        String(cString: gtk_editable_get_text(OpaquePointer(object)))
    }

    /// Runs `action` at each key typed in the field, before the number is taken (``onChanged(_:)``).
    @discardableResult
    public func onTyped(_ action: @escaping @MainActor () -> Void) -> SignalConnection {
        connect("changed", action)
    }

    /// Takes what was typed now, as Enter would: ``value`` then holds it.
    public func update() {
        gtk_spin_button_update(spin)
    }

    /// Runs `action` each time the number changes, stepped or typed.
    @discardableResult
    public func onChanged(_ action: @escaping @MainActor () -> Void) -> SignalConnection {
        connect("value-changed", action)
    }

    private var spin: OpaquePointer { OpaquePointer(object) }
}

/// A field of several lines (`GtkTextView`), for a note.
@MainActor
public final class TextView: Widget {
    /// An empty field whose lines wrap at words.
    public init() {
        super.init(constructed: gtk_text_view_new())
        gtk_text_view_set_wrap_mode(view, GTK_WRAP_WORD_CHAR)
        gtk_text_view_set_accepts_tab(view, 0)
        gtk_text_view_set_left_margin(view, 8)
        gtk_text_view_set_right_margin(view, 8)
        gtk_text_view_set_top_margin(view, 6)
        gtk_text_view_set_bottom_margin(view, 6)
    }

    /// What the field holds.
    public var text: String {
        get {
            var start = GtkTextIter()
            var end = GtkTextIter()
            gtk_text_buffer_get_bounds(buffer, &start, &end)
            guard let characters = gtk_text_buffer_get_text(buffer, &start, &end, 0) else { return "" }
            defer { g_free(characters) }
            return String(cString: characters)
        }
        set { gtk_text_buffer_set_text(buffer, newValue, -1) }
    }

    /// Runs `action` each time the text changes, typed or set, for as long as the view lives. It is
    /// the view's text buffer that holds `action` (so ``GObjectReference/disconnect(_:)`` on the view
    /// does not reach it): let it hold the view's owner weakly.
    public func onChanged(_ action: @escaping @MainActor () -> Void) {
        TextBuffer(retaining: UnsafeMutableRawPointer(buffer)).connect("changed", action)
    }

    private var view: UnsafeMutablePointer<GtkTextView> {
        UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkTextView.self)
    }

    private var buffer: UnsafeMutablePointer<GtkTextBuffer> { gtk_text_view_get_buffer(view)! }
}

/// A text view's buffer, held only to connect to its signals.
private final class TextBuffer: GObjectReference {}

/// A search field (`GtkSearchEntry`): a magnifier, a clear button, and a change told once typing pauses.
@MainActor
public final class SearchEntry: Widget {
    /// An empty field showing `placeholder`.
    public init(placeholder: String) {
        super.init(constructed: gtk_search_entry_new())
        setTextProperty(of: object, "placeholder-text", to: placeholder)
    }

    /// What the field holds.
    public var text: String {
        get { String(cString: gtk_editable_get_text(OpaquePointer(object))) }
        set { gtk_editable_set_text(OpaquePointer(object), newValue) }
    }

    /// Runs `action` when the text changed and typing paused (GTK waits a moment between keys).
    @discardableResult
    public func onSearchChanged(_ action: @escaping @MainActor () -> Void) -> SignalConnection {
        connect("search-changed", action)
    }

    /// Runs `action` when Escape is pressed in the field.
    @discardableResult
    public func onStopSearch(_ action: @escaping @MainActor () -> Void) -> SignalConnection {
        connect("stop-search", action)
    }
}

/// A bar that slides in with a search field (`GtkSearchBar`), shown when ``isSearching`` is set (by
/// Ctrl+F or a search button, say) and hidden by Escape in its field.
@MainActor
public final class SearchBar: Widget {
    private let entry: SearchEntry

    /// A hidden bar holding `entry`, which Escape in it closes (GTK 4.8's close button has no name a
    /// screen reader could say, so there is none).
    public init(entry: SearchEntry) {
        self.entry = entry
        super.init(constructed: gtk_search_bar_new())
        gtk_search_bar_set_child(bar, entry.widget)
        gtk_search_bar_connect_entry(bar, OpaquePointer(entry.object))
    }

    /// Whether the bar shows; showing it gives its field the focus.
    public var isSearching: Bool {
        get { gtk_search_bar_get_search_mode(bar) != 0 }
        set {
            gtk_search_bar_set_search_mode(bar, newValue ? 1 : 0)
            if newValue { entry.grabFocus() }
        }
    }

    /// Runs `action` each time the bar is shown or hidden.
    @discardableResult
    public func onSearchingChanged(_ action: @escaping @MainActor () -> Void) -> SignalConnection {
        connect("notify::search-mode-enabled", action)
    }

    private var bar: OpaquePointer { OpaquePointer(object) }
}

/// Sets a text property of an object (`g_object_set` is variadic, which Swift cannot call).
@MainActor
private func setTextProperty(of object: UnsafeMutablePointer<GObject>, _ name: String, to text: String) {
    var value = GValue()
    g_value_init(&value, g_type_from_name("gchararray"))
    g_value_set_string(&value, text)
    g_object_set_property(object, name, &value)
    g_value_unset(&value)
}

/// A slider for a whole number in a range (`GtkScale`), such as how much something hurt from 1 to 10:
/// dragged, or stepped with the arrow keys. Screen readers know it as a slider with its value.
@MainActor
public final class Scale: Widget {
    /// A slider across, from `minimum` to `maximum` in steps of 1, at `value`, with a mark at each end.
    public init(minimum: Int, maximum: Int, value: Int) {
        super.init(
            constructed: gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, Double(minimum), Double(maximum), 1))
        gtk_scale_set_digits(scale, 0)
        gtk_scale_set_draw_value(scale, 0)
        gtk_range_set_round_digits(range, 0)
        gtk_range_set_increments(range, 1, 1)
        for end in [minimum, maximum] {
            gtk_scale_add_mark(scale, Double(end), GTK_POS_BOTTOM, String(end))
        }
        self.value = value
    }

    /// The whole number it is at.
    public var value: Int {
        get { Int(gtk_range_get_value(range).rounded()) }
        set { gtk_range_set_value(range, Double(newValue)) }
    }

    /// Runs `action` each time the value changes, dragged, stepped or set.
    @discardableResult
    public func onChanged(_ action: @escaping @MainActor () -> Void) -> SignalConnection {
        connect("value-changed", action)
    }

    private var scale: UnsafeMutablePointer<GtkScale> {
        UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkScale.self)
    }

    private var range: UnsafeMutablePointer<GtkRange> {
        UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkRange.self)
    }
}
