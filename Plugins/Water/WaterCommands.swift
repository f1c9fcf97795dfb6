import HoorayCalendar
import HoorayCommandLine
import HoorayKit

/// The water plugin's commands: `hooray water drink` and `hooray water today`.
extension WaterPlugin {
    public var commands: [CommandSpec] {
        [
            CommandSpec(
                name: "drink", summary: "Count a glass of water, and see today's count.",
                options: [.init(name: "glasses", valueName: "n", help: "How many glasses (default 1).")],
                examples: ["hooray water drink", "hooray water drink --glasses 2"], offersJSON: true),
            CommandSpec(
                name: "today", summary: "The glasses counted today.", examples: ["hooray water today --json"],
                isDefault: true, offersJSON: true, writes: false),
        ]
    }

    public func run(_ command: CommandInvocation, context: PluginContext, configuration: WaterConfiguration)
        async throws -> CommandReply
    {
        // The user's day: the daemon running the command may be in another time zone.
        let today = LocalDate(instant: context.now, in: command.environment.timeZone)
        switch command.command {
        case "drink":
            let given = command.value("glasses") ?? "1"
            guard let glasses = Int(given), (1...20).contains(glasses) else {
                throw PluginCommandError.invalidValue(
                    "--glasses", "--glasses \(given) is not a number of glasses; give 1 to 20, such as --glasses 2")
            }
            let (total, celebration) = try await drink(
                glasses, goal: configuration.goal, timeZone: command.environment.timeZone, context: context)
            let count = DayCount(date: today, glasses: total, goal: configuration.goal)
            let lines = ["Counted. \(count.text)"] + [celebration].compactMap { $0 }
            return CommandReply(text: lines.joined(separator: "\n"), json: try JSONValue(encoding: count))
        case "today":
            let total = try await glasses(on: today, in: command.environment.timeZone, context: context)
            let count = DayCount(date: today, glasses: total, goal: configuration.goal)
            let text = total == 0 ? "No glasses counted yet today; `hooray water drink` counts one." : count.text
            return CommandReply(text: text, json: try JSONValue(encoding: count))
        default:
            throw PluginCommandError("the water plugin has no command \"\(command.command)\"")
        }
    }
}

/// A day's count, as the commands show it; `--json` prints `{"date":"2026-11-23","glasses":3,"goal":8}`.
struct DayCount: Codable, Sendable, Equatable {
    var date: LocalDate
    var glasses: Int
    var goal: Int

    /// `3 of 8 glasses today.`
    var text: String { "\(glasses) of \(goal) glasses today." }
}
