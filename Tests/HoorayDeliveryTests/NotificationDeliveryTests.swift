import HoorayDelivery
import HoorayKit
import HooraySystemTesting
import Testing

/// Real libnotify talking to a real notification server on a private session bus.
///
/// Serialized: the process has one session bus (see ``SharedSessionBus``), and the server name
/// on it can only have one owner at a time.
@Suite(.serialized) struct NotificationDeliveryTests {
    let doneAndSnooze = [NoticeAction(id: "done", label: "Done"), NoticeAction(id: "snooze", label: "Snooze 1 h")]

    @Test func readsTheServersNameAndCapabilities() async throws {
        try await withDelivery { harness in
            _ = try await harness.startServer(capabilities: ["body", "actions"])

            let status = await harness.delivery.serverStatus()

            let info = try #require(status.info, "\(status)")
            #expect(info.name == "hooray-test-server")
            #expect(info.vendor == "Hooray tests")
            #expect(info.specVersion == "1.2")
            #expect(info.capabilities == ["body", "actions"])
            #expect(info.supportsActions)
            #expect(!info.readsBodyMarkup)
        }
    }

    @Test func aNotificationArrivesAsHoorayWithItsTitleBodyAndHints() async throws {
        try await withDelivery { harness in
            let server = try await harness.startServer()
            let notice = Notice(
                title: "Drink some water",
                body: "A glass now keeps the afternoon dip away.",
                urgency: .critical,
                category: "reminder",
                timeout: .milliseconds(8000)
            )

            let outcome = await harness.delivery.show(notice, id: NoticeID(rawValue: 1))

            let shown = try await server.waitForNotifications(count: 1)[0]
            #expect(outcome == .delivered(serverID: shown.id))
            #expect(shown.appName == "Hooray")
            #expect(shown.desktopEntry == "hooray")
            #expect(shown.appIcon == "hooray")
            #expect(shown.summary == "Drink some water")
            #expect(shown.body == "A glass now keeps the afternoon dip away.")
            #expect(shown.urgency == 2)
            #expect(shown.category == "reminder")
            #expect(shown.expireTimeout == 8000)
        }
    }

    @Test(arguments: [(Notice.Urgency.low, 0), (.normal, 1), (.critical, 2)])
    func urgencyReachesTheServer(urgency: Notice.Urgency, hint: Int) async throws {
        try await withDelivery { harness in
            let server = try await harness.startServer()

            _ = await harness.delivery.show(Notice(title: "Hi", urgency: urgency), id: NoticeID(rawValue: 1))

            #expect(try await server.waitForNotifications(count: 1)[0].urgency == hint)
        }
    }

    @Test(arguments: [(Notice.Timeout.serverDefault, Int32(-1)), (.never, 0), (.milliseconds(1500), 1500)])
    func timeoutReachesTheServer(timeout: Notice.Timeout, expireTimeout: Int32) async throws {
        try await withDelivery { harness in
            let server = try await harness.startServer()

            _ = await harness.delivery.show(Notice(title: "Hi", timeout: timeout), id: NoticeID(rawValue: 1))

            #expect(try await server.waitForNotifications(count: 1)[0].expireTimeout == expireTimeout)
        }
    }

    @Test func aSilentNoticeAsksForNoSound() async throws {
        try await withDelivery { harness in
            let server = try await harness.startServer()

            _ = await harness.delivery.show(Notice(title: "Nice choice.", sound: .silent), id: NoticeID(rawValue: 1))

            let shown = try await server.waitForNotifications(count: 1)[0]
            #expect(shown.suppressSound == true)
            #expect(shown.hints["suppress-sound"] == .bool(true))
            #expect(shown.soundName == nil)
        }
    }

    @Test func aNamedSoundReachesTheServer() async throws {
        try await withDelivery { harness in
            let server = try await harness.startServer()

            _ = await harness.delivery.show(
                Notice(title: "🎉 Read 10 pages · 7 days", sound: .named("complete")), id: NoticeID(rawValue: 1))

            let shown = try await server.waitForNotifications(count: 1)[0]
            #expect(shown.soundName == "complete")
            #expect(shown.suppressSound == nil)
        }
    }

    @Test func theServerDecidesTheSoundByDefault() async throws {
        try await withDelivery { harness in
            let server = try await harness.startServer()

            _ = await harness.delivery.show(Notice(title: "Stretch"), id: NoticeID(rawValue: 1))

            let shown = try await server.waitForNotifications(count: 1)[0]
            #expect(shown.hints["suppress-sound"] == nil)
            #expect(shown.hints["sound-name"] == nil)
        }
    }

    @Test func anUpdateToASilentNoticeDropsItsSound() async throws {
        try await withDelivery { harness in
            let server = try await harness.startServer()
            let id = NoticeID(rawValue: 1)

            _ = await harness.delivery.show(Notice(title: "Hooray", sound: .named("complete")), id: id)
            _ = await harness.delivery.show(Notice(title: "Hooray", sound: .silent), id: id)

            let both = try await server.waitForNotifications(count: 2)
            #expect(both.map(\.soundName) == ["complete", nil])
            #expect(both.map(\.suppressSound) == [nil, true])
        }
    }

    @Test(arguments: [
        (["body", "body-markup", "actions"], "&lt;b&gt;Tom &amp; Jerry&lt;/b&gt;"),
        (["body", "actions"], "<b>Tom & Jerry</b>"),
    ])
    func bodyTextIsShownLiterallyWhateverTheServerReads(capabilities: [String], sentBody: String) async throws {
        try await withDelivery { harness in
            let server = try await harness.startServer(capabilities: capabilities)

            let outcome = await harness.delivery.show(
                Notice(title: "<i>Cartoon</i> & co", body: "<b>Tom & Jerry</b>"),
                id: NoticeID(rawValue: 1)
            )

            #expect(outcome.serverID != nil, "\(outcome)")
            let shown = try await server.waitForNotifications(count: 1)[0]
            #expect(shown.body == sentBody)
            #expect(shown.summary == "<i>Cartoon</i> & co")
        }
    }

    @Test(arguments: [true, false])
    func buttonsAreAddedOnlyWhenTheServerShowsThem(serverHasActions: Bool) async throws {
        try await withDelivery { harness in
            let server = try await harness.startServer(
                capabilities: serverHasActions ? ["body", "actions"] : ["body"]
            )

            _ = await harness.delivery.show(
                Notice(title: "Stretch", actions: doneAndSnooze),
                id: NoticeID(rawValue: 1)
            )

            let shown = try await server.waitForNotifications(count: 1)[0]
            let expected = [
                RecordedAction(key: "done", label: "Done"), RecordedAction(key: "snooze", label: "Snooze 1 h"),
            ]
            #expect(shown.actions == (serverHasActions ? expected : []))
        }
    }

    @Test func aPressedButtonReachesTheEngineWithItsNoticeAndKey() async throws {
        try await withDelivery { harness in
            let server = try await harness.startServer()
            let outcome = await harness.delivery.show(
                Notice(title: "Stretch", actions: doneAndSnooze),
                id: NoticeID(rawValue: 42)
            )
            let serverID = try #require(outcome.serverID, "\(outcome)")

            try await server.invokeAction(id: serverID, key: "snooze")

            #expect(await harness.events.waitFor(.actionInvoked(notice: NoticeID(rawValue: 42), actionID: "snooze")))
            #expect(
                await harness.events.waitFor(
                    .closed(notice: NoticeID(rawValue: 42), serverID: serverID, reason: .dismissed)
                )
            )
            #expect(!harness.events.all.contains(.actionInvoked(notice: NoticeID(rawValue: 42), actionID: "done")))
        }
    }

    @Test func buttonsOfSeveralNoticesAreToldApart() async throws {
        try await withDelivery { harness in
            let server = try await harness.startServer()
            let first = await harness.delivery.show(
                Notice(title: "One", actions: doneAndSnooze), id: NoticeID(rawValue: 1))
            let second = await harness.delivery.show(
                Notice(title: "Two", actions: doneAndSnooze), id: NoticeID(rawValue: 2))
            let secondID = try #require(second.serverID)
            #expect(first.serverID != secondID)

            try await server.invokeAction(id: secondID, key: "done")

            #expect(await harness.events.waitFor(.actionInvoked(notice: NoticeID(rawValue: 2), actionID: "done")))
            #expect(!harness.events.all.contains(.actionInvoked(notice: NoticeID(rawValue: 1), actionID: "done")))
        }
    }

    @Test func updatingANoticeReplacesItInPlace() async throws {
        try await withDelivery { harness in
            let server = try await harness.startServer()
            let id = NoticeID(rawValue: 7)

            let first = await harness.delivery.show(Notice(title: "Win logged", body: "Nice work!"), id: id)
            let second = await harness.delivery.show(
                Notice(title: "Win logged", body: "That took courage, and you did it."),
                id: id
            )

            let serverID = try #require(first.serverID, "\(first)")
            #expect(second == .delivered(serverID: serverID))
            let shown = try await server.waitForNotifications(count: 2)
            #expect(shown.map(\.id) == [serverID, serverID])
            #expect(shown[1].replacesID == serverID)
            #expect(shown[1].body == "That took courage, and you did it.")
        }
    }

    @Test func aNoticeFromAnEarlierProcessIsReplacedByItsServerID() async throws {
        let server: TestNotificationServer
        let serverID: UInt32
        do {
            let bus = try await SharedSessionBus.shared.running()
            server = try await TestNotificationServer(busAddress: bus.address)
            let earlier = NotificationDelivery()
            serverID = try #require(
                await earlier.show(Notice(title: "Win logged", actions: doneAndSnooze), id: NoticeID(rawValue: 3))
                    .serverID
            )
            await earlier.shutdown()
        }

        try await withDelivery { harness in
            let outcome = await harness.delivery.show(
                Notice(title: "Win logged", body: "AI praise"),
                id: NoticeID(rawValue: 3),
                replacing: serverID
            )

            #expect(outcome == .delivered(serverID: serverID))
            let shown = try await server.waitForNotifications(count: 2)
            #expect(shown[1].replacesID == serverID)
            #expect(shown[1].body == "AI praise")
            // Shutting the earlier delivery down left its notification, buttons and all, on screen.
            #expect(try server.closeRequests().isEmpty)
        }
        await server.stop()
    }

    @Test func closingANotificationAsksTheServerAndReportsIt() async throws {
        try await withDelivery { harness in
            let server = try await harness.startServer()
            let outcome = await harness.delivery.show(Notice(title: "Bye"), id: NoticeID(rawValue: 5))
            let serverID = try #require(outcome.serverID)

            #expect(await harness.delivery.close(serverID: serverID) == .closed)

            #expect(try server.closeRequests() == [serverID])
            #expect(
                await harness.events.waitFor(
                    .closed(notice: NoticeID(rawValue: 5), serverID: serverID, reason: .closedByCall)
                )
            )
        }
    }

    @Test func withoutAServerDeliveryFailsQuicklyAndSucceedsOnceOneAppears() async throws {
        try await withDelivery { harness in
            let clock = ContinuousClock()
            let started = clock.now
            let outcome = await harness.delivery.show(Notice(title: "Hello"), id: NoticeID(rawValue: 1))
            let waited = clock.now - started

            #expect(outcome.reason?.contains("No notification server") == true, "\(outcome)")
            #expect(waited < .seconds(1))
            #expect(await harness.delivery.serverStatus() == .unavailable(reason: try #require(outcome.reason)))

            let mark = harness.events.mark()
            let server = try await harness.startServer()
            #expect(await harness.events.waitFor(.serverAppeared, after: mark))

            let retried = await harness.delivery.show(Notice(title: "Hello"), id: NoticeID(rawValue: 1))
            #expect(retried.serverID != nil, "\(retried)")
            #expect(try await server.waitForNotifications(count: 1)[0].summary == "Hello")
        }
    }

    @Test func aHungServerTimesOutWithoutBlockingTheCaller() async throws {
        try await withDelivery(timeout: .milliseconds(500)) { harness in
            let hung = try await harness.startServer(hang: true)
            let clock = ContinuousClock()
            let started = clock.now

            let outcome = await harness.delivery.show(Notice(title: "Anyone there?"), id: NoticeID(rawValue: 1))

            let waited = clock.now - started
            #expect(outcome == .timedOut)
            #expect(waited >= .milliseconds(450))
            #expect(waited < .seconds(2))

            // A queued call also gives up in time while the first one is still stuck.
            let second = clock.now
            #expect(await harness.delivery.show(Notice(title: "Still?"), id: NoticeID(rawValue: 2)) == .timedOut)
            #expect(clock.now - second < .seconds(2))

            // Once the hung server is gone, a working one gets the next notice.
            await hung.stop()
            let server = try await harness.startServer()
            let retried = await harness.delivery.show(Notice(title: "Hello again"), id: NoticeID(rawValue: 3))
            #expect(retried.serverID != nil, "\(retried)")
            let shown = try await server.waitForNotifications(count: 1)
            #expect(shown.map(\.summary) == ["Hello again"])
        }
    }

    @Test func aNotificationShownAfterTheTimeoutIsTakenBackSoARetryCannotShowItTwice() async throws {
        try await withDelivery(timeout: .milliseconds(300)) { harness in
            let slow = try await harness.startServer(answerDelay: .seconds(1))

            let outcome = await harness.delivery.show(Notice(title: "Slow"), id: NoticeID(rawValue: 1))

            #expect(outcome == .timedOut)
            let late = try await slow.waitForNotifications(count: 1)[0]
            let closed = await pollUntil(timeout: .seconds(10)) { try? slow.closeRequests().first }
            #expect(closed == late.id)
        }
    }

    @Test func aLostSessionBusIsSurvivedAndFoundAgain() async throws {
        try await withDelivery { harness in
            let before = try await harness.startServer()
            #expect(await harness.delivery.show(Notice(title: "Before"), id: NoticeID(rawValue: 1)).serverID != nil)

            let vanished = harness.events.mark()
            await harness.bus.stop()
            #expect(await harness.events.waitFor(.serverVanished, after: vanished))
            // Refused for the missing bus (not a time-out waiting for it).
            let outcome = await harness.delivery.show(Notice(title: "During"), id: NoticeID(rawValue: 2))
            #expect(outcome.reason?.contains("session bus") == true, "\(outcome)")
            await before.stop()

            let appeared = harness.events.mark()
            try await harness.bus.start()
            let after = try await harness.startServer()
            #expect(await harness.events.waitFor(.serverAppeared, after: appeared))

            let retried = await harness.delivery.show(Notice(title: "After"), id: NoticeID(rawValue: 2))
            #expect(retried.serverID != nil, "\(retried)")
            #expect(try await after.waitForNotifications(count: 1)[0].summary == "After")
        }
    }

    @Test func afterShutdownNothingIsShownAndTheEventsEnd() async throws {
        let bus = try await SharedSessionBus.shared.running()
        let server = try await TestNotificationServer(busAddress: bus.address)
        let delivery = NotificationDelivery()
        let events = Task {
            var count = 0
            for await _ in delivery.events { count += 1 }
            return count
        }

        await delivery.shutdown()
        let outcome = await delivery.show(Notice(title: "Too late"), id: NoticeID(rawValue: 1))

        #expect(outcome.reason?.contains("shut down") == true, "\(outcome)")
        _ = await events.value
        #expect(try server.notifications().isEmpty)
        await server.stop()
    }
}
