import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit
import HoorayKitTesting
import Testing

@testable import SwapsPlugin

/// "I need help": the top three swaps (most frequent first, ties to the latest, compared without
/// case), the 90-second breathing guide `hooray` plays, its steps printed with `--no-animation`, and
/// the notification the **I need help** button shows.
@Suite struct SwapsGuideTests {
    /// Friday 13 March 2026, 20:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_773_432_000)
    static let today = LocalDate(instant: now, in: TimeZone(identifier: "UTC")!)
    /// Words a person in a craving must never read from us.
    static let shameWords = ["missed", "failed", "broke", "lazy", "should have"]

    let harness = PluginTestHarness(pluginName: "swaps", now: Self.now)

    /// Saves swaps as the user made them, oldest first, one an hour, over the last days.
    func logged(_ texts: [String]) async throws {
        let book = harness.context.records(of: Swap.self)
        for (index, text) in texts.enumerated() {
            let at = Self.now.addingTimeInterval(Double(index - texts.count) * 3600)
            try await book.insert(
                Swap(text: text, day: LocalDate(instant: at, in: harness.context.timeZone), loggedAt: at))
        }
    }

    func help(_ flags: Set<String> = []) async throws -> CommandReply {
        try await SwapsPlugin().needHelpCommand(
            CommandInvocation(command: "need-help", flags: flags), context: harness.context)
    }

    /// The `Cue — N s` lines of a listing, as (cue, seconds).
    static func steps(in text: String) -> [(cue: String, seconds: Int)] {
        text.split(separator: "\n").compactMap { line in
            let parts = line.components(separatedBy: " — ")
            guard parts.count == 2, parts[1].hasSuffix(" s"), let seconds = Int(parts[1].dropLast(2)) else {
                return nil
            }
            return (parts[0], seconds)
        }
    }

    // MARK: The guide

    @Test func theGuideIsSixCalmRoundsOfInHoldOutThatTakeExactlyNinetySeconds() {
        let guide = NeedHelpCopy.breathingGuide
        #expect(guide.totalSeconds == 90)
        #expect(guide.steps.count == 18)
        for round in stride(from: 0, to: guide.steps.count, by: 3) {
            let cues = guide.steps[round..<round + 3].map(\.cue)
            #expect(cues[0].hasPrefix("Breathe in") && cues[1].hasPrefix("Hold") && cues[2].hasPrefix("Breathe out"))
            #expect(guide.steps[round..<round + 3].map(\.seconds) == [4, 4, 7])
        }
        #expect(guide.title.contains("90 seconds"))
        #expect(!guide.closing.isEmpty)
    }

    @Test func nothingINeedHelpSaysShames() async throws {
        try await logged(["Sparkling water instead of soda"])
        let reply = try await help()
        let notice = try await SwapsPlugin().needHelpNotice(context: harness.context)
        let empty = NeedHelpCopy.topSwapLines([]).joined(separator: "\n")
        let guide = NeedHelpCopy.breathingGuide
        let everything =
            [reply.text, notice.title, notice.body, empty, guide.title, guide.closing]
            + guide.steps.map(\.cue)
        for text in everything {
            for word in Self.shameWords {
                #expect(!text.lowercased().contains(word), "\"\(word)\" in \(text)")
            }
        }
    }

    @Test func helpReturnsTheGuideForHoorayToPlayAndDoesNotListItsSteps() async throws {
        try await logged(["Fruit for dessert"])
        let reply = try await help()
        #expect(reply.guide == NeedHelpCopy.breathingGuide)
        #expect(reply.text.contains("Fruit for dessert"))
        #expect(reply.text.hasSuffix(NeedHelpCopy.breatheNow))
        #expect(Self.steps(in: reply.text).isEmpty, "\(reply.text)")
    }

    @Test func withNoAnimationTheStepsArePrintedAndSumToNinetySecondsAndNoGuideIsPlayed() async throws {
        let reply = try await help(["no-animation"])
        #expect(reply.guide == nil)
        let steps = Self.steps(in: reply.text)
        #expect(steps.count == 18)
        #expect(steps.map(\.seconds).reduce(0, +) == 90)
        #expect(steps.map(\.cue) == NeedHelpCopy.breathingGuide.steps.map(\.cue))
        #expect(reply.text.contains("90 seconds of calm breathing"))
        #expect(reply.text.contains("In all: 90 s."))
    }

    // MARK: The top three

    @Test func theTopThreeAreTheMostFrequentFirstComparedWithoutCaseOrSpacesInTheirLatestWords() async throws {
        try await logged([
            "sparkling water instead of soda",
            "Walk after dinner",
            "Tea instead of wine",
            "Sparkling Water instead of soda ",
            "Walk after dinner",
            "Fruit for dessert",
            "  sparkling water instead of SODA",
            "Sparkling water instead of soda",
        ])
        let reply = try await help()
        let lines = reply.text.split(separator: "\n").map(String.init)
        #expect(
            Array(lines.prefix(4)) == [
                "Your top three swaps:",
                "  1. Sparkling water instead of soda · 4 times",
                "  2. Walk after dinner · twice",
                // Fruit and tea were each made once: the latest first.
                "  3. Fruit for dessert · once",
            ], "\(reply.text)")
        #expect(!reply.text.contains("Tea instead of wine"))
    }

    @Test func tiesGoToTheSwapMadeMostRecently() async throws {
        try await logged(["Oatmeal", "Herbal tea", "Oatmeal", "Herbal tea", "Apple", "Nuts"])
        let top = try await SwapsPlugin().topSwaps(context: harness.context)
        #expect(top.map(\.text) == ["Herbal tea", "Oatmeal", "Nuts"])
        #expect(top.map(\.count) == [2, 2, 1])
    }

    @Test func fewerThanThreeShowWhatThereIs() async throws {
        try await logged(["Oatmeal instead of a pastry", "Walk after lunch", "Oatmeal instead of a pastry"])
        let reply = try await help()
        #expect(
            reply.text.hasPrefix(
                "Your top two swaps:\n  1. Oatmeal instead of a pastry · twice\n  2. Walk after lunch · once\n"),
            "\(reply.text)")
        let one = SwapsGuideTests()
        try await one.logged(["Walk after lunch"])
        #expect(try await one.help().text.hasPrefix("Your top swap:\n  1. Walk after lunch · once\n"))
    }

    @Test func withNoSwapsYetAKindLineAndOneExample() async throws {
        let reply = try await help()
        #expect(!reply.text.contains("Your top"))
        #expect(reply.text.contains("No swaps logged yet, and that's perfectly okay."), "\(reply.text)")
        #expect(reply.text.contains("One to try: Sparkling water instead of soda."))
        #expect(reply.guide?.totalSeconds == 90)
    }

    @Test func aSwapThatCouldDriveTheTerminalIsShownHarmless() async throws {
        try await logged(["Water \u{1B}[2J instead of soda"])
        let reply = try await help()
        #expect(!reply.text.contains("\u{1B}"))
        #expect(reply.text.contains("Water ␛[2J instead of soda"), "\(reply.text)")
    }

    // MARK: The notification

    @Test func theButtonsNotificationShowsTheTopThreeAndABreathingLine() async throws {
        try await logged([
            "Sparkling water instead of soda", "Fruit for dessert", "Walk after dinner", "Fruit for dessert",
        ])
        let notice = try await SwapsPlugin().needHelpNotice(context: harness.context)
        #expect(notice.title == "I need help")
        #expect(
            notice.body == """
                Your top three swaps:
                1. Fruit for dessert · twice
                2. Walk after dinner · once
                3. Sparkling water instead of soda · once
                Breathe in for 4, hold for 4, out for 7. The craving can wait. `hooray swap help` guides you for 90 seconds.
                """)
        #expect(notice.timeout == .never)
    }

    @Test func theButtonsNotificationWithNoSwapsYetIsKindAndStillHelps() async throws {
        let notice = try await SwapsPlugin().needHelpNotice(context: harness.context)
        #expect(notice.body.contains("One to try: Sparkling water instead of soda."))
        #expect(notice.body.contains("Breathe in for 4"))
    }
}
