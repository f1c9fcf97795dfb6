import Foundation
import HoorayCalendar
import HoorayKit
import Testing
import WinsPlugin

/// Moments and instants for the view tests, shared by the Moments and Journey suites.
enum Fixture {
    /// An instant written in ISO 8601, such as `2026-11-21T18:55:00Z`.
    static func instant(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }

    static func zone(_ identifier: String) -> TimeZone { TimeZone(identifier: identifier)! }

    static func day(_ text: String) -> LocalDate { LocalDate(parsing: text)! }

    /// A moment that happened at `happenedAt` and was logged a minute later.
    static func moment(
        _ text: String, at happenedAt: String, id: String = UUID().uuidString, mood: Mood? = nil,
        favorite: Bool = false, offlinePraise: String = "Nice move.", aiPraise: String? = nil
    ) -> Moment {
        let happened = instant(happenedAt)
        return Moment(
            id: UUID(uuidString: id)!, text: text, submittedAt: happened.addingTimeInterval(60), happenedAt: happened,
            timeZone: "Europe/Paris", offlinePraise: offlinePraise, aiPraise: aiPraise, mood: mood,
            isFavorite: favorite)
    }

    /// The JSON text as an array of objects.
    static func objects(_ json: String) throws -> [[String: Any]] {
        try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
    }
}

@Suite struct RelativeTimeTests {
    static let now = Fixture.instant("2026-11-21T19:00:00Z")

    @Test(
        "The phrase for an instant some seconds before now",
        arguments: [
            (-30, "just now"), (0, "just now"), (59, "just now"), (60, "1 min ago"), (359, "5 min ago"),
            (3599, "59 min ago"), (3600, "1 h ago"), (12 * 3600 - 1, "11 h ago"), (12 * 3600, "Sat 21 Nov, 07:00"),
            (24 * 3600 + 20 * 60, "Fri 20 Nov, 18:40"),
        ])
    func phrase(secondsAgo: Int, expected: String) {
        let instant = Self.now.addingTimeInterval(-TimeInterval(secondsAgo))
        #expect(RelativeTime.phrase(from: instant, to: Self.now, timeZone: Fixture.zone("UTC")) == expected)
    }

    @Test func olderInstantsShowTheLocalTimeOfTheTimeZone() {
        let instant = Fixture.instant("2026-11-20T18:40:00Z")
        #expect(
            RelativeTime.phrase(from: instant, to: Self.now, timeZone: Fixture.zone("Asia/Tokyo"))
                == "Sat 21 Nov, 03:40")
        #expect(
            RelativeTime.phrase(from: instant, to: Self.now, timeZone: Fixture.zone("America/New_York"))
                == "Fri 20 Nov, 13:40")
    }

    @Test func anInstantOfAnotherYearShowsTheYear() {
        let phrase = RelativeTime.phrase(
            from: Fixture.instant("2025-12-31T23:15:00Z"), to: Fixture.instant("2026-01-02T10:00:00Z"),
            timeZone: Fixture.zone("UTC"))
        #expect(phrase == "Wed 31 Dec 2025, 23:15")
    }
}

@Suite struct MomentsViewTests {
    static let now = Fixture.instant("2026-11-21T19:00:00Z")
    static let utc = Fixture.zone("UTC")

    static let cleaned = Fixture.moment(
        "Cleaned something quietly bothering me", at: "2026-11-21T18:55:00Z",
        id: "3F2A9C1B-0000-4000-8000-000000000001", mood: .calm, favorite: true,
        offlinePraise: "You made space for yourself.")
    static let walk = Fixture.moment(
        "Took a short walk", at: "2026-11-21T16:00:00Z", id: "0A1B2C3D-0000-4000-8000-000000000002",
        offlinePraise: "Nice.", aiPraise: "Fresh air, fresh start.")
    static let friend = Fixture.moment(
        "Called a friend", at: "2026-11-20T18:40:00Z", id: "BEEFCAFE-0000-4000-8000-000000000003",
        offlinePraise: "Connection counts.")
    static let plants = Fixture.moment(
        "Watered the plants", at: "2025-11-18T09:05:00Z", id: "12345678-0000-4000-8000-000000000004",
        mood: .proud, favorite: true, offlinePraise: "They noticed.")
    static let all = [friend, plants, cleaned, walk]

    @Test func rendersSectionsNewestFirstWithRelativeTimesAndPraise() {
        let expected = """
            Moments

            Today
            • ★ Cleaned something quietly bothering me 🙂  [3f2a9c1b]
              5 min ago · “You made space for yourself.”
            • Took a short walk  [0a1b2c3d]
              3 h ago · “Fresh air, fresh start.”

            Yesterday
            • Called a friend  [beefcafe]
              Fri 20 Nov, 18:40 · “Connection counts.”

            Tue 18 Nov 2025
            • ★ Watered the plants 💪  [12345678]
              Tue 18 Nov 2025, 09:05 · “They noticed.”
            """
        #expect(MomentsView.text(Self.all, now: Self.now, timeZone: Self.utc) == expected)
    }

    @Test func aLocalMidnightSplitsSections() {
        // 23:50 and 00:10 in New York, twenty minutes apart.
        let late = Fixture.moment("Late", at: "2026-11-21T04:50:00Z")
        let early = Fixture.moment("Early", at: "2026-11-21T05:10:00Z")
        let text = MomentsView.text(
            [late, early], now: Fixture.instant("2026-11-21T17:00:00Z"), timeZone: Fixture.zone("America/New_York"))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[2] == "Today")
        #expect(lines[3].hasPrefix("• Early"))
        #expect(lines[5] == "")
        #expect(lines[6] == "Yesterday")
        #expect(lines[7].hasPrefix("• Late"))
    }

    @Test(
        "The same instants fall on the local days of the time zone",
        arguments: [
            ("UTC", "2026-11-21", "2026-11-21"),
            ("America/New_York", "2026-11-20", "2026-11-21"),
            ("Asia/Tokyo", "2026-11-21", "2026-11-22"),
        ])
    func localDaysDependOnTheTimeZone(zone: String, firstDay: String, secondDay: String) throws {
        let first = Fixture.moment("First", at: "2026-11-21T03:30:00Z")
        let second = Fixture.moment("Second", at: "2026-11-21T16:00:00Z")
        let timeZone = Fixture.zone(zone)
        let objects = try Fixture.objects(
            MomentsView.json([first, second], now: Fixture.instant("2026-11-21T16:30:00Z"), timeZone: timeZone))
        #expect(objects.map { $0["text"] as? String } == ["Second", "First"])
        #expect(objects.map { $0["day"] as? String } == [secondDay, firstDay])

        let text = MomentsView.text([first, second], now: Fixture.instant("2026-11-21T16:30:00Z"), timeZone: timeZone)
        let headers = text.split(separator: "\n").filter { !$0.hasPrefix("•") && !$0.hasPrefix(" ") }
        #expect(headers == (firstDay == secondDay ? ["Moments", "Today"] : ["Moments", "Today", "Yesterday"]))
    }

    @Test(
        "Days around a daylight saving change group by the local calendar day",
        arguments: [
            // Clocks went forward at 02:00 on Sunday 8 March 2026.
            (
                ["2026-03-08T04:50:00Z", "2026-03-08T05:30:00Z", "2026-03-08T07:30:00Z", "2026-03-09T03:50:00Z"],
                "2026-03-09T12:00:00Z", "2026-03-08", "2026-03-07", "Sat 7 Mar"
            ),
            // Clocks went back at 02:00 on Sunday 1 November 2026: 01:30 happened twice.
            (
                ["2026-11-01T03:50:00Z", "2026-11-01T05:30:00Z", "2026-11-01T06:30:00Z", "2026-11-02T04:50:00Z"],
                "2026-11-02T17:00:00Z", "2026-11-01", "2026-10-31", "Sat 31 Oct"
            ),
        ])
    func daylightSavingDays(
        instants: [String], now: String, changeDay: String, dayBefore: String, dayBeforeHeader: String
    ) throws {
        let moments = instants.enumerated().map { Fixture.moment("Moment \($0.offset)", at: $0.element) }
        let newYork = Fixture.zone("America/New_York")
        let objects = try Fixture.objects(MomentsView.json(moments, now: Fixture.instant(now), timeZone: newYork))
        #expect(objects.map { $0["day"] as? String } == [changeDay, changeDay, changeDay, dayBefore])

        let text = MomentsView.text(moments, now: Fixture.instant(now), timeZone: newYork)
        let headers = text.split(separator: "\n").filter { !$0.hasPrefix("•") && !$0.hasPrefix(" ") }
        #expect(headers == ["Moments", "Yesterday", Substring(dayBeforeHeader)])
    }

    @Test func favouritesOnlyKeepsTheStarredMoments() {
        let text = MomentsView.text(Self.all, now: Self.now, timeZone: Self.utc, favoritesOnly: true)
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("•") }
        #expect(
            rows == [
                "• ★ Cleaned something quietly bothering me 🙂  [3f2a9c1b]", "• ★ Watered the plants 💪  [12345678]",
            ])
    }

    @Test func theDayFilterKeepsOneLocalDay() {
        let text = MomentsView.text(Self.all, now: Self.now, timeZone: Self.utc, day: Fixture.day("2026-11-20"))
        #expect(
            text == "Moments\n\nYesterday\n• Called a friend  [beefcafe]\n  Fri 20 Nov, 18:40 · “Connection counts.”")
    }

    @Test func withNoMomentsTheListInvitesTheFirstOne() {
        let expected = """
            Moments

            No moments yet… but you're here, so that's one.
            Log your first moment: hooray win "what you did"
            """
        #expect(MomentsView.text([], now: Self.now, timeZone: Self.utc) == expected)
        #expect(MomentsView.json([], now: Self.now, timeZone: Self.utc) == "[]")
    }

    @Test(
        "Filters that leave nothing say so",
        arguments: [
            ("2026-11-19", false, "No moments on Thu 19 Nov."),
            ("2026-11-21", false, "No moments today."),
            ("2026-11-20", true, "No favourite moments yesterday."),
            (nil, true, "No favourite moments yet. Mark one with `hooray moments fav ID`."),
        ])
    func emptyFilters(day: String?, favoritesOnly: Bool, message: String) {
        // Given one moment, yesterday's, which is not a favourite.
        let text = MomentsView.text(
            [Self.friend], now: Self.now, timeZone: Self.utc, day: day.map(Fixture.day), favoritesOnly: favoritesOnly)
        #expect(text == "Moments\n\n\(message)")
    }

    @Test func jsonHasEveryFieldOfEachMomentNewestFirst() throws {
        var placeholder = Fixture.moment(Moment.placeholderText, at: "2026-11-21T18:00:00Z")
        placeholder.isPlaceholder = true
        placeholder.note = "Felt good."
        placeholder.photos = ["/home/me/Pictures/walk.jpg"]
        placeholder.tags = ["outdoors"]
        placeholder.sync = .pending
        placeholder.syncError = "The AI service did not answer."
        let objects = try Fixture.objects(
            MomentsView.json(
                [Self.walk, placeholder, Self.cleaned], now: Self.now, timeZone: Fixture.zone("Asia/Tokyo")))
        #expect(objects.count == 3)

        let cleaned = objects[0]
        let keys = [
            "aiPraise", "day", "favorite", "happenedAt", "id", "mood", "note", "offlinePraise", "photos", "placeholder",
            "praise", "submittedAt", "sync", "syncError", "tags", "text", "timeAgo", "timeZone",
        ]
        #expect(cleaned.keys.sorted() == keys)
        #expect(cleaned["id"] as? String == "3f2a9c1b-0000-4000-8000-000000000001")
        #expect(cleaned["text"] as? String == "Cleaned something quietly bothering me")
        #expect(cleaned["happenedAt"] as? String == "2026-11-21T18:55:00Z")
        #expect(cleaned["submittedAt"] as? String == "2026-11-21T18:56:00Z")
        #expect(cleaned["day"] as? String == "2026-11-22")
        #expect(cleaned["timeZone"] as? String == "Europe/Paris")
        #expect(cleaned["timeAgo"] as? Int == 60)
        #expect(cleaned["aiPraise"] is NSNull)
        #expect(cleaned["praise"] as? String == "You made space for yourself.")
        #expect(cleaned["mood"] as? String == "calm")
        #expect(cleaned["note"] is NSNull)
        #expect(cleaned["favorite"] as? Bool == true)
        #expect(cleaned["sync"] as? String == "local")
        #expect(cleaned["syncError"] is NSNull)

        let placeholderObject = objects[1]
        #expect(placeholderObject["text"] as? String == "A private moment")
        #expect(placeholderObject["placeholder"] as? Bool == true)
        #expect(placeholderObject["note"] as? String == "Felt good.")
        #expect(placeholderObject["photos"] as? [String] == ["/home/me/Pictures/walk.jpg"])
        #expect(placeholderObject["tags"] as? [String] == ["outdoors"])
        #expect(placeholderObject["sync"] as? String == "pending")
        #expect(placeholderObject["syncError"] as? String == "The AI service did not answer.")
        #expect(placeholderObject["mood"] is NSNull)

        let walk = objects[2]
        #expect(walk["aiPraise"] as? String == "Fresh air, fresh start.")
        #expect(walk["offlinePraise"] as? String == "Nice.")
        #expect(walk["praise"] as? String == "Fresh air, fresh start.")
        #expect(walk["favorite"] as? Bool == false)
    }

    @Test func jsonFollowsTheFilters() throws {
        let favourites = try Fixture.objects(
            MomentsView.json(Self.all, now: Self.now, timeZone: Self.utc, favoritesOnly: true))
        #expect(
            favourites.map { $0["text"] as? String } == [
                "Cleaned something quietly bothering me", "Watered the plants",
            ])
        let oneDay = try Fixture.objects(
            MomentsView.json(Self.all, now: Self.now, timeZone: Self.utc, day: Fixture.day("2026-11-21")))
        #expect(
            oneDay.map { $0["text"] as? String } == ["Cleaned something quietly bothering me", "Took a short walk"])
    }

    @Test func aMomentTypedOnSeveralLinesStaysOneRow() {
        let moment = Fixture.moment(
            "Fixed the sink\nand the door", at: "2026-11-21T18:30:00Z", id: Self.walk.id.uuidString)
        let text = MomentsView.text([moment], now: Self.now, timeZone: Self.utc)
        #expect(text.contains("• Fixed the sink and the door  [0a1b2c3d]\n  30 min ago · “Nice move.”"))
    }
}
