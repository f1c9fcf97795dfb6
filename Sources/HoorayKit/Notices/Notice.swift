import Foundation

/// Something to show the user as a desktop notification.
///
/// Titles and bodies are plain text. The engine escapes them for servers that read markup,
/// so text from users or from an AI is never interpreted as markup.
public struct Notice: Sendable, Hashable, Codable {
    /// How insistently the notification server presents the notice.
    public enum Urgency: String, Sendable, Hashable, Codable, CaseIterable {
        /// Background information; servers may show it without sound or not at all.
        case low
        /// The default.
        case normal
        /// Servers keep critical notices on screen until dismissed. Quiet hours do not hold them back.
        case critical
    }

    /// How long the notification stays on screen.
    public enum Timeout: Sendable, Hashable, Codable {
        /// The notification server decides.
        case serverDefault
        /// It stays until the user dismisses it.
        case never
        /// It closes after a number of milliseconds.
        case milliseconds(Int)
    }

    /// Whether the notification plays a sound.
    ///
    /// Servers that play sounds at all honour the `suppress-sound` and `sound-name` hints of the
    /// Desktop Notifications Specification; others ignore them.
    public enum Sound: Sendable, Hashable, Codable {
        /// The notification server decides, as for any other notification.
        case serverDefault
        /// No sound, even where the server would play one (the `suppress-sound` hint).
        case silent
        /// A sound from the freedesktop.org sound theme, such as `complete` or `bell`
        /// (the `sound-name` hint).
        case named(String)
    }

    /// The title, one short line.
    public var title: String
    /// The body text, plain text, may span lines.
    public var body: String
    /// How insistent the notice is.
    public var urgency: Urgency
    /// Buttons, in order. Shown only where the server supports actions; always reachable with
    /// `hooray inbox` and `hooray act`.
    public var actions: [NoticeAction]
    /// A dotted category such as `reminder` or `celebration.milestone`, for servers that sort by it.
    public var category: String?
    /// How long the notification stays on screen.
    public var timeout: Timeout
    /// Whether it plays a sound; the server decides by default.
    public var sound: Sound
    /// The plugin's own data about what the notice is about, such as which rejection a follow-up
    /// belongs to. It is never shown; ``InvokedAction/payload`` hands it back when a button is pressed.
    public var payload: JSONValue?
    /// Where a click on the notification opens the desktop app, such as the moment it is about;
    /// `nil` for a notification a click only closes.
    public var opens: AppPlace?

    /// Creates a notice.
    ///
    /// - Parameters:
    ///   - title: The title, one short line.
    ///   - body: The body text; plain text.
    ///   - urgency: How insistent the notice is; `.normal` by default.
    ///   - actions: Buttons, in order.
    ///   - category: A dotted category such as `reminder`.
    ///   - timeout: How long it stays on screen; the server decides by default.
    ///   - sound: Whether it plays a sound; the server decides by default.
    ///   - payload: The plugin's own data, handed back with a pressed button.
    ///   - opens: Where a click on the notification opens the desktop app.
    public init(
        title: String,
        body: String = "",
        urgency: Urgency = .normal,
        actions: [NoticeAction] = [],
        category: String? = nil,
        timeout: Timeout = .serverDefault,
        sound: Sound = .serverDefault,
        payload: JSONValue? = nil,
        opens: AppPlace? = nil
    ) {
        self.payload = payload
        self.opens = opens
        self.title = title
        self.body = body
        self.urgency = urgency
        self.actions = actions
        self.category = category
        self.timeout = timeout
        self.sound = sound
    }

    private enum CodingKeys: String, CodingKey {
        case title, body, urgency, actions, category, timeout, sound, payload, opens
    }

    /// Decodes a notice; one stored before notices had a ``sound`` gets ``Sound/serverDefault``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        body = try container.decode(String.self, forKey: .body)
        urgency = try container.decode(Urgency.self, forKey: .urgency)
        actions = try container.decode([NoticeAction].self, forKey: .actions)
        category = try container.decodeIfPresent(String.self, forKey: .category)
        timeout = try container.decode(Timeout.self, forKey: .timeout)
        sound = try container.decodeIfPresent(Sound.self, forKey: .sound) ?? .serverDefault
        payload = try container.decodeIfPresent(JSONValue.self, forKey: .payload)
        opens = try container.decodeIfPresent(AppPlace.self, forKey: .opens)
    }
}

/// A button on a notice.
public struct NoticeAction: Sendable, Hashable, Codable {
    /// A stable key the plugin receives when the button is pressed, such as `done` or `snooze`.
    ///
    /// The key `default` is the action servers invoke when the notification itself is clicked.
    public var id: String
    /// The label shown on the button, such as `Snooze 1 h`.
    public var label: String
    /// A question the button asks before it is pressed, such as `What was your swap?`, or `nil`.
    ///
    /// `hooray act` asks it when it runs on a terminal (one line; Enter gives no answer; Ctrl-D
    /// on the empty line presses nothing) and hands the answer to the plugin in ``InvokedAction/answer``; a script
    /// gives the answer with `hooray act ID ACTION --answer TEXT`. A press on the notification
    /// itself has no terminal: nothing is asked, and ``InvokedAction/answer`` is `nil`. So the
    /// button must do something sensible without an answer, and the notice should say what that is.
    ///
    /// Optional in the stored form: a button stored before buttons could ask decodes with `nil`, and
    /// one without a question is encoded without the member, exactly as before.
    public var prompt: String?
    /// Whether the button is only for its answer (``prompt``), such as "What went well today?".
    ///
    /// Where the notification server takes a typed reply (KDE Plasma, swaync), the notice's first
    /// answer-only button is shown as the reply field. Where it takes none, an answer-only button opens the desktop app at the notice's place (``Notice/opens``)
    /// for the answer to be typed there, rather than being pressed without one; the plugin never
    /// sees it pressed without an answer from a notification.
    public var answerOnly: Bool

    /// Creates a button.
    ///
    /// - Parameters:
    ///   - id: The key the plugin receives when the button is pressed.
    ///   - label: The label shown on the button.
    ///   - prompt: A question `hooray act` asks on a terminal before pressing it (``prompt``).
    ///   - answerOnly: Whether the button is only for its answer (``answerOnly``).
    public init(id: String, label: String, prompt: String? = nil, answerOnly: Bool = false) {
        self.id = id
        self.label = label
        self.prompt = prompt
        self.answerOnly = answerOnly
    }

    private enum CodingKeys: String, CodingKey {
        case id, label, prompt
        case answerOnly = "answer_only"
    }

    /// Decodes a button; one stored before buttons could be answer-only is not.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        label = try container.decode(String.self, forKey: .label)
        prompt = try container.decodeIfPresent(String.self, forKey: .prompt)
        answerOnly = try container.decodeIfPresent(Bool.self, forKey: .answerOnly) ?? false
    }

    /// Encodes a button as before answer-only buttons, with `answer_only` only when it is one.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(label, forKey: .label)
        try container.encodeIfPresent(prompt, forKey: .prompt)
        if answerOnly { try container.encode(true, forKey: .answerOnly) }
    }
}

/// The engine's identifier of a posted notice, stable across restarts.
public struct NoticeID: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The raw value, as shown by `hooray inbox`.
    public let rawValue: Int64

    /// Wraps a raw value.
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// The raw value as text, such as `42`.
    public var description: String { String(rawValue) }

    /// Orders ids by their raw value: a notice posted later has a larger id.
    public static func < (lhs: NoticeID, rhs: NoticeID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A button the user pressed, on a notification or with `hooray act`.
public struct InvokedAction: Sendable, Hashable, Codable {
    /// The notice the button belongs to.
    public var notice: NoticeID
    /// The button's ``NoticeAction/id``.
    public var actionID: String
    /// The reminder that produced the notice, if a reminder did.
    public var reminderID: String?
    /// The instant the reminder's occurrence was due, when a reminder produced the notice: which of
    /// its occurrences the button belongs to. On a snoozed notice that came back, still the
    /// occurrence that was snoozed.
    public var dueAt: Date?
    /// The data the plugin attached to the notice (``Notice/payload``) or to the reminder that
    /// produced it (``Reminder/payload``).
    public var payload: JSONValue?
    /// The user's answer to the button's question (``NoticeAction/prompt``), as typed: given on a
    /// terminal or with `hooray act ID ACTION --answer TEXT`. `nil` when the user gave none — they
    /// pressed Enter, ran `hooray act` without a terminal, or pressed the button on the notification
    /// itself, where nothing can be asked. The engine hands over only an answer without control
    /// characters (no line breaks, no escape sequences) of at most 1000 characters; check it as the
    /// plugin checks the same text typed in a command: it may be empty, blank or long.
    ///
    /// Optional in the stored form: one stored without the member decodes with `nil`.
    public var answer: String?

    /// Creates an invoked action.
    ///
    /// - Parameters:
    ///   - notice: The notice the button belongs to.
    ///   - actionID: The button's id.
    ///   - reminderID: The reminder that produced the notice, if any.
    ///   - dueAt: The due instant of that reminder's occurrence, if any.
    ///   - payload: The plugin's own data attached to the notice or reminder.
    ///   - answer: The user's answer to the button's question, if any.
    public init(
        notice: NoticeID, actionID: String, reminderID: String? = nil, dueAt: Date? = nil, payload: JSONValue? = nil,
        answer: String? = nil
    ) {
        self.notice = notice
        self.actionID = actionID
        self.reminderID = reminderID
        self.dueAt = dueAt
        self.payload = payload
        self.answer = answer
    }
}
