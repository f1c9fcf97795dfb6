import Foundation
import Synchronization

/// The UTC offsets of time zones, remembered as spans of time in which a zone's offset stays the same.
///
/// `TimeZone.secondsFromGMT(for:)` asks ICU under a lock each time, which is most of the cost of
/// computing a due instant. A zone's offset only changes at its transitions, so once the offset at
/// an instant and the next transition after it are known, every instant in between has the same
/// offset: the answer for them comes from a binary search here, and is exactly what
/// `secondsFromGMT(for:)` says (the span ends where `nextDaylightSavingTimeTransition(after:)`,
/// which reports every change of the offset, says the next change is).
///
/// Spans are learned as they are asked for and kept for the life of the process: a few per zone and
/// year planned ahead, so a handful of kilobytes however many rules share a zone.
enum ZoneOffsets {
    /// Instants from `start` (included) to `end` (excluded), in seconds since 1970, with one offset.
    struct Span {
        var start: Int
        var end: Int
        var offset: Int
    }

    /// The spans learned for one zone, sorted by `end`; no two overlap.
    struct Table {
        var spans: [Span] = []

        /// The offset at `seconds`, learning the span around it from `zone` when it is not known yet.
        mutating func offset(atUTCSeconds seconds: Int, in zone: TimeZone) -> Int {
            // The first span that ends after `seconds`.
            var low = 0
            var high = spans.count
            while low < high {
                let middle = (low + high) / 2
                if spans[middle].end <= seconds { low = middle + 1 } else { high = middle }
            }
            if low < spans.count, spans[low].start <= seconds { return spans[low].offset }
            let instant = Date(timeIntervalSince1970: TimeInterval(seconds))
            let offset = zone.secondsFromGMT(for: instant)
            var end = Int.max
            if let next = zone.nextDaylightSavingTimeTransition(after: instant) {
                // A transition at a fraction of a second would still change the offset at the next
                // whole second (where it is asked for): round up.
                let transition = next.timeIntervalSince1970.rounded(.up)
                if transition > TimeInterval(seconds), transition < 9.0e15 { end = Int(transition) }
            }
            if low < spans.count, spans[low].end == end, spans[low].offset == offset {
                // The span already known ends at the same transition: it starts earlier than thought.
                spans[low].start = seconds
            } else if low < spans.count, spans[low].end == end {
                // The zone's answers do not agree with each other here; remember nothing.
                return offset
            } else {
                spans.insert(Span(start: seconds, end: end, offset: offset), at: low)
            }
            return offset
        }
    }

    /// Every zone's table, and which was used last.
    private struct Tables {
        var indices: [String: Int] = [:]
        var list: [Table] = []
        /// Planning asks about one zone many times in a row: the same identifier is compared
        /// (usually the same string, so at once) instead of hashed.
        var lastIdentifier = ""
        var lastIndex = -1
    }

    private static let tables = Mutex(Tables())

    /// Runs `body` with the table of `zone`, under the one lock that guards every table.
    static func withTable<Result: Sendable>(of zone: TimeZone, _ body: (inout Table) -> Result) -> Result {
        let identifier = zone.identifier
        return tables.withLock { tables in
            if tables.lastIndex < 0 || tables.lastIdentifier != identifier {
                if let index = tables.indices[identifier] {
                    tables.lastIndex = index
                } else {
                    tables.lastIndex = tables.list.count
                    tables.indices[identifier] = tables.list.count
                    tables.list.append(Table())
                }
                tables.lastIdentifier = identifier
            }
            return body(&tables.list[tables.lastIndex])
        }
    }

    /// The offset of `zone` at `seconds` since 1970, as `secondsFromGMT(for:)` gives it.
    static func offset(atUTCSeconds seconds: Int, in zone: TimeZone) -> Int {
        withTable(of: zone) { $0.offset(atUTCSeconds: seconds, in: zone) }
    }
}
