import ArgumentParser
import Foundation
import HoorayConformance
import HoorayEngine
import HoorayKit
import HoorayTerminal
import HoorayText

/// `hooray plugin test PATH`: the conformance kit.
struct PluginTest: AsyncParsableCommand, OffersJSON {
    static let configuration = CommandConfiguration(
        commandName: "test", abstract: "Check that a plugin speaks the protocol.",
        discussion: """
            Runs the plugin in PATH as hoorayd would, but on a temporary database and data folder: the \
            handshake, each command in its plugin.toml (with placeholder values), a due reminder, a button \
            of one of its notices, bad input (an unknown method, wrong params, an answer to no request, an \
            unknown notification) and shutdown, and whether the host refused any of its calls. Prints one \
            line per step, ✓ or ✗ with the reason, then how many passed and failed. Nothing of yours is \
            touched.

            Exits 0 when every step passes, 1 when one fails, 64 when PATH is not a folder.
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Argument(help: ArgumentHelp("The plugin's folder, holding its plugin.toml.", valueName: "path"))
    var path: String

    func run() async throws {
        let folder = URL(
            fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        ).standardizedFileURL.path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            let what = FileManager.default.fileExists(atPath: folder) ? "is not a folder" : "does not exist"
            warn(
                "hooray plugin test: \(TerminalText.safe(path)) \(what); give the plugin's folder, the one holding its plugin.toml."
            )
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        let kit = ConformanceKit(
            folder: folder, hostVersion: HoorayVersion.current, environment: ProcessInfo.processInfo.environment,
            builtIns: pluginCatalog.builtIns)
        let report = await kit.run()
        if json {
            print(try Output.json(report))
        } else {
            for step in report.steps {
                print(Self.line(step))
            }
            print("\(report.passed) passed, \(report.failed) failed.")
        }
        if report.failed > 0 { throw ExitCode(ExitStatus.failed.rawValue) }
    }

    /// `✓ name: detail`; the detail's further lines (the plugin's standard error) are indented.
    static func line(_ step: ConformanceStep) -> String {
        let mark =
            switch step.outcome {
            case .passed: "✓"
            case .failed: "✗"
            case .skipped, .notRun: "–"
            }
        let lines = step.detail.split(separator: "\n", omittingEmptySubsequences: false).map {
            TerminalText.safe(String($0))
        }
        let rest = lines.dropFirst().map { "    " + $0 }
        let first = lines.first ?? ""
        // The reader's errors start with `plugin.toml:LINE:COLUMN:` already.
        let head =
            first.hasPrefix(step.name + ":")
            ? "\(mark) \(first)" : "\(mark) \(TerminalText.safe(step.name)): \(first)"
        return ([head] + rest).joined(separator: "\n")
    }
}
