import Foundation
import HoorayDelivery
import HoorayEngine
import HoorayKit
import HoorayStorage
import Testing

/// A delivery channel of the tests' own: a notebook that keeps every notice it is handed, under
/// handles of its own (`page-1`, ...), and lets the test press a button on one, as a person would.
/// Registering it is one line: `World(channels: [notebook])`.
final class NotebookChannel: DeliveryChannel, @unchecked Sendable {
    // @unchecked: all state is guarded by `lock`.
    private let lock = NSLock()
    private var pages: [(id: NoticeID, notice: Notice, replacing: String?)] = []
    private var onEvent: (@Sendable (ChannelEvent) -> Void)?

    let isAuxiliary: Bool

    /// - Parameter auxiliary: Whether it only adds to the desktop's notifications, as the
    ///   celebration window does.
    init(auxiliary: Bool = false) {
        isAuxiliary = auxiliary
    }

    var name: String { "notebook" }
    var written: [(id: NoticeID, notice: Notice, replacing: String?)] { lock.withLock { pages } }

    func start(onEvent: @escaping @Sendable (ChannelEvent) -> Void) {
        lock.withLock { self.onEvent = onEvent }
    }

    func status() async -> ServerStatus {
        .available(ServerInfo(name: "notebook", vendor: "tests", version: "1", specVersion: "1.2", capabilities: []))
    }

    func deliver(_ notice: Notice, id: NoticeID, replacing: String?) async -> ChannelOutcome {
        lock.withLock {
            pages.append((id, notice, replacing))
            return .delivered(handle: replacing ?? "page-\(pages.count)")
        }
    }

    func shutdown() async {}

    /// Presses a button of a notice in the notebook.
    func press(_ action: String, on id: NoticeID) {
        lock.withLock { onEvent }?(.action(id, action))
    }
}

@Suite struct DeliveryChannelTests {
    @Test func aChannelRegisteredBesideTheDesktopShowsTheSameNoticesAndUpdatesItsOwnInPlace() async throws {
        let notebook = NotebookChannel()
        let world = try World(channels: [notebook])
        defer { world.cleanUp() }
        await world.activate(ProbePlugin(reminders: [stretch]))
        world.clock.advance(by: 60)
        await world.engine.processDue()
        await world.engine.deliverPending()
        #expect(world.sink.shown.map(\.notice.title) == ["Stretch"])
        #expect(notebook.written.map(\.notice.title) == ["Stretch"])
        let id = try #require(notebook.written.first?.id)
        #expect(try await world.database.notice(id)?.handles == ["recorder": "1", "notebook": "page-1"])

        let board = await world.engine.noticeBoard(for: "probe")
        try await board.update(id, to: Notice(title: "Stretch", body: "Still now"))
        await world.engine.deliverPending()
        #expect(world.sink.shown.map(\.replacing) == [nil, "1"])
        #expect(notebook.written.map(\.replacing) == [nil, "page-1"])
        #expect(notebook.written.last?.notice.body == "Still now")
    }

    @Test func aButtonPressedOnAnotherChannelReachesThePluginThatPostedTheNotice() async throws {
        let notebook = NotebookChannel()
        let world = try World(channels: [notebook])
        defer { world.cleanUp() }
        let (presses, pressed) = AsyncStream.makeStream(of: InvokedAction.self)
        var reminder = stretch
        reminder.notice.actions = [NoticeAction(id: "done", label: "Done")]
        await world.activate(ProbePlugin(reminders: [reminder], onAction: { action, _ in pressed.yield(action) }))
        await world.engine.startChannels()
        world.clock.advance(by: 60)
        await world.engine.processDue()
        await world.engine.deliverPending()
        let id = try #require(notebook.written.first?.id)

        notebook.press("done", on: id)
        var received = presses.makeAsyncIterator()
        let action = await received.next()
        #expect(action?.notice == id)
        #expect(action?.actionID == "done")
        #expect(action?.reminderID == "stretch")
    }

    @Test func whileTheDesktopHasNoServerTheOtherChannelStillShowsNotices() async throws {
        let notebook = NotebookChannel()
        let world = try World(channels: [notebook])
        defer { world.cleanUp() }
        world.sink.available = false
        await world.activate(ProbePlugin(reminders: [stretch]))
        world.clock.advance(by: 60)
        await world.engine.processDue()
        await world.engine.deliverPending()
        #expect(world.sink.shown.isEmpty)
        #expect(notebook.written.map(\.notice.title) == ["Stretch"])
        #expect(try await world.database.inbox(includeDelivered: false).isEmpty)
    }

    @Test func aMilestoneShownOnlyByAnAuxiliaryChannelStaysInTheInboxAndIsNotShownThereTwice() async throws {
        let window = NotebookChannel(auxiliary: true)
        let world = try World(channels: [window])
        defer { world.cleanUp() }
        world.sink.timesOut = true
        var milestone = stretch
        milestone.notice = Notice(title: "Read · 7 days", category: "hooray.celebration.big")
        await world.activate(ProbePlugin(reminders: [milestone]))
        world.clock.advance(by: 60)
        await world.engine.processDue()
        await world.engine.deliverPending()
        #expect(world.sink.shown.isEmpty)
        #expect(window.written.map(\.notice.title) == ["Read · 7 days"])
        let waiting = try await world.database.inbox(includeDelivered: false)
        #expect(waiting.map(\.notice.title) == ["Read · 7 days"], "the window alone does not count as shown")

        // Tried again while the server still times out, then once it answers: the window is not
        // asked for again, and the notification is shown.
        await world.engine.deliverPending()
        world.sink.timesOut = false
        await world.engine.deliverPending()
        #expect(world.sink.shown.map(\.notice.title) == ["Read · 7 days"])
        #expect(window.written.count == 1)
        #expect(try await world.database.inbox(includeDelivered: false).isEmpty)
        let id = try #require(world.sink.shown.first?.id)
        #expect(try await world.database.notice(id)?.handles == ["recorder": "1", "notebook": "page-1"])

        // An update replaces the notification and asks for no second window.
        let board = await world.engine.noticeBoard(for: "probe")
        try await board.update(
            id, to: Notice(title: "Read · 7 days", body: "Well done", category: "hooray.celebration.big"))
        await world.engine.deliverPending()
        #expect(world.sink.shown.map(\.replacing) == [nil, "1"])
        #expect(window.written.count == 1)
    }

    @Test func aChannelTurnedOffInTheSettingsIsHandedNothingUntilASettingTurnsItOnAgain() async throws {
        let notebook = NotebookChannel()
        let world = try World(channels: [notebook])
        defer { world.cleanUp() }
        let walk = Reminder(
            id: "walk", schedule: .once(at: start.addingTimeInterval(120)), notice: Notice(title: "Walk"))
        let plugin = ProbePlugin(reminders: [stretch, walk])
        await world.engine.apply(
            settings: EngineSettings(channelsTurnedOff: ["notebook"]),
            plugins: [PluginSetup(plugin: plugin, enabled: true, configuration: NoConfiguration())])
        world.clock.advance(by: 60)
        await world.engine.processDue()
        await world.engine.deliverPending()
        #expect(world.sink.shown.map(\.notice.title) == ["Stretch"])
        #expect(notebook.written.isEmpty)

        // A reload that turns it on again (as `[celebrations] window = true` does for the window).
        await world.engine.apply(
            settings: EngineSettings(),
            plugins: [PluginSetup(plugin: plugin, enabled: true, configuration: NoConfiguration())])
        world.clock.advance(by: 120)
        await world.engine.processDue()
        await world.engine.deliverPending()
        #expect(notebook.written.map(\.notice.title) == ["Walk"])
    }

    @Test func celebrationsWindowFalseTurnsTheWindowChannelOffAndAReloadedTrueTurnsItOnAgain() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hooray-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/hooray", withIntermediateDirectories: true)
        let loader = ConfigurationLoader(
            environment: ["XDG_CONFIG_HOME": directory, "HOORAY_SYSCONFDIR": directory + "/etc"], extraFile: nil,
            plugins: [])
        try "[celebrations]\nwindow = false\n".write(
            toFile: directory + "/hooray/hooray.toml", atomically: true, encoding: .utf8)
        #expect(try loader.load().settings.channelsTurnedOff == [CelebrationWindowChannel.channelName])
        try "[celebrations]\nwindow = true\n".write(
            toFile: directory + "/hooray/hooray.toml", atomically: true, encoding: .utf8)
        #expect(try loader.load().settings.channelsTurnedOff.isEmpty)
    }
}
