import CGtk

/// A question over a window with a few answers, such as "Delete this moment?" with Cancel and
/// Delete (`AdwMessageDialog`, libadwaita 1.2's alert). It closes itself once answered.
///
/// The dialog lives while GTK shows it; keep this object while waiting for the answer, and let
/// the ``onResponse(_:)`` action not hold it strongly.
@MainActor
public final class MessageDialog: Window {
    /// How an answer's button looks.
    public enum Appearance: Sendable {
        /// A plain button.
        case plain
        /// The answer the dialog suggests (blue).
        case suggested
        /// An answer that destroys something (red).
        case destructive
    }

    /// A dialog over `parent`, not shown yet. Its texts are shown as they are, never as markup.
    ///
    /// - Parameters:
    ///   - parent: The window it belongs to, kept usable behind it until it is answered.
    ///   - heading: The question, such as "Delete this moment?".
    ///   - body: What answering does.
    public init(parent: Window, heading: String, body: String) {
        let parentWindow = UnsafeMutableRawPointer(parent.object).assumingMemoryBound(to: GtkWindow.self)
        super.init(constructedWindow: adw_message_dialog_new(parentWindow, heading, body), title: "")
    }

    /// The question.
    public var heading: String {
        adw_message_dialog_get_heading(dialog).map { String(cString: $0) } ?? ""
    }

    /// What answering does.
    public var body: String {
        adw_message_dialog_get_body(dialog).map { String(cString: $0) } ?? ""
    }

    /// Adds an answer, a button after the others.
    ///
    /// - Parameters:
    ///   - id: What ``onResponse(_:)`` is told, such as `"delete"`.
    ///   - label: The button's text, such as "Delete".
    ///   - appearance: How the button looks.
    public func addResponse(_ id: String, label: String, appearance: Appearance = .plain) {
        adw_message_dialog_add_response(dialog, id, label)
        switch appearance {
        case .plain: break
        case .suggested: adw_message_dialog_set_response_appearance(dialog, id, ADW_RESPONSE_SUGGESTED)
        case .destructive: adw_message_dialog_set_response_appearance(dialog, id, ADW_RESPONSE_DESTRUCTIVE)
        }
        nameButtonsForScreenReaders(widget)
    }

    /// Names the answers' buttons as they read: GTK 4.8 names a button with a mnemonic label
    /// "Delete Delete" (see ``Button``), and libadwaita 1.2 makes every answer's label one.
    private func nameButtonsForScreenReaders(_ parent: UnsafeMutablePointer<GtkWidget>) {
        var child = gtk_widget_get_first_child(parent)
        while let widget = child {
            if g_type_check_instance_is_a(
                UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self), gtk_button_get_type())
                != 0,
                let label = gtk_button_get_label(
                    UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkButton.self))
            {
                hooray_gtk_set_accessible_label(widget, Button.withoutMnemonic(String(cString: label)))
                hooray_gtk_reset_labelled_by(widget)
            }
            nameButtonsForScreenReaders(widget)
            child = gtk_widget_get_next_sibling(widget)
        }
    }

    /// Greys an answer's button out, or lets it be clicked again: an answer that cannot be given
    /// yet, such as Done while a field holds an impossible value.
    public func setResponseEnabled(_ id: String, _ enabled: Bool) {
        adw_message_dialog_set_response_enabled(dialog, id, enabled ? 1 : 0)
    }

    /// The answer Enter gives (a safe one when another destroys something).
    public var defaultResponse: String? {
        get { adw_message_dialog_get_default_response(dialog).map { String(cString: $0) } }
        set { adw_message_dialog_set_default_response(dialog, newValue) }
    }

    /// The answer Escape and closing the dialog give.
    public var closeResponse: String {
        get { adw_message_dialog_get_close_response(dialog).map { String(cString: $0) } ?? "close" }
        set { adw_message_dialog_set_close_response(dialog, newValue) }
    }

    /// A widget below the body, such as a field to type in.
    public var extraChild: Widget? {
        didSet { adw_message_dialog_set_extra_child(dialog, extraChild?.widget) }
    }

    /// Answers the dialog as a click on the answer's button would: tells the answer, and closes it
    /// (libadwaita 1.2's `adw_message_dialog_response` only tells it).
    public func respond(_ id: String) {
        adw_message_dialog_response(dialog, id)
        // Not close(): that asks again, answered with the close response.
        destroy()
    }

    /// Runs `action` with the id of the answer given, once, as the dialog closes.
    @discardableResult
    public func onResponse(_ action: @escaping @MainActor (String) -> Void) -> SignalConnection {
        connectWithText("response", action)
    }

    private var dialog: UnsafeMutablePointer<AdwMessageDialog> {
        UnsafeMutableRawPointer(object).assumingMemoryBound(to: AdwMessageDialog.self)
    }
}
