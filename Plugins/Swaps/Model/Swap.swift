import Foundation
import HoorayCalendar
import HoorayKit

/// A healthy swap the user made: `hooray swap "Sparkling water instead of soda"`.
public struct Swap: PluginRecord, Identifiable, Hashable {
    public static let recordKind = "swap"

    /// Its id; users see its first eight characters.
    public var id: UUID
    /// What the user swapped, in their words, such as "Sparkling water instead of soda".
    public var text: String
    /// The user's day it counts for (`--date yesterday` fills a gap).
    public var day: LocalDate
    /// When it was logged.
    public var loggedAt: Date
    /// Whether it came from the night's prep (the **I did my swap** button).
    public var fromPrep: Bool

    /// Creates a swap.
    public init(id: UUID = UUID(), text: String, day: LocalDate, loggedAt: Date, fromPrep: Bool = false) {
        self.id = id
        self.text = text
        self.day = day
        self.loggedAt = loggedAt
        self.fromPrep = fromPrep
    }

    /// Filed under its day.
    public var recordDate: RecordDate { .day(day) }
}

/// What the user prepared at night for the next day: up to three swaps (`hooray swap prep "…"`).
public struct Prep: PluginRecord, Hashable {
    public static let recordKind = "prep"

    /// The most items a night's prep keeps.
    public static let maxItems = 3

    /// The day the prep is for (tomorrow, when made at night).
    public var day: LocalDate
    /// The items, in the order given.
    public var items: [String]
    /// When it was last changed.
    public var at: Date

    /// Creates a prep.
    public init(day: LocalDate, items: [String], at: Date) {
        self.day = day
        self.items = items
        self.at = at
    }

    /// One a day: the day is the id.
    public var recordID: String { day.description }
    /// Filed under its day.
    public var recordDate: RecordDate { .day(day) }
}
