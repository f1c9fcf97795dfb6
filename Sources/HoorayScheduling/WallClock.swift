import Foundation
import HoorayCalendar
import HoorayKit

extension NextDue {
    /// The instant at which a wall-clock time happens on a date in a time zone.
    ///
    /// The answer follows Hooray's daylight-saving rules, so that a reminder is never lost and never
    /// shown twice when the clocks change:
    ///
    /// - A time that does not exist on that day, because a spring-forward change skipped it, moves
    ///   forward by the length of the gap: 02:30 in America/New_York on 2026-03-08 is 03:30 EDT.
    /// - A time that happens twice on that day, because a fall-back change repeated it, resolves to
    ///   its first occurrence: 01:30 in America/New_York on 2026-11-01 is 01:30 EDT, not EST.
    ///
    /// The offsets are those of `TimeZone.secondsFromGMT(for:)` (remembered per zone between its
    /// transitions, see `ZoneOffsets`), so the result does not depend on the matching policies of
    /// `Calendar`.
    ///
    /// - Parameters:
    ///   - date: The calendar date in `zone`.
    ///   - time: The wall-clock time on that date.
    ///   - zone: The time zone the date and time are read in.
    /// - Returns: The UTC instant.
    public static func instant(of date: LocalDate, at time: TimeOfDay, in zone: TimeZone) -> Date {
        let wall = date.daysSinceEpoch * secondsPerDay + time.secondsSinceMidnight
        return instant(ofWallClockSeconds: wall, in: zone)
    }

    /// The calendar date an instant falls on in a time zone.
    ///
    /// - Parameters:
    ///   - instant: The instant.
    ///   - zone: The time zone to read it in.
    /// - Returns: The local date.
    public static func localDate(of instant: Date, in zone: TimeZone) -> LocalDate {
        let wall = wallClockSeconds(of: instant, in: zone)
        return LocalDate(daysSinceEpoch: floorDivide(wall, secondsPerDay))
    }

    /// The wall-clock time of day an instant falls on in a time zone, truncated to the minute.
    ///
    /// During a repeated hour both occurrences read the same: 05:30Z and 06:30Z on 2026-11-01 are
    /// both 01:30 in America/New_York.
    ///
    /// - Parameters:
    ///   - instant: The instant.
    ///   - zone: The time zone to read it in.
    /// - Returns: The local time of day.
    public static func timeOfDay(of instant: Date, in zone: TimeZone) -> TimeOfDay {
        let seconds = floorModulo(wallClockSeconds(of: instant, in: zone), secondsPerDay)
        return TimeOfDay(hour: seconds / 3600, minute: seconds % 3600 / 60)!
    }

    static let secondsPerDay = 86_400

    /// Local seconds since 1970-01-01T00:00 on the wall clock of `zone` (not an instant).
    static func wallClockSeconds(of instant: Date, in zone: TimeZone) -> Int {
        let seconds = Int(instant.timeIntervalSince1970.rounded(.down))
        return seconds + ZoneOffsets.offset(atUTCSeconds: seconds, in: zone)
    }

    static func instant(ofWallClockSeconds wall: Int, in zone: TimeZone) -> Date {
        let seconds = ZoneOffsets.withTable(of: zone) { table in
            func offset(atUTCSeconds seconds: Int) -> Int {
                table.offset(atUTCSeconds: seconds, in: zone)
            }
            // Every instant that can show `wall` lies within 14 hours of it (read as UTC), so the offsets
            // in force a day either side cover both sides of any clock change near it.
            let candidates = (
                offset(atUTCSeconds: wall - secondsPerDay),
                offset(atUTCSeconds: wall),
                offset(atUTCSeconds: wall + secondsPerDay)
            )
            // The largest offset that shows this wall-clock time gives the earliest instant: the first
            // occurrence of a repeated time.
            var consistent: Int?
            for candidate in [candidates.0, candidates.1, candidates.2]
            where candidate > (consistent ?? .min) && offset(atUTCSeconds: wall - candidate) == candidate {
                consistent = candidate
            }
            if let consistent { return wall - consistent }
            // No offset shows this wall-clock time: it lies in a gap. Read with the offset in force before
            // the change, it lands as far past the change as it was past the start of the gap, which moves
            // it forward by exactly the length of the gap.
            let earliest = wall - max(candidates.0, candidates.1, candidates.2)
            return wall - offset(atUTCSeconds: earliest)
        }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }

    static func floorModulo(_ value: Int, _ divisor: Int) -> Int {
        let remainder = value % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}
