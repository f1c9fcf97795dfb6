import ArgumentParser
import Foundation
import HoorayEngine
import HoorayExternalPlugins
import HooraySDK
import HoorayTerminal

/// `hooray plugin new NAME --lang python|sh`: a working scaffold.
struct PluginNew: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Make a new plugin's folder.",
        discussion: """
            Writes FOLDER/NAME with a plugin.toml, the program (with one command, `hello`, that posts a \
            notice with a button) and a README; a Python plugin also gets the SDK, hooray_plugin.py. \
            The tutorial is docs/plugins.md.

            Examples:
              hooray plugin new focus-timer
              hooray plugin new stretch --lang sh --dir ~/src
            """)

    @Argument(help: "The plugin's name: lowercase letters, digits and dashes, such as focus-timer.")
    var name: String

    @Option(name: .customLong("lang"), help: "The language of its program: python or sh.")
    var language: PluginSDK.Language = .python

    @Option(name: .customLong("dir"), help: ArgumentHelp("The folder to make it in.", valueName: "folder"))
    var folder: String = "."

    func run() async throws {
        if let problem = Self.problem(withName: name) {
            warn("hooray plugin new: \(problem)")
            warn("Usage: hooray plugin new NAME [--lang python|sh] [--dir FOLDER]")
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        let shown = folder == "." ? "./\(name)" : (folder as NSString).appendingPathComponent(name)
        let target = URL(fileURLWithPath: folder).appendingPathComponent(name).standardizedFileURL.path
        if FileManager.default.fileExists(atPath: target) {
            warn("hooray plugin new: \(shown) exists already, and nothing in it was changed.")
            warn("Choose another name, make it elsewhere with --dir FOLDER, or move \(shown) away first.")
            throw ExitCode(ExitStatus.failed.rawValue)
        }
        let files = PluginSDK.scaffold(name: name, language: language)
        do {
            try Self.write(files, into: target)
        } catch {
            try? FileManager.default.removeItem(atPath: target)
            warn("hooray plugin new: \(shown) could not be written: \(error.localizedDescription)")
            warn("Check that you may write in \(folder), or choose another with --dir FOLDER.")
            throw ExitCode(ExitStatus.failed.rawValue)
        }
        print(Self.report(files: files, shown: shown, absolute: target, name: name, language: language))
    }

    /// Why `name` cannot be a plugin's name, or `nil` when it can.
    static func problem(withName name: String) -> String? {
        let allowed = name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
        }
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first), allowed, name.count <= 32 else {
            return "\"\(name)\" cannot be a plugin's name: use lowercase letters, digits and dashes, "
                + "starting with a letter (at most 32), such as focus-timer."
        }
        if pluginCatalog.builtIns.contains(where: { $0.name == name }) {
            return "\(name) is the name of a built-in plugin; choose another, such as my-\(name)."
        }
        let ownCommands = Hooray.hostCommands.map { $0._commandName }
        if ownCommands.contains(name) || name == "help" {
            return "`hooray \(name)` is one of hooray's own commands; choose another name, such as my-\(name)."
        }
        return nil
    }

    /// Writes the files into a new folder: the program executable, the others readable.
    static func write(_ files: [PluginSDK.File], into folder: String) throws {
        let manager = FileManager.default
        try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // Not group-writable whatever the umask: hoorayd refuses a plugin others may change.
        try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
        for file in files {
            let path = (folder as NSString).appendingPathComponent(file.path)
            try Data(file.contents.utf8).write(to: URL(fileURLWithPath: path), options: .withoutOverwriting)
            try manager.setAttributes([.posixPermissions: file.isExecutable ? 0o755 : 0o644], ofItemAtPath: path)
        }
    }

    /// What was made and what to do next.
    static func report(
        files: [PluginSDK.File], shown: String, absolute: String, name: String, language: PluginSDK.Language
    ) -> String {
        let width = (files.map(\.path.count).max() ?? 0) + 2
        let lines = files.map { file in
            let role =
                if file.isExecutable {
                    "the program, with a `hello` command and a button"
                } else if file.path == "plugin.toml" {
                    "its name, permissions and commands"
                } else if file.path == "hooray_plugin.py" {
                    "the Python SDK"
                } else {
                    "how to install and try it"
                }
            return "  " + file.path.padding(toLength: width, withPad: " ", startingAt: 0) + role
        }
        // The user's plugin folder as this user's environment has it ($XDG_DATA_HOME), typed as a
        // shell reads it: `~/…` when it is plain, otherwise the whole path quoted.
        let pluginFolder =
            PluginDiscovery.folders(environment: UserPaths.environment).first.map { folder in
                let short = UserPaths.shown(folder)
                let rest = short.dropFirst(2)
                return short.hasPrefix("~/") && shellQuoted(String(rest)) == rest ? short : shellQuoted(folder)
            } ?? "\"$XDG_DATA_HOME/hooray/plugins\""
        return """
            Made a \(language.rawValue) plugin in \(shown):
            \(lines.joined(separator: "\n"))

            Next steps:
              hooray plugin test \(shellQuoted(shown))
              mkdir -p \(pluginFolder)
              ln -s \(shellQuoted(absolute)) \(pluginFolder)/    (or copy the folder there)
              hooray reload
              hooray \(name) hello
            """
    }

    /// `text` as one word for a POSIX shell.
    static func shellQuoted(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy {
            CharacterSet.alphanumerics.contains($0) || "/._-+:@%".unicodeScalars.contains($0)
        }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

extension PluginSDK.Language: ExpressibleByArgument {}
