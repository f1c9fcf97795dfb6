import ArgumentParser
import Foundation
import HoorayAI
import HoorayCLIHost
import HoorayClient
import HoorayCommandLine
import HoorayCommands
import HoorayConfig
import HoorayEngine
import HoorayIdentity
import HoorayKit
import HoorayMessages
import HoorayTerminal
import HoorayText
import Logging
import SwapsPlugin

/// `hooray coach`: a conversation with the swap coach for the moment a craving hits (seed 004's
/// Coach tab), streamed from the AI service of the `[ai]` section, or answered by the built-in coach.
public struct Coach: AsyncParsableCommand, OffersJSON {
    public static let configuration = CommandConfiguration(
        abstract: "Talk with the swap coach when a craving hits.",
        discussion: """
            Say what is going on, and the coach answers in a few kind sentences, with one of your own swaps \
            and, for a craving or stress, 90 seconds of calm breathing. With words, it answers them and \
            ends; without, it talks back and forth until Ctrl-D (/breathe guides the breathing, /new starts \
            afresh). Without a terminal, each line of standard input is one message.

            With an OpenAI-compatible service in the [ai] section (provider = "openai", which Ollama and \
            llama.cpp's server speak too), the answer is streamed as it is written; Ctrl-C stops it and keeps \
            what arrived. The service is told the time of day, your swaps lately, your streak, your top three \
            swaps and your Night Prep, and what you type here: nothing else. Its instructions are \
            Config/coach-prompt.txt; a coach-prompt.txt of your own beside your hooray.toml replaces them. \
            Without a service (or with --offline) the built-in coach answers, offline.

            The conversation is kept with your swaps: it goes on where it was (for 12 hours), is in \
            `hooray export`, and goes with `hooray delete-my-data` or `hooray coach --delete`.

            Exits 0 when the coach answered; 1 when the AI service's answer could not be read or it \
            refused the request; 64 for what it cannot read (such as a message over 2,000 characters); 69 \
            when the service cannot be reached; 75 when it is busy or stopped in the middle; 78 when the \
            [ai] section must change (the built-in coach answers in each case); 130 when Ctrl-C stopped an \
            answer.
            """)

    @OptionGroup var global: GlobalOptions

    /// The command as parsed from no arguments.
    public init() {}

    @Argument(help: "What is going on, in your words, such as \"I really want chocolate right now\".")
    var words: [String] = []

    @Flag(help: "Start a new conversation instead of going on with the last one.")
    var new = false

    @Flag(help: "Use the built-in coach even when an AI service is set up.")
    var offline = false

    @Flag(help: "Show your conversations with the coach, oldest first.")
    var history = false

    @Flag(help: "Delete every conversation with the coach (asks first on a terminal).")
    var delete = false

    @Flag(name: .shortAndLong, help: "With --delete: delete without asking.")
    var yes = false

    @Flag(help: "With --history or --delete: print JSON instead of text.")
    public var json = false

    /// How long a conversation goes on by itself: a later message starts a new one.
    static let conversationGap: TimeInterval = 12 * 3600

    public func validate() throws {
        if history && delete { throw ValidationError("--history and --delete go alone; choose one.") }
        if (history || delete) && (!words.isEmpty || new || offline) {
            throw ValidationError("--\(history ? "history" : "delete") takes no words, --new or --offline.")
        }
        if json && !(history || delete) {
            throw ValidationError("--json goes with --history or --delete; a conversation is text.")
        }
    }

    public func run() async throws {
        let session = try CLISession(configFile: GlobalArguments.current.config)
        let runner = PluginCommandRunner(session: session, plugins: installedPlugins)
        do {
            try await talk(session: session, runner: runner)
        } catch {
            await runner.stopHostedPlugins()
            throw error
        }
    }

    private func talk(session: CLISession, runner: PluginCommandRunner) async throws {
        let environment = CommandEnvironment.terminal(session: session)
        if history || delete {
            try await records(runner: runner, environment: environment)
            await runner.stopHostedPlugins()
            return
        }
        let (loaded, ignored) = try session.loadConfigurationLeniently(plugins: installedPlugins)
        for line in ignored { warn(TerminalText.safe(line, multiline: true)) }
        let talk = CoachTalk(
            runner: runner, environment: environment, voice: voice(loaded, session: session),
            prompt: Self.systemPrompt(), interactive: words.isEmpty && isatty(STDIN_FILENO) == 1,
            guideMode: GuidePlayer.mode(json: false, environment: session.environment, color: environment.color))
        try await talk.begin(new: new)
        let status: ExitStatus?
        if !words.isEmpty {
            status = await talk.say(words.joined(separator: " "))
        } else if talk.interactive {
            status = await talk.converse()
        } else {
            status = await talk.readAll()
        }
        await runner.stopHostedPlugins()
        if let status, status != .ok {
            throw ExitCode(status == .failed && talk.wasInterrupted ? 130 : status.rawValue)
        }
    }

    /// Who answers: the AI service when one can hold a conversation, else the built-in coach.
    private func voice(_ loaded: DaemonConfiguration, session: CLISession) -> CoachTalk.Voice {
        if offline { return .builtIn }
        if loaded.aiSectionIgnored {
            warn(
                "hooray coach: the [ai] section has errors (`hooray config check` shows them); the built-in coach answers."
            )
            return .builtIn
        }
        let ai = loaded.ai
        guard ai.provider != .off else { return .builtIn }
        guard CurlChatProvider.canChat(ai) else {
            warn(
                "hooray coach: the Hooray backend (provider = \"hooray\") gives praise only; the built-in coach answers. "
                    + "An OpenAI-compatible service (provider = \"openai\") can hold a conversation.")
            return .builtIn
        }
        var logger = Logger(label: "ai")
        logger.logLevel = .critical
        let provider = IdentityResolvingPraiseProvider(
            configuration: ai, vault: IdentityVault(store: loaded.identityStore, paths: session.paths), logger: logger)
        return .ai(provider)
    }

    /// The coach's instructions: the user's own `coach-prompt.txt` beside their `hooray.toml`, or
    /// the one shipped in `Config/`.
    static func systemPrompt() -> String {
        let own = UserPaths.config.userDirectory + "/coach-prompt.txt"
        if let data = FileManager.default.contents(atPath: own), data.count <= 64 * 1024 {
            let text = MessagePools.prompt(String(decoding: data, as: UTF8.self))
            if !text.isEmpty { return text }
            warn("hooray coach: \(UserPaths.shown(own)) holds no instructions; the built-in ones are used.")
        }
        return MessagePools.coachPrompt
    }

    /// `--history` and `--delete`.
    private func records(runner: PluginCommandRunner, environment: CommandEnvironment) async throws {
        if delete && !yes {
            guard isatty(STDIN_FILENO) == 1 else {
                warn(
                    "hooray coach --delete: it asks before deleting, but there is no terminal to ask on; run "
                        + "`hooray coach --delete --yes` to delete without asking. Nothing was deleted.")
                throw ExitCode(ExitStatus.usage.rawValue)
            }
            print("Delete every conversation with the coach? This cannot be undone. [y/N] ", terminator: "")
            fflush(nil)
            guard let answer = readLine(),
                ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
            else {
                print("Nothing was deleted.")
                return
            }
        }
        let invocation = CommandInvocation(
            command: delete ? "coach-delete" : "coach-history", json: json, environment: environment)
        do {
            let (reply, _) = try await runner.run(
                invocation, plugin: "swaps", noun: delete ? "your deletion" : nil, writes: delete)
            if json {
                print((reply.json ?? .null).text(pretty: true))
            } else if !reply.text.isEmpty {
                print(reply.text)
            }
        } catch let failure as PluginCommandFailed {
            warn("hooray coach: \(TerminalText.safe(failure.message, multiline: true))")
            throw ExitCode(failure.exitCode ?? failure.status.rawValue)
        }
    }
}
