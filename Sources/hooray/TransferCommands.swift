import ArgumentParser
import Foundation
import HoorayCLIHost
import HoorayCommandLine
import HoorayCommands
import HoorayEngine
import HoorayKit
import HoorayStorage
import HoorayTerminal
import HoorayText
import HoorayTransfer

/// `hooray export`: the user's data in a documented, versioned file (docs/export.md).
struct ExportCommand: AsyncParsableCommand, OffersJSON {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write everything you logged to a file you keep: JSON to import again, or CSV for a spreadsheet.",
        discussion: """
            Writes every plugin's records (everything you logged, and reminders you added from the command \
            line) and the values plugins keep for you, in version 2 of the format of docs/export.md: each \
            record in its public form, days as YYYY-MM-DD, instants as ISO 8601 in UTC. The same data always \
            gives the same file. Your API key, your anonymous id and this computer's caches are never \
            exported; notices and delivery history are not your data and are left out. \
            `hooray import FILE` reads the JSON back (version 1 files too). -o replaces a regular file; a \
            symbolic link to one is followed (the file it points to is replaced, the link kept); a folder, \
            device, named pipe, socket or a link to none of these is refused.

            --format csv writes one table per kind of record (docs/export.md names the files), \
            dates and times in your time zone, into the folder -o names, or into a zip when -o ends in .zip \
            (a symbolic link to a zip is followed and kept). The tables are written into a new folder beside \
            the target, then moved in place: a folder that is not there is made; one holding only .csv files \
            (an earlier export) is replaced whole, so no old table stays; one holding anything else is \
            refused, nothing written: give a new folder or an empty one. A cell that starts with =, +, -, @, \
            a tab or a carriage return is written after a single quote ', so that a spreadsheet shows it as \
            text and runs no formula. \
            Exits 1 when the file cannot be written (nothing is), 64 for an unknown plugin or --format csv \
            without -o.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case json, csv
    }

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("json (to import again) or csv (one table per kind of record).", valueName: "format"))
    var format: Format = .json

    @Option(help: ArgumentHelp("Only this plugin's data (`hooray plugins` lists them).", valueName: "name"))
    var plugin: String?

    @Option(
        name: [.customShort("o"), .long],
        help: ArgumentHelp(
            "Write to this file instead of standard output; with --format csv, a folder or a .zip file.",
            valueName: "file"),
        completion: .file())
    var output: String?

    @Flag(help: "The same as --format json.")
    var json = false

    func validate() throws {
        if json, format == .csv { throw ValidationError("--json and --format csv disagree; give one of them") }
        if format == .csv, output == nil {
            throw ValidationError(
                "--format csv writes one file per kind of record: give -o FOLDER, or -o FILE.zip for a zip")
        }
    }

    func run() async throws {
        let session = try CLISession(configFile: GlobalArguments.current.config)
        let database = try session.existingDatabase()
        if let plugin {
            let stored = try await database?.userData().plugins.keys.map { $0 } ?? []
            let known = Set(installedPlugins.map(\.name) + stored)
            guard known.contains(plugin) else {
                let near = NameSuggestion.closest(to: plugin, among: known.sorted())
                warn(
                    "hooray export: there is no plugin \"\(TerminalText.safe(plugin))\""
                        + (near.map { "; did you mean --plugin \($0)?" } ?? "; `hooray plugins` lists them."))
                throw ExitCode(ExitStatus.usage.rawValue)
            }
        }
        var data = try await database?.userData(plugin: plugin) ?? UserData()
        // This computer's caches are not the user's data.
        for plugin in installedPlugins {
            guard var content = data.plugins[plugin.name] else { continue }
            content.values.removeAll { plugin.isDeviceCache(valueKey: $0.key) }
            data.plugins[plugin.name] = content.isEmpty ? nil : content
        }
        let forms = Self.forms()
        if format == .csv, let output {
            try writeCSV(
                ExportDocument.csv(
                    data, forms: forms, timeZone: SystemTimeZone(environment: session.environment).current()),
                to: output, data: data)
            return
        }
        let text = ExportDocument.json(data, forms: forms)
        guard let output else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        // Not `absolute(_:)`, which follows symbolic links: what is at the path given is looked at.
        let expanded = (output as NSString).expandingTildeInPath
        let given =
            expanded.hasPrefix("/")
            ? expanded : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(expanded)
        do throws(ExportTarget.Refusal) {
            let target = try ExportTarget(given)
            defer { target.close() }
            try target.write(Data(text.utf8))
        } catch {
            warn(
                ExportTarget.message(
                    error, given: given, fix: "write to a regular file, or use standard output: `hooray export > FILE`")
            )
            throw ExitCode(ExitStatus.failed.rawValue)
        }
        let records = data.plugins.values.map(\.records.count).reduce(0, +)
        let values = data.plugins.values.map(\.values.count).reduce(0, +)
        let plugins = data.plugins.keys.sorted().joined(separator: ", ")
        print(
            "Exported \(count(records, "record")) and \(count(values, "stored value"))"
                + (plugins.isEmpty ? "" : " of \(plugins)") + " to \(TerminalText.safe(given)).")
        if format == .json { print("`hooray import \(ShellCommand.quoted(given))` reads it back.") }
    }

    /// The installed plugins' record types, which write and read their records' public forms.
    static func forms() -> ExportDocument.Forms {
        ExportDocument.Forms(
            recordTypes: Dictionary(
                installedPlugins.map { ($0.name, $0.recordTypes) }, uniquingKeysWith: { first, _ in first }))
    }

    /// "is a folder", "is a named pipe", … for a file type of `st_mode`.
    static func kind(_ type: mode_t) -> String {
        switch type {
        case S_IFDIR: "is a folder"
        case S_IFIFO: "is a named pipe"
        case S_IFCHR, S_IFBLK: "is a device"
        case S_IFSOCK: "is a socket"
        default: "is a special file"
        }
    }

    /// Writes a file readable by its owner only: a copy written next to it, then moved in place, so
    /// that a failure leaves an earlier file as it was.
    static func writePrivately(_ data: Data, to path: String) throws {
        let previousMask = umask(0o077)
        defer { umask(previousMask) }
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// Why a file could not be written, in a few words.
    static func reason(_ error: any Error, path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            return "it is a folder"
        }
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            return "the folder \(TerminalText.safe(folder)) does not exist"
        }
        if !FileManager.default.isWritableFile(atPath: folder) {
            return "the folder \(TerminalText.safe(folder)) is not writable"
        }
        return (error as NSError).localizedDescription
    }
}

/// `hooray import`: what an export (or another program's, through a plugin's importer) would add,
/// and with `--apply` adding it.
struct ImportCommand: AsyncParsableCommand, OffersJSON {
    static var configuration: CommandConfiguration {
        let importers = installedPlugins.flatMap { plugin in
            plugin.offeredImporters.map { "  --from \($0.name): \($0.summary) (the \(plugin.name) plugin)" }
        }
        return CommandConfiguration(
            commandName: "import",
            abstract: "Show what a file from `hooray export` would add, and add it with --apply.",
            discussion: """
                Reads the JSON that `hooray export` writes (docs/export.md), of version 2 or 1; a record its \
                plugin cannot read is refused by record and field. Records and values already here \
                with the same content are skipped, so importing twice adds nothing. One already here with \
                other content is a conflict: yours is kept, unless --replace; values a plugin keeps for itself \
                (such as the first day of an `every` reminder) are taken from the file. Data of plugins that are not \
                installed is kept for when they are. Everything is added in one step: on any error, nothing. \
                A running hoorayd is told, so that reminders of what was added are planned.

                With --from, a plugin reads another program's export instead:
                \(importers.joined(separator: "\n"))

                Exits 1 when the file cannot be read or is not such an export (nothing is changed), 64 for \
                an unknown --from.
                """)
    }

    @OptionGroup var global: GlobalOptions

    @Argument(
        help: ArgumentHelp("The file to import (or, with --from, the file or folder).", valueName: "file"),
        completion: .file())
    var file: String

    @Option(
        help: ArgumentHelp("Read another program's export with a plugin's importer (listed above).", valueName: "name"))
    var from: String?

    @Flag(help: "Add what is new; without it, only show what would be added.")
    var apply = false

    @Flag(help: "Where a record here differs from the file's, take the file's.")
    var replace = false

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() async throws {
        let session = try CLISession(configFile: GlobalArguments.current.config)
        let path = absolute(file)
        // A preview without a database compares with an empty one, made aside and removed: looking
        // creates nothing.
        let (database, scratch) = try Self.database(of: session, creating: apply)
        defer { if let scratch { try? FileManager.default.removeItem(atPath: scratch) } }
        var data: UserData
        var notes: [String] = []
        var alreadyThere: [String: Int] = [:]
        var merged = Set<String>()
        var source = "Hooray export"
        if let from {
            let offering = installedPlugins.compactMap { plugin in
                plugin.offeredImporters.first { $0.name == from }.map { (plugin, $0) }
            }
            guard let (plugin, importer) = offering.first else {
                let names = installedPlugins.flatMap { $0.offeredImporters.map(\.name) }
                let near = NameSuggestion.closest(to: from, among: names)
                warn(
                    "hooray import: no plugin reads \"\(TerminalText.safe(from))\" exports"
                        + (near.map { "; did you mean --from \($0)?" } ?? "")
                        + " It reads: \(names.isEmpty ? "none" : names.joined(separator: ", ")); "
                        + "leave out --from to import a file from `hooray export`.")
                throw ExitCode(ExitStatus.usage.rawValue)
            }
            source = importer.summary.prefix { $0 != "(" && $0 != ":" }.trimmingCharacters(in: .whitespaces)
            let request = ImportRequest(
                importer: importer.name, path: path, now: Date(),
                timeZone: SystemTimeZone(environment: session.environment).current(), apply: apply)
            let plan: ImportPlan
            do {
                plan = try await plugin.planOfferedImport(
                    request, records: DatabasePluginStore(database: database, plugin: plugin.name))
            } catch let error as ImportError {
                warn("hooray import: \(TerminalText.safe(error.message, multiline: true)) Nothing was imported.")
                throw ExitCode(ExitStatus.failed.rawValue)
            }
            data = UserData(plugins: [plugin.name: UserData.Plugin(records: plan.records + plan.updates)])
            merged = Set(plan.updates.map { "\(plugin.name)\u{0}\($0.kind)\u{0}\($0.id)" })
            notes = plan.notes
            alreadyThere = plan.alreadyThere.mapKeys { "\(plugin.name)\u{0}\($0)" }
        } else {
            guard let bytes = FileManager.default.contents(atPath: path) else {
                warn(
                    "hooray import: cannot read \(TerminalText.safe(path)): "
                        + Self.unreadable(path)
                        + ". Give the file `hooray export -o FILE` wrote. Nothing was imported.")
                throw ExitCode(ExitStatus.failed.rawValue)
            }
            let recordTypes = Dictionary(
                installedPlugins.map { ($0.name, $0.recordTypes) }, uniquingKeysWith: { first, _ in first })
            do {
                data = try ExportDocument.read(bytes, file: path, forms: ExportCommand.forms()) { plugin, kind, value in
                    recordTypes[plugin]?.first { $0.recordKind == kind }?.problem(decoding: value)
                }
            } catch {
                var error = error
                error.importers = installedPlugins.flatMap { $0.offeredImporters.map(\.name) }
                warn("hooray import: \(error.description)")
                throw ExitCode(ExitStatus.failed.rawValue)
            }
            let installed = Set(installedPlugins.map(\.name))
            for name in data.plugins.keys.sorted() where !installed.contains(name) {
                notes.append(
                    "The plugin \(name) is not installed; its data is kept for when it is.")
            }
        }
        let bookkeeping = Dictionary(
            installedPlugins.map { plugin in (plugin.name, { @Sendable key in plugin.isBookkeeping(valueKey: key) }) },
            uniquingKeysWith: { first, _ in first })
        let forms = ExportCommand.forms()
        var tallies = try await database.importUserData(
            data, apply: apply, replace: replace,
            overwrite: { [merged] plugin, kind, id in
                guard let kind else { return bookkeeping[plugin]?(id) ?? false }
                return merged.contains("\(plugin)\u{0}\(kind)\u{0}\(id)")
            },
            // A record equal to the file's in its public form is already here: the export leaves
            // out this computer's bookkeeping and rounds instants, which is no difference to the user.
            same: { plugin, stored, imported in forms.samePublicForm(plugin: plugin, stored, imported) })
        for index in tallies.indices {
            let key = "\(tallies[index].plugin)\u{0}\(tallies[index].kind ?? "")"
            tallies[index].unchanged += alreadyThere.removeValue(forKey: key) ?? 0
        }
        for (key, count) in alreadyThere.sorted(by: { $0.key < $1.key }) {
            let parts = key.split(separator: "\u{0}", maxSplits: 1).map(String.init)
            var tally = ImportTally(plugin: parts[0], kind: parts.count > 1 ? parts[1] : nil)
            tally.unchanged = count
            tallies.append(tally)
        }
        let changed = tallies.contains { $0.added > 0 || $0.updated > 0 || (replace && !$0.conflicts.isEmpty) }
        // A running daemon activates the plugins again, so that what was added is planned.
        var told = false
        if apply, changed, let answer = try? session.send(.reload) {
            told = answer.ok
            if !answer.ok {
                warn(
                    "hooray import: the data was added, but hoorayd refused to reload: "
                        + TerminalText.safe(answer.message ?? "its configuration has errors", multiline: true)
                        + " Fix the configuration, then `hooray reload`; until then hoorayd plans nothing new.")
            }
        }
        if json {
            print(try Output.json(ImportSummary(file: path, applied: apply, tallies: tallies, notes: notes)))
            return
        }
        report(tallies, notes: notes, source: source, path: path, told: told)
    }

    /// The database to compare with: the user's, or for a preview when there is none, an empty one
    /// in a folder of its own that is removed afterwards (its path is returned), so that looking
    /// creates nothing.
    static func database(of session: CLISession, creating: Bool) throws -> (HoorayDatabase, scratch: String?) {
        if creating { return (try session.database(), nil) }
        if let existing = try session.existingDatabase() { return (existing, nil) }
        let folder = (NSTemporaryDirectory() as NSString).appendingPathComponent("hooray-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return (try HoorayDatabase(path: folder + "/preview.db"), folder)
    }

    /// Why a file could not be read, in a few words.
    static func unreadable(_ path: String) -> String {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            return "there is no such file"
        }
        return isFolder.boolValue ? "it is a folder" : "permission denied"
    }

    func report(_ tallies: [ImportTally], notes: [String], source: String, path: String, told: Bool) {
        let verb = apply ? "added" : "to add"
        print("From \(TerminalText.safe(path)) (\(source)):")
        for plugin in Set(tallies.map(\.plugin)).sorted() {
            var parts: [String] = []
            for tally in tallies where tally.plugin == plugin {
                let thing = tally.kind ?? "stored value"
                var words: [String] = []
                if tally.added > 0 { words.append("\(count(tally.added, thing)) \(verb)") }
                if tally.updated > 0 {
                    words.append(
                        "\(count(tally.updated, thing)) \(apply ? "brought up to date" : "to bring up to date")")
                }
                if tally.unchanged > 0 {
                    words.append("\(count(tally.unchanged, thing)) already there")
                }
                if !tally.conflicts.isEmpty {
                    let ids =
                        tally.conflicts.prefix(3).map { TerminalText.safe(ImportTally.shown($0)) }
                        .joined(separator: ", ") + (tally.conflicts.count > 3 ? ", …" : "")
                    let fate =
                        replace ? (apply ? "replaced by the file's" : "to be replaced by the file's") : "yours kept"
                    words.append("\(count(tally.conflicts.count, thing)) different here (\(ids)): \(fate)")
                }
                parts.append(words.joined(separator: ", "))
            }
            print("  \(plugin): \(parts.joined(separator: "; "))")
        }
        if tallies.isEmpty { print("  nothing: the file holds no records.") }
        for note in notes { print(TerminalText.safe(note, multiline: true)) }
        let added = tallies.map { $0.added + $0.updated }.reduce(0, +)
        let conflicts = tallies.map(\.conflicts.count).reduce(0, +)
        if !apply {
            if added > 0 || (replace && conflicts > 0) {
                let again =
                    (["hooray", "import"] + (from.map { ["--from", $0] } ?? []) + [path]
                    + (replace ? ["--replace"] : []) + ["--apply"]).map(ShellCommand.quoted).joined(separator: " ")
                print("Nothing was changed yet; `\(again)` adds it.")
            } else {
                print("Everything in it is already here; there is nothing to add.")
            }
            if conflicts > 0, !replace {
                print("Where yours differs, yours is kept; add --replace to take the file's instead.")
            }
        } else if added > 0 || (replace && conflicts > 0) {
            print("Done, in one step." + (told ? " hoorayd has it too." : ""))
        } else {
            print("Everything in it was already here; nothing was added.")
        }
    }
}

/// `hooray import --json`: the `importSummary` type of docs/json.md.
struct ImportSummary: Encodable {
    struct Part: Encodable {
        let plugin: String
        let kind: String?
        let added: Int
        let updated: Int
        let alreadyThere: Int
        let conflicts: [String]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(plugin, forKey: .plugin)
            try container.encode(kind, forKey: .kind)
            try container.encode(added, forKey: .added)
            try container.encode(updated, forKey: .updated)
            try container.encode(alreadyThere, forKey: .alreadyThere)
            try container.encode(conflicts, forKey: .conflicts)
        }

        enum CodingKeys: String, CodingKey { case plugin, kind, added, updated, alreadyThere, conflicts }
    }

    let file: String
    let applied: Bool
    let parts: [Part]
    let notes: [String]

    init(file: String, applied: Bool, tallies: [ImportTally], notes: [String]) {
        self.file = file
        self.applied = applied
        self.parts = tallies.map {
            Part(
                plugin: $0.plugin, kind: $0.kind, added: $0.added, updated: $0.updated, alreadyThere: $0.unchanged,
                conflicts: $0.conflicts)
        }
        self.notes = notes
    }
}

/// A path made absolute against the working directory, `~/` expanded.
func absolute(_ path: String) -> String {
    let expanded = (path as NSString).expandingTildeInPath
    if expanded.hasPrefix("/") { return (expanded as NSString).standardizingPath }
    return ((FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(expanded) as NSString)
        .standardizingPath
}

/// `1 record`, `2 records`.
func count(_ number: Int, _ thing: String) -> String {
    "\(number) \(thing)\(number == 1 ? "" : "s")"
}

extension Dictionary {
    /// The dictionary with its keys changed.
    fileprivate func mapKeys<NewKey: Hashable>(_ transform: (Key) -> NewKey) -> [NewKey: Value] {
        Dictionary<NewKey, Value>(uniqueKeysWithValues: map { (transform($0.key), $0.value) })
    }
}
