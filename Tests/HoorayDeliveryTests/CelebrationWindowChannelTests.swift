import HoorayDelivery
import HoorayKit
import Testing

/// Which notices the celebration window channel takes, and leaving it out (`[celebrations] window = false`).
@Suite struct CelebrationWindowChannelTests {
    /// A channel that records what it was handed.
    final class RecordingChannel: DeliveryChannel, @unchecked Sendable {
        // @unchecked: `handed` is only touched by the test's one task, one call at a time.
        let name: String
        var handed: [String] = []

        init(_ name: String) { self.name = name }

        func start(onEvent: @escaping @Sendable (ChannelEvent) -> Void) {}
        func status() async -> ServerStatus { .unavailable(reason: "a test channel") }
        func deliver(_ notice: Notice, id: NoticeID, replacing: String?) async -> ChannelOutcome {
            handed.append(notice.title)
            return .delivered(handle: "1")
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
}
