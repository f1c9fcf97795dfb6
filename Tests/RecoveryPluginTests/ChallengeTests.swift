import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit
import HoorayKitTesting
import Testing

@testable import RecoveryPlugin

/// The daily challenge: the seed's table, how the day's is chosen, done and skip, the streak, and
/// the morning reminder with its buttons.
@Suite struct ChallengeTests {
    static let utc = TimeZone(identifier: "UTC")!

    /// An instant given as `yyyy-MM-dd HH:mm` in UTC.
    static func at(_ text: String) -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = utc
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.date(from: text)!
    }

    static func day(_ text: String) -> LocalDate { LocalDate(parsing: text)! }

    /// The morning reminder switched on in the configuration (`challenge_at = "09:00"`), as it is
    /// once the user used the plugin.
    static let switchedOn = RecoveryConfiguration(challengeStart: .now)

    /// A plugin on HoorayKitTesting's fakes at `now`, activated.
    static func harness(at now: Date) async throws -> PluginTestHarness {
        let harness = PluginTestHarness(pluginName: "recovery", now: now, configuration: switchedOn)
        try await RecoveryPlugin().activate(context: harness.context, configuration: switchedOn)
        return harness
    }

    static func run(_ harness: PluginTestHarness, _ command: String, json: Bool = false) async throws -> CommandReply {
        try await RecoveryPlugin().run(
            CommandInvocation(command: command, json: json), context: harness.context, configuration: switchedOn)
    }

    /// What `hooray challenge --json` prints.
    struct Printed: Decodable {
        struct PrintedChallenge: Decodable {
            let id: String
            let title: String
            let points: Int
        }
        struct Basis: Decodable {
            let type: String
            let level: String
            let score: Int
        }
        let day: String
        let challenge: PrintedChallenge
        let status: String
        let points: Int
        let totalPoints: Int
        let streak: Int
        let basis: Basis?
        let changed: Bool?
    }

    static func printed(_ reply: CommandReply) throws -> Printed {
        try #require(reply.json).decode(Printed.self)
    }

    /// Saves a rejection that happened (and was logged) at `instant`.
    static func reject(
        _ type: RejectionType, at instant: Date, recoveredAfter hours: Double? = nil, in harness: PluginTestHarness
    )
        async throws
    {
        try await harness.context.records(of: Rejection.self).insert(
            Rejection(
                type: type, impact: 6, happenedAt: instant, loggedAt: instant, timeZone: "UTC",
                recoveredAt: hours.map { instant.addingTimeInterval($0 * 3600) }))
    }

    // MARK: The seed's table

    /// The seed's `generateChallenge` table, word for word: (type, level) → the challenge.
    static let seedTable: [(RejectionType, ResilienceLevel, String, String, String, Int, String)] = [
        (
            .dating, .beginner, "small-social-step", "Small Social Step",
            "Start a conversation with one new person today",
            10, "5 minutes"
        ),
        (
            .dating, .intermediate, "confidence-builder", "Confidence Builder",
            "Ask someone for their number or social media", 25, "10 minutes"
        ),
        (
            .job, .beginner, "application-momentum", "Application Momentum",
            "Apply to 3 jobs today, focus on quality applications", 15, "30 minutes"
        ),
        (
            .job, .intermediate, "network-expansion", "Network Expansion",
            "Reach out to 2 people in your desired field on LinkedIn", 30, "20 minutes"
        ),
        (
            .other, .beginner, "self-care-check", "Self-Care Check",
            "Do one thing today that makes you feel good about yourself", 10, "15 minutes"
        ),
    ]

    @Test(arguments: seedTable.indices)
    func theSeedsChallengeIsPickedForItsTypeAndLevel(index: Int) throws {
        let (type, level, id, title, description, points, time) = Self.seedTable[index]
        let challenge = try #require(ChallengeCatalog.challenge(id: id))
        #expect(challenge.title == title)
        #expect(challenge.description == description)
        #expect(challenge.points == points)
        #expect(challenge.timeEstimate == time)
        #expect(challenge.type == type && challenge.level == level)

        // Where the seed names a challenge, it is the day's, every day of a month.
        let days = (0..<30).map { Self.day("2026-06-01").adding(days: $0) }
        #expect(days.allSatisfy { ChallengeCatalog.pick(for: type, level: level, on: $0) == challenge })
    }

    @Test func whatTheSeedLeavesToItsDefaultIsSelfCareCheck() {
        let days = (0..<30).map { Self.day("2026-06-01").adding(days: $0) }
        for level in [ResilienceLevel.beginner, .intermediate] {
            #expect(
                days.allSatisfy { ChallengeCatalog.pick(for: .other, level: level, on: $0).id == "self-care-check" })
        }
    }

    @Test func everyCellTheSeedDoesNotNameHasAtLeastTwoChallenges() {
        let seedCells: Set<String> = ["dating.beginner", "dating.intermediate", "job.beginner", "job.intermediate"]
        for type in RejectionType.allCases {
            for level in ResilienceLevel.allCases {
                let count = ChallengeCatalog.candidates(for: type, level: level).count
                if seedCells.contains("\(type).\(level)") || (type == .other && level == .beginner) {
                    #expect(count == 1, "the seed's own challenge alone for \(type) at \(level)")
                } else if type == .other && level == .intermediate {
                    #expect(count == 0, "left to the seed's default")
                } else {
                    #expect(count >= 2, "\(type) at \(level)")
                }
            }
        }
        let ids = ChallengeCatalog.all.map(\.id)
        #expect(Set(ids).count == ids.count, "ids are unique")
        #expect(ids.allSatisfy { $0.range(of: "^[a-z0-9]+(-[a-z0-9]+)*$", options: .regularExpression) != nil })
    }

    @Test func aDaysPickIsTheSameInEveryRun() {
        // FNV-1a of the date, not hashValue (seeded per process): these never change.
        #expect(Self.day("2026-06-15").stableIndex(among: 1000) == 885)
        let cell = ChallengeCatalog.candidates(for: .social, level: .beginner)
        #expect(
            ChallengeCatalog.pick(for: .social, level: .beginner, on: Self.day("2026-06-15")) == cell[885 % cell.count])
    }

    /// The first day from 1 June 2026 whose pick for the cell is the challenge.
    static func firstDay(picking id: String, for type: RejectionType, level: ResilienceLevel) -> LocalDate {
        var day = Self.day("2026-06-01")
        while ChallengeCatalog.pick(for: type, level: level, on: day).id != id { day = day.adding(days: 1) }
        return day
    }

    @Test func aWeekOfDatingRejectionsAtTheBeginnerLevelGivesSmallSocialStep() async throws {
        let day = Self.firstDay(picking: "small-social-step", for: .dating, level: .beginner)
        let harness = try await Self.harness(at: Self.at("\(day) 08:00"))
        for back in 1...3 {
            try await Self.reject(.dating, at: Self.at("\(day.adding(days: -back)) 20:00"), in: harness)
        }
        try await Self.reject(.job, at: Self.at("\(day.adding(days: -1)) 21:00"), in: harness)

        let reply = try await Self.run(harness, "challenge", json: true)
        let printed = try Self.printed(reply)
        #expect(printed.challenge.title == "Small Social Step")
        #expect(printed.basis?.type == "dating")
        #expect(printed.basis?.level == "beginner")
        #expect(printed.status == "open")

        let text = try await Self.run(harness, "challenge").text
        #expect(
            text.hasPrefix("🎯 Today's challenge: Small Social Step\nStart a conversation with one new person today\n"))
        #expect(text.contains("10 points · about 5 minutes"))
        #expect(
            text.contains("Picked for your week (3 dating rejections) and your level as of yesterday (beginner, score"))
    }

    @Test func noRejectionsGiveASelfCareChallenge() async throws {
        let day = Self.firstDay(picking: "self-care-check", for: .other, level: .beginner)
        let harness = try await Self.harness(at: Self.at("\(day) 08:00"))
        let printed = try Self.printed(try await Self.run(harness, "challenge", json: true))
        #expect(printed.challenge.title == "Self-Care Check")
        #expect(printed.basis?.type == "other")
        #expect(printed.basis?.score == 20, "no data: half of the recovery-speed part, nothing else")
    }

    @Test func aTieGoesToTheKindOfTheLatestRejection() {
        func rejection(_ type: RejectionType, _ time: String) -> Rejection {
            Rejection(type: type, impact: 5, happenedAt: Self.at(time), loggedAt: Self.at(time), timeZone: "UTC")
        }
        let rejections = [
            rejection(.job, "2026-06-10 09:00"), rejection(.dating, "2026-06-11 09:00"),
            rejection(.job, "2026-06-12 09:00"), rejection(.dating, "2026-06-13 09:00"),
            rejection(.social, "2026-06-14 09:00"),
        ]
        #expect(ChallengeCatalog.mostCommonType(of: rejections) == .dating)
        #expect(ChallengeCatalog.mostCommonType(of: Array(rejections.prefix(3))) == .job)
        #expect(ChallengeCatalog.mostCommonType(of: []) == nil)
    }

    @Test func theLevelIsTheScoreAtTheEndOfYesterday() async throws {
        // Check-ins on the 20 days before today: 20 points, and three steady 7-day blocks.
        func checkedInFor20Days() async throws -> PluginTestHarness {
            let harness = try await Self.harness(at: Self.at("2026-06-15 08:00"))
            for back in 1...20 {
                try await harness.context.records(of: CheckIn.self).insert(
                    CheckIn(
                        day: Self.day("2026-06-15").adding(days: -back), mood: .good, at: Self.at("2026-06-01 20:00")))
            }
            return harness
        }
        let printed = try Self.printed(try await Self.run(try await checkedInFor20Days(), "challenge", json: true))
        #expect(printed.basis?.score == 51)  // 20 (no recovery yet) + 20 + 3 × 3.75 = 51.25
        #expect(printed.basis?.level == "intermediate")

        // With a job rejection of yesterday, recovered in no time, the score is at the advanced level.
        let harness = try await checkedInFor20Days()
        try await Self.reject(.job, at: Self.at("2026-06-14 10:00"), recoveredAfter: 0, in: harness)
        let advanced = try Self.printed(try await Self.run(harness, "challenge", json: true))
        #expect(advanced.basis?.score == 71)
        #expect(advanced.basis?.level == "advanced")
        let advancedJob = ChallengeCatalog.candidates(for: .job, level: .advanced).map(\.id)
        #expect(advancedJob.contains(advanced.challenge.id))
    }

    @Test func theChallengeIsTheSameAllDay() async throws {
        let harness = try await Self.harness(at: Self.at("2026-06-15 08:00"))
        try await Self.reject(.job, at: Self.at("2026-06-14 10:00"), in: harness)
        let morning = try Self.printed(try await Self.run(harness, "challenge", json: true))
        #expect(morning.basis?.type == "job")

        // At noon three rejections of another kind are logged (one dated back to yesterday), one is
        // marked okay, and the day's check-in is given: the day's challenge stays as it was.
        harness.clock.set(to: Self.at("2026-06-15 12:00"))
        for _ in 1...2 { try await Self.reject(.dating, at: Self.at("2026-06-15 11:00"), in: harness) }
        let book = harness.context.records(of: Rejection.self)
        try await book.insert(
            Rejection(
                type: .dating, impact: 9, happenedAt: Self.at("2026-06-14 22:00"),
                loggedAt: Self.at("2026-06-15 12:00"),
                timeZone: "UTC"))
        let job = try #require(try await book.all().first { $0.type == .job })
        _ = try await RecoveryPlugin().markRecovered(job, context: harness.context)
        _ = try await RecoveryPlugin().checkIn(.strong, note: nil, on: Self.day("2026-06-15"), context: harness.context)
        let noon = try Self.printed(try await Self.run(harness, "challenge", json: true))
        #expect(noon.challenge.id == morning.challenge.id)
        #expect(noon.basis?.type == "job")
        #expect(noon.basis?.score == morning.basis?.score)

        // The next day counts them.
        harness.clock.set(to: Self.at("2026-06-16 08:00"))
        let tomorrow = try Self.printed(try await Self.run(harness, "challenge", json: true))
        #expect(tomorrow.basis?.type == "dating")
    }

    // MARK: Done and skip

    @Test func doneTwiceCountsOnce() async throws {
        let harness = try await Self.harness(at: Self.at("2026-06-15 10:00"))
        let open = try Self.printed(try await Self.run(harness, "challenge", json: true))

        let done = try await Self.run(harness, "challenge-done")
        let points = open.challenge.points
        #expect(done.text.contains("✓ Challenge done: \(open.challenge.title) — "), "the celebration's line")
        #expect(done.text.contains("+\(points) points · \(points) points in all"))
        #expect(done.text.contains("Challenge streak: 1 day"))
        let celebrations = await harness.celebrations.celebrations
        #expect(celebrations.map(\.title) == ["Challenge done: \(open.challenge.title)"])
        #expect(celebrations.first?.detail == "+\(points) points · 1-day challenge streak")

        let again = try await Self.run(harness, "challenge-done", json: true)
        #expect(try Self.printed(again).changed == false)
        #expect(try Self.printed(again).totalPoints == points)
        let againText = try await Self.run(harness, "challenge-done").text
        #expect(againText.hasPrefix("Today's challenge is already done: \(open.challenge.title)."))
        #expect(await harness.celebrations.celebrations.count == 1)
        #expect(try await harness.context.records(of: ChallengeEntry.self).all().count == 1)

        let now = try Self.printed(try await Self.run(harness, "challenge", json: true))
        #expect(now.status == "done")
        #expect(now.points == points)
        #expect(now.totalPoints == points)
        #expect(try await Self.run(harness, "challenge").text.contains("✓ Done today."))
    }

    static let shameWords = ["missed", "failed", "fail", "broke", "lazy", "should have", "shame", "guilt", "give up"]

    @Test func skippingIsWarmAndGivesNoPoints() async throws {
        let harness = try await Self.harness(at: Self.at("2026-06-15 10:00"))
        let skip = try await Self.run(harness, "challenge-skip")
        #expect(skip.text.contains("Rest is part of resilience. A new challenge comes tomorrow."))
        let again = try await Self.run(harness, "challenge-skip").text
        let shown = try await Self.run(harness, "challenge").text
        for text in [skip.text, again, shown, RecoveryPlugin.streakLine(0)] {
            for word in Self.shameWords {
                #expect(!text.lowercased().contains(word), "\"\(word)\" in: \(text)")
            }
        }
        let printed = try Self.printed(try await Self.run(harness, "challenge", json: true))
        #expect(printed.status == "skipped")
        #expect(printed.points == 0 && printed.totalPoints == 0)
        #expect(await harness.celebrations.celebrations.isEmpty)
    }

    @Test func everyChallengeAndTemplateIsFreeOfShameWords() {
        let texts =
            ChallengeCatalog.all.flatMap { [$0.title, $0.description] }
            + ResponseTemplates.all.flatMap { [$0.title, $0.scenario, $0.tone, $0.text] }
        for text in texts {
            for word in Self.shameWords {
                #expect(!text.lowercased().contains(word), "\"\(word)\" in: \(text)")
            }
        }
    }

    @Test func theLatestWordWinsAndSaysSo() async throws {
        let harness = try await Self.harness(at: Self.at("2026-06-15 10:00"))
        _ = try await Self.run(harness, "challenge-skip")
        let done = try await Self.run(harness, "challenge-done")
        #expect(done.text.hasPrefix("Changed your mind: today's challenge now counts as done.\n"))
        #expect(await harness.celebrations.celebrations.count == 1)
        let points = try Self.printed(try await Self.run(harness, "challenge", json: true)).challenge.points
        #expect(try Self.printed(try await Self.run(harness, "challenge", json: true)).totalPoints == points)

        let skip = try await Self.run(harness, "challenge-skip")
        #expect(
            skip.text.hasPrefix(
                "Changed your mind: today's challenge now counts as skipped, without its \(points) points."))
        let printed = try Self.printed(try await Self.run(harness, "challenge", json: true))
        #expect(printed.status == "skipped")
        #expect(printed.totalPoints == 0)
    }

    @Test func theStreakCountsDaysInARowAndTheirPoints() async throws {
        let harness = try await Self.harness(at: Self.at("2026-06-15 10:00"))
        var total = 0
        for offset in 0..<3 {
            harness.clock.set(to: Self.at("\(Self.day("2026-06-15").adding(days: offset)) 10:00"))
            let printed = try Self.printed(try await Self.run(harness, "challenge-done", json: true))
            total += printed.challenge.points
            #expect(printed.streak == offset + 1)
            #expect(printed.totalPoints == total)
        }
        // Today not done yet keeps the streak; a day skipped lets a new one start.
        harness.clock.set(to: Self.at("2026-06-18 10:00"))
        #expect(try Self.printed(try await Self.run(harness, "challenge", json: true)).streak == 3)
        #expect(
            try await Self.run(harness, "challenge").text.contains("Challenge streak: 3 days · \(total) points in all"))
        _ = try await Self.run(harness, "challenge-skip")
        harness.clock.set(to: Self.at("2026-06-19 10:00"))
        #expect(try Self.printed(try await Self.run(harness, "challenge", json: true)).streak == 0)
        #expect(try Self.printed(try await Self.run(harness, "challenge-done", json: true)).streak == 1)
    }

    // MARK: The morning reminder

    @Test func theMorningReminderShowsTheChallengeAndRestsOnceAnswered() async throws {
        let harness = try await Self.harness(at: Self.at("2026-06-15 09:00"))
        let plugin = RecoveryPlugin()
        let reminder = try #require(await harness.reminders.reminders[RecoveryPlugin.challengeReminder])
        #expect(reminder.hold == nil)
        let due = DueReminder(reminder: reminder, dueAt: Self.at("2026-06-15 09:00"))
        let open = try Self.printed(try await Self.run(harness, "challenge", json: true))
        let challenge = try #require(ChallengeCatalog.challenge(id: open.challenge.id))

        let notice = try #require(try await plugin.reminderDue(due, context: harness.context))
        #expect(notice.title == "Today's challenge: \(challenge.title)")
        #expect(notice.body == "\(challenge.description)\n\(challenge.points) points · about \(challenge.timeEstimate)")
        #expect(notice.actions.map(\.label) == ["Done", "Skip today"])

        try await harness.press("challenge-done", on: notice, from: due, of: plugin)
        let printed = try Self.printed(try await Self.run(harness, "challenge", json: true))
        #expect(printed.status == "done")
        #expect(printed.totalPoints == challenge.points)
        #expect(await harness.celebrations.celebrations.count == 1)

        // Answered: no reminder the rest of the day, and `hooray next` does not list it as coming.
        #expect(try await plugin.reminderDue(due, context: harness.context) == nil)
        let held = try #require(await harness.reminders.reminders[RecoveryPlugin.challengeReminder])
        #expect(held.hold?.until == Self.at("2026-06-16 00:00"))
        await #expect(throws: ActionDeclined.self) {
            try await harness.press("challenge-done", on: notice, from: due, of: plugin)
        }
        #expect(await harness.celebrations.celebrations.count == 1)

        // Tomorrow's comes again.
        let tomorrow = DueReminder(reminder: held, dueAt: Self.at("2026-06-16 09:00"))
        harness.clock.set(to: Self.at("2026-06-16 09:00"))
        #expect(try await plugin.reminderDue(tomorrow, context: harness.context) != nil)
    }

    @Test func theSkipButtonRecordsASkip() async throws {
        let harness = try await Self.harness(at: Self.at("2026-06-15 09:00"))
        let plugin = RecoveryPlugin()
        let reminder = try #require(await harness.reminders.reminders[RecoveryPlugin.challengeReminder])
        let due = DueReminder(reminder: reminder, dueAt: Self.at("2026-06-15 09:00"))
        let notice = try #require(try await plugin.reminderDue(due, context: harness.context))
        try await harness.press("challenge-skip", on: notice, from: due, of: plugin)
        #expect(try Self.printed(try await Self.run(harness, "challenge", json: true)).status == "skipped")
        #expect(await harness.reminders.reminders[RecoveryPlugin.challengeReminder]?.hold != nil)
        #expect(await harness.celebrations.celebrations.isEmpty)
    }

    @Test func challengeAtOffHasNoReminder() async throws {
        let harness = try await Self.harness(at: Self.at("2026-06-15 09:00"))
        #expect(await harness.reminders.reminders[RecoveryPlugin.challengeReminder] != nil)
        try await RecoveryPlugin().activate(
            context: harness.context, configuration: RecoveryConfiguration(challengeAt: nil))
        #expect(await harness.reminders.reminders[RecoveryPlugin.challengeReminder] == nil)
    }

    @Test func theDaysChallengeStaysWhenWhatItWasChosenFromChangesLaterThatDay() async throws {
        let day = Self.day("2026-06-15")
        let harness = try await Self.harness(at: Self.at("\(day) 08:00"))
        for back in 1...3 {
            try await Self.reject(.dating, at: Self.at("\(day.adding(days: -back)) 20:00"), in: harness)
        }
        let morning = try Self.printed(try await Self.run(harness, "challenge", json: true))
        #expect(morning.challenge.title == "Small Social Step")
        // Later that day every dating rejection is deleted: the week now holds none.
        let book = harness.context.records(of: Rejection.self)
        for rejection in try await book.all() { _ = try await book.delete(rejection.recordID) }
        let noon = try Self.printed(try await Self.run(harness, "challenge", json: true))
        #expect(noon.challenge.id == morning.challenge.id)
        #expect(noon.basis?.type == "dating")
        // The next day is chosen afresh: with nothing logged, the seed's default.
        let tomorrow = try await Self.harness(at: Self.at("\(day.adding(days: 1)) 08:00"))
        #expect(
            try Self.printed(try await Self.run(tomorrow, "challenge", json: true)).challenge.id == "self-care-check")
    }

    @Test func aSevenDayStreakIsCelebratedBigOnceEvenAfterSkipAndDoneAgain() async throws {
        let day = Self.day("2026-06-15")
        let harness = try await Self.harness(at: Self.at("\(day) 08:00"))
        let entries = harness.context.records(of: ChallengeEntry.self)
        for back in 1...6 {
            try await entries.insert(
                ChallengeEntry(
                    day: day.adding(days: -back), challengeID: "self-care-check", title: "Self-Care Check", points: 10,
                    outcome: .done, at: Self.at("\(day.adding(days: -back)) 09:00")))
        }
        _ = try await Self.run(harness, "challenge-done")
        _ = try await Self.run(harness, "challenge-skip")
        _ = try await Self.run(harness, "challenge-done")
        let sizes = await harness.celebrations.celebrations.map(\.size)
        #expect(sizes == [.big, .small])
    }
}
