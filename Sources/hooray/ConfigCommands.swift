import ArgumentParser
import Foundation
import HoorayConfig
import HoorayEngine
import HoorayKit
import HoorayTerminal
import HoorayText
import Synchronization

struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Work with the configuration.",
        subcommands: [Check.self, Path.self, Get.self, SetValue.self, Unset.self])

    struct Check: AsyncParsableCommand, OffersJSON {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: "Check the configuration files for errors.",
                discussion: """
                    Without FILE, checks every file hoorayd would read, in order (`hooray config path` lists \
                    them): \(UserPaths.shown(UserPaths.config.systemFile)), \
                    \(UserPaths.shown(UserPaths.config.systemDropInDirectory))/*.toml, \(UserPaths.configFile) and \
                    \(UserPaths.configDropIns)/*.toml (and the file of --config). Given a folder, checks each \
                    .toml file in it. Problems are printed as file:line:column: message; --json prints them \
                    as JSON for editors (docs/json.md). Exits 78 when there is an error.
                    """)
        }

        @OptionGroup var global: GlobalOptions

        @Argument(
            help: "Check only this file, or the .toml files in this folder.", completion: .file(extensions: ["toml"]))
        var file: String?

        @Flag(help: "Treat warnings (such as unknown keys) as errors.")
        var strict = false

        @Flag(help: "Print the problems as JSON, with file, line, column, severity, message and hint.")
        var json = false

        /// What each check read and decoded: the process ends right after the report is printed, and
        /// freeing a file of 100,000 reminders value by value would take longer than checking it.
        private static let keptUntilExit = Mutex<[(any Sendable)?]>([])

        func run() async throws {
            let environment = ProcessInfo.processInfo.environment
            var report = ConfigCheckReport(files: [], diagnostics: ConfigDiagnostics())
            for path in try files() {
                let checked = ConfigurationLoader.check(
                    file: path, configFile: global.configFile, environment: environment, plugins: installedPlugins)
                report.files += checked.files
                report.diagnostics.append(contentsOf: checked.diagnostics)
                Self.keptUntilExit.withLock { $0.append(checked.checked) }
            }
            let failed = report.hasErrors || (strict && !report.diagnostics.warnings.isEmpty)
            if json {
                print(try Output.json(ConfigCheckJSON(report: report, ok: !failed)))
                if failed { throw ExitCode(ExitStatus.configuration.rawValue) }
                return
            }
            for diagnostic in report.diagnostics { warn(diagnostic.description) }
            if failed {
                warn(report.summary)
                throw ExitCode(ExitStatus.configuration.rawValue)
            }
            print("Configuration OK: \(report.summary)")
        }

        /// What to check: every layer (`nil`), the file given, or the .toml files of the folder given.
        func files() throws -> [String?] {
            guard let file else { return [nil] }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder), isFolder.boolValue else {
                return [file]
            }
            let folder = (file as NSString).standardizingPath
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
                .filter { $0.hasSuffix(".toml") && !$0.hasPrefix(".") }.sorted()
            guard !names.isEmpty else {
                warn(
                    "hooray config check: \(file) is a folder, and it has no .toml files to check; "
                        + "give a configuration file, such as `hooray config check \(folder)/hooray.toml`.")
                throw ExitCode(ExitStatus.usage.rawValue)
            }
            if !json {
                warn("\(file) is a folder: checking the \(names.count) .toml file\(names.count == 1 ? "" : "s") in it.")
            }
            return names.map { (folder as NSString).appendingPathComponent($0) }
        }
    }

    struct Path: AsyncParsableCommand, OffersJSON {
        static let configuration = CommandConfiguration(
            abstract: "Which configuration files are read, in order, and which exist.",
            discussion: """
                Lists every place hoorayd and hooray read the configuration from, earliest first (a later \
                file overrides an earlier one): the system's hooray.toml, its conf.d/*.toml drop-ins, your \
                hooray.toml ($XDG_CONFIG_HOME/hooray, by default ~/.config/hooray), your conf.d/*.toml \
                drop-ins, and the file of --config. Each is marked as there or not. See docs/configuration.md.
                """)

        @OptionGroup var global: GlobalOptions

        @Flag(help: "Print JSON instead of text.")
        var json = false

        func run() async throws {
            let loader = ConfigLoader(paths: UserPaths.config, explicitFile: global.configFile)
            let places = loader.places()
            if json {
                print(try Output.json(places))
                return
            }
            print(Self.text(places))
        }

        static func text(_ places: [ConfigPlace]) -> String {
            var rows: [[String]] = []
            for place in places {
                let path = TerminalText.safe(UserPaths.shown(place.path))
                let inFolder = place.isFolder == false && [.systemDropIn, .userDropIn].contains(place.layer)
                let what: String
                switch place.layer {
                case .system: what = "system"
                case .systemDropIn: what = inFolder ? "system drop-in" : "system drop-ins"
                case .user: what = "yours"
                case .userDropIn: what = inFolder ? "your drop-in" : "your drop-ins"
                case .commandLine: what = "--config"
                }
                let state: String
                if place.isFolder {
                    let count = places.filter { !$0.isFolder && $0.layer == place.layer }.count
                    state =
                        !place.exists
                        ? "no such folder" : count == 0 ? "no .toml files" : "\(count) file\(count == 1 ? "" : "s")"
                } else {
                    state = place.exists ? "read" : place.layer == .commandLine ? "missing (an error)" : "not there"
                }
                rows.append([(inFolder ? "  " : "") + path + (place.isFolder ? "/*.toml" : ""), what, state])
            }
            var lines = ["Configuration files, in the order they are read (a later one overrides an earlier one):"]
            let widths = (0..<2).map { column in rows.map { TerminalText.width($0[column]) }.max() ?? 0 }
            lines += rows.map { row in
                "  " + TerminalText.padding(row[0], toWidth: widths[0]) + "  "
                    + TerminalText.padding(row[1], toWidth: widths[1]) + "  " + row[2]
            }
            lines.append("")
            lines.append("Your settings go in \(UserPaths.configFile); `hooray config check` checks them all.")
            return lines.joined(separator: "\n")
        }
    }
}

/// `hooray config check --json`: the `configCheck` type of docs/json.md, every problem for editors
/// and scripts (`hooray config path --json` prints `configFile`s, ``ConfigPlace``).
struct ConfigCheckJSON: Encodable {
    struct Problem: Encodable {
        var file: String?
        var line: Int?
        var column: Int?
        var severity: String
        var key: String?
        var message: String
        var hint: String?

        // Every key is there, null when unknown, so an editor reads each problem the same way.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(file, forKey: .file)
            try container.encode(line, forKey: .line)
            try container.encode(column, forKey: .column)
            try container.encode(severity, forKey: .severity)
            try container.encode(key, forKey: .key)
            try container.encode(message, forKey: .message)
            try container.encode(hint, forKey: .hint)
        }

        enum CodingKeys: String, CodingKey { case file, line, column, severity, key, message, hint }
    }

    var ok: Bool
    var files: [String]
    var errors: Int
    var warnings: Int
    var diagnostics: [Problem]

    init(report: ConfigCheckReport, ok: Bool) {
        self.ok = ok
        files = report.files
        errors = report.diagnostics.errors.count
        warnings = report.diagnostics.warnings.count
        diagnostics = report.diagnostics.map { diagnostic in
            let location = diagnostic.location
            return Problem(
                file: location?.file, line: location.flatMap { $0.line > 0 ? $0.line : nil },
                column: location.flatMap { $0.column > 0 ? $0.column : nil },
                severity: diagnostic.severity.rawValue, key: diagnostic.path?.description,
                message: diagnostic.message, hint: diagnostic.hint)
        }
    }
}
