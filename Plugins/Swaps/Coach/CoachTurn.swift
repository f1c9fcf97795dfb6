import Foundation
import HoorayCalendar
import HoorayKit

/// One turn of a conversation with the swap coach (`hooray coach`): what the user said and the
/// answer, kept so that the conversation goes on where it was, travels in `hooray export` and goes
/// with `hooray delete-my-data`.
public struct CoachTurn: PluginRecord, Identifiable, Hashable {
    public static let recordKind = "coach"
    public static let recordName = "coach message"

    /// Who answered.
    public enum Voice: String, Sendable, Hashable, Codable {
        /// The AI service of the `[ai]` section.
        case ai
        /// The built-in, offline coach.
        case builtIn = "built-in"
    }

    /// Its id.
    public var id: UUID
    /// The conversation it belongs to: `hooray coach --new` starts another.
    public var conversation: UUID
    /// When the user said it.
    public var at: Date
    /// The user's words, as typed.
    public var said: String
    /// The answer, as far as it came.
    public var answer: String
    /// Who answered.
    public var voice: Voice
    /// What the words suggested.
    public var intent: CoachIntent
    /// Whether the answer ended early: stopped with Ctrl-C, or the service broke off.
    public var stoppedEarly: Bool

    /// Creates a turn.
    public init(
        id: UUID = UUID(), conversation: UUID, at: Date, said: String, answer: String, voice: Voice,
        intent: CoachIntent, stoppedEarly: Bool = false
    ) {
        self.id = id
        self.conversation = conversation
        self.at = at
        self.said = said
        self.answer = answer
        self.voice = voice
        self.intent = intent
        self.stoppedEarly = stoppedEarly
    }

    /// Filed under when it was said.
    public var recordDate: RecordDate { .instant(at) }

    enum CodingKeys: String, CodingKey {
        case id, conversation, at, said, answer, voice, intent, stoppedEarly
    }

    /// Ids in lowercase, as every id Hooray prints (docs/json.md).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id.uuidString.lowercased(), forKey: .id)
        try container.encode(conversation.uuidString.lowercased(), forKey: .conversation)
        try container.encode(at, forKey: .at)
        try container.encode(said, forKey: .said)
        try container.encode(answer, forKey: .answer)
        try container.encode(voice, forKey: .voice)
        try container.encode(intent, forKey: .intent)
        try container.encode(stoppedEarly, forKey: .stoppedEarly)
    }
}

/// What the swap coach knows when it answers: the seed's context and nothing more — the time of
/// day, today's and recent swaps, the streak, the top three swaps, the Night Prep items — and the
/// conversation so far. `hooray swap coach-context --json` gives it.
public struct CoachContext: Codable, Sendable, Hashable {
    /// A swap and how often it was made.
    public struct TopSwap: Codable, Sendable, Hashable {
        /// Its words.
        public var text: String
        /// How many times.
        public var count: Int

        /// Creates one.
        public init(text: String, count: Int) {
            self.text = text
            self.count = count
        }
    }

    /// A swap of an earlier day.
    public struct DaySwap: Codable, Sendable, Hashable {
        /// Its day.
        public var day: LocalDate
        /// Its words.
        public var text: String

        /// Creates one.
        public init(day: LocalDate, text: String) {
            self.day = day
            self.text = text
        }
    }

    /// The user's day.
    public var today: LocalDate
    /// The local time, `HH:MM`.
    public var time: String
    /// `morning`, `afternoon`, `evening` or `night`.
    public var partOfDay: String
    /// Today's swaps, in the order logged.
    public var swapsToday: [String]
    /// Swaps of the last seven days before today, newest first.
    public var recentSwaps: [DaySwap]
    /// The swap streak, in days.
    public var streak: Int
    /// The swaps made most often, most first; at most three.
    public var topSwaps: [TopSwap]
    /// What was prepared last night for today (Morning Focus).
    public var preparedForToday: [String]
    /// What was prepared tonight for tomorrow (Night Prep).
    public var preparedForTomorrow: [String]
    /// The latest conversation's turns, oldest first; at most ``CoachContext/turnsKept``.
    public var turns: [CoachTurn]

    /// How many earlier turns go with a new message: enough to go on, little enough to stay small.
    public static let turnsKept = 10

    /// Creates a context.
    public init(
        today: LocalDate, time: String, partOfDay: String, swapsToday: [String] = [], recentSwaps: [DaySwap] = [],
        streak: Int = 0, topSwaps: [TopSwap] = [], preparedForToday: [String] = [], preparedForTomorrow: [String] = [],
        turns: [CoachTurn] = []
    ) {
        self.today = today
        self.time = time
        self.partOfDay = partOfDay
        self.swapsToday = swapsToday
        self.recentSwaps = recentSwaps
        self.streak = streak
        self.topSwaps = topSwaps
        self.preparedForToday = preparedForToday
        self.preparedForTomorrow = preparedForTomorrow
        self.turns = turns
    }

    /// The user's own swaps to suggest, best first: the top swaps, then what was prepared.
    public var ownSwaps: [String] {
        var seen = Set<String>()
        return (topSwaps.map(\.text) + preparedForToday + preparedForTomorrow + swapsToday).filter {
            seen.insert($0.lowercased()).inserted
        }
    }

    /// `morning` (5:00–11:59), `afternoon` (to 16:59), `evening` (to 21:59) or `night`.
    public static func partOfDay(hour: Int) -> String {
        switch hour {
        case 5..<12: "morning"
        case 12..<17: "afternoon"
        case 17..<22: "evening"
        default: "night"
        }
    }

    /// The context in words, for an AI service's system message: figures and the user's swaps,
    /// nothing else.
    public var promptText: String {
        var lines = ["Right now it is \(partOfDay) (\(time)) on \(today.weekdayName)."]
        lines.append(
            swapsToday.isEmpty
                ? "No swap logged today yet."
                : "Swaps logged today: \(swapsToday.map(Self.quoted).joined(separator: ", ")).")
        if !recentSwaps.isEmpty {
            let days = recentSwaps.map { "\($0.day.weekdayName): \(Self.quoted($0.text))" }
            lines.append("Swaps in the last week: \(days.joined(separator: "; ")).")
        }
        lines.append(
            streak > 0 ? "Swap streak: \(streak) day\(streak == 1 ? "" : "s") in a row." : "No swap streak running.")
        if !topSwaps.isEmpty {
            let top = topSwaps.map { "\(Self.quoted($0.text)) (\($0.count)×)" }
            lines.append("Swaps that worked most often for them: \(top.joined(separator: ", ")).")
        }
        if !preparedForToday.isEmpty {
            lines.append("Prepared last night for today: \(preparedForToday.map(Self.quoted).joined(separator: ", ")).")
        }
        if !preparedForTomorrow.isEmpty {
            lines.append(
                "Prepared tonight for tomorrow: \(preparedForTomorrow.map(Self.quoted).joined(separator: ", ")).")
        }
        return lines.joined(separator: "\n")
    }

    private static func quoted(_ text: String) -> String { "\u{201C}\(text)\u{201D}" }
}

extension LocalDate {
    /// The weekday's English name, such as `Tuesday`.
    var weekdayName: String {
        ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][weekday.rawValue - 1]
    }
}
