import ArgumentParser
import Foundation
import HoorayAI
import HoorayCLIHost
import HoorayCalendar
import HoorayClient
import HoorayCommandLine
import HoorayCommands
import HoorayEngine
import HoorayIdentity
import HoorayKit
import HoorayTerminal
import HoorayText
import SwapsPlugin

/// One conversation with the swap coach in the terminal: the context from the swaps plugin, each
/// message answered by the AI service (streamed) or the built-in coach, each turn kept through the
/// swaps plugin (in hoorayd when it runs: the one writer).
final class CoachTalk {
    /// Who answers.
    enum Voice {
        /// The AI service, resolving the anonymous identity at the first request.
        case ai(IdentityResolvingPraiseProvider)
        /// The built-in coach.
        case builtIn
    }

    let runner: PluginCommandRunner
    let environment: CommandEnvironment
    let voice: Voice
    let prompt: String
    /// Whether the user talks back and forth on a terminal.
    let interactive: Bool
    let guideMode: GuidePlayer.Mode
    private var context = CoachContext(
        today: LocalDate(year: 2000, month: 1, day: 1)!, time: "00:00", partOfDay: "night")
    private var conversation = UUID()
    /// Whether Ctrl-C stopped the answer of the last message.
    private(set) var wasInterrupted = false

    init(
        runner: PluginCommandRunner, environment: CommandEnvironment, voice: Voice, prompt: String, interactive: Bool,
        guideMode: GuidePlayer.Mode
    ) {
        self.runner = runner
        self.environment = environment
        self.voice = voice
        self.prompt = prompt
        self.interactive = interactive
        self.guideMode = guideMode
    }

    /// Reads the context, and goes on with the latest conversation unless `new` or it is old.
    func begin(new: Bool) async throws {
        context = try await readContext()
        if !new, let last = context.turns.last, Date().timeIntervalSince(last.at) < Coach.conversationGap {
            conversation = last.conversation
            if interactive {
                print("Going on with your conversation (`hooray coach --new` starts afresh).")
            }
        } else {
            context.turns = []
        }
    }

    private func readContext() async throws -> CoachContext {
        do {
            let (reply, _) = try await runner.run(
                CommandInvocation(command: "coach-context", json: true, environment: environment), plugin: "swaps",
                writes: false)
            guard let json = reply.json else { throw CommandFailure(message: "the swaps plugin sent no context") }
            return try json.decode(CoachContext.self)
        } catch let failure as PluginCommandFailed {
            warn("hooray coach: \(TerminalText.safe(failure.message, multiline: true))")
            throw ExitCode(failure.exitCode ?? failure.status.rawValue)
        }
    }

    /// Talks back and forth until Ctrl-D, `/quit` or Ctrl-C at the prompt.
    ///
    /// - Returns: The status of the last answer that failed, or `nil`.
    func converse() async -> ExitStatus? {
        print(
            "I'm here. What's going on: a craving, stress, boredom, a long day?\n"
                + "(/breathe for 90 seconds of calm breathing, /new to start afresh, Ctrl-D to finish.)")
        if case .builtIn = voice {
            print("(The built-in coach answers, offline; an AI service in the [ai] section can answer instead.)")
        }
        let interrupt = CoachInterrupt.shared
        interrupt.onInterrupt = {
            print("\nTake care. Your conversation is kept: `hooray coach --history`.")
            exit(0)
        }
        var worst: ExitStatus?
        while true {
            print("\nYou: ", terminator: "")
            fflush(nil)
            guard let line = readLine() else {
                print("\nTake care. Your swaps are there when you need them.")
                break
            }
            let said = line.trimmingCharacters(in: .whitespaces)
            switch said.lowercased() {
            case "": continue
            case "/quit", "/exit", "/bye":
                print("Take care. Your swaps are there when you need them.")
                return worst
            case "/breathe":
                GuidePlayer.play(CoachCopy.breathingGuide, mode: guideMode)
                continue
            case "/new":
                conversation = UUID()
                context.turns = []
                print("A fresh start. What's going on?")
                continue
            case "/help":
                print("/breathe: 90 seconds of calm breathing · /new: a fresh start · /quit or Ctrl-D: finish")
                continue
            default:
                if let status = await say(said), status != .ok { worst = status }
            }
        }
        return worst
    }

    /// Each line of standard input is one message.
    func readAll() async -> ExitStatus? {
        var worst: ExitStatus?
        while let line = readLine() {
            let said = line.trimmingCharacters(in: .whitespaces)
            guard !said.isEmpty else { continue }
            if let status = await say(said), status != .ok { worst = status }
            if wasInterrupted { break }
        }
        return worst
    }

    /// Answers one message and keeps the turn.
    ///
    /// - Returns: `.ok`, or what failed: `.usage` for a message that cannot be sent, the AI
    ///   service's failure (the built-in coach answered then), `.failed` when Ctrl-C stopped it.
    @discardableResult
    func say(_ said: String) async -> ExitStatus? {
        let said = said.trimmingCharacters(in: .whitespacesAndNewlines)
        if let problem = TextLimits.problem(in: said, kind: .text) {
            warn(
                "hooray coach: what you said \(problem). Say it in fewer words, as you would to a friend; "
                    + "nothing was sent and your conversation is as it was.")
            return .usage
        }
        if CoachIntent.suggestsHarm(said) {
            print(CoachCopy.crisisLead + "\n" + CoachCopy.crisis + "\n")
        }
        wasInterrupted = false
        let intent = CoachIntent.detect(in: said)
        let label = interactive ? "Coach: " : ""
        var answer = ""
        var usedVoice = CoachTurn.Voice.builtIn
        var stoppedEarly = false
        var status = ExitStatus.ok
        if case .ai(let provider) = voice {
            usedVoice = .ai
            let outcome = await stream(said, provider: provider, label: label)
            answer = outcome.text
            switch outcome.end {
            case .complete:
                print("")
            case .interrupted:
                print(" (stopped)")
                stoppedEarly = true
                wasInterrupted = true
                status = .failed
            case .broken(let broken):
                if !answer.isEmpty { print("") }
                fflush(nil)
                warn("hooray coach: \(broken)." + (answer.isEmpty ? "" : " What arrived is kept."))
                stoppedEarly = true
                status = Self.exitStatus(for: broken)
            case .failed(let error):
                let problem = "\(error)".trimmingCharacters(in: CharacterSet(charactersIn: ". "))
                warn("hooray coach: no answer from the AI service: \(problem).")
                warn("Fix: \(AIAdvice.fix(for: error).capitalizedFirst).")
                status = AIAdvice.exitStatus(for: error)
            }
        }
        if answer.isEmpty && !wasInterrupted {
            if usedVoice == .ai { print("The built-in coach answers meanwhile:") }
            usedVoice = .builtIn
            stoppedEarly = false
            answer = OfflineCoach.answer(to: said, context: context, turn: context.turns.count).text
            print(label + answer)
        }
        if OfflineCoach.offersBreathing(intent) && !wasInterrupted {
            print(interactive ? CoachCopy.breatheOffer : CoachCopy.breatheCommand)
        }
        let turn = CoachTurn(
            conversation: conversation, at: Date(), said: said, answer: Self.kept(answer), voice: usedVoice,
            intent: intent, stoppedEarly: stoppedEarly)
        // A Ctrl-C while the turn is saved (a second press after "(stopped)") waits for the save.
        let interrupt = CoachInterrupt.shared
        let previous = interrupt.onInterrupt
        interrupt.onInterrupt = {}
        await keep(turn)
        interrupt.onInterrupt = previous
        context.turns.append(turn)
        if context.turns.count > CoachContext.turnsKept { context.turns.removeFirst() }
        return status
    }

    /// How a streamed answer ended.
    enum StreamEnd {
        case complete
        case interrupted
        case broken(ChatStreamBroken)
        case failed(any Error)
    }

    /// Streams the AI service's answer to the terminal as it arrives; Ctrl-C stops it.
    private func stream(_ said: String, provider: IdentityResolvingPraiseProvider, label: String) async -> (
        text: String, end: StreamEnd
    ) {
        var messages = [ChatMessage(role: .system, content: prompt + "\n\n" + context.promptText)]
        for turn in context.turns {
            messages.append(ChatMessage(role: .user, content: turn.said))
            if !turn.answer.isEmpty { messages.append(ChatMessage(role: .assistant, content: turn.answer)) }
        }
        messages.append(ChatMessage(role: .user, content: said))
        let pieces = provider.chat(messages)
        let task = Task { () -> (String, StreamEnd) in
            var text = ""
            var started = false
            do {
                for try await piece in pieces {
                    if !started {
                        print(label, terminator: "")
                        started = true
                    }
                    print(TerminalText.safe(piece, multiline: true), terminator: "")
                    fflush(nil)
                    text += piece
                }
                return (text, Task.isCancelled ? .interrupted : .complete)
            } catch is CancellationError {
                return (text, .interrupted)
            } catch let broken as ChatStreamBroken {
                return (text, .broken(broken))
            } catch {
                return (text, Task.isCancelled ? .interrupted : .failed(error))
            }
        }
        let interrupt = CoachInterrupt.shared
        let previous = interrupt.onInterrupt
        interrupt.onInterrupt = { task.cancel() }
        let (text, end) = await task.value
        interrupt.onInterrupt = previous
        return (text, end)
    }

    /// The answer as it is kept: without control characters, at most 8,000 characters.
    static func kept(_ answer: String) -> String {
        let cleaned = String(
            String.UnicodeScalarView(
                answer.unicodeScalars.filter { $0 == "\n" || !TerminalText.needsNeutralising(String($0)) })
        ).trimmingCharacters(in: .whitespacesAndNewlines)
        return String(cleaned.prefix(8000))
    }

    /// Keeps a turn; a failure is said, and the conversation goes on.
    private func keep(_ turn: CoachTurn) async {
        let values: [String: [String]] = [
            "conversation": [turn.conversation.uuidString.lowercased()], "said": [turn.said], "answer": [turn.answer],
            "voice": [turn.voice.rawValue], "intent": [turn.intent.rawValue],
        ]
        let invocation = CommandInvocation(
            command: "coach-save", values: values, flags: turn.stoppedEarly ? ["stopped-early"] : [], json: true,
            environment: environment)
        do {
            _ = try await runner.run(invocation, plugin: "swaps", noun: "your conversation", writes: true)
        } catch let failure as PluginCommandFailed {
            warn("hooray coach: \(TerminalText.safe(failure.message, multiline: true))")
        } catch {
            warn("hooray coach: your conversation could not be kept: \(error)")
        }
    }

    /// The exit status of a broken answer: 75 when the service stopped, 1 when it sent what
    /// cannot be read.
    static func exitStatus(for broken: ChatStreamBroken) -> ExitStatus {
        switch broken.reason {
        case .cutOff, .stalled, .tookTooLong: .busy
        case .malformed, .chunkTooLarge, .tooLong, .tooManyBytes, .markup, .serviceError: .failed
        }
    }
}

/// Ctrl-C while the coach talks: a handler that only writes a byte to a pipe, and a thread that
/// reads it and runs ``onInterrupt`` (stop the answer; at the prompt, end).
final class CoachInterrupt: @unchecked Sendable {
    // @unchecked: `handler` is only touched while holding `lock`.
    static let shared = CoachInterrupt()
    private let lock = NSLock()
    private var handler: (@Sendable () -> Void)?

    /// What Ctrl-C does now.
    var onInterrupt: (@Sendable () -> Void)? {
        get { lock.withLock { handler } }
        set { lock.withLock { handler = newValue } }
    }

    private init() {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        coachInterruptPipe = ends[1]
        var action = sigaction()
        action.__sigaction_handler.sa_handler = noteCoachInterrupt
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        _ = sigaction(SIGINT, &action, nil)
        let read = ends[0]
        let thread = Thread { [self] in
            var byte: UInt8 = 0
            while true {
                let count = Glibc.read(read, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                guard count == 1 else { return }
                if let handler = onInterrupt { handler() } else { exit(130) }
            }
        }
        thread.name = "hooray-coach-interrupt"
        thread.start()
    }
}

nonisolated(unsafe) private var coachInterruptPipe: Int32 = -1

/// SIGINT: wakes the interrupt thread; async-signal-safe calls only.
private func noteCoachInterrupt(_ signal: Int32) {
    let saved = errno
    var byte: UInt8 = 1
    _ = write(coachInterruptPipe, &byte, 1)
    errno = saved
}
