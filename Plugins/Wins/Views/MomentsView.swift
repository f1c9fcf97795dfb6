import Foundation
import HoorayCalendar
import HoorayKit
import HoorayText

/// The Moments list of `hooray moments`: every logged moment, newest first, by local day.
///
/// Both renderings are pure: the current time and the time zone are parameters, so the same
/// moments always render the same text.
public enum MomentsView {
    /// The list as text for a terminal.
    ///
    /// The title `Moments` comes first, then one section per local day in `timeZone`, newest
    /// first, headed `Today`, `Yesterday` or a date such as `Sat 21 Nov 2026`. Within a section the
    /// moments are newest first, two lines each:
    ///
    /// ```
    /// • ★ Cleaned something quietly bothering me 🙂  [3f2a9c1b]
    ///   5 min ago · “You made space for yourself.”
    /// ```
    ///
    /// `★` marks a favourite and the emoji is the moment's mood, when it has one. The bracketed
    /// short id is what `hooray moments fav|edit|delete ID` take. The second line says how long ago
    /// the moment happened (see ``RelativeTime``) and its praise: the AI's when there is some.
    /// Texts are on one line and safe for a terminal: control characters are shown as symbols and
    /// bidi overrides left out (`TerminalText.safe(_:multiline:)`).
    ///
    /// With no moments at all the text invites the user to log one; when filters leave nothing,
    /// it says so.
    ///
    /// - Parameters:
    ///   - moments: The moments, in any order.
    ///   - now: The current time, for `Today`, `Yesterday` and how long ago.
    ///   - timeZone: The time zone whose calendar days make the sections.
    ///   - day: Only the moments of this local day, when given (`--day`).
    ///   - favoritesOnly: Only favourite moments (`--favorites`).
    /// - Returns: The text, without a trailing newline.
    public static func text(
        _ moments: [Moment], now: Date, timeZone: TimeZone, day: LocalDate? = nil, favoritesOnly: Bool = false
    ) -> String {
        let rows = selected(moments, timeZone: timeZone, day: day, favoritesOnly: favoritesOnly)
        var writer = TextWriter(now: now, timeZone: timeZone)
        guard !rows.isEmpty else {
            let today = LocalCalendar.day(of: now, in: timeZone)
            return writer.title
                + emptyText(today: today, day: day, favoritesOnly: favoritesOnly).joined(separator: "\n")
        }
        return String((writer.title + rows.map { writer.lines($0.moment) }.joined()).dropLast())
    }

    /// The list as JSON, for `hooray moments --json`.
    ///
    /// A pretty-printed array with sorted keys, newest moment first, filtered like
    /// ``text(_:now:timeZone:day:favoritesOnly:)``. Each object has:
    ///
    /// - `id`: the full UUID, lowercase; its first 8 characters are the short id;
    /// - `text`, and `placeholder`: whether `text` is the words stored for a moment logged without any;
    /// - `happenedAt`, `submittedAt`: ISO 8601 in UTC, such as `2026-11-21T18:40:00Z`;
    /// - `day`: the local day of `happenedAt` in `timeZone`, such as `2026-11-21`;
    /// - `timeZone`: the IANA time zone the moment was logged in;
    /// - `timeAgo`: seconds between `happenedAt` and `submittedAt`;
    /// - `offlinePraise`, `aiPraise` (`null` when absent), and `praise`: the one shown;
    /// - `mood` (such as `calm`), `note`: `null` when absent;
    /// - `photos`, `tags`: arrays of strings;
    /// - `favorite`: a boolean;
    /// - `sync`: `local`, `pending` or `synced`; `syncError`: `null` when absent.
    ///
    /// - Parameters:
    ///   - moments: The moments, in any order.
    ///   - now: The current time; it does not change the output, and is taken for symmetry with the text.
    ///   - timeZone: The time zone whose calendar days `day` and the `day` field use.
    ///   - day: Only the moments of this local day, when given (`--day`).
    ///   - favoritesOnly: Only favourite moments (`--favorites`).
    /// - Returns: The JSON text, `[]` when nothing matches.
    public static func json(
        _ moments: [Moment], now: Date, timeZone: TimeZone, day: LocalDate? = nil, favoritesOnly: Bool = false
    ) -> String {
        let rows = selected(moments, timeZone: timeZone, day: day, favoritesOnly: favoritesOnly)
        guard !rows.isEmpty else { return "[]" }
        return ViewText.json(rows.map { MomentJSON(moment: $0.moment, day: $0.day) })
    }

    /// The first 8 hexadecimal digits of the id, lowercase, as `hooray moments fav ID` takes them.
    static func shortID(_ id: UUID) -> String { String(id.uuidString.lowercased().prefix(8)) }

    /// The moments that pass the filters with their local days, newest first.
    private static func selected(
        _ moments: [Moment], timeZone: TimeZone, day: LocalDate?, favoritesOnly: Bool
    ) -> [(moment: Moment, day: LocalDate)] {
        moments
            .filter { !favoritesOnly || $0.isFavorite }
            .map { (moment: $0, day: LocalCalendar.day(of: $0.happenedAt, in: timeZone)) }
            .filter { day == nil || $0.day == day }
            .sorted { isNewer($0.moment, than: $1.moment) }
    }

    /// Newest `happenedAt` first; ties by newest `submittedAt`, then by id, so the order is stable.
    static func isNewer(_ lhs: Moment, than rhs: Moment) -> Bool {
        if lhs.happenedAt != rhs.happenedAt { return lhs.happenedAt > rhs.happenedAt }
        if lhs.submittedAt != rhs.submittedAt { return lhs.submittedAt > rhs.submittedAt }
        return lhs.id.uuidString < rhs.id.uuidString
    }

    static func header(_ day: LocalDate, today: LocalDate) -> String {
        switch day.days(until: today) {
        case 0: "Today"
        case 1: "Yesterday"
        default: day.written(today: today)
        }
    }

    static func emptyText(today: LocalDate, day: LocalDate?, favoritesOnly: Bool, filtered: Bool = false) -> [String] {
        let what = favoritesOnly ? "favourite moments" : "moments"
        if filtered { return ["No \(what) match; leave out --since, --until or --search to see more."] }
        guard let day else {
            if favoritesOnly {
                return ["No favourite moments yet. Mark one with `hooray moments fav ID`."]
            }
            return [
                "No moments yet… but you're here, so that's one.", "Log your first moment: hooray win \"what you did\"",
            ]
        }
        switch day.days(until: today) {
        case 0: return ["No \(what) today."]
        case 1: return ["No \(what) yesterday."]
        default: return ["No \(what) on \(day.written(today: today))."]
        }
    }
}
