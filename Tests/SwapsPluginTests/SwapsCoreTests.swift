import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit
import HoorayTesting
import Testing

@testable import SwapsPlugin

/// An instant given as wall-clock time in UTC, such as `2026-11-23 21:00`.
func time(_ text: String) -> Date {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    return formatter.date(from: text)!
}

/// Words a swap's reply never says: the streak starts again without guilt.
let shameWords = ["missed", "broke", "broken", "lost", "failed", "again", "lazy", "should have", "reset"]

/// The swaps plugin without its reminders, so that only swaps and celebrations are shown.
let quietSwaps = SwapsConfiguration(nightPrep: nil, morningFocus: nil)

/// The swaps plugin on the real engine with a manual clock: logging swaps over days, the streak,
/// its milestones, the celebration in each style, and refusals.
@Suite struct SwapsCoreLogTests {
    func world(
        _ configuration: SwapsConfiguration = quietSwaps, at start: String = "2026-11-23 21:00",
        style: CelebrationStyle = .calm
    ) async throws -> PluginWorld<SwapsPlugin> {
        try await PluginWorld(
            plugin: SwapsPlugin(), configuration: configuration, now: time(start), celebrationStyle: style)
    }

    /// Logs a swap with `--json` and reads what it did.
    func swap(_ world: PluginWorld<SwapsPlugin>, _ text: String, date: String? = nil) async throws -> [String: Any] {
        var values = ["text": [text]]
        if let date { values["date"] = [date] }
        let reply = try await world.run(
            CommandInvocation(
                command: "log", values: values, json: true,
                environment: CommandEnvironment(timeZoneIdentifier: "UTC")))
        let data = try JSONEncoder().encode(try #require(reply.json))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func bigCelebrations(_ world: PluginWorld<SwapsPlugin>) async -> [ShownNotice] {
        await world.shown.filter { $0.notice.category == "hooray.celebration.big" }
    }

    @Test func theStreakCountsDaysNotSwapsCelebratesThreeOnceAndStartsAtOneAfterADayOff() async throws {
        let world = try await world()
        #expect(try await swap(world, "Sparkling water instead of soda")["streak"] as? Int == 1)
        await world.advance(to: time("2026-11-24 21:00"))
        #expect(try await swap(world, "Fruit for dessert")["streak"] as? Int == 2)
        // A second swap the same day is kept, and adds no day.
        let second = try await swap(world, "Walk after lunch")
        #expect(second["streak"] as? Int == 2)
        #expect(second["addedDay"] as? Bool == false)
        #expect(await bigCelebrations(world).isEmpty)

        await world.advance(to: time("2026-11-25 21:00"))
        let third = try await swap(world, "Tea instead of wine")
        #expect(third["streak"] as? Int == 3)
        #expect(third["milestone"] as? Int == 3)
        let big = await bigCelebrations(world)
        #expect(big.map(\.title) == ["🎉 3-day swap streak!"])
        #expect(big.first?.notice.timeout == .milliseconds(10_000))
        // hoorayd restarts the same evening: another swap celebrates small, never 3 twice.
        try await world.restart(after: .seconds(60))
        #expect(try await swap(world, "Berries instead of candy")["milestone"] is NSNull)
        #expect(await bigCelebrations(world).count == 1)

        // The 26th goes by without a swap; the 27th starts at 1, without a word of guilt.
        await world.advance(to: time("2026-11-27 21:00"))
        let fresh = try await world.run("log", "Oatmeal instead of a pastry")
        #expect(fresh.text.contains("· 1 day — "))
        for word in shameWords { #expect(!fresh.text.lowercased().contains(word), "\(word)") }
        // Filling the 26th joins both runs: 5 days, and 3 is not celebrated a second time.
        let filled = try await swap(world, "Salad instead of fries", date: "yesterday")
        #expect(filled["day"] as? String == "2026-11-26")
        #expect(filled["streak"] as? Int == 5)
        #expect(await bigCelebrations(world).count == 1)
        await world.advance(to: time("2026-11-28 21:00"))
        #expect(try await swap(world, "Water first")["streak"] as? Int == 6)
    }

    @Test func fillingAGapThatReachesAMilestoneCelebratesItOnceAndAJoinedRunDoesNotRepeatOne() async throws {
        let world = try await world(at: "2026-11-20 21:00")
        // 20, 21, (22 open), 23, 24, 25: the 25th makes 3 in a row.
        for day in ["2026-11-20", "2026-11-21", "2026-11-23", "2026-11-24", "2026-11-25"] {
            await world.advance(to: time("\(day) 21:00"))
            _ = try await swap(world, "Swap on \(day)")
        }
        #expect(await bigCelebrations(world).map(\.title) == ["🎉 3-day swap streak!"])
        await world.advance(to: time("2026-11-26 20:00"))
        // Filling the 22nd on the 26th, before today's swap: 6 days in a row, but 3 was celebrated.
        let filled = try await swap(world, "Soup instead of chips", date: "2026-11-22")
        #expect(filled["streak"] as? Int == 6)
        #expect(filled["milestone"] is NSNull)
        // The 26th makes 7: celebrated once.
        #expect(try await swap(world, "Nuts instead of cookies")["milestone"] as? Int == 7)
        #expect(await bigCelebrations(world).map(\.title) == ["🎉 3-day swap streak!", "🎉 7-day swap streak!"])
    }

    @Test func theConfiguredMilestonesAreTheOnesCelebrated() async throws {
        let world = try await world(SwapsConfiguration(milestones: [2], nightPrep: nil, morningFocus: nil))
        _ = try await swap(world, "One")
        await world.advance(to: time("2026-11-24 21:00"))
        #expect(try await swap(world, "Two")["milestone"] as? Int == 2)
        await world.advance(to: time("2026-11-25 21:00"))
        #expect(try await swap(world, "Three")["milestone"] is NSNull)
    }

    @Test func theCalmStyleSaysOneOfTheSeedsPhrasesInAQuietNoticeAndOneLine() async throws {
        let world = try await world()
        var phrases: Set<String> = []
        for index in 1...12 {
            let reply = try await world.run("log", "Swap \(index)")
            let line = try #require(reply.text.split(separator: "\n").first(where: { $0.hasPrefix("✓ ") }))
            phrases.insert(String(line.split(separator: "— ").last ?? ""))
        }
        // Picked at random among the seed's three (none twice in a row): only the seed's come.
        #expect(phrases.isSubset(of: ["Swap complete. 🌿", "Nice choice.", "You're building momentum."]))
        #expect(phrases.count >= 2)
        let notices = await world.shown.filter { $0.notice.category == "hooray.celebration" }
        #expect(notices.count == 12)
        #expect(notices.allSatisfy { $0.notice.urgency == .low && $0.notice.sound == .silent })
        #expect(Set(notices.map(\.body)) == phrases)
        // No phrase twice in a row.
        #expect(zip(notices, notices.dropFirst()).allSatisfy { $0.body != $1.body })
    }

    @Test func thePlayfulStyleSaysOneOfItsPhrasesDrawsASproutAndTellsTheStreak() async throws {
        let world = try await world(style: .playful)
        _ = try await world.run("log", "Sparkling water instead of soda")
        await world.advance(to: time("2026-11-24 21:00"))
        let reply = try await world.run("log", "Fruit for dessert")
        let lines = reply.text.split(separator: "\n").map(String.init)
        let playful = ["🌱 One healthier choice, done.", "🌟 That swap makes you stronger.", "🎈 Small steps, big wins."]
        #expect(lines.first.map { line in playful.contains { line.hasSuffix("— " + $0) } } == true, "\(lines)")
        #expect(reply.text.contains(SwapCelebration.sprout(color: false)))
        #expect(!reply.text.contains("\u{1B}"), "plain without colours")
        #expect(lines.contains("Swap streak: 2 days in a row!"))
        let notice = try #require(await world.shown.last)
        #expect(playful.contains { notice.body.contains($0) })
        #expect(notice.body.hasSuffix("Swap streak: 2 days in a row!"))
        // In colour, the sprout is green.
        #expect(SwapCelebration.sprout(color: true).contains("\u{1B}[32m"))
    }

    @Test func theOffStyleOnlySaysSwapSavedAndShowsNoNotice() async throws {
        let world = try await world(style: .off)
        // Only the line: the first-run screen and the day's sentence wait for another command.
        #expect(try await world.run("log", "Sparkling water").text == "✅ Swap saved.")
        let reply = try await world.run("log", "Fruit for dessert")
        #expect(reply.text == "✅ Swap saved.")
        await world.advance(to: time("2026-11-25 21:00"))
        _ = try await world.run("log", "Tea", "--date", "yesterday")
        #expect(await world.shown.isEmpty)
    }

    @Test(arguments: [
        (["   "], "say what you swapped"),
        ([String(repeating: "a", count: 201)], "201 characters long; a swap takes at most 200"),
        (["Fruit", "--date", "tomorrow"], "--date \"tomorrow\" is in the future"),
        (["Fruit", "--date", "2026-11-24"], "--date \"2026-11-24\" is in the future"),
        (["Fruit", "--date", "2026-02-30"], "--date \"2026-02-30\" is not a day"),
        (["Fruit", "--date", "someday"], "--date \"someday\" is not a day"),
    ])
    func badInputIsAUsageErrorWithTheFixAndSavesNothing(words: [String], message: String) async throws {
        let world = try await world()
        var values: [String: [String]] = ["text": [words[0]]]
        if words.count == 3 { values["date"] = [words[2]] }
        let error = await #expect(throws: PluginCommandError.self) {
            try await world.run(
                CommandInvocation(
                    command: "log", values: values, environment: CommandEnvironment(timeZoneIdentifier: "UTC")))
        }
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
        #expect(error?.invalidOption != nil)
        #expect(try await world.run("history", "--json").json?["totalSwaps"] == .number(0))
        #expect(await world.shown.isEmpty)
    }

    @Test func twoHundredCharactersAreFine() async throws {
        let world = try await world()
        let text = String(repeating: "a", count: 200)
        #expect(try await swap(world, text)["text"] as? String == text)
    }
}

/// The daily inspiration, the first-run screen, the tutorial and the history.
@Suite struct SwapsCoreDayTests {
    func world(_ configuration: SwapsConfiguration = quietSwaps, at start: String = "2026-11-23 07:00") async throws
        -> PluginWorld<SwapsPlugin>
    {
        try await PluginWorld(plugin: SwapsPlugin(), configuration: configuration, now: time(start))
    }

    @Test func thePoolHasTheSeedsThreeAndAtLeastTwentySevenMoreOneSentenceEach() {
        let pool = SwapInspiration.sentences
        #expect(pool.count >= 30)
        #expect(Set(pool).count == pool.count)
        for seed in [
            "You don't have to eat perfectly, just make one healthier choice.",
            "Water first — let the craving wait 5 minutes.",
            "Every prep you do tonight is a gift for your tomorrow self.",
        ] {
            #expect(pool.contains(seed))
        }
    }

    @Test func theInspirationIsTheSameAllDayAndDiffersOnAtLeastTwentyOfThirtyDays() async throws {
        let plugin = SwapsPlugin()
        let first = LocalDate(year: 2026, month: 11, day: 1)!
        let days = (0..<30).map { first.adding(days: $0) }
        let sentences = days.map { plugin.inspiration(on: $0, configuration: SwapsConfiguration()) }
        let changes = zip(sentences, sentences.dropFirst()).filter { $0 != $1 }.count
        #expect(changes >= 20, "\(changes) changes")
        #expect(Set(sentences).count >= 20)
        // Not only in November: every 30 days in a row of ten years bring at least 20 different
        // sentences (30, with a pool of 32), across the year's turn too.
        let decade = (0..<(10 * 366)).map { LocalDate(year: 2026, month: 1, day: 1)!.adding(days: $0) }
        let picks = decade.map { SwapInspiration.sentence(on: $0) }
        for start in 0..<(picks.count - 30) {
            #expect(Set(picks[start..<start + 30]).count >= 20, "30 days from \(decade[start])")
        }

        // The same from morning to night, in the command too.
        let world = try await world()
        _ = try await world.run("tutorial")  // the welcome is behind us
        let morning = try await world.run("inspire").text
        await world.advance(to: time("2026-11-23 23:59"))
        #expect(try await world.run("inspire").text == morning)
        #expect(morning == "💡 " + SwapInspiration.sentence(on: LocalDate(year: 2026, month: 11, day: 23)!))
    }

    @Test func theFirstSwapOfTheDayBringsTheInspirationAndTheNextDoesNot() async throws {
        let world = try await world()
        let sentence = SwapInspiration.sentence(on: LocalDate(year: 2026, month: 11, day: 23)!)
        #expect(try await world.run("log", "Fruit").text.hasSuffix("💡 " + sentence))
        #expect(!(try await world.run("log", "Tea").text.contains("💡")))
        await world.advance(to: time("2026-11-24 07:00"))
        let tomorrow = SwapInspiration.sentence(on: LocalDate(year: 2026, month: 11, day: 24)!)
        #expect(try await world.run("history").text.hasSuffix("💡 " + tomorrow))
        #expect(!(try await world.run("log", "Water").text.contains("💡")))
    }

    @Test func aScriptsJSONGetsTheSentenceWithoutUsingUpTheTerminalsShowing() async throws {
        let world = try await world()
        let sentence = SwapInspiration.sentence(on: LocalDate(year: 2026, month: 11, day: 23)!)
        let json = try await world.run("log", "Fruit", "--json")
        #expect(json.json?["inspiration"] == .string(sentence))
        #expect(try await world.run("log", "Tea").text.hasSuffix("💡 " + sentence))
    }

    @Test func theWindowsReadingsUseUpNothingOfTheTerminals() async throws {
        let world = try await world()
        let sentence = SwapInspiration.sentence(on: LocalDate(year: 2026, month: 11, day: 23)!)
        #expect(try await world.run("inspire", "--json").json?["text"] == .string(sentence))
        let today = try await world.run("today", "--json")
        #expect(today.json?["inspiration"] == .string(sentence) && today.json?["swapsToday"] == .number(0))
        #expect(try await world.run("log", "Fruit").text.hasSuffix("💡 " + sentence))
    }

    @Test func todayTellsLastNightsPrepTonightsAndTheStreak() async throws {
        let world = try await world()
        try await world.run("log", "Fruit")
        try await world.run("prep", "Oatmeal instead of a pastry", "Walk after lunch")
        await world.advance(to: time("2026-11-24 08:30"))
        let morning = try await world.run("today", "--json").json
        #expect(morning?["day"] == .string("2026-11-24") && morning?["prepDay"] == .string("2026-11-25"))
        #expect(
            morning?["fromLastNight"] == .array([.string("Oatmeal instead of a pastry"), .string("Walk after lunch")]))
        #expect(morning?["tonight"] == .array([]))
        #expect(morning?["currentStreak"] == .number(1) && morning?["swapsToday"] == .number(0))
        try await world.run("log", "Tea")
        let evening = try await world.run("today")
        #expect(evening.text.contains("From last night:") && evening.text.contains("✓ Today's swap is logged · 2 days"))
    }

    @Test func turnedOffThereIsNoInspirationAndInspireSaysHowToTurnItOn() async throws {
        let world = try await world(SwapsConfiguration(inspiration: false, nightPrep: nil, morningFocus: nil))
        #expect(!(try await world.run("log", "Fruit").text.contains("💡")))
        let reply = try await world.run("inspire", "--json")
        #expect(reply.text.contains("turned off"))
        #expect(reply.text.contains("inspiration = true"))
        #expect(reply.json?["text"] == .null)
        #expect(
            SwapsPlugin().inspiration(
                on: LocalDate(year: 2026, month: 11, day: 23)!, configuration: SwapsConfiguration(inspiration: false))
                == nil)
    }

    @Test func theFirstSwapCommandEverShowsTheLoopOnceAndTheTutorialReplaysThreeSteps() async throws {
        let world = try await world(SwapsConfiguration())
        let first = try await world.run("history")
        #expect(first.text.hasPrefix("🌿 Welcome to healthy swaps"))
        #expect(first.text.contains("Morning Focus (08:00)"))
        #expect(first.text.contains("Night Prep (21:00)"))
        #expect(first.text.contains("shows only once"))
        #expect(first.text.contains("hooray swap tutorial"))
        #expect(!(try await world.run("log", "Fruit").text.contains("Welcome")))

        let tutorial = try await world.run("tutorial").text.split(separator: "\n").map(String.init)
        #expect(tutorial.count == 4)
        #expect(tutorial[0].hasPrefix("1/3 Morning Focus"))
        #expect(tutorial[1].hasPrefix("2/3 I Need Help"))
        #expect(tutorial[2].hasPrefix("3/3 Night Prep"))
        #expect(tutorial.last == "Got it.")
    }

    @Test func beforeTheFirstSwapTheWelcomeAndTheTutorialSayTheRemindersWaitForIt() async throws {
        let world = try await world(SwapsConfiguration())
        let waiting = "Morning Focus and Night Prep start with your first swap or prep"
        #expect(try await world.run("history").text.contains(waiting))
        #expect(try await world.run("tutorial").text.contains(waiting))
        _ = try await world.run("log", "Fruit")
        #expect(!(try await world.run("tutorial").text.contains(waiting)))

        // Switched on in the configuration, they are scheduled already: nothing to wait for.
        let switchedOn = try await self.world(SwapsConfiguration(morningFocusStart: .now))
        #expect(!(try await switchedOn.run("history").text.contains(waiting)))
        #expect(!(try await switchedOn.run("tutorial").text.contains(waiting)))
    }

    @Test func aJSONReplyLeavesTheWelcomeForTheFirstTextOne() async throws {
        let world = try await world()
        _ = try await world.run("log", "Fruit", "--json")
        #expect(try await world.run("history").text.hasPrefix("🌿 Welcome"))
    }

    @Test func theHistoryIsAnAlignedCalendarOfWeeksWithTotalsAndStreaks() async throws {
        let world = try await world(at: "2026-11-10 20:00")
        _ = try await world.run("tutorial")  // the welcome is behind us
        for day in ["2026-11-10", "2026-11-11", "2026-11-12", "2026-11-13", "2026-11-14", "2026-11-17", "2026-11-22"] {
            await world.advance(to: time("\(day) 20:00"))
            _ = try await world.run("log", "Swap")
        }
        _ = try await world.run("log", "Another")
        await world.advance(to: time("2026-11-23 09:00"))
        _ = try await world.run("inspire")
        let text = try await world.run("history", "--days", "14").text
        #expect(
            text == """
                Your swaps, Tue 10 Nov to Mon 23 Nov

                            Mo Tu We Th Fr Sa Su
                Mon 9 Nov      ●  ●  ●  ●  ●  ·
                Mon 16 Nov  ·  ●  ·  ·  ·  ·  ●
                Mon 23 Nov  ◌
                ● a day with a swap  · a day without  ◌ today, still open

                8 swaps on 7 of 14 days.
                Current streak: 1 day · longest: 5 days
                """)
        let json = try #require(try await world.run("history", "--days", "14", "--json").json)
        #expect(json["swaps"] == .number(8))
        #expect(json["totalSwaps"] == .number(8))
        #expect(json["currentStreak"] == .number(1))
        #expect(json["longestStreak"] == .number(5))
        #expect(json["from"] == .string("2026-11-10"))
    }

    @Test(arguments: ["0", "-3", "lots", "367"])
    func aHistoryOfNoDaysOrTooManyIsAUsageError(days: String) async throws {
        let world = try await world()
        let error = await #expect(throws: PluginCommandError.self) { try await world.run("history", "--days", days) }
        #expect(error?.invalidOption == "--days")
        #expect(error?.message.contains("such as --days 60") == true)
    }
}

/// The `[plugins.swaps]` section: every mistake reported at its key, with the fix.
@Suite struct SwapsCoreConfigurationTests {
    func decode(_ json: String) throws -> SwapsConfiguration {
        try JSONDecoder().decode(SwapsConfiguration.self, from: Data(json.utf8))
    }

    @Test func anEmptySectionIsTheDefaults() throws {
        let configuration = try decode("{}")
        #expect(configuration == SwapsConfiguration())
        #expect(configuration.milestones == [3, 7, 14, 30])
        #expect(configuration.nightPrep == TimeOfDay(hour: 21))
        #expect(configuration.morningFocus == TimeOfDay(hour: 8))
        #expect(configuration.inspiration)
    }

    @Test(arguments: [
        (#"{"milestones":[7,3]}"#, "milestones must be positive numbers of days, ascending"),
        (#"{"milestones":[0,3]}"#, "milestones must be positive numbers of days, ascending"),
        (#"{"milestones":[]}"#, "milestones must be positive numbers of days, ascending"),
        (#"{"night_prep":"9pm"}"#, "night_prep must be a time as HH:MM"),
        (#"{"morning_focus":"25:00"}"#, "morning_focus must be a time as HH:MM"),
    ])
    func aBadValueIsReportedWithItsFix(json: String, message: String) throws {
        #expect(throws: (any Error).self) { try decode(json) }
        do {
            _ = try decode(json)
        } catch {
            #expect("\(error)".contains(message), "\(error)")
        }
    }

    @Test func offTurnsAReminderOff() throws {
        let configuration = try decode(#"{"night_prep":"off","morning_focus":false}"#)
        #expect(configuration.nightPrep == nil)
        #expect(configuration.morningFocus == nil)
    }
}
