import Foundation
import HoorayKit

/// `hooray moments`: the moments newest first, read a page at a time and written as they are read,
/// so that a hundred thousand list in seconds with flat memory (``CommandStream``).
struct MomentsListing {
    let listing: ListingOptions
    let day: LocalDate?
    let favoritesOnly: Bool
    let now: Date
    let timeZone: TimeZone

    /// Reads the command's options.
    init(_ command: CommandInvocation, now: Date) throws {
        timeZone = command.environment.timeZone
        let input = TimeInput(now: now, timeZone: timeZone)
        listing = try ListingOptions(command, input: input)
        day = try command.value("day").map { try input.day($0, option: "--day") }
        favoritesOnly = command.flag("favorites")
        self.now = now
    }

    /// Whether a moment passes the filters other than its date.
    func includes(_ moment: Moment) -> Bool {
        (!favoritesOnly || moment.isFavorite)
            && listing.matches([moment.text, moment.note ?? "", moment.praise] + moment.tags)
    }

    /// Writes the listing, as text or as a JSON array, through `write`.
    ///
    /// - Returns: How many moments were written.
    @discardableResult
    func write(from book: RecordBook<Moment>, json: Bool, _ write: (String) -> Void) async throws -> Int {
        var text = MomentsView.TextWriter(now: now, timeZone: timeZone)
        if json { write("[") } else { write(text.title) }
        var count = 0
        var more = false
        try await book.forEachNewestFirst(in: listing.instants(on: day)) { moment in
            guard includes(moment) else { return true }
            if let limit = listing.limit, count >= limit {
                more = true
                return false
            }
            write(
                json
                    ? (count == 0 ? "\n" : ",\n") + MomentsView.jsonElement(moment, timeZone: timeZone)
                    : text.lines(moment))
            count += 1
            return true
        }
        if json {
            write(count == 0 ? "]\n" : "\n]\n")
        } else if count == 0 {
            write(
                MomentsView.emptyText(
                    today: LocalCalendar.day(of: now, in: timeZone), day: day, favoritesOnly: favoritesOnly,
                    filtered: listing.filters
                ).joined(separator: "\n") + "\n")
        } else if more, let limit = listing.limit {
            write("\nThe newest \(limit) are shown; `--limit` more, or `--until`, shows older ones.\n")
        }
        return count
    }
}

extension MomentsView {
    /// Writes the text of ``text(_:now:timeZone:day:favoritesOnly:)`` a moment at a time, newest first.
    struct TextWriter {
        let now: Date
        let timeZone: TimeZone
        let today: LocalDate
        private var currentDay: LocalDate?

        init(now: Date, timeZone: TimeZone) {
            self.now = now
            self.timeZone = timeZone
            today = LocalCalendar.day(of: now, in: timeZone)
        }

        /// `Moments` and a blank line.
        var title: String { "Moments\n\n" }

        /// The lines of one moment, each ending in a newline, headed by its day when it starts one.
        mutating func lines(_ moment: Moment) -> String {
            var text = ""
            let momentDay = LocalCalendar.day(of: moment.happenedAt, in: timeZone)
            if momentDay != currentDay {
                if currentDay != nil { text += "\n" }
                text += MomentsView.header(momentDay, today: today) + "\n"
                currentDay = momentDay
            }
            let star = moment.isFavorite ? "★ " : ""
            let mood = moment.mood.map { " \($0.emoji)" } ?? ""
            text += "• \(star)\(ViewText.singleLine(moment.text))\(mood)  [\(MomentsView.shortID(moment.id))]\n"
            let ago = RelativeTime.phrase(from: moment.happenedAt, to: now, timeZone: timeZone)
            text += "  \(ago) · “\(ViewText.singleLine(moment.praise))”\n"
            return text
        }
    }

    /// One moment as an element of the `--json` array: pretty, indented two spaces, as
    /// `JSONValue.text(pretty:)` writes an array.
    static func jsonElement(_ moment: Moment, timeZone: TimeZone) -> String {
        let object = ViewText.json(MomentJSON(moment, timeZone: timeZone))
        return "  " + ViewText.collapsingEmptyArrays(object).replacingOccurrences(of: "\n", with: "\n  ")
    }
}

extension ViewText {
    /// The text with each empty array written `[]`: Foundation on Linux spreads one over lines. Only
    /// a bracket followed by a raw newline can be such a spread, since a newline in a string is escaped.
    static func collapsingEmptyArrays(_ text: String) -> String {
        guard text.contains("[\n") else { return text }
        var result = ""
        var rest = Substring(text)
        while let open = rest.range(of: "[\n") {
            result += rest[..<open.lowerBound]
            let after = rest[open.upperBound...].drop { $0 == " " || $0 == "\n" }
            if after.first == "]" {
                result += "[]"
                rest = after.dropFirst()
            } else {
                result += "[\n"
                rest = rest[open.upperBound...]
            }
        }
        return result + rest
    }
}
