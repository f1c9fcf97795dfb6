import Foundation
import HoorayCLIHost
import HoorayCommandLine
import HoorayCommands
import HoorayEngine
import HoorayKit
import HoorayTerminal
import HoorayText

extension PluginCommandLine {
    /// Runs a built-in plugin's listing (``CommandSpec/streams``) in this process: it reads the
    /// database itself and writes each record as it reads it, through a pager on a terminal
    /// (``ListingOutput``), whether or not `hoorayd` runs.
    ///
    /// - Returns: The exit code.
    static func runListing(
        _ invocation: CommandInvocation, plugin: String, path: [String], spec: CommandSpec, session: CLISession
    ) async -> Int32 {
        let label = "hooray " + path.joined(separator: " ")
        let runner = PluginCommandRunner(session: session, plugins: installedPlugins)
        let output = ListingOutput(environment: session.environment)
        let stream = CommandStream { output.write($0) }
        do {
            let reply = try await CommandStream.$current.withValue(stream) {
                try await runner.runReading(invocation, plugin: plugin)
            }
            for line in reply.warnings { warn(TerminalText.safe(line, multiline: true)) }
            if !stream.isUsed {
                if invocation.json {
                    output.write((reply.json ?? .null).text(pretty: true) + "\n")
                } else if !reply.text.isEmpty {
                    output.write(reply.text + "\n")
                }
            }
            output.close()
            return 0
        } catch let failure as PluginCommandFailed {
            output.close()
            warn("\(label): \(TerminalText.safe(failure.message, multiline: true))")
            guard failure.invalidValue != nil else { return failure.exitCode ?? failure.status.rawValue }
            warn("Usage: \(CommandHelp.usage(path: path, spec: spec))")
            warn("See `hooray help \(path.joined(separator: " "))`.")
            return ExitStatus.usage.rawValue
        } catch {
            output.close()
            warn("\(label): \(TerminalText.safe("\(error)", multiline: true))")
            return ExitStatus.failed.rawValue
        }
    }
}
