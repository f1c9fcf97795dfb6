import Foundation
import HoorayCalendar
import HoorayClient
import HoorayTesting
import Testing

@testable import HooraySync

/// N devices make random edits, deletions and ticks while their changes reach the others late, out
/// of order and more than once; once everything has arrived everywhere, every device holds the same
/// records.
@Suite struct SyncConvergenceTests {
    struct Device {
        var clock: HybridClock
        var replica = SyncReplica()
        /// Changes from the others not folded in yet.
        var inbox: [SyncChange] = []
        /// The device's clock, in milliseconds; it drifts from the others by hours.
        var wall: Int64
    }

    static let keys =
        (0..<4).map { SyncRecordKey(plugin: "habits", kind: "habit", id: "h\($0)") }
        + (0..<3).map { SyncRecordKey(plugin: "wins", kind: "moment", id: "m\($0)") }

    /// A random edit of `current` (a new record when `nil`).
    static func edited(_ current: JSONValue?, key: SyncRecordKey, random: inout SeededRandomNumberGenerator) throws
        -> JSONValue?
    {
        if current != nil, Int.random(in: 0..<12, using: &random) == 0 { return nil }
        if key.kind == "habit" {
            var done = (try? current?["done"]?.decodeValue(DaySet.self))?.map(\.daysSinceEpoch) ?? []
            let day = 20_000 + Int.random(in: 0..<10, using: &random)
            if done.contains(day) { done.removeAll { $0 == day } } else { done.append(day) }
            let name =
                Bool.random(using: &random)
                ? "Read \(Int.random(in: 0..<5, using: &random))" : current?["name"]?.stringValue ?? "Read"
            return try habit(name: name, done: done.sorted())
        }
        var members: [String: JSONValue] = ["text": .string("win \(Int.random(in: 0..<5, using: &random))")]
        if Bool.random(using: &random) { members["favorite"] = .bool(Bool.random(using: &random)) }
        var tags: [JSONValue] = []
        if case .array(let had)? = current?["tags"] { tags = had }
        let tag = JSONValue.string("t\(Int.random(in: 0..<4, using: &random))")
        if tags.contains(tag) { tags.removeAll { $0 == tag } } else { tags.append(tag) }
        members["tags"] = .array(tags)
        members["photos"] = current?["photos"] ?? .array([])
        return .object(members)
    }

    @Test(arguments: 0..<60)
    func everyDeviceEndsWithTheSameRecords(seed: UInt64) throws {
        var random = SeededRandomNumberGenerator(seed: seed)
        let count = Int.random(in: 2...4, using: &random)
        var devices = (0..<count).map { index in
            Device(
                clock: HybridClock(
                    device: SyncDeviceID(String(repeating: "0123456789abcdef".map(String.init)[index], count: 32))!),
                wall: 1_000_000 + Int64.random(in: -3 * 3_600_000...3 * 3_600_000, using: &random))
        }
        var everything: [SyncChange] = []
        for _ in 0..<Int.random(in: 20...120, using: &random) {
            let at = Int.random(in: 0..<count, using: &random)
            devices[at].wall += Int64.random(in: 0...90_000, using: &random)
            if !devices[at].inbox.isEmpty, Bool.random(using: &random) {
                // Some of what came, in random order, a few twice.
                devices[at].inbox.shuffle(using: &random)
                let taken = Int.random(in: 1...devices[at].inbox.count, using: &random)
                for change in devices[at].inbox.prefix(taken) {
                    devices[at].replica.apply(change)
                    devices[at].clock.observe(change.stamp)
                    if Int.random(in: 0..<5, using: &random) == 0 { devices[at].replica.apply(change) }
                }
                devices[at].inbox.removeFirst(taken)
                continue
            }
            let key = Self.keys.randomElement(using: &random)!
            // A deleted record may be written again (imported, or a stored value's key used again).
            let current = devices[at].replica.value(of: key)
            let new = try Self.edited(current, key: key, random: &random)
            let changes = SyncDiff.changes(
                from: current, to: new, record: key, clock: &devices[at].clock, wall: devices[at].wall)
            for change in changes { devices[at].replica.apply(change) }
            everything += changes
            for other in devices.indices where other != at {
                devices[other].inbox += changes
                if Int.random(in: 0..<4, using: &random) == 0 { devices[other].inbox += changes }
            }
        }
        // Everything reaches everyone at last, in some order, some of it again.
        for index in devices.indices {
            var late = devices[index].inbox + everything.filter { _ in Int.random(in: 0..<3, using: &random) == 0 }
            late.shuffle(using: &random)
            for change in late { devices[index].replica.apply(change) }
            for change in everything.shuffled(using: &random) { devices[index].replica.apply(change) }
        }
        let first = devices[0].replica.values.map { "\($0.key) \($0.value.canonicalText)" }
        for device in devices.dropFirst() {
            #expect(device.replica.values.map { "\($0.key) \($0.value.canonicalText)" } == first, "seed \(seed)")
            #expect(device.replica == devices[0].replica, "seed \(seed)")
        }
        // A computer that joins late from one's snapshot of some of the changes, written and read
        // back, then folds in all of them, holds the same records.
        let cut = Int.random(in: 0...everything.count, using: &random)
        var early = SyncReplica()
        for change in everything.prefix(cut).shuffled(using: &random) { early.apply(change) }
        let written = try JSONEncoder().encode(early.snapshot(read: [:]))
        var late = SyncReplica()
        late.merge(try JSONDecoder().decode(SyncSnapshot.self, from: written))
        for change in everything.shuffled(using: &random) { late.apply(change) }
        #expect(late.records == devices[0].replica.records, "seed \(seed)")
    }
}
