import Foundation
import HoorayKit
import HoorayMessages
import Testing
import WinsPlugin

@Suite struct JourneyViewTests {
    static let now = Fixture.instant("2025-10-25T20:00:00Z")
    static let utc = Fixture.zone("UTC")
    static let pool = [
        "single": ["One small step, and it counts."],
        "few": ["Steady, gentle progress. You took care of small things today."],
        "many": ["A full day of small wins."],
    ]

    static let seedDay = [
        Fixture.moment("Took a short walk", at: "2025-10-25T12:00:00Z"),
        Fixture.moment("Called a friend", at: "2025-10-25T18:00:00Z"),
        Fixture.moment("Cleaned something quietly bothering me", at: "2025-10-25T09:00:00Z"),
    ]
    static let water = Fixture.moment("Drank a glass of water", at: "2025-10-23T10:00:00Z", mood: .proud)

    /// Moments with the given moods, an hour apart on 25 October 2025, in that order.
    static func day(_ moods: [Mood?]) -> [Moment] {
        moods.enumerated().map { index, mood in
            Fixture.moment("Moment \(index)", at: "2025-10-25T1\(index):00:00Z", mood: mood)
        }
    }

    static func days(_ json: String) throws -> [[String: Any]] { try Fixture.objects(json) }

    @Test func rendersOneCardPerDayNewestFirstLikeTheSeed() {
        let expected = """
            Your journey
            Tiny steps, day by day.

            Sat 25 Oct 🙂 Calm day
            3 moments logged

            • Cleaned something quietly bothering me
            • Took a short walk
            • Called a friend

            Summary:
            “Steady, gentle progress. You took care of small things today.”

            Thu 23 Oct 💪 Proud day
            1 moment logged

            • Drank a glass of water

            Summary:
            “One small step, and it counts.”
            """
        let text = JourneyView.text(
            [Self.water] + Self.seedDay, now: Self.now, timeZone: Self.utc, summaries: Self.pool)
        #expect(text == expected)
    }

    @Test func withoutMomentsInTheWindowTheJourneyWaits() {
        let expected = """
            Your journey
            Tiny steps, day by day.

            Once you have a few days of moments, you'll see your journey here.
            """
        #expect(JourneyView.text([], now: Self.now, timeZone: Self.utc, summaries: Self.pool) == expected)
        #expect(JourneyView.text([Self.water], now: Self.now, timeZone: Self.utc, days: 2) == expected)
        #expect(JourneyView.json([], now: Self.now, timeZone: Self.utc) == "[]")
    }

    @Test(
        "The window counts local days back from today",
        arguments: [
            (0, ["2025-10-25"]), (1, ["2025-10-25"]), (2, ["2025-10-25"]), (3, ["2025-10-25", "2025-10-23"]),
            (14, ["2025-10-25", "2025-10-23"]), (15, ["2025-10-25", "2025-10-23", "2025-10-11"]),
        ])
    func window(days: Int, dates: [String]) throws {
        let old = Fixture.moment("Fortnight ago", at: "2025-10-11T23:30:00Z")
        let json = JourneyView.json(
            Self.seedDay + [Self.water, old], now: Self.now, timeZone: Self.utc, days: days, summaries: Self.pool)
        #expect(try Self.days(json).map { $0["date"] as? String } == dates)
    }

    @Test(
        "A day's mood is its most common one, ties going to the latest",
        arguments: [
            ([nil], "🌱 Gentle day"),
            ([nil, nil], "🙂 Calm day"),
            ([nil, nil, nil], "🙂 Calm day"),
            ([nil, nil, nil, nil], "✨ Full day"),
            ([nil, .sad], "💙 Tender day"),
            ([.calm, .happy, .happy], "😊 Happy day"),
            ([.happy, .happy, .calm], "😊 Happy day"),
            ([.calm, .happy], "😊 Happy day"),
            ([.happy, .calm], "🙂 Calm day"),
            ([.tired, .tired, .relieved, .relieved, nil], "😌 Lighter day"),
            ([.relieved, .relieved, .tired, .tired, nil], "🌙 Tired but trying day"),
            ([.anxious, nil, nil, nil, nil], "🌧 Brave day"),
        ] as [([Mood?], String)])
    func moodLabel(moods: [Mood?], label: String) throws {
        let text = JourneyView.text(Self.day(moods), now: Self.now, timeZone: Self.utc, summaries: Self.pool)
        #expect(text.split(separator: "\n")[2] == "Sat 25 Oct \(label)")
        let day = try #require(
            try Self.days(JourneyView.json(Self.day(moods), now: Self.now, timeZone: Self.utc)).first)
        #expect("\(day["moodEmoji"] as? String ?? "") \(day["moodLabel"] as? String ?? "")" == label)
    }

    @Test(
        "The count picks the summary section and the singular",
        arguments: [
            (1, "1 moment logged", "One small step, and it counts."),
            (2, "2 moments logged", "Steady, gentle progress. You took care of small things today."),
            (3, "3 moments logged", "Steady, gentle progress. You took care of small things today."),
            (4, "4 moments logged", "A full day of small wins."),
            (7, "7 moments logged", "A full day of small wins."),
        ])
    func countAndSummary(count: Int, logged: String, summary: String) throws {
        let moments = Self.day(Array(repeating: nil, count: count))
        let text = JourneyView.text(moments, now: Self.now, timeZone: Self.utc, summaries: Self.pool)
        #expect(text.split(separator: "\n")[3] == logged)
        #expect(text.hasSuffix("Summary:\n“\(summary)”"))
        let day = try #require(
            try Self.days(JourneyView.json(moments, now: Self.now, timeZone: Self.utc, summaries: Self.pool)).first)
        #expect(day["count"] as? Int == count)
        #expect(day["summary"] as? String == summary)
    }

    @Test func aDaysSummaryDependsOnlyOnItsDate() throws {
        // FNV-1a of the date picks the line, the same in every run and on every machine.
        let pool = ["few": ["S0", "S1", "S2", "S3", "S4"]]
        let moments = ["2025-10-25", "2025-10-24", "2025-10-23"].flatMap { date in
            [Fixture.moment("A", at: "\(date)T08:00:00Z"), Fixture.moment("B", at: "\(date)T09:00:00Z")]
        }
        for now in ["2025-10-25T20:00:00Z", "2025-10-27T09:00:00Z"] {
            let json = JourneyView.json(moments, now: Fixture.instant(now), timeZone: Self.utc, summaries: pool)
            #expect(try Self.days(json).map { $0["summary"] as? String } == ["S0", "S1", "S2"])
        }
    }

    @Test func aDayWithoutASummaryLineHasNoSummary() throws {
        let text = JourneyView.text([Self.water], now: Self.now, timeZone: Self.utc, summaries: ["few": ["Two."]])
        #expect(text.hasSuffix("1 moment logged\n\n• Drank a glass of water"))
        let day = try #require(
            try Self.days(JourneyView.json([Self.water], now: Self.now, timeZone: Self.utc, summaries: [:])).first)
        #expect(day["summary"] is NSNull)
        #expect(day["summarySource"] is NSNull)
    }

    @Test func jsonHasOneObjectPerDayWithItsMomentsOldestFirst() throws {
        let json = JourneyView.json(
            [Self.water] + Self.seedDay, now: Self.now, timeZone: Self.utc, summaries: Self.pool)
        let days = try Self.days(json)
        #expect(days.count == 2)
        #expect(
            days[0].keys.sorted() == ["count", "date", "moments", "moodEmoji", "moodLabel", "summary", "summarySource"])
        #expect(days[0]["date"] as? String == "2025-10-25")
        #expect(days[0]["moodLabel"] as? String == "Calm day")
        #expect(days[0]["moodEmoji"] as? String == "🙂")
        #expect(days[0]["count"] as? Int == 3)
        #expect(
            days[0]["moments"] as? [String] == [
                "Cleaned something quietly bothering me", "Took a short walk", "Called a friend",
            ])
        #expect(days[0]["summary"] as? String == "Steady, gentle progress. You took care of small things today.")
        #expect(days[0]["summarySource"] as? String == "local")
        #expect(days[1]["date"] as? String == "2025-10-23")
        #expect(days[1]["moodLabel"] as? String == "Proud day")
        #expect(days[1]["moments"] as? [String] == ["Drank a glass of water"])
    }

    @Test func cardsFollowTheLocalDaysOfTheTimeZone() throws {
        // 23:30 UTC on the 24th is already the 25th in Tokyo, and still the 24th in New York.
        let moments = [
            Fixture.moment("Late", at: "2025-10-24T23:30:00Z"), Fixture.moment("Noon", at: "2025-10-25T12:00:00Z"),
        ]
        let tokyo = JourneyView.json(moments, now: Self.now, timeZone: Fixture.zone("Asia/Tokyo"), summaries: Self.pool)
        #expect(try Self.days(tokyo).map { $0["count"] as? Int } == [2])
        let newYork = JourneyView.json(
            moments, now: Self.now, timeZone: Fixture.zone("America/New_York"), summaries: Self.pool)
        #expect(try Self.days(newYork).map { $0["date"] as? String } == ["2025-10-25", "2025-10-24"])
    }

    @Test func aDaylightSavingDayIsOneCard() throws {
        // Clocks went forward at 02:00 on 8 March 2026 in New York: 00:30 EST to 23:50 EDT is one day.
        let moments = [
            Fixture.moment("Before midnight", at: "2026-03-08T04:50:00Z"),
            Fixture.moment("Half past midnight", at: "2026-03-08T05:30:00Z"),
            Fixture.moment("After the change", at: "2026-03-08T07:30:00Z"),
            Fixture.moment("Before bed", at: "2026-03-09T03:50:00Z"),
        ]
        let now = Fixture.instant("2026-03-09T12:00:00Z")
        let newYork = Fixture.zone("America/New_York")
        let text = JourneyView.text(moments, now: now, timeZone: newYork, summaries: Self.pool)
        #expect(
            text.contains(
                "Sun 8 Mar 🙂 Calm day\n3 moments logged\n\n• Half past midnight\n• After the change\n• Before bed\n"))
        #expect(text.contains("Sat 7 Mar 🌱 Gentle day\n1 moment logged\n\n• Before midnight\n"))
        let days = try Self.days(JourneyView.json(moments, now: now, timeZone: newYork, days: 2, summaries: Self.pool))
        #expect(days.map { $0["date"] as? String } == ["2026-03-08"])
    }

    @Test func theShippedPoolHasASummaryForEveryCount() throws {
        for count in [1, 2, 4] {
            let moments = Self.day(Array(repeating: nil, count: count))
            let day = try #require(try Self.days(JourneyView.json(moments, now: Self.now, timeZone: Self.utc)).first)
            #expect((day["summary"] as? String)?.isEmpty == false)
        }
    }

    /// A card may be for a day long past, so no built-in summary may speak of today or now.
    @Test func builtInSummariesFitAnyDay() {
        let lines = MessagePools.journeySummaries.values.flatMap { $0 }
        #expect(lines.count >= 27)
        for line in lines {
            let words = Set(line.lowercased().split { !$0.isLetter }.map(String.init))
            #expect(words.isDisjoint(with: ["today", "tonight", "now", "yesterday"]), "\(line)")
        }
    }

    @Test func storedControlCharactersAreShownAsSymbols() {
        let moment = Fixture.moment("\u{1B}[2JHi \u{202E}there\u{07}", at: "2025-10-25T12:00:00Z")
        let text = JourneyView.text([moment], now: Self.now, timeZone: Self.utc, summaries: Self.pool)
        #expect(text.contains("• ␛[2JHi there␇"))
        #expect(!text.contains("\u{1B}") && !text.contains("\u{202E}"))
        #expect(JourneyView.json([moment], now: Self.now, timeZone: Self.utc).contains("\\u001b[2JHi"))
    }
}
