import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit
import HoorayKitTesting
import Testing

/// The rule that a plugin's recurring notices start on first use (`RecurringNotices`), and the one
/// line the first use prints.
@Suite struct RecurringNoticesTests {
    @Test func notStartedUntilNotedOrARecordExists() async throws {
        let harness = PluginTestHarness(pluginName: "water", now: Date(timeIntervalSince1970: 1_795_338_000))
        #expect(try await !RecurringNotices.haveStarted(context: harness.context, recordTypes: [Glass.self]))
        try await RecurringNotices.start(context: harness.context)
        #expect(try await RecurringNotices.haveStarted(context: harness.context, recordTypes: []))

        let earlier = PluginTestHarness(pluginName: "water", now: Date(timeIntervalSince1970: 1_795_338_000))
        try await earlier.context.records(of: Glass.self).insert(Glass(drunkAt: earlier.clock.now))
        #expect(try await RecurringNotices.haveStarted(context: earlier.context, recordTypes: [Glass.self]))
        #expect(try await !RecurringNotices.haveStarted(context: earlier.context, recordTypes: []))
    }

    @Test func switchedOnStartsAtOnceAndFirstUseWaitsForUse() {
        #expect(RecurringNoticeStart.now.isOn(started: false))
        #expect(!RecurringNoticeStart.onFirstUse.isOn(started: false))
        #expect(RecurringNoticeStart.onFirstUse.isOn(started: true))
    }

    @Test func theLineSaysWhatIsScheduledAndHowToTurnItOff() {
        let one = RecurringNotices.startedLine(
            [.init(name: "Night Prep", at: TimeOfDay(hour: 21)!, turnOff: "night_prep = \"off\"")],
            section: "plugins.swaps", configurationFile: "/home/u/.config/hooray/hooray.toml")
        #expect(
            one
                == "Now scheduled: Night Prep at 21:00, each day. To turn it off, set night_prep = \"off\" under "
                + "[plugins.swaps] in /home/u/.config/hooray/hooray.toml.")
        let three = RecurringNotices.startedLine(
            [
                .init(name: "a", at: TimeOfDay(hour: 8)!, turnOff: "a = false"),
                .init(name: "b", at: TimeOfDay(hour: 9, minute: 30)!, turnOff: "b = false"),
                .init(name: "c", at: TimeOfDay(hour: 20)!, turnOff: "c = false"),
            ], section: "plugins.x", configurationFile: nil)
        #expect(
            three
                == "Now scheduled: a at 08:00, b at 09:30 and c at 20:00, each day. To turn them off, set a = false, "
                + "b = false and c = false under [plugins.x] in your hooray.toml.")
    }
}
