import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit
import HoorayText

/// The swap coach's records, for `hooray coach`: it reads the context and the conversation with
/// `coach-context`, keeps each turn with `coach-save` (through hoorayd, the one writer) and lists
/// or deletes them with `coach-history` and `coach-delete`. The commands are hidden: people use
/// `hooray coach`.
extension SwapsPlugin {
    /// The most characters of an answer kept.
    static let maxCoachAnswer = 8000

    /// The hidden commands behind `hooray coach`.
    static var coachCommands: [CommandSpec] {
        [
            CommandSpec(
                name: "coach-context", summary: "What the swap coach knows right now, and the latest conversation.",
                offersJSON: true, isHidden: true, writes: false),
            CommandSpec(
                name: "coach-save", summary: "Keep one turn of a conversation with the swap coach.",
                options: [
                    .init(name: "conversation", valueName: "id", help: "The conversation's id."),
                    .init(name: "said", valueName: "text", help: "What the user said."),
                    .init(name: "answer", valueName: "text", help: "The answer, as far as it came."),
                    .init(name: "voice", valueName: "voice", help: "Who answered: ai or built-in."),
                    .init(name: "intent", valueName: "intent", help: "What the words suggested."),
                ],
                flags: [.init(name: "stopped-early", help: "The answer ended early.")],
                offersJSON: true, isHidden: true, noun: "your conversation"),
            CommandSpec(
                name: "coach-history", summary: "Your conversations with the swap coach, oldest first.",
                offersJSON: true, isHidden: true, writes: false),
            CommandSpec(
                name: "coach-delete", summary: "Delete every conversation with the swap coach.",
                offersJSON: true, isHidden: true, noun: "your conversations"),
        ]
    }

    /// Runs one of ``coachCommands``; `nil` when the command is not one of them.
    func runCoachCommand(_ command: CommandInvocation, context: PluginContext) async throws -> CommandReply? {
        switch command.command {
        case "coach-context":
            let coach = try await coachContext(zone: command.environment.timeZone, context: context)
            return CommandReply(text: coach.promptText, json: try JSONValue(encoding: coach))
        case "coach-save":
            let turn = try Self.checkedTurn(command, at: context.now)
            try await context.records(of: CoachTurn.self).insert(turn)
            return CommandReply(
                text: "",
                json: .object([
                    "id": .string(turn.recordID), "conversation": .string(turn.conversation.uuidString.lowercased()),
                ]))
        case "coach-history":
            let turns = try await coachTurns(context: context)
            let zone = command.environment.timeZone
            return CommandReply(
                text: Self.historyText(turns, zone: zone, now: context.now), json: try JSONValue(encoding: turns))
        case "coach-delete":
            let book = context.records(of: CoachTurn.self)
            var deleted = 0
            for turn in try await book.all() where try await book.delete(turn.recordID) { deleted += 1 }
            let text =
                deleted == 0
                ? "There was no conversation with the coach to delete."
                : "Deleted your conversations with the coach (\(deleted) message\(deleted == 1 ? "" : "s"))."
            return CommandReply(text: text, json: .object(["deleted": .number(Double(deleted))]))
        default:
            return nil
        }
    }

    /// Every turn, oldest first.
    func coachTurns(context: PluginContext) async throws -> [CoachTurn] {
        try await context.records(of: CoachTurn.self).all().sorted { ($0.at, $0.recordID) < ($1.at, $1.recordID) }
    }

    /// What the coach knows now, with the latest conversation's last turns.
    func coachContext(zone: TimeZone, context: PluginContext) async throws -> CoachContext {
        let now = context.now
        let today = LocalDate(instant: now, in: zone)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: now)
        let hour = parts.hour ?? 0
        let swaps = try await context.records(of: Swap.self).all().filter { $0.text != Self.unnamedSwap }
        let history = SwapHistory(swaps: swaps, through: today, days: 1)
        let weekAgo = today.adding(days: -7)
        let recent = swaps.filter { $0.day < today && $0.day >= weekAgo }.sorted { $0.loggedAt > $1.loggedAt }
        let preps = context.records(of: Prep.self)
        let prepDay = Self.prepDay(at: now, in: zone)
        let turns = try await coachTurns(context: context)
        let latest = turns.last.map { last in turns.filter { $0.conversation == last.conversation } } ?? []
        return CoachContext(
            today: today, time: String(format: "%02d:%02d", hour, parts.minute ?? 0),
            partOfDay: CoachContext.partOfDay(hour: hour),
            swapsToday: swaps.filter { $0.day == today }.sorted { $0.loggedAt < $1.loggedAt }.map(\.text),
            recentSwaps: recent.prefix(7).map { .init(day: $0.day, text: $0.text) },
            streak: history.currentStreak,
            topSwaps: try await topSwaps(limit: 3, context: context).map { .init(text: $0.text, count: $0.count) },
            preparedForToday: try await preps.record(today.description)?.items ?? [],
            preparedForTomorrow: prepDay == today ? [] : try await preps.record(prepDay.description)?.items ?? [],
            turns: Array(latest.suffix(CoachContext.turnsKept)))
    }

    /// The turn `coach-save` was given, checked.
    static func checkedTurn(_ command: CommandInvocation, at now: Date) throws -> CoachTurn {
        guard let conversation = command.value("conversation").flatMap(UUID.init(uuidString:)) else {
            throw PluginCommandError.invalidValue("--conversation", "give the conversation's id, a UUID")
        }
        let said = (command.value("said") ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !said.isEmpty else { throw PluginCommandError.invalidValue("--said", "give what the user said") }
        if let problem = TextLimits.problem(in: said, kind: .text) {
            throw PluginCommandError.invalidValue("--said", "what you said \(problem)")
        }
        let answer = command.value("answer") ?? ""
        guard answer.count <= maxCoachAnswer else {
            throw PluginCommandError.invalidValue("--answer", "the answer takes at most \(maxCoachAnswer) characters")
        }
        if answer.unicodeScalars.contains(where: { $0 != "\n" && TerminalText.needsNeutralising(String($0)) }) {
            throw PluginCommandError.invalidValue("--answer", "the answer holds a control character; leave it out")
        }
        guard let voice = CoachTurn.Voice(rawValue: command.value("voice") ?? "built-in") else {
            throw PluginCommandError.invalidValue("--voice", "say ai or built-in")
        }
        let intent = command.value("intent").flatMap(CoachIntent.init(rawValue:)) ?? CoachIntent.detect(in: said)
        return CoachTurn(
            conversation: conversation, at: now, said: said, answer: answer, voice: voice, intent: intent,
            stoppedEarly: command.flag("stopped-early"))
    }

    /// The conversations for a terminal, oldest first, each under its day and time.
    static func historyText(_ turns: [CoachTurn], zone: TimeZone, now: Date) -> String {
        guard !turns.isEmpty else {
            return "No conversations with the coach yet. Start one with `hooray coach`."
        }
        let today = LocalDate(instant: now, in: zone)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var lines: [String] = []
        var conversation: UUID?
        for turn in turns {
            if turn.conversation != conversation {
                conversation = turn.conversation
                let parts = calendar.dateComponents([.hour, .minute], from: turn.at)
                if !lines.isEmpty { lines.append("") }
                lines.append(
                    "── \(LocalDate(instant: turn.at, in: zone).written(today: today)), "
                        + String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0) + " ──")
            }
            lines.append("You: " + TerminalText.safe(turn.said, multiline: true))
            let by = turn.voice == .ai ? "Coach" : "Coach (built-in)"
            lines.append(
                "\(by): " + TerminalText.safe(turn.answer, multiline: true)
                    + (turn.stoppedEarly ? " (stopped early)" : ""))
        }
        return lines.joined(separator: "\n")
    }
}
