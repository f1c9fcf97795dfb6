import Foundation
import HoorayCalendar
import HoorayKit

/// `--limit N`, `--since DATE`, `--until DATE` and `--search TEXT`: what every listing command
/// takes, read one way, so that `hooray moments` and the other listings answer alike.
///
/// Add ``options`` to the command's ``CommandSpec/options`` and read them with
/// ``init(_:input:)``:
///
/// ```swift
/// let listing = try ListingOptions(command, input: context.timeInput)
/// try await book.forEachNewestFirst(in: listing.instants) { record in
///     guard listing.matches([record.text, record.note ?? ""]) else { return true }
///     ...
/// }
/// ```
public struct ListingOptions: Sendable, Hashable {
    /// At most this many records, newest first; `nil` for all of them.
    public var limit: Int?
    /// The first local day listed (`--since`), included.
    public var since: LocalDate?
    /// The last local day listed (`--until`), included.
    public var until: LocalDate?
    /// Words that a listed record's text must hold, without regard to case or accents (`--search`).
    public var search: String?
    /// The time zone of ``since`` and ``until``.
    public var timeZone: TimeZone

    /// The options, as a listing command declares them.
    public static let options: [CommandSpec.Option] = [
        .init(name: "limit", valueName: "n", help: "Show only the newest N."),
        .init(name: "since", valueName: "date", help: "Only from this day on: YYYY-MM-DD, yesterday or 3d ago."),
        .init(name: "until", valueName: "date", help: "Only up to this day, included: YYYY-MM-DD, today or 3d ago."),
        .init(name: "search", valueName: "text", help: "Only those whose words hold TEXT (case and accents aside)."),
    ]

    /// Creates the options.
    public init(
        limit: Int? = nil, since: LocalDate? = nil, until: LocalDate? = nil, search: String? = nil,
        timeZone: TimeZone
    ) {
        self.limit = limit
        self.since = since
        self.until = until
        self.search = search
        self.timeZone = timeZone
    }

    /// Reads the options of a command.
    ///
    /// - Parameters:
    ///   - command: The command, with the values of ``options``.
    ///   - input: Reads the days, in the user's time zone.
    /// - Throws: `PluginCommandError.invalidValue(_:_:)` naming the option, what is wrong and what
    ///   to give instead: a limit that is not a whole number of at least 1, a day that does not
    ///   read, or `--since` after `--until`.
    public init(_ command: CommandInvocation, input: TimeInput) throws {
        timeZone = input.timeZone
        if let text = command.value("limit") {
            guard let number = Int(text.trimmingCharacters(in: .whitespaces)), number >= 1 else {
                throw TimeInput.refusal("--limit", text, "is not a whole number of at least 1", "such as --limit 20")
            }
            limit = number
        }
        since = try command.value("since").map { try input.day($0, option: "--since") }
        until = try command.value("until").map { try input.day($0, option: "--until") }
        if let since, let until, until < since, let text = command.value("until") {
            throw TimeInput.refusal("--until", text, "is before --since \(since)", "give \(since) or a later day")
        }
        let words = command.value("search")?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        search = words.isEmpty ? nil : words
    }

    /// Whether any option narrows the listing (a limit does not: it only shortens it).
    public var filters: Bool { since != nil || until != nil || search != nil }

    /// The instants from the start of ``since`` to the end of ``until`` in ``timeZone``, narrowed
    /// to `day` when given (such as `--day`); `nil` when neither bounds the listing.
    public func instants(on day: LocalDate? = nil) -> Range<Date>? {
        guard since != nil || until != nil || day != nil else { return nil }
        let first = [since, day].compactMap { $0 }.max()
        let last = [until, day].compactMap { $0 }.min()
        if let first, let last, last < first { return Date.distantPast..<Date.distantPast }
        let start = first.map { LocalDayRange(from: $0, through: $0, in: timeZone).instants.lowerBound }
        let end = last.map { LocalDayRange(from: $0, through: $0, in: timeZone).instants.upperBound }
        return (start ?? Date.distantPast)..<(end ?? Date.distantFuture)
    }

    /// Whether a record whose words are `texts` is listed: every one with no ``search``, else one
    /// whose texts hold it, without regard to case or accents.
    public func matches(_ texts: [String]) -> Bool {
        guard let search else { return true }
        let wanted = Self.folded(search)
        return texts.contains { Self.folded($0).contains(wanted) }
    }

    /// The text in lower case without its accents ("Café" → "cafe"), for a search that ignores both.
    /// Folded here, a scalar at a time, rather than by `range(of:options:)`, whose case- and
    /// accent-blind search was seen to miss under many threads at once.
    static func folded(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars
        where scalar.properties.generalCategory != .nonspacingMark {
            scalars.append(scalar)
        }
        return String(scalars)
    }
}
