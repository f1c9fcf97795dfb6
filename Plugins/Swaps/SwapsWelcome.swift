import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit
import HoorayText

/// The first-run screen and the tutorial (seed 004, "Onboarding"): the loop of Morning Focus, the
/// swap and Night Prep, shown once before the first swap command's reply; `hooray swap tutorial`
/// replays three short steps.
enum SwapsWelcome {
    /// The storage key noting that the first-run screen was shown.
    static let shownKey = "welcome.shown"

    /// `08:00`, or `off` for a reminder turned off.
    static func time(_ time: TimeOfDay?) -> String {
        time.map(\.description) ?? "off"
    }

    /// The one screen of the first run.
    ///
    /// - Parameters:
    ///   - configuration: The plugin's section.
    ///   - started: Whether Morning Focus and Night Prep are scheduled yet: before the first swap or
    ///     prep, and unless switched on in the configuration, they are not, and the screen says when
    ///     they start.
    static func screen(configuration: SwapsConfiguration, started: Bool = true) -> String {
        let rows = [
            ("Morning Focus (\(time(configuration.morningFocus)))", "last night's prep and the day's inspiration"),
            ("During the day", "make your swap, then: hooray swap \"Sparkling water instead of soda\""),
            (
                "Night Prep (\(time(configuration.nightPrep)))",
                "pick tomorrow's swap: hooray swap prep \"Fruit for dessert\""
            ),
        ]
        let width = rows.map { TerminalText.width($0.0) }.max() ?? 0
        return
            ([
                "🌿 Welcome to healthy swaps: one small, healthier choice a day.",
                "",
                "The loop:",
            ] + rows.map { "  " + TerminalText.padding($0.0, toWidth: width) + "  " + $0.1 }
            + (started ? [] : ["", notYetStarted]) + [
                "",
                "Nothing to do to skip it: this screen shows only once. `hooray swap tutorial` replays the steps any time.",
                "",
            ]).joined(separator: "\n")
    }

    /// What the first-run screen and the tutorial say while Morning Focus and Night Prep wait for the
    /// first swap or prep.
    static let notYetStarted =
        "Morning Focus and Night Prep start with your first swap or prep: nothing is scheduled before that."

    /// The three steps of `hooray swap tutorial`, ending with "Got it."
    ///
    /// - Parameters:
    ///   - configuration: The plugin's section.
    ///   - started: Whether Morning Focus and Night Prep are scheduled yet; when they are not, the
    ///     steps end with when they start.
    static func tutorial(configuration: SwapsConfiguration, started: Bool = true) -> String {
        let morning =
            configuration.morningFocus.map { "at \($0) a notification brings" } ?? "(turned off) would bring"
        let night = configuration.nightPrep.map { "at \($0)," } ?? "(turned off) any evening,"
        let steps = [
            "1/3 Morning Focus: \(morning) last night's prep and a line of inspiration.",
            "2/3 I Need Help: when a craving comes, `hooray swap help` shows your top three swaps and breathes with you for 90 seconds.",
            "3/3 Night Prep: \(night) pick tomorrow's swap with `hooray swap prep \"…\"`; once it's done, press I did my swap or run `hooray swap \"…\"`.",
        ]
        return (steps + (started ? [] : [notYetStarted]) + ["Got it."]).joined(separator: "\n")
    }
}

extension SwapsPlugin {
    /// The reply with the first-run screen in front, when this is the first swap command ever to
    /// answer on a terminal; notes that it was shown. Replies for `--json` are left as they are.
    func withWelcome(
        _ reply: CommandReply, command: CommandInvocation, context: PluginContext, configuration: SwapsConfiguration
    )
        async throws -> CommandReply
    {
        // Not with --json, not in the quiet style's swap ("✅ Swap saved." alone), and not in the way
        // of "I need help": the next command shows it.
        // Nor before the ids shell completion reads.
        guard !command.json, command.command != "need-help", !command.flag("ids"),
            !(command.command == "log" && context.celebrations.style == .off)
        else { return reply }
        let isFirst = try await context.storage.update(forKey: SwapsWelcome.shownKey) { data in
            defer { data = Data("true".utf8) }
            return data == nil
        }
        guard isFirst, command.command != "tutorial" else { return reply }
        var shown = reply
        let started = try await remindersScheduled(context: context, configuration: configuration)
        shown.text = SwapsWelcome.screen(configuration: configuration, started: started) + "\n" + reply.text
        return shown
    }
}

extension SwapsPlugin {
    /// Whether Morning Focus or Night Prep is scheduled: the user used the plugin, or switched one on.
    func remindersScheduled(context: PluginContext, configuration: SwapsConfiguration) async throws -> Bool {
        if configuration.morningFocus != nil && configuration.morningFocusStart == .now { return true }
        if configuration.nightPrep != nil && configuration.nightPrepStart == .now { return true }
        return try await RecurringNotices.haveStarted(context: context, recordTypes: Self.usageRecordTypes)
    }
}
