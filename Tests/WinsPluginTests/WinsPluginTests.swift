import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit
import HoorayKitTesting
import Testing

@testable import WinsPlugin

/// The wins plugin against in-memory fakes: logging, praise in place, retries, welcome, favourites.
@Suite struct WinsPluginTests {
    static let start = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18

    /// A harness whose context carries the configuration, as the engine's does.
    func harness(
        _ answers: [Result<AIPraise, AIRequestError>]? = nil,
        _ configuration: WinsConfiguration = WinsConfiguration(welcome: false)
    ) -> PluginTestHarness {
        PluginTestHarness(
            pluginName: "wins", now: Self.start,
            ai: answers.map { ScriptedPraiseProvider($0) } ?? NoPraiseProvider(), configuration: configuration)
    }

    /// Activates the plugin with the harness's configuration.
    func activate(_ harness: PluginTestHarness) async throws -> WinsPlugin {
        let plugin = WinsPlugin()
        try await plugin.activate(
            context: harness.context, configuration: try harness.context.configuration(of: plugin))
        return plugin
    }

    func log(_ plugin: WinsPlugin, _ harness: PluginTestHarness, _ request: LogRequest) async throws -> LogReply {
        try await plugin.log(request, context: harness.context)
    }

    func moments(_ harness: PluginTestHarness) async throws -> [Moment] {
        try await MomentBook(context: harness.context).all()
    }

    @Test func aWinShowsOfflinePraiseAtOnceThenAIPraiseInTheSameNotice() async throws {
        let harness = harness([
            .success(AIPraise(text: "Look at you, moving gently.", serverID: "srv-1", tags: ["walk"]))
        ])
        let plugin = try await activate(harness)

        let reply = try await log(plugin, harness, LogRequest(text: "Took a short walk", ago: "2h"))

        let first = try #require(await harness.notices.entries.first)
        #expect(first.versions[0].title == "Moment logged")
        #expect(first.versions[0].body == "Took a short walk · 2 h ago\n\(reply.moment.offlinePraise)")
        #expect(PraisePool.builtIn.lines.contains(reply.moment.offlinePraise))

        await harness.background.waitUntilIdle()
        let entries = await harness.notices.entries
        #expect(entries.count == 1)
        #expect(entries[0].id.rawValue == reply.notice)
        #expect(entries[0].versions.count == 2)
        #expect(entries[0].current.body == "Took a short walk · 2 h ago\nLook at you, moving gently.")

        let stored = try #require(try await moments(harness).first)
        #expect(stored.offlinePraise == reply.moment.offlinePraise)
        #expect(stored.aiPraise == "Look at you, moving gently.")
        #expect(stored.sync == .synced)
        #expect(stored.serverID == "srv-1")
        #expect(stored.tags == ["walk"])
        #expect(stored.timeAgo == 7200)
        #expect(stored.happenedAt == Self.start.addingTimeInterval(-7200))
        #expect(try await harness.reminders.list().isEmpty)
    }

    @Test func whatTheServiceIsAskedCarriesTheMoment() async throws {
        let provider = ScriptedPraiseProvider([.success(AIPraise(text: "Nice."))])
        let harness = PluginTestHarness(
            pluginName: "wins", now: Self.start, timeZone: TimeZone(identifier: "Europe/Berlin")!, ai: provider,
            configuration: WinsConfiguration(welcome: false))
        let plugin = try await activate(harness)
        let reply = try await log(plugin, harness, LogRequest(text: "Called a friend", ago: "5m"))
        await harness.background.waitUntilIdle()
        let asked = try #require(await provider.requests.first)
        #expect(asked.clientID == reply.moment.id)
        #expect(asked.text == "Called a friend")
        #expect(asked.timeZone == "Europe/Berlin")
        #expect(asked.timeAgo == "5 min ago")
        #expect(asked.submittedAt == Self.start)
    }

    @Test(arguments: [
        AIRequestError.timedOut, .unreachable(reason: "connection refused"), .httpStatus(500),
        .malformedResponse(what: "not JSON"), .responseTooLarge(limit: 65536), .redirected,
    ])
    func aFailureKeepsTheOfflinePraiseAndSaysSo(error: AIRequestError) async throws {
        let harness = harness(
            [.failure(error)], WinsConfiguration(welcome: false, retryFirst: ConfigDuration(seconds: 60)))
        let plugin = try await activate(harness)
        let reply = try await log(plugin, harness, LogRequest(text: "Sent the email"))
        await harness.background.waitUntilIdle()

        let entry = try #require(await harness.notices.entries.first)
        #expect(
            entry.current.body
                == "Sent the email\n\(reply.moment.offlinePraise)\nCouldn't fetch extra encouragement this time.")
        let stored = try #require(try await moments(harness).first)
        #expect(stored.aiPraise == nil)
        #expect(stored.offlinePraise == reply.moment.offlinePraise)
        #expect(stored.sync == .pending)
        #expect(stored.syncAttempts == 1)
        #expect(stored.syncError == error.description)
        let retryAt = try #require(stored.nextSyncAt)
        #expect(retryAt >= Self.start.addingTimeInterval(30) && retryAt <= Self.start.addingTimeInterval(61))
        let retry = try #require(try await harness.reminders.list().first)
        #expect(retry.reminder.id == "sync")
        #expect(retry.nextDue == retryAt)
    }

    @Test func retriesWaitAsTheConfigurationSaysNow() async throws {
        // The configuration in the context is the one in force, even for an instance activated
        // with none: the plugin keeps no copy of its own.
        let harness = harness(
            [.failure(.timedOut)], WinsConfiguration(welcome: false, retryFirst: ConfigDuration(seconds: 600)))
        let plugin = WinsPlugin()
        let reply = try await log(plugin, harness, LogRequest(text: "Sent the email"))
        #expect(reply.moment.nextSyncAt == Self.start.addingTimeInterval(600))
        await harness.background.waitUntilIdle()
        let retryAt = try #require(try await moments(harness).first?.nextSyncAt)
        #expect(retryAt >= Self.start.addingTimeInterval(300) && retryAt <= Self.start.addingTimeInterval(601))
    }

    @Test func withAIOffTheOfflinePraiseIsTheWholeAnswer() async throws {
        let harness = harness()
        let plugin = try await activate(harness)
        _ = try await log(plugin, harness, LogRequest(text: "Drank water"))
        await harness.background.waitUntilIdle()
        #expect(await harness.notices.entries.first?.versions.count == 1)
        #expect(try await moments(harness).first?.sync == .local)
        #expect(try await harness.reminders.list().isEmpty)
    }

    @Test func retriesBackOffAndSucceedOnceTheServiceAnswers() async throws {
        let harness = harness(
            [
                .failure(.unreachable(reason: "down")), .failure(.httpStatus(503)),
                .success(AIPraise(text: "Worth the wait.")),
            ], WinsConfiguration(welcome: false, retryFirst: ConfigDuration(seconds: 60)))
        let plugin = try await activate(harness)
        _ = try await log(plugin, harness, LogRequest(text: "Folded the laundry"))
        await harness.background.waitUntilIdle()

        // The retry reminder comes due: nothing is shown, the retry runs in the background.
        var retry = try #require(try await harness.reminders.list().first)
        harness.clock.set(to: try #require(retry.nextDue))
        #expect(
            try await plugin.reminderDue(
                DueReminder(reminder: retry.reminder, dueAt: retry.nextDue!), context: harness.context) == nil)
        await harness.background.waitUntilIdle()
        var stored = try #require(try await moments(harness).first)
        #expect(stored.syncAttempts == 2)
        let wait = try #require(stored.nextSyncAt).timeIntervalSince(harness.clock.now)
        #expect(wait >= 60 && wait <= 121, "the second wait doubles: from 60 to 120 s")

        retry = try #require(try await harness.reminders.list().first)
        harness.clock.set(to: try #require(retry.nextDue))
        _ = try await plugin.reminderDue(
            DueReminder(reminder: retry.reminder, dueAt: retry.nextDue!), context: harness.context)
        await harness.background.waitUntilIdle()
        stored = try #require(try await moments(harness).first)
        #expect(stored.sync == .synced)
        #expect(stored.aiPraise == "Worth the wait.")
        #expect(stored.syncError == nil)
        #expect(try await harness.reminders.list().isEmpty, "nothing left to retry")
        #expect(await harness.notices.entries.first?.versions.count == 2, "a late answer does not re-show the notice")
    }

    @Test func activationPicksUpMomentsLeftPendingByACrash() async throws {
        let harness = harness([])
        let due = Self.start.addingTimeInterval(300)
        try await harness.context.records(of: Moment.self).insert(
            Moment(
                text: "Stretched", submittedAt: Self.start, happenedAt: Self.start, timeZone: "UTC",
                offlinePraise: "Nice move, champ.", sync: .pending, nextSyncAt: due))
        _ = try await activate(harness)
        let retry = try #require(try await harness.reminders.list().first)
        #expect(retry.reminder.id == "sync")
        #expect(retry.nextDue == due)
        #expect(retry.reminder.isInternal)
    }

    @Test func anImportedMomentWaitingForPraiseIsAskedAgainAtOnce() async throws {
        let harness = harness([
            .success(AIPraise(text: "Worth the wait.", serverID: "srv-1", tags: []))
        ])
        let exported = Moment(
            text: "Stretched", submittedAt: Self.start.addingTimeInterval(-86_400),
            happenedAt: Self.start.addingTimeInterval(-86_400), timeZone: "UTC", offlinePraise: "Nice move, champ.",
            sync: .pending, syncAttempts: 3, nextSyncAt: Self.start.addingTimeInterval(-80_000))
        let record = try Moment.storedRecord(fromExport: try exported.exportValue(), id: exported.recordID)
        let again = try Moment.storedRecord(fromExport: try exported.exportValue(), id: exported.recordID)
        #expect(record.data == again.data, "every import of the same file stores the same bytes")
        let imported = try Moment(exportValue: try exported.exportValue(), id: exported.recordID)
        #expect(imported.nextSyncAt == exported.submittedAt)
        try await harness.context.records(of: Moment.self).insert(imported)
        let plugin = try await activate(harness)
        let retry = try #require(try await harness.reminders.list().first)
        #expect(retry.reminder.id == "sync")
        #expect(retry.nextDue == Self.start.addingTimeInterval(WinsPlugin.soon), "due at once, not never")
        try await plugin.retryPending(context: harness.context)
        #expect(try await moments(harness).first?.aiPraise == "Worth the wait.")
    }

    @Test func withAIOffNoRetryIsPlannedAndPendingMomentsWait() async throws {
        let harness = harness()
        try await harness.context.records(of: Moment.self).insert(
            Moment(
                text: "Stretched", submittedAt: Self.start, happenedAt: Self.start, timeZone: "UTC",
                offlinePraise: "Nice move, champ.", sync: .pending, nextSyncAt: Self.start.addingTimeInterval(300)))
        _ = try await activate(harness)
        #expect(try await harness.reminders.list().isEmpty)
        #expect(try await moments(harness).first?.sync == .pending)
    }

    @Test(arguments: [
        (LogRequest(text: String(repeating: "a", count: 2001)), "at most 2000"),
        (LogRequest(text: "x", ago: "yesterday-ish"), "5m, 2h, 3d or 1h30m"),
        (LogRequest(text: "x", ago: "-5m"), "in the future"),
        (LogRequest(text: "x", ago: "400d"), "more than 366 days ago"),
        (LogRequest(text: "x", mood: "clam"), "did you mean calm"),
        (LogRequest(text: "x", photos: ["/nonexistent/photo.jpg"]), "no such file"),
        (LogRequest(text: "x", photos: ["/tmp"]), "is a folder"),
        (LogRequest(text: "x", photos: ["relative.jpg"]), "no such file"),
    ])
    func badInputIsRefusedAndNothingIsSaved(request: LogRequest, message: String) async throws {
        let harness = harness()
        let plugin = try await activate(harness)
        let error = await #expect(throws: PluginCommandError.self) { try await log(plugin, harness, request) }
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
        #expect(try await moments(harness).isEmpty)
        #expect(await harness.notices.entries.isEmpty)
        #expect(try await !MomentBook(context: harness.context).hasCompletedFirstLog())
    }

    @Test func aBlankFirstWinLogsInstallingAndLaterBlankWinsStayPrivate() async throws {
        let harness = harness()
        let plugin = try await activate(harness)
        let first = try await log(plugin, harness, LogRequest())
        #expect(first.wasFirst)
        #expect(first.moment.text == "I installed this app. A tiny step, but it counts.")
        let second = try await log(plugin, harness, LogRequest(text: "   "))
        #expect(!second.wasFirst)
        #expect(second.moment.isPlaceholder)
        #expect(second.moment.text == Moment.placeholderText)
    }

    @Test func offlinePraiseDoesNotRepeatRecentLines() async throws {
        let harness = harness()
        let plugin = try await activate(harness)
        var picked: [String] = []
        for index in 0..<40 {
            picked.append(try await log(plugin, harness, LogRequest(text: "win \(index)")).moment.offlinePraise)
        }
        let memory = PraisePool.builtIn.memory
        #expect(memory == 10)
        for end in (memory + 1)...picked.count {
            let window = picked[(end - memory - 1)..<end]
            #expect(Set(window).count == memory + 1, "a repeat within \(memory + 1) picks: \(Array(window))")
        }
    }

    @Test func thePoolHasEnoughWarmLines() {
        let lines = PraisePool.builtIn.lines
        #expect(lines.count >= 60)
        #expect(Set(lines).count == lines.count)
        #expect(lines.contains("Nice move, champ."))
        for line in lines { #expect(!line.contains("should"), "\(line)") }
    }

    @Test func theWelcomeAppearsOnceAndItsButtonLogsTheFirstMoment() async throws {
        let harness = harness(nil, WinsConfiguration())
        let plugin = try await activate(harness)
        let welcome = try #require(try await harness.reminders.list().first { $0.reminder.id == "welcome" })
        let due = DueReminder(reminder: welcome.reminder, dueAt: Self.start)

        let notice = try #require(try await plugin.reminderDue(due, context: harness.context))
        #expect(notice.title == "Hey. Glad you're here.")
        #expect(notice.body.hasPrefix("You're doing better than you think."))
        #expect(notice.actions == [NoticeAction(id: "log-install", label: "Log it")])
        #expect(try await plugin.reminderDue(due, context: harness.context) == nil, "never twice")

        try await plugin.actionInvoked(
            InvokedAction(notice: NoticeID(rawValue: 1), actionID: "log-install"), context: harness.context)
        // Pressed again, the button has expired, and says so rather than logging a second moment.
        await #expect(throws: ActionDeclined.self) {
            try await plugin.actionInvoked(
                InvokedAction(notice: NoticeID(rawValue: 1), actionID: "log-install"), context: harness.context)
        }
        let saved = try await moments(harness)
        #expect(saved.map(\.text) == ["I installed this app. A tiny step, but it counts."])

        // Activated again (a restart): no new welcome.
        try await plugin.activate(context: harness.context, configuration: WinsConfiguration())
        #expect(try await plugin.reminderDue(due, context: harness.context) == nil)
    }

    @Test func noWelcomeAfterTheFirstWinWasLoggedSomeOtherWay() async throws {
        let harness = harness(nil, WinsConfiguration())
        let plugin = try await activate(harness)
        _ = try await log(plugin, harness, LogRequest(text: "Opened the laptop"))
        let welcome = try #require(try await harness.reminders.list().first { $0.reminder.id == "welcome" })
        #expect(
            try await plugin.reminderDue(
                DueReminder(reminder: welcome.reminder, dueAt: Self.start), context: harness.context) == nil)
    }

    @Test func favouritesToggleByIdPrefix() async throws {
        let harness = harness()
        let plugin = try await activate(harness)
        let reply = try await log(plugin, harness, LogRequest(text: "Watered the plants"))
        let prefix = String(reply.moment.id.uuidString.lowercased().prefix(8))
        func fav(_ id: String) async throws -> Moment {
            let reply = try await plugin.run(
                CommandInvocation(command: "fav", values: ["id": [id]]), context: harness.context,
                configuration: WinsConfiguration())
            #expect(reply.text.contains("Watered the plants"))
            return try await MomentBook(context: harness.context).moments.find(idPrefix: id)
        }
        #expect(try await fav(prefix).isFavorite)
        #expect(try await moments(harness).first?.isFavorite == true)
        #expect(try await !fav(prefix.uppercased()).isFavorite)
        await #expect(throws: PluginCommandError.self) { try await fav("zzzz") }
        await #expect(throws: PluginCommandError.self) { try await fav("ab") }
        let missing = await #expect(throws: PluginCommandError.self) { try await fav("0000") }
        #expect(
            missing?.message.contains("`hooray moments` lists them") == true
                || reply.moment.id.uuidString.hasPrefix("0000"))
    }

    @Test("fav --on and --off set the mark whatever it was; both at once is refused naming --off")
    func favouriteOnAndOffSetTheMark() async throws {
        let harness = harness()
        let plugin = try await activate(harness)
        let reply = try await log(plugin, harness, LogRequest(text: "Watered the plants"))
        let prefix = String(reply.moment.id.uuidString.lowercased().prefix(8))
        func fav(_ flags: Set<String>) async throws -> Bool {
            _ = try await plugin.run(
                CommandInvocation(command: "fav", values: ["id": [prefix]], flags: flags), context: harness.context,
                configuration: WinsConfiguration())
            return try await MomentBook(context: harness.context).moments.find(idPrefix: prefix).isFavorite
        }
        #expect(try await fav(["on"]))
        #expect(try await fav(["on"]), "--on twice stays marked")
        #expect(try await !fav(["off"]))
        #expect(try await !fav(["off"]), "--off twice stays unmarked")
        let both = await #expect(throws: PluginCommandError.self) { try await fav(["on", "off"]) }
        #expect(both?.invalidOption == "--off")
        #expect(try await MomentBook(context: harness.context).moments.find(idPrefix: prefix).isFavorite == false)
    }

    @Test func anUnreadablePraiseFileIsAConfigurationError() throws {
        #expect(throws: PraisePoolError.self) { try PraisePool(contentsOf: "/nonexistent/praise.txt") }
    }

    @Test func agoIsWhenItHappened() async throws {
        let harness = harness()
        let plugin = try await activate(harness)
        let reply = try await log(plugin, harness, LogRequest(text: "Walked", ago: "1h30m"))
        #expect(reply.moment.happenedAt == Self.start.addingTimeInterval(-5400))
        #expect(reply.moment.timeAgo == 5400)
    }
}
