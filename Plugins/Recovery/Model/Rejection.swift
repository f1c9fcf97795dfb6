import Foundation
import HoorayCalendar
import HoorayKit
import HoorayText

/// One of a few named choices with an emoji, such as a kind of rejection or a mood: shown as
/// `💔 Dating`, typed as `dating`.
public protocol EmojiChoice: RawRepresentable<String>, CaseIterable {
    /// Its emoji.
    var emoji: String { get }
}

extension EmojiChoice {
    /// The emoji and the capitalised name, such as `💔 Dating` or `😔 Low`.
    public var label: String { "\(emoji) \(rawValue.prefix(1).uppercased() + rawValue.dropFirst())" }

    /// Reads a choice as the user typed it, whatever the case and spaces around it.
    ///
    /// - Parameters:
    ///   - text: What the user typed.
    ///   - option: The option or argument it was given to, for the usage error.
    ///   - refusal: The start of the message when it is no choice: what was wrong.
    /// - Throws: ``PluginCommandError`` (usage) naming the nearest choice and every choice.
    static func parse(_ text: String, option: String, refusal: String) throws -> Self {
        let key = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let choice = Self(rawValue: key) { return choice }
        let names = allCases.map(\.rawValue)
        var message = refusal
        if let near = NameSuggestion.closest(to: key, among: names) {
            message += "; did you mean \(near)? "
        } else {
            message += ". "
        }
        message += "Give one of \(names.joined(separator: ", "))."
        throw PluginCommandError.invalidValue(option, message)
    }
}

/// What kind of rejection it was (seed 002's `RejectionType`).
public enum RejectionType: String, Sendable, Hashable, Codable, CaseIterable, EmojiChoice {
    case dating, job, social, academic, other

    /// The seed's emoji: 💔 💼 👥 📚 😔.
    public var emoji: String {
        switch self {
        case .dating: "💔"
        case .job: "💼"
        case .social: "👥"
        case .academic: "📚"
        case .other: "😔"
        }
    }

    /// Reads a type as the user typed it (`Dating`, ` job `).
    ///
    /// - Throws: ``PluginCommandError`` for an unknown type, naming the nearest and every type:
    ///   an invalid value of `option`.
    public static func parse(_ text: String, option: String = "--type") throws -> RejectionType {
        try parse(text, option: option, refusal: "\(option) \"\(text)\" is not a kind of rejection I know")
    }
}

/// A rejection the user logged: `hooray reject --type job --impact 6 "No reply after the interview"`.
public struct Rejection: PluginRecord, Identifiable, Hashable {
    public static let recordKind = "rejection"

    /// Its id; users see its first eight characters.
    public var id: UUID
    /// What kind of rejection.
    public var type: RejectionType
    /// How much it hurt, 1–10.
    public var impact: Int
    /// The user's note, if any; never leaves the machine.
    public var note: String?
    /// Absolute paths of screenshots, kept where they are; never leave the machine.
    public var screenshots: [String]
    /// When it happened (`--ago` moves it back from ``loggedAt``).
    public var happenedAt: Date
    /// When it was logged.
    public var loggedAt: Date
    /// The user's time zone when it was logged, such as `Europe/Paris`.
    public var timeZone: String
    /// When the user said "I'm okay now"; `nil` while not recovered.
    public var recoveredAt: Date?
    /// The encouraging line shown when it was logged; AI praise replaces it when `ai = true`.
    public var encouragement: String
    /// Whether ``encouragement`` came from the AI service.
    public var encouragementFromAI: Bool
    /// The follow-up this rejection is part of: the id of the first rejection of the group, whose
    /// reminder is `follow-up-ID`. `nil` when it gets none (its impact was below the threshold).
    public var followUpGroup: UUID?
    /// When its follow-up is due (the group's time); `nil` when it gets none.
    public var followUpDue: Date?
    /// The due time of the follow-up that showed it (which may have come later, after a suspend);
    /// `nil` while not shown. It travels with the rejection in an export where the reminder does
    /// not: after an import, a follow-up shown already is not shown again, and one not shown yet
    /// comes at its time, or at once when that has passed. A record saved before this field
    /// existed has none until `hoorayd` finds its follow-up shown.
    public var followUpShown: Date?

    /// Creates a rejection.
    public init(
        id: UUID = UUID(), type: RejectionType, impact: Int, note: String? = nil, screenshots: [String] = [],
        happenedAt: Date, loggedAt: Date, timeZone: String, recoveredAt: Date? = nil, encouragement: String = "",
        encouragementFromAI: Bool = false, followUpGroup: UUID? = nil, followUpDue: Date? = nil,
        followUpShown: Date? = nil
    ) {
        self.followUpGroup = followUpGroup
        self.followUpDue = followUpDue
        self.followUpShown = followUpShown
        self.id = id
        self.type = type
        self.impact = impact
        self.note = note
        self.screenshots = screenshots
        self.happenedAt = happenedAt
        self.loggedAt = loggedAt
        self.timeZone = timeZone
        self.recoveredAt = recoveredAt
        self.encouragement = encouragement
        self.encouragementFromAI = encouragementFromAI
    }

    /// Filed under when it happened.
    public var recordDate: RecordDate { .instant(happenedAt) }

    /// Whether the user said they are okay now.
    public var isRecovered: Bool { recoveredAt != nil }

    /// The recovery time, happened → okay, in seconds; `nil` while not recovered.
    ///
    /// It runs from when the rejection happened, not from when it was logged: one logged with
    /// `--ago 3d` and marked okay at once took three days, not a minute (seed 002's recovery time).
    public var recoverySeconds: TimeInterval? {
        recoveredAt.map { max(0, $0.timeIntervalSince(happenedAt)) }
    }
}

/// How the user feels at the daily check-in (seed 002 §7).
public enum CheckInMood: String, Sendable, Hashable, Codable, CaseIterable, EmojiChoice {
    case low, okay, good, strong

    /// 😔 😐 🙂 💪.
    public var emoji: String {
        switch self {
        case .low: "😔"
        case .okay: "😐"
        case .good: "🙂"
        case .strong: "💪"
        }
    }

    /// Reads a mood as the user typed it.
    ///
    /// - Throws: ``PluginCommandError`` for an unknown mood, naming the nearest and every mood.
    public static func parse(_ text: String, option: String = "<mood>") throws -> CheckInMood {
        try parse(text, option: option, refusal: "\"\(text)\" is not a check-in mood")
    }
}

/// The day's check-in: one a day; checking in again the same day changes it.
public struct CheckIn: PluginRecord, Hashable {
    public static let recordKind = "checkin"
    public static let recordName = "check-in"

    /// The user's day it is about.
    public var day: LocalDate
    /// How the user felt.
    public var mood: CheckInMood
    /// An optional note.
    public var note: String?
    /// When the user checked in (the latest time, when changed).
    public var at: Date

    /// Creates a check-in.
    public init(day: LocalDate, mood: CheckInMood, note: String? = nil, at: Date) {
        self.day = day
        self.mood = mood
        self.note = note
        self.at = at
    }

    /// One a day: the day is the id.
    public var recordID: String { day.description }
    /// Filed under its day.
    public var recordDate: RecordDate { .day(day) }
}

/// What the user did with a day's challenge.
public struct ChallengeEntry: PluginRecord, Hashable {
    public static let recordKind = "challenge"

    /// Done, or skipped (which is fine).
    public enum Outcome: String, Sendable, Hashable, Codable {
        case done, skipped
    }

    /// The user's day.
    public var day: LocalDate
    /// The challenge's id in ``ChallengeCatalog``, such as `small-social-step`.
    public var challengeID: String
    /// Its title when it was the day's challenge.
    public var title: String
    /// The points it gave (0 when skipped).
    public var points: Int
    /// Done or skipped.
    public var outcome: Outcome
    /// When the user said so.
    public var at: Date

    /// Creates an entry.
    public init(day: LocalDate, challengeID: String, title: String, points: Int, outcome: Outcome, at: Date) {
        self.day = day
        self.challengeID = challengeID
        self.title = title
        self.points = points
        self.outcome = outcome
        self.at = at
    }

    /// One a day: the day is the id.
    public var recordID: String { day.description }
    /// Filed under its day.
    public var recordDate: RecordDate { .day(day) }
}
