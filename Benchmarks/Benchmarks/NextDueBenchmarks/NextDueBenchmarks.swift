// How long the scheduler's pure calendar math takes to compute the next 1,000,000 occurrences.
//
// `make bench` runs this with package-benchmark and reports the p50 wall-clock time of one
// iteration (1,000,000 occurrences) beside the reference: the same number of plain
// `Date.addingTimeInterval(86_400)` steps, measured in the same run. Benchmarks measure; they assert
// nothing about time.
import Benchmark
import Foundation
import HoorayCalendar
import HoorayKit
import SchedulingUnderTest

/// 1,000 rules of the kinds users write, in zones with and without daylight-saving time.
func sampleSchedules() -> [Schedule] {
    let zones = ["UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Sydney"].map {
        TimeZone(identifier: $0)!
    }
    let anchor = LocalDate(year: 2026, month: 1, day: 5)!
    return (0..<1000).map { index in
        let zone = zones[index % zones.count]
        let time = TimeOfDay(hour: index % 24, minute: (index * 7) % 60)!
        switch index % 4 {
        case 0, 1: return .daily(at: time, zone: zone)
        case 2: return .weekly(on: [.monday, .tuesday, .wednesday, .thursday, .friday], at: time, zone: zone)
        default: return .everyNDays(interval: 3, anchor: anchor, at: time, zone: zone)
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(15),
        maxIterations: 7
    )
    let schedules = sampleSchedules()
    let start = Date(timeIntervalSince1970: 1_795_392_000)  // 2026-11-22 00:00 UTC
    let perRule = 1_000_000 / schedules.count

    Benchmark("NextDue.next: 1,000,000 occurrences (1,000 rules × 1,000)") { benchmark in
        var last = start
        for schedule in schedules {
            var cursor = start
            for _ in 0..<perRule {
                guard let due = NextDue.next(after: cursor, for: schedule) else { break }
                cursor = due
            }
            last = max(last, cursor)
        }
        blackHole(last)
    }

    Benchmark("Reference: 1,000,000 × Date.addingTimeInterval(86_400)") { benchmark in
        var last = start
        for _ in 0..<schedules.count {
            var cursor = start
            for _ in 0..<perRule {
                cursor = cursor.addingTimeInterval(86_400)
                blackHole(cursor)
            }
            last = max(last, cursor)
        }
        blackHole(last)
    }
}
