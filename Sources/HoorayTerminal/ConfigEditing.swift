import ArgumentParser
import Foundation
import HoorayBasics
import HoorayCLIHost
import HoorayClient
import HoorayConfig
import HoorayEngine
import HoorayText

/// What `config get`, `set` and `unset` share: the loader, the editor, refusals and the reload.
public enum ConfigEditing {
    /// A loader of every layer, with the installed plugins, as hoorayd reads them.
    public static func loader(configFile: String?) -> ConfigLoader {
        ConfigLoader(
            paths: UserPaths.config, explicitFile: configFile, plugins: installedPlugins,
            extraSections: ConfigurationLoader.extraSections)
    }

    /// The editor of the user's own file, or of the file of `--config`.
    public static func editor(configFile: String?) throws(ConfigEditRefusal) -> ConfigFileEditor {
        var editor = try ConfigFileEditor(loader: loader(configFile: configFile))
        // For tests only, and only in debug builds: a command run just before the write, to change
        // the file meanwhile.
        #if DEBUG
            if let command = ProcessInfo.processInfo.environment["HOORAY_TEST_BEFORE_CONFIG_WRITE"], !command.isEmpty {
                editor.beforeWrite = {
                    let shell = Process()
                    shell.executableURL = URL(fileURLWithPath: "/bin/sh")
                    shell.arguments = ["-c", command]
                    try? shell.run()
                    shell.waitUntilExit()
                }
            }
        #endif
        return editor
    }

    /// Runs an edit; a refusal is printed with its fix and ends the command with its exit status.
    public static func run<Result>(_ label: String, _ body: () throws(ConfigEditRefusal) -> Result) throws -> Result {
        do {
            return try body()
        } catch {
            let lines = error.description.split(separator: "\n", omittingEmptySubsequences: false)
            warn("\(label): \(TerminalText.safe(String(lines[0])))")
            for line in lines.dropFirst() { warn(TerminalText.safe(String(line))) }
            let status: ExitStatus
            switch error.kind {
            case .usage: status = .usage
            case .configuration: status = .configuration
            case .changed: status = .busy
            case .io: status = .failed
            }
            throw ExitCode(status.rawValue)
        }
    }

    /// Makes a running hoorayd read the changed file, and says how it went.
    public static func reloadDaemon(label: String, configFile: String?) throws {
        if let configFile {
            // hoorayd reads the files it started with; a --config file is hooray's alone.
            warn(
                "Note: hoorayd reads its own files, not \(configFile): give --config to hoorayd itself, or "
                    + "put the file in \(UserPaths.configDropIns)/ and run `hooray reload`.")
            return
        }
        let answer: ControlResponse?
        do {
            answer = try CLISession(configFile: nil).send(.reload)
        } catch {
            warn("\(label): the file is saved, but hoorayd did not answer (\(error)); it reloads once it gets to it.")
            throw ExitCode(ExitStatus.busy.rawValue)
        }
        guard let response = answer else {
            print("hoorayd is not running; it reads the change when it starts.")
            return
        }
        guard response.ok else {
            warn("\(label): the file is saved, but hoorayd kept its last good configuration: \(response.message ?? "")")
            throw ExitCode(ExitStatus.configuration.rawValue)
        }
        print("hoorayd reloaded its configuration.")
    }
}
