import Foundation
import HooraySystemTesting
import Testing

/// hoorayd with nothing to do for hours sleeps: not one of its threads wakes (BENCHMARKS.md measures
/// the same over 60 s beside reference programs; this is the check `make test` runs on every change).
@Suite(.timeLimit(.minutes(2)))
struct IdleTests {
    /// Each thread's context switches (voluntary and not), by thread id, with its name.
    static func switches(of pid: Int32) -> [Int: (name: String, count: Int)] {
        let folder = "/proc/\(pid)/task"
        var threads: [Int: (name: String, count: Int)] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            guard let tid = Int(entry),
                let status = try? String(contentsOfFile: "\(folder)/\(entry)/status", encoding: .utf8)
            else { continue }
            var name = "?"
            var count = 0
            for line in status.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2 else { continue }
                if parts[0] == "Name" { name = parts[1] }
                if parts[0] == "voluntary_ctxt_switches" || parts[0] == "nonvoluntary_ctxt_switches" {
                    count += Int(parts[1]) ?? 0
                }
            }
            threads[tid] = (name, count)
        }
        return threads
    }

    @Test func anIdleHoorayDWakesNotOnceInTenSeconds() async throws {
        try await HoorayFixture.with { fixture in
            _ = try await fixture.startServer()
            // Every built-in plugin on, one reminder and one habit due in hours.
            try fixture.writeConfig(reminderTOML(title: "Later today", body: "Stretch.", at: "13:00"))
            let habit = try await fixture.hooray(
                "habit", "add", "Read 10 pages", "--remind", "13:30", fakeTime: "2026-11-20 08:00:00")
            #expect(habit.status == .exited(0), "\(habit.standardError)")
            let daemon = try await fixture.startDaemon(fakeTime: "2026-11-20 08:00:00")
            // It caught up, planned both, and shows nothing: everything it does at a start is done.
            #expect(
                await fixture.waitUntilSettled(daemon, nothingDueBy: "2026-11-20 08:00:00") { entries in
                    entries.count == 2
                })
            // What a start leaves running in the background (the database's log copied into the
            // file, memory given back) has a few seconds to finish.
            try await Task.sleep(for: .seconds(3))

            let before = Self.switches(of: daemon.pid)
            #expect(!before.isEmpty, "hoorayd's threads are readable in /proc")
            try await Task.sleep(for: .seconds(10))
            let after = Self.switches(of: daemon.pid)
            let woke = after.compactMap { tid, thread -> String? in
                guard let earlier = before[tid], thread.count > earlier.count else { return nil }
                return "\(thread.name) (\(tid)): \(thread.count - earlier.count)"
            }
            #expect(woke.isEmpty, "threads that woke in 10 s: \(woke.sorted())")
            // A thread that came and went in the window woke too.
            #expect(Set(after.keys) == Set(before.keys), "threads came or went: \(before.keys) → \(after.keys)")
            #expect(daemon.isRunning)
            await daemon.stop()
        }
    }
}
