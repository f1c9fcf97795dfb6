import ArgumentParser
import CLinux
import Foundation
import HoorayAI
import HoorayCLIHost
import HoorayEngine
import HoorayKeyring
import HoorayKit
import HoorayTerminal
import HoorayText

#if canImport(Glibc)
    import Glibc
#endif

struct AIGroup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ai",
        abstract: "Test the AI service, and keep its API key in your desktop's keyring.",
        discussion: """
            The key is stored in the keyring (GNOME Keyring, KWallet, KeePassXC: whatever provides the Secret \
            Service) as “Hooray AI key (PROVIDER)”, never in a file. hoorayd reads it at each request when the \
            [ai] section says api_key = "keyring", or names neither api_key_env nor api_key_file. \
            `hooray ai test` asks the service once and says how it went.
            """,
        subcommands: [Test.self, SetKey.self, ForgetKey.self])
}

/// `--provider NAME`, shared by the key commands.
struct ProviderOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The provider the key is for: hooray or openai; by default [ai] provider, or openai when AI is off.",
            valueName: "name"))
    var provider: String?

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if let provider, Self.names.contains(provider) == false {
            let near = NameSuggestion.closest(to: provider, among: Self.names).map {
                "; did you mean --provider \($0)?"
            }
            throw ValidationError(
                "--provider \"\(provider)\" is not one of \(Self.names.joined(separator: ", "))"
                    + (near ?? ", such as --provider openai"))
        }
    }

    /// Providers that can have a key: every provider but `off`.
    static let names = AIConfiguration.Provider.allCases.filter { $0 != .off }.map(\.rawValue)

    /// The provider named on the command line, or the configured one.
    func resolved(_ ai: AIConfiguration?) -> String {
        if let provider { return provider }
        if let configured = ai?.provider, configured != .off { return configured.rawValue }
        return AIConfiguration.Provider.openai.rawValue
    }

    /// The `[ai]` section; a broken part of the configuration is left out, with one warning each
    /// (the `[ai]` section itself then counts as not set). `nil` when the configuration cannot be read.
    func loadAI() -> AIConfiguration? {
        guard
            let (loaded, ignored) = try? CLISession(configFile: global.configFile).loadConfigurationLeniently(
                plugins: installedPlugins)
        else { return nil }
        for line in ignored { warn(TerminalText.safe(line, multiline: true)) }
        return loaded.ai
    }
}

extension AIGroup {
    struct SetKey: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-key",
            abstract: "Store the AI service's API key in your keyring.",
            discussion: """
                On a terminal, asks for the key without showing it; otherwise reads it from standard input \
                (`hooray ai set-key < FILE`). The key must be one line of visible ASCII, 8 to 4096 characters \
                long. A key already stored for the provider is replaced. The key is never printed, logged or \
                written to a file, and a running hoorayd uses it from its next request on.

                Exits 64 when the key is refused (nothing is stored), 69 when no keyring answers, \
                75 when it is locked or does not answer in time.
                """)

        @OptionGroup var options: ProviderOption

        func run() async throws {
            let ai = options.loadAI()
            let provider = options.resolved(ai)
            let kind = SecretKind.aiKey(provider: provider)
            // The key passes through this process's memory: no core dump or debugger gets to see it.
            _ = hooray_forbid_core_dumps()
            let keyring = Keyring()
            let service = try KeyringAccess.ready(keyring, toStore: true)

            let key: String
            do {
                key = try APIKeyShape.check(try KeyInput.read(prompt: "API key for \(provider) (input hidden): "))
            } catch let error as APIKeyShapeError {
                warn("The key was not stored: \(error.problem) \(error.fix)")
                throw ExitCode(ExitStatus.usage.rawValue)
            }
            do {
                try keyring.store(kind, value: key)
            } catch {
                throw KeyringAccess.failure(error, storing: true)
            }
            print("Stored the \(provider) key in \(service) as “\(kind.label)”.")
            print(Self.usage(provider: provider, ai: ai))
        }

        /// Where the stored key is used, given the configuration.
        static func usage(provider: String, ai: AIConfiguration?) -> String {
            let restart = "hoorayd reads it at each request, so nothing needs restarting."
            if provider == AIConfiguration.Provider.hooray.rawValue {
                return "The hooray provider sends no API key, so it is kept for when one is needed."
            }
            guard let ai, ai.provider.rawValue == provider else {
                return "To use it, set provider = \"\(provider)\" and api_key = \"keyring\" in the [ai] section of "
                    + "\(UserPaths.configFile); \(restart)"
            }
            if ai.apiKeyEnv != nil || ai.apiKeyFile != nil {
                let setting = ai.apiKeyEnv != nil ? "api_key_env" : "api_key_file"
                return "Note: the [ai] section sets \(setting), which AI requests use instead; replace it with "
                    + "api_key = \"keyring\" to use the stored key."
            }
            return "AI requests to \(provider) use it from now on; \(restart)"
        }
    }

    struct ForgetKey: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "forget-key",
            abstract: "Remove the AI service's API key from your keyring.",
            discussion: """
                Removes every “Hooray AI key (PROVIDER)” item of the keyring, and says when there was none. \
                Exits 69 when no keyring answers, 75 when it is locked or does not answer in time.
                """)

        @OptionGroup var options: ProviderOption

        func run() async throws {
            let ai = options.loadAI()
            let provider = options.resolved(ai)
            let kind = SecretKind.aiKey(provider: provider)
            let keyring = Keyring()
            let service = try KeyringAccess.ready(keyring, toStore: false)
            let deleted: Bool
            do {
                deleted = try keyring.delete(kind)
            } catch {
                throw KeyringAccess.failure(error, storing: false)
            }
            guard deleted else {
                print("No \(provider) key was stored in \(service) (“\(kind.label)”); nothing was removed.")
                return
            }
            print("Removed the \(provider) key (“\(kind.label)”) from \(service).")
            if let ai, ai.provider.rawValue == provider, ai.apiKey == .keyring {
                print(
                    "AI requests to \(provider) now wait, keeping the offline praise, until you store a key again "
                        + "with `hooray ai set-key`.")
            }
        }
    }
}

/// The keyring checks and messages the key commands share.
enum KeyringAccess {
    /// EX_UNAVAILABLE: there is no keyring to use.
    static let unavailable = ExitCode(ExitStatus.unavailable.rawValue)
    /// EX_TEMPFAIL: the keyring is locked or slow; trying again later may work.
    static let tryLater = ExitCode(ExitStatus.busy.rawValue)

    /// Makes sure the keyring answers and is unlocked before anything is read from the user.
    ///
    /// On a terminal, a locked keyring is unlocked through the desktop's prompt, once.
    ///
    /// - Returns: The keyring's name for people, such as "GNOME Keyring".
    static func ready(_ keyring: Keyring, toStore: Bool) throws -> String {
        if let missing = Keyring.libraryError() {
            warn("Nothing was \(toStore ? "stored" : "removed"): \(missing.description)")
            throw unavailable
        }
        switch keyring.state() {
        case .available(let service):
            return service
        case .unavailable(let reason):
            warn(noKeyring(reason, storing: toStore))
            throw unavailable
        case .locked(let service):
            if isatty(STDIN_FILENO) == 1 {
                warn("The keyring (\(service)) is locked; asking your desktop to unlock it…")
                if keyring.unlock() { return service }
            }
            warn(
                "The keyring (\(service)) is locked, so nothing was \(toStore ? "stored" : "removed"). Unlock it "
                    + "(log out and in again, or unlock the Login keyring in Passwords and Keys), then try again.")
            throw tryLater
        }
    }

    /// Reports a failed store or delete and gives the exit code to end with.
    static func failure(_ error: KeyringError, storing: Bool) -> ExitCode {
        let verb = storing ? "stored" : "removed"
        switch error.code {
        case .libraryMissing:
            warn("Nothing was \(verb): \(error.description)")
            return unavailable
        case .noSessionBus, .noSecretService:
            warn(noKeyring(error.problem, storing: storing))
            return unavailable
        case .locked, .timedOut:
            warn("Nothing was \(verb): \(error.description)")
            return tryLater
        case .noDefaultCollection, .refused:
            warn("Nothing was \(verb): \(error.description)")
            return ExitCode.failure
        }
    }

    private static func noKeyring(_ reason: String, storing: Bool) -> String {
        let detail = reason.hasSuffix(".") ? String(reason.dropLast()) : reason
        let problem = "No Secret Service answers on the session bus (\(detail)), so "
        guard storing else { return problem + "there is no stored key to remove." }
        return problem + "the key cannot be stored. Start your desktop's keyring (such as GNOME Keyring), or keep "
            + "the key in a file only you can read (chmod 600) and set api_key_file in the [ai] section."
    }
}

/// Reads a key from the terminal without echo, or from standard input.
enum KeyInput {
    /// The most that is read: any more is too long to be a key anyway.
    static let limit = APIKeyShape.lengthRange.upperBound + 3

    /// Reads one line from a terminal (prompting on standard error, echo off), or everything from a
    /// pipe or file, up to ``limit`` bytes.
    static func read(prompt: String) throws -> String {
        guard isatty(STDIN_FILENO) == 1 else { return readAll(untilNewline: false) }
        FileHandle.standardError.write(Data(prompt.utf8))
        let restore = EchoOff.begin()
        defer {
            EchoOff.end(restore)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return readAll(untilNewline: true)
    }

    private static func readAll(untilNewline: Bool) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(limit)
        defer { for index in bytes.indices { bytes[index] = 0 } }
        var byte: UInt8 = 0
        while bytes.count < limit {
            let count = Glibc.read(STDIN_FILENO, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { break }
            bytes.append(byte)
            if untilNewline, byte == 0x0A { break }
        }
        byte = 0
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The terminal settings to put back when the process is interrupted while echo is off.
nonisolated(unsafe) private var savedTerminal = termios()
nonisolated(unsafe) private var terminalNeedsRestore: sig_atomic_t = 0

/// Turns the terminal's echo off while a key is typed, and on again on every way out: normal
/// return, error, Ctrl-C, Ctrl-\, hang-up or termination.
enum EchoOff {
    private static let signals = [SIGINT, SIGQUIT, SIGTERM, SIGHUP]

    /// Turns echo off; returns whether there is anything to restore.
    static func begin() -> Bool {
        var settings = termios()
        guard tcgetattr(STDIN_FILENO, &settings) == 0 else { return false }
        savedTerminal = settings
        terminalNeedsRestore = 1
        for signal in signals { _ = Glibc.signal(signal, restoreAndRaise) }
        // Ctrl-Z would stop the process with echo off, and the shell would not turn it back on.
        _ = Glibc.signal(SIGTSTP, SIG_IGN)
        settings.c_lflag &= ~tcflag_t(ECHO | ECHONL)
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &settings)
        return true
    }

    /// Puts the terminal back as it was.
    static func end(_ restore: Bool) {
        guard restore else { return }
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &savedTerminal)
        terminalNeedsRestore = 0
        for signal in signals { _ = Glibc.signal(signal, SIG_DFL) }
        _ = Glibc.signal(SIGTSTP, SIG_DFL)
    }
}

/// The signal handler: async-signal-safe calls only.
private func restoreAndRaise(_ signal: Int32) {
    if terminalNeedsRestore != 0 {
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &savedTerminal)
        _ = Glibc.write(STDERR_FILENO, "\n", 1)
    }
    _ = Glibc.signal(signal, SIG_DFL)
    _ = raise(signal)
}
