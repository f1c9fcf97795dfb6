import Foundation
import Testing

@testable import HoorayCalendar

/// The bitmap a streak's history is kept in behaves as a set of days, and is stored compactly.
@Suite struct DaySetTests {
    static let start = LocalDate(year: 2026, month: 1, day: 1)!

    @Test func itBehavesLikeASetWhateverTheOrderOfChanges() {
        var random = SystemRandomNumberGenerator()
        var days = DaySet()
        var reference = Set<LocalDate>()
        for _ in 0..<3000 {
            let day = Self.start.adding(days: Int.random(in: -200...600, using: &random))
            if Bool.random(using: &random) {
                #expect(days.insert(day) == reference.insert(day).inserted)
            } else {
                #expect((days.remove(day) != nil) == (reference.remove(day) != nil))
            }
            #expect(days.count == reference.count)
        }
        #expect(Array(days) == reference.sorted())
        #expect(days == DaySet(reference), "one form per set, however it was built")
        for offset in -210...610 {
            let day = Self.start.adding(days: offset)
            #expect(days.contains(day) == reference.contains(day))
        }
    }

    @Test func removingTheEarliestDaysKeepsEqualSetsEqual() {
        var days: DaySet = [Self.start, Self.start.adding(days: 70), Self.start.adding(days: 140)]
        days.remove(Self.start)
        days.remove(Self.start.adding(days: 70))
        #expect(days == [Self.start.adding(days: 140)])
        #expect(days.hashValue == DaySet([Self.start.adding(days: 140)]).hashValue)
        days.remove(Self.start.adding(days: 140))
        #expect(days.isEmpty)
        #expect(days == DaySet())
    }

    @Test(arguments: [0, 1, 63, 64, 65, 365, 3650])
    func theStoredFormRoundTrips(span: Int) {
        let days = DaySet((0...span).filter { $0 % 7 != 3 }.map { Self.start.adding(days: $0) })
        let stored = days.storedForm
        #expect(DaySet(first: stored.first, bytes: stored.bytes) == days)
        #expect(stored.bytes.count <= span / 8 + 1)
    }

    @Test func itIsEncodedAsItsFirstDayAndTheBitmap() throws {
        let days: DaySet = [Self.start, Self.start.adding(days: 4)]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(days), as: UTF8.self)
        // Days 0 and 4 from the first: one byte, 0b0001_0001.
        #expect(text == "{\"bits\":\"EQ==\",\"from\":\(Self.start.daysSinceEpoch)}")
        #expect(try JSONDecoder().decode(DaySet.self, from: Data(text.utf8)) == days)
    }
}
