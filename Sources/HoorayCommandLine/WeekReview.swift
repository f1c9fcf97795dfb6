import Foundation
import HoorayCalendar
import HoorayKit

/// One area of the weekly review (`hooray review`): a plugin's figures for a week beside the week
/// before, a few words of its own, and what stood out.
///
/// A plugin takes part by offering a hidden command named ``commandName`` that takes `--week
/// YYYY-Www` and answers with a JSON array of these (``json(_:)``): `hooray review` runs it for
/// every plugin that offers it, in `hoorayd` or in its own process, and puts the areas side by side.
/// The figures are the plugin's own, worked out as its own commands work them out, so that the
/// review never says something else than they do.
///
/// ```swift
/// WeekReview(
///     area: "Water", figures: [.init(key: "glasses", label: "Glasses of water", thisWeek: 40, lastWeek: 35)],
///     line: "Forty glasses: your body noticed.")
/// ```
public struct WeekReview: Sendable, Hashable, Codable {
    /// The hidden command a plugin offers to take part.
    public static let commandName = "review-week"

    /// One figure of the week, and the same figure a week before.
    public struct Figure: Sendable, Hashable, Codable {
        /// Its name in JSON, such as `logged`.
        public var key: String
        /// Its name for a person, such as `Wins logged`.
        public var label: String
        /// This week's value.
        public var thisWeek: Double
        /// Last week's, when it means something.
        public var lastWeek: Double?
        /// What it is out of, such as the habit days that were due: `12 of 14`.
        public var outOf: Double?
        /// Last week's ``outOf``.
        public var lastOutOf: Double?

        /// Creates a figure.
        public init(
            key: String, label: String, thisWeek: Double, lastWeek: Double? = nil, outOf: Double? = nil,
            lastOutOf: Double? = nil
        ) {
            self.key = key
            self.label = label
            self.thisWeek = thisWeek
            self.lastWeek = lastWeek
            self.outOf = outOf
            self.lastOutOf = lastOutOf
        }

        /// `5`, `12 of 14`, `72.5`: as the table shows it.
        public static func shown(_ value: Double?, of total: Double?) -> String {
            guard let value else { return "—" }
            guard let total else { return number(value) }
            return "\(number(value)) of \(number(total))"
        }

        /// The most a figure may be: more (or less than 0, or not a number) is a plugin's mistake.
        public static let largest = 1e12

        /// Whether every value is a count or a score Hooray can show: 0 to ``largest``.
        public var isSound: Bool {
            [thisWeek, lastWeek, outOf, lastOutOf].allSatisfy { value in
                value.map { $0.isFinite && $0 >= 0 && $0 <= Self.largest } ?? true
            }
        }

        private static func number(_ value: Double) -> String {
            guard value.isFinite, abs(value) <= largest else { return "?" }
            return value.rounded() == value ? String(Int(value)) : String(format: "%.1f", value)
        }
    }

    /// The area, such as `Wins`.
    public var area: String
    /// Its figures, in the order the table shows them.
    public var figures: [Figure]
    /// What stood out, such as the wins the user starred; the user's own words.
    public var highlights: [String]
    /// What ``highlights`` are, such as `Starred`.
    public var highlightsLabel: String?
    /// A warm line about the week in this area.
    public var line: String
    /// Whether anything happened in this area this week or the week before.
    public var isEmpty: Bool

    /// Creates an area.
    public init(
        area: String, figures: [Figure], highlights: [String] = [], highlightsLabel: String? = nil, line: String,
        isEmpty: Bool = false
    ) {
        self.area = area
        self.figures = figures
        self.highlights = highlights
        self.highlightsLabel = highlightsLabel
        self.line = line
        self.isEmpty = isEmpty
    }

    /// The value of one figure this week, by key.
    public func figure(_ key: String) -> Figure? { figures.first { $0.key == key } }

    /// The week a `review-week` command was given: `--week YYYY-Www`.
    ///
    /// - Throws: `PluginCommandError` (usage) when it is missing or cannot be read.
    public static func week(of command: CommandInvocation) throws -> ISOWeek {
        guard let text = command.value("week") else {
            throw PluginCommandError.invalidValue("--week", "give the week, such as --week 2026-W49")
        }
        do {
            return try ISOWeek.parse(text)
        } catch {
            throw PluginCommandError.invalidValue("--week", "--week \(error)")
        }
    }

    /// The hidden command's description, for a plugin's `commands`.
    public static var commandSpec: CommandSpec {
        CommandSpec(
            name: commandName, summary: "This plugin's part of the weekly review.",
            options: [.init(name: "week", valueName: "YYYY-Www", help: "The week, such as 2026-W49.")],
            offersJSON: true, isHidden: true, writes: false)
    }

    /// The reply of a `review-week` command: the areas as a JSON array.
    public static func reply(_ areas: [WeekReview]) throws -> CommandReply {
        CommandReply(text: areas.map(\.line).joined(separator: "\n"), json: try JSONValue(encoding: areas))
    }

    /// The last day of `week` the figures may count: its Sunday, or today while it runs.
    public static func lastDay(of week: ISOWeek, today: LocalDate) -> LocalDate {
        min(week.sunday, today)
    }
}
