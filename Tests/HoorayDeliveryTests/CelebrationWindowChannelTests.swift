import HoorayDelivery
import HoorayKit
import Logging
import Testing

/// Which notices the celebration window channel takes, and leaving it out (`[celebrations] window = false`).
@Suite struct CelebrationWindowChannelTests {
    /// A channel that records what it was handed.
    final class RecordingChannel: DeliveryChannel, @unchecked Sendable {
        // @unchecked: `handed` is only touched by the test's one task, one call at a time.
        let name: String
        let isAuxiliary: Bool
        var handed: [String] = []
        var outcome = ChannelOutcome.delivered(handle: "1")

        init(_ name: String, auxiliary: Bool = false) {
            self.name = name
            isAuxiliary = auxiliary
        }

        func start(onEvent: @escaping @Sendable (ChannelEvent) -> Void) {}
        func status() async -> ServerStatus { .unavailable(reason: "a test channel") }
        func deliver(_ notice: Notice, id: NoticeID, replacing: String?) async -> ChannelOutcome {
            handed.append(notice.title)
            return outcome
        }
        func shutdown() async {}
    }

    @Test func milestonesAreTakenInTheirStyleAndOtherNoticesAreNot() {
        let calm = Notice(title: "Read · 7 days", urgency: .low, category: "hooray.celebration.big")
        let playful = Notice(title: "🎉 Read · 7 days", urgency: .normal, category: "hooray.celebration.big")
        let small = Notice(title: "Read", urgency: .low, category: "hooray.celebration")
        let reminder = Notice(title: "Stretch", category: "reminder")

        #expect(CelebrationWindowChannel.style(of: calm) == "calm")
        #expect(CelebrationWindowChannel.style(of: playful) == "playful")
        #expect(CelebrationWindowChannel.style(of: small) == nil)
        #expect(CelebrationWindowChannel.style(of: reminder) == nil)
    }

    @Test func aSkippedChannelIsNotHandedTheNotice() async {
        let notifications = RecordingChannel("libnotify")
        let window = RecordingChannel(CelebrationWindowChannel.channelName)
        let channels = DeliveryChannels([notifications, window])
        let notice = Notice(title: "Read · 7 days", urgency: .low, category: "hooray.celebration.big")

        let outcome = await channels.deliver(
            notice, id: NoticeID(rawValue: 1), handles: [:], skipping: [CelebrationWindowChannel.channelName])

        #expect(outcome == .delivered(handles: ["libnotify": "1"]))
        #expect(notifications.handed == ["Read · 7 days"])
        #expect(window.handed.isEmpty)
        _ = await channels.deliver(notice, id: NoticeID(rawValue: 2), handles: [:])
        #expect(window.handed == ["Read · 7 days"])
    }

    @Test func theWindowAloneDoesNotCountAsShownAndIsNotAskedForAgainWhenTheNoticeIsRetried() async {
        let notifications = RecordingChannel("libnotify")
        let window = RecordingChannel(CelebrationWindowChannel.channelName, auxiliary: true)
        let channels = DeliveryChannels([notifications, window])
        let notice = Notice(title: "Read · 7 days", urgency: .low, category: "hooray.celebration.big")
        notifications.outcome = .timedOut

        let first = await channels.deliver(notice, id: NoticeID(rawValue: 1), handles: [:])
        #expect(first == .notShown(.timedOut, handles: ["window": "1"]))
        #expect(window.handed == ["Read · 7 days"])

        notifications.outcome = .delivered(handle: "7")
        let retried = await channels.deliver(notice, id: NoticeID(rawValue: 1), handles: ["window": "1"])
        #expect(retried == .delivered(handles: ["libnotify": "7", "window": "1"]))
        #expect(window.handed.count == 1, "no second window")

        // A window that was not shown the first time is not asked for on a later update either.
        window.outcome = .unavailable(reason: "the desktop app is not installed")
        let other = await channels.deliver(notice, id: NoticeID(rawValue: 2), handles: [:])
        #expect(other == .delivered(handles: ["libnotify": "7"]))
        _ = await channels.deliver(notice, id: NoticeID(rawValue: 2), handles: ["libnotify": "7"])
        #expect(window.handed.count == 2)
        #expect(notifications.handed.count == 4)
    }

    // Not `DeliveryChannels.standard`: its libnotify channel would hold a connection to this process's
    // session bus, and the other tests of this process that start their own bus would reach the wrong
    // one. The end-to-end DesktopAppCelebrationTests show that a command run while hoorayd is
    // stopped starts no app.
    @Test func aCommandRunWhileHoorayDIsStoppedHasNoWindowChannel() {
        let channels = DeliveryChannels([RecordingChannel("libnotify"), RecordingChannel("window", auxiliary: true)])
        #expect(channels.all.map(\.name) == ["libnotify", "window"])
        #expect(channels.withoutAuxiliary.all.map(\.name) == ["libnotify"])
        #expect(CelebrationWindowChannel.turnedOff(window: false) == ["window"])
        #expect(CelebrationWindowChannel.turnedOff(window: true).isEmpty)
    }
}
