import Foundation
import HoorayCalendar
import HoorayClient
import Testing

@testable import HooraySync

let laptop = SyncDeviceID("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")!
let desktop = SyncDeviceID("bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb")!
let habitKey = SyncRecordKey(plugin: "habits", kind: "habit", id: "3F2A")
/// 1 November 2026, in days since 1970-01-01, as docs/sync.md's example counts it.
let november1 = 20_758

/// A habit record as the habits plugin writes it, with the days done.
func habit(name: String, done days: [Int]) throws -> JSONValue {
    let set = DaySet(days.map(LocalDate.init(daysSinceEpoch:)))
    return .object([
        "name": .string(name), "done": try JSONValue(encodingValue: set), "resets": .array([]),
        "pauses": .array([]), "celebrated": .array([]),
    ])
}

/// The days done in a merged habit.
func days(_ value: JSONValue?) throws -> [Int] {
    let set = try #require(value?["done"]).decodeValue(DaySet.self)
    return set.map(\.daysSinceEpoch)
}

@Suite struct HybridClockTests {
    @Test func stampsGoForwardEvenWhenTheClockDoesNot() {
        var clock = HybridClock(device: laptop)
        let first = clock.stamp(wall: 1_000)
        let second = clock.stamp(wall: 1_000)
        let third = clock.stamp(wall: 900)  // the clock was set back
        #expect(first < second && second < third)
        #expect(third.wall == 1_000 && third.counter == 2)
    }

    @Test func aChangeMadeAfterOneSeenIsLaterWhateverTheClocksSay() {
        // The desktop's clock is three hours ahead.
        var ahead = HybridClock(device: desktop)
        let seen = ahead.stamp(wall: 1_000 + 3 * 3_600_000)
        var behind = HybridClock(device: laptop)
        behind.observe(seen)
        let reply = behind.stamp(wall: 1_000)
        #expect(reply > seen)
    }

    @Test func deviceIDsAreThirtyTwoHexDigits() {
        #expect(SyncDeviceID("ABCDEFabcdef00000000000000000000") == nil)
        #expect(SyncDeviceID("../../etc") == nil)
        #expect(SyncDeviceID.random().rawValue.count == 32)
        #expect(SyncDeviceID.random() != SyncDeviceID.random())
    }
}

@Suite struct SyncMergeTests {
    @Test func aNewDayDoneIsOneAddAndARenameOneSet() throws {
        var clock = HybridClock(device: laptop)
        let old = try habit(name: "Read", done: [20_000])
        let new = try habit(name: "Read 10 pages", done: [20_000, 20_001])
        let changes = SyncDiff.changes(from: old, to: new, record: habitKey, clock: &clock, wall: 5)
        #expect(
            changes.map(\.operation) == [
                .add(field: "done", element: .number(20_001)), .set(field: "name", value: .string("Read 10 pages")),
            ])
        #expect(SyncDiff.changes(from: new, to: new, record: habitKey, clock: &clock, wall: 6).isEmpty)
        #expect(
            SyncDiff.changes(from: new, to: nil, record: habitKey, clock: &clock, wall: 7).map(\.operation) == [.delete]
        )
    }

    /// docs/sync.md's worked example: two computers offline, each edits the same habit.
    @Test func twoOfflineEditsMergeAsDocumented() throws {
        var onLaptop = SyncReplica()
        var onDesktop = SyncReplica()
        var laptopClock = HybridClock(device: laptop)
        var desktopClock = HybridClock(device: desktop)
        // Both know the habit "Read", done on 1 November 2026.
        let start = try habit(name: "Read", done: [november1])
        let created = SyncDiff.changes(from: nil, to: start, record: habitKey, clock: &laptopClock, wall: 1_000)
        for change in created {
            onLaptop.apply(change)
            onDesktop.apply(change)
            desktopClock.observe(change.stamp)
        }
        // Offline. The laptop (at 09:00) ticks 2 November and renames it "Read 10 pages"; the desktop
        // (at 09:30, by its clock) ticks 3 November, undoes 1 November and renames it "Read a chapter".
        let laptopEdit = SyncDiff.changes(
            from: start, to: try habit(name: "Read 10 pages", done: [november1, november1 + 1]), record: habitKey,
            clock: &laptopClock, wall: 9 * 3_600_000)
        let desktopEdit = SyncDiff.changes(
            from: start, to: try habit(name: "Read a chapter", done: [november1 + 2]), record: habitKey,
            clock: &desktopClock, wall: 9 * 3_600_000 + 1_800_000)
        for change in laptopEdit { onLaptop.apply(change) }
        for change in desktopEdit { onDesktop.apply(change) }
        // The link returns: each folds in the other's changes, in whatever order they come.
        for change in desktopEdit.reversed() { onLaptop.apply(change) }
        for change in laptopEdit + laptopEdit { onDesktop.apply(change) }

        #expect(onLaptop == onDesktop)
        let merged = onLaptop.value(of: habitKey)
        // The name changed last wins; every day done on either stays, and the day undone is undone.
        #expect(merged?["name"] == .string("Read a chapter"))
        #expect(try days(merged) == [november1 + 1, november1 + 2])
    }

    @Test func aDeletionWinsOverAnEditMadeAfterIt() throws {
        var replica = SyncReplica()
        var clock = HybridClock(device: laptop)
        let start = try habit(name: "Read", done: [])
        for change in SyncDiff.changes(from: nil, to: start, record: habitKey, clock: &clock, wall: 1) {
            replica.apply(change)
        }
        let deletion = SyncDiff.changes(from: start, to: nil, record: habitKey, clock: &clock, wall: 2)
        var other = HybridClock(device: desktop)
        let later = SyncDiff.changes(
            from: start, to: try habit(name: "Read more", done: [20_000]), record: habitKey, clock: &other, wall: 99)
        for change in later + deletion { replica.apply(change) }
        #expect(replica.value(of: habitKey) == nil)
        #expect(replica.isDeleted(habitKey))
    }

    @Test func aRecordWrittenAgainAfterItsDeletionComesBackAsWrittenWhateverTheOrder() throws {
        var clock = HybridClock(device: laptop)
        let first = try habit(name: "Read", done: [1, 2])
        let created = SyncDiff.changes(from: nil, to: first, record: habitKey, clock: &clock, wall: 1)
        let deletion = SyncDiff.changes(from: first, to: nil, record: habitKey, clock: &clock, wall: 2)
        let again = SyncDiff.changes(
            from: nil, to: try habit(name: "Read again", done: [3]), record: habitKey, clock: &clock, wall: 3)
        var forward = SyncReplica()
        var backward = SyncReplica()
        for change in created + deletion + again { forward.apply(change) }
        for change in (created + deletion + again).reversed() { backward.apply(change) }
        #expect(forward == backward)
        #expect(forward.value(of: habitKey)?["name"] == .string("Read again"))
        #expect(try days(forward.value(of: habitKey)) == [3])
        #expect(!forward.isDeleted(habitKey))
    }

    @Test func aRecordCreatedOnTwoComputersMergesFieldByField() throws {
        // Both import the same backup while apart; the laptop ticks a day, then the desktop imports.
        var laptopClock = HybridClock(device: laptop)
        var desktopClock = HybridClock(device: desktop)
        let imported = try habit(name: "Read", done: [1])
        let first = SyncDiff.changes(from: nil, to: imported, record: habitKey, clock: &laptopClock, wall: 1)
        let tick = SyncDiff.changes(
            from: imported, to: try habit(name: "Read", done: [1, 2]), record: habitKey, clock: &laptopClock, wall: 2)
        let second = SyncDiff.changes(from: nil, to: imported, record: habitKey, clock: &desktopClock, wall: 3)
        var replica = SyncReplica()
        for change in second + tick + first { replica.apply(change) }
        #expect(try days(replica.value(of: habitKey)) == [1, 2])
    }

    @Test func aStateIsStoredSmallAndReadBackTheSame() throws {
        var laptopClock = HybridClock(device: laptop)
        var desktopClock = HybridClock(device: desktop)
        let year = try habit(name: "Read", done: Array(20_000..<20_365))
        var replica = SyncReplica()
        for change in SyncDiff.changes(from: nil, to: year, record: habitKey, clock: &laptopClock, wall: 1)
            + SyncDiff.changes(
                from: year, to: try habit(name: "Read more", done: [20_000]), record: habitKey, clock: &desktopClock,
                wall: 2)
        {
            replica.apply(change)
        }
        let state = try #require(replica.records[habitKey])
        let stored = try JSONEncoder().encode(state)
        #expect(try JSONDecoder().decode(SyncReplica.Record.self, from: stored) == state)
        // Each computer's id once, and 365 days in well under 40 bytes each.
        let text = String(decoding: stored, as: UTF8.self)
        #expect(text.components(separatedBy: laptop.rawValue).count == 2)
        #expect(stored.count < 365 * 40, "\(stored.count) bytes")
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(SyncReplica.Record.self, from: Data(#"{"stamps":{}}"#.utf8))
        }
        // The first form, every stamp written out, as a database that turned sync on earlier holds it.
        let stamp = #"{"counter":1,"device":"\#(laptop.rawValue)","wall":5}"#
        let first = Data(
            #"{"created":\#(stamp),"fields":{"name":{"stamp":\#(stamp),"value":"Read"}},"#
                .appending(#""sets":{"done":{"7":{"element":7,"present":true,"stamp":\#(stamp)}}}}"#).utf8)
        let read = try JSONDecoder().decode(SyncReplica.Record.self, from: first)
        #expect(read.created == SyncStamp(wall: 5, counter: 1, device: laptop))
        #expect(read.value(setFields: ["done": .array])?["name"] == .string("Read"))
        #expect(read.value(setFields: ["done": .array])?["done"] == .array([.number(7)]))
    }

    @Test func aDeletedRecordKeepsNoneOfItsWords() throws {
        var replica = SyncReplica()
        var clock = HybridClock(device: laptop)
        let start = try habit(name: "Call grandma", done: [1])
        for change in SyncDiff.changes(from: nil, to: start, record: habitKey, clock: &clock, wall: 1)
            + SyncDiff.changes(from: start, to: nil, record: habitKey, clock: &clock, wall: 2)
        {
            replica.apply(change)
        }
        let state = try JSONEncoder().encode(try #require(replica.records[habitKey]))
        #expect(String(decoding: state, as: UTF8.self).contains("grandma") == false)
    }

    @Test func aNullAndNoValueAreOne() {
        let noteKey = SyncRecordKey(plugin: "wins", kind: "note", id: "n1")
        var clock = HybridClock(device: laptop)
        let changes = SyncDiff.changes(
            from: nil, to: .object(["words": .string("Ran"), "note": .null]), record: noteKey, clock: &clock,
            wall: 1)
        var here = SyncReplica()
        var there = SyncReplica()
        for change in changes { here.apply(change) }
        // A segment's decoding reads a null as no value.
        for change in changes {
            let decoded = try? JSONDecoder().decode(SyncChange.self, from: JSONEncoder().encode(change))
            there.apply(decoded!)
        }
        #expect(here == there)
        #expect(here.value(of: noteKey) == .object(["words": .string("Ran")]))
    }

    @Test func theSameChangeTwiceChangesNothingTheSecondTime() throws {
        var replica = SyncReplica()
        var clock = HybridClock(device: laptop)
        let changes = SyncDiff.changes(
            from: nil, to: try habit(name: "Read", done: [1]), record: habitKey, clock: &clock, wall: 1)
        #expect(changes.allSatisfy { replica.apply($0) })
        #expect(changes.allSatisfy { !replica.apply($0) })
    }

    @Test func aClockAtItsLastCountGoesOnAMillisecondLater() {
        var clock = HybridClock(device: laptop, after: SyncStamp(wall: 5, counter: .max, device: laptop))
        let next = clock.stamp(wall: 5)
        #expect(next.wall == 6 && next.counter == 0)
    }

    @Test func aDayOutsideTheCalendarIsLeftOut() throws {
        let value = SyncSchema.value(of: [.number(1e300), .number(1.5), .number(20_758)], shape: .daySet)
        #expect(try days(.object(["done": value])) == [20_758])
    }

    /// A habit kept before days were a bitmap has `completions`; its merge adds no empty `done` that
    /// would hide them.
    @Test func aHabitOfTheOlderFormKeepsItsDays() {
        var replica = SyncReplica()
        var clock = HybridClock(device: laptop)
        let old = JSONValue.object(["name": .string("Read"), "completions": .array([.number(20_758)])])
        for change in SyncDiff.changes(from: nil, to: old, record: habitKey, clock: &clock, wall: 1) {
            replica.apply(change)
        }
        let merged = replica.value(of: habitKey)
        #expect(merged?["done"] == nil)
        #expect(merged?["completions"] == .array([.number(20_758)]))
        #expect(merged?["resets"] == .array([]))
    }

    @Test func aMomentWithoutPhotosStillHasItsSetFields() {
        var replica = SyncReplica()
        var clock = HybridClock(device: laptop)
        let key = SyncRecordKey(plugin: "wins", kind: "moment", id: "m1")
        for change in SyncDiff.changes(
            from: nil, to: .object(["text": .string("Took a walk")]), record: key, clock: &clock, wall: 1)
        {
            replica.apply(change)
        }
        #expect(
            replica.value(of: key)
                == .object(["text": .string("Took a walk"), "photos": .array([]), "tags": .array([])]))
    }
}
