import Foundation
import HoorayCalendar
import HoorayKit
import Testing

@testable import HoorayScheduling

/// The instant of a wall-clock time computed the plain way, asking `TimeZone` for every offset:
/// what the remembered offsets must reproduce exactly.
func plainInstant(ofWallClockSeconds wall: Int, in zone: TimeZone) -> Int {
    func offset(_ seconds: Int) -> Int {
        zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
    let candidates = Set([offset(wall - 86_400), offset(wall), offset(wall + 86_400)])
    if let consistent = candidates.filter({ offset(wall - $0) == $0 }).max() { return wall - consistent }
    return wall - offset(wall - candidates.max()!)
}

/// The next due instant found the plain way: every calendar day from the day before `instant`,
/// whether the schedule is due on it by `LocalDate`'s own weekday and day count, and its instant
/// by ``plainInstant(ofWallClockSeconds:in:)``.
func plainNextDue(after instant: Date, of schedule: Schedule, in zone: TimeZone, at time: TimeOfDay) -> Int {
    let seconds = Int(instant.timeIntervalSince1970)
    let local = seconds + zone.secondsFromGMT(for: instant)
    var day = LocalDate(daysSinceEpoch: Int((Double(local) / 86_400).rounded(.down)) - 1)
    while true {
        let isDue: Bool
        switch schedule {
        case .daily: isDue = true
        case .weekly(let days, _, _): isDue = days.contains(day.weekday)
        case .everyNDays(let interval, let anchor, _, _):
            isDue = day >= anchor && anchor.days(until: day) % interval == 0
        case .once: return 0
        }
        if isDue {
            let due = plainInstant(
                ofWallClockSeconds: day.daysSinceEpoch * 86_400 + time.secondsSinceMidnight, in: zone)
            if due > seconds { return due }
        }
        day = day.adding(days: 1)
    }
}

/// Zones with every kind of change: none, whole hours, 30 minutes (Lord Howe), 45-minute offsets,
/// the southern hemisphere, a skipped day across the date line (Apia) and zones that changed their
/// standard offset for good.
let zonesToCompare = [
    "UTC", "America/New_York", "Europe/Berlin", "Australia/Sydney", "Australia/Lord_Howe", "Asia/Kolkata",
    "Asia/Kathmandu", "Pacific/Chatham", "Pacific/Apia", "Pacific/Kiritimati", "America/Santiago",
    "Africa/Casablanca", "Europe/Moscow", "America/Sao_Paulo", "Asia/Tehran", "Europe/Dublin", "Antarctica/Troll",
]

@Suite("Remembered zone offsets")
struct ZoneOffsetsTests {
    @Test(
        "The remembered offset is TimeZone's own, every few hours over decades and at each change",
        arguments: zonesToCompare)
    func offsetsMatchTimeZone(_ identifier: String) throws {
        let zone = try #require(TimeZone(identifier: identifier))
        var mismatches: [String] = []
        // 1990 to 2040, every 7 h 13 min, so every hour of the day comes round.
        var seconds = 631_152_000
        while seconds < 2_208_988_800 {
            let expected = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
            let remembered = ZoneOffsets.offset(atUTCSeconds: seconds, in: zone)
            if expected != remembered { mismatches.append("\(seconds): \(remembered) for \(expected)") }
            seconds += 7 * 3600 + 13 * 60
        }
        // Around every change from 2005 to 2035, the second before, of and after it, asked out of order.
        var cursor = Date(timeIntervalSince1970: 1_104_537_600)
        while let change = zone.nextDaylightSavingTimeTransition(after: cursor),
            change.timeIntervalSince1970 < 2_051_222_400
        {
            let at = Int(change.timeIntervalSince1970)
            for probe in [at + 1, at - 1, at, at - 3600, at + 3600] {
                let expected = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(probe)))
                let remembered = ZoneOffsets.offset(atUTCSeconds: probe, in: zone)
                if expected != remembered { mismatches.append("\(probe): \(remembered) for \(expected)") }
            }
            cursor = change
        }
        #expect(mismatches.isEmpty, "\(identifier): \(mismatches.prefix(5))")
    }

    @Test("Every wall-clock time resolves as asking TimeZone for each offset would", arguments: zonesToCompare)
    func instantsMatchThePlainComputation(_ identifier: String) throws {
        let zone = try #require(TimeZone(identifier: identifier))
        var mismatches: [String] = []
        // Every 20 minutes of the wall clock from 2011-12-25 to 2012-01-05 (Apia's skipped day), and
        // every 20 minutes of the days around each change from 2024 to 2028.
        var walls: [Int] = Array(stride(from: 1_324_771_200, to: 1_325_721_600, by: 1200))
        var cursor = Date(timeIntervalSince1970: 1_704_067_200)
        while let change = zone.nextDaylightSavingTimeTransition(after: cursor),
            change.timeIntervalSince1970 < 1_830_297_600
        {
            let local = Int(change.timeIntervalSince1970) + zone.secondsFromGMT(for: change)
            walls += Array(stride(from: local - 86_400, to: local + 86_400, by: 1200))
            cursor = change
        }
        for wall in walls {
            let expected = plainInstant(ofWallClockSeconds: wall, in: zone)
            let computed = Int(NextDue.instant(ofWallClockSeconds: wall, in: zone).timeIntervalSince1970)
            if expected != computed { mismatches.append("wall \(wall): \(computed) for \(expected)") }
        }
        #expect(mismatches.isEmpty, "\(identifier): \(mismatches.prefix(5))")
    }

    @Test("Next due instants of every kind of rule, a year ahead, match a day-by-day search")
    func nextDueMatchesThePlainComputation() {
        let anchor = LocalDate(year: 2026, month: 1, day: 5)!
        var mismatches: [String] = []
        for identifier in zonesToCompare {
            let zone = TimeZone(identifier: identifier)!
            for (index, at) in ["00:00", "00:30", "01:30", "02:15", "02:30", "03:45", "23:59"].enumerated() {
                let time = TimeOfDay(parsing: at)!
                let schedules: [Schedule] = [
                    .daily(at: time, zone: zone),
                    .weekly(on: [.sunday, .saturday], at: time, zone: zone),
                    .everyNDays(interval: 3 + index, anchor: anchor, at: time, zone: zone),
                ]
                for schedule in schedules {
                    var cursor = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01 00:00 UTC
                    for _ in 0..<400 {
                        guard let due = NextDue.next(after: cursor, for: schedule) else { break }
                        let expected = plainNextDue(after: cursor, of: schedule, in: zone, at: time)
                        if Int(due.timeIntervalSince1970) != expected {
                            mismatches.append("\(identifier) \(at) \(schedule): \(due) for \(expected)")
                        }
                        cursor = due
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }
}
