import Foundation
import HoorayCalendar
import HoorayCommandLine
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
        favoritesOnly = command.flag("favorites") || command.flag("favourites")
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
            write("\nThe newest \(limit) are shown; a larger `--limit`, or `--until`, shows older ones.\n")
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
        MomentJSONText.element(moment, timeZone: timeZone)
    }
}

/// The `--json` element of one moment written directly, as `JSONEncoder` writes ``MomentJSON``
/// pretty with sorted keys and indented two spaces: a listing of a hundred thousand moments spends
/// its time reading them, not in an encoder and a date formatter per moment.
enum MomentJSONText {
    static func element(_ moment: Moment, timeZone: TimeZone) -> String {
        let seconds = moment.happenedAt.timeIntervalSince1970
        let offset = Double(timeZone.secondsFromGMT(for: moment.happenedAt))
        let day = LocalDate(daysSinceEpoch: Int(((seconds + offset) / 86400).rounded(.down)))
        var out = "  {\n"
        func member(_ key: String, _ value: String, last: Bool = false) {
            out += "    \"" + key + "\" : " + value + (last ? "\n" : ",\n")
        }
        member("aiPraise", optional(moment.aiPraise))
        member("day", string(day.description))
        member("favorite", moment.isFavorite ? "true" : "false")
        member("happenedAt", string(iso(moment.happenedAt)))
        member("id", string(moment.id.uuidString.lowercased()))
        member("mood", optional(moment.mood?.rawValue))
        member("note", optional(moment.note))
        member("offlinePraise", string(moment.offlinePraise))
        member("photos", array(moment.photos))
        member("placeholder", moment.isPlaceholder ? "true" : "false")
        member("praise", string(moment.praise))
        member("submittedAt", string(iso(moment.submittedAt)))
        member("sync", string(moment.sync.rawValue))
        member("syncError", optional(moment.syncError))
        member("tags", array(moment.tags))
        member("text", string(moment.text))
        member("timeAgo", String(moment.timeAgo))
        member("timeZone", string(moment.timeZone), last: true)
        return out + "  }"
    }

    static func optional(_ value: String?) -> String { value.map(string) ?? "null" }

    static func array(_ values: [String]) -> String {
        guard !values.isEmpty else { return "[]" }
        return "[\n" + values.map { "      " + string($0) }.joined(separator: ",\n") + "\n    ]"
    }

    /// A JSON string: quotes, backslashes and control characters escaped, as `JSONEncoder` does
    /// without escaping slashes.
    static func string(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// ISO 8601 in UTC to the second, such as `2026-11-21T18:40:00Z`, as `Date.ISO8601FormatStyle` writes it.
    static func iso(_ date: Date) -> String {
        var time = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let year = Int(parts.tm_year) + 1900
        let yyyy = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return
            "\(yyyy)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
