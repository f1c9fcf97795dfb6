import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit

extension SwapsPlugin {
    public func run(_ command: CommandInvocation, context: PluginContext, configuration: SwapsConfiguration)
        async throws -> CommandReply
    {
        let today = LocalDate(instant: context.now, in: command.environment.timeZone)
        // A swap or a prep saved is the first use that starts Night Prep and Morning Focus.
        let using = command.command == "log" || (command.command == "prep" && !command.values("items").isEmpty)
        let wasStarted =
            using ? try await RecurringNotices.haveStarted(context: context, recordTypes: Self.usageRecordTypes) : true
        // The coach's turns are kept quietly: no welcome, no inspiration, nothing started.
        if let reply = try await runCoachCommand(command, context: context) { return reply }
        if command.command == WeekReview.commandName { return try await reviewCommand(command, context: context) }
        var reply: CommandReply
        switch command.command {
        case "log":
            // The swap's reply carries the day's inspiration itself, in its JSON too.
            reply = try await logCommand(command, context: context, configuration: configuration)
        case "inspire":
            reply = try inspireCommand(command, context: context, configuration: configuration)
            // Shown now on a terminal: the day's first swap need not repeat it. A program reading
            // the JSON shows nobody anything.
            if !command.json {
                _ = try await firstInspiration(on: today, configuration: configuration, context: context)
            }
        case "today":
            // Read by the desktop app at each change: it neither welcomes nor counts as the day's first.
            return try await todayCommand(command, context: context, configuration: configuration)
        case "prep":
            reply = try await prepCommand(command, context: context, configuration: configuration)
            reply = try await withFirstInspiration(
                reply, command: command, context: context, configuration: configuration)
        case "list":
            reply = try await listCommand(command, context: context)
        case "edit":
            reply = try await editCommand(command, context: context)
        case "delete":
            reply = try await deleteCommand(command, context: context)
        case "prep-remove":
            reply = try await prepRemoveCommand(command, context: context, configuration: configuration)
        case "need-help":
            // Nothing between the user and the breathing: no inspiration, no welcome.
            reply = try await needHelpCommand(command, context: context)
        case "tutorial":
            reply = .text(
                SwapsWelcome.tutorial(
                    configuration: configuration,
                    started: try await remindersScheduled(context: context, configuration: configuration)))
        case "history":
            reply = try await historyCommand(command, context: context)
            reply = try await withFirstInspiration(
                reply, command: command, context: context, configuration: configuration)
        default:
            throw PluginCommandError(
                "the swaps plugin has no command \"\(command.command)\"; `hooray help swap` lists them")
        }
        reply = try await withWelcome(reply, command: command, context: context, configuration: configuration)
        guard using else { return reply }
        return try await startingReminders(
            reply, wasStarted: wasStarted, json: command.json, context: context, configuration: configuration)
    }

    /// The reply with the day's inspiration as its last line when it is the day's first swap command
    /// to answer on a terminal.
    func withFirstInspiration(
        _ reply: CommandReply, command: CommandInvocation, context: PluginContext, configuration: SwapsConfiguration
    ) async throws -> CommandReply {
        guard !command.json else { return reply }
        let today = LocalDate(instant: context.now, in: command.environment.timeZone)
        return reply.withInspiration(
            try await firstInspiration(on: today, configuration: configuration, context: context))
    }
}
