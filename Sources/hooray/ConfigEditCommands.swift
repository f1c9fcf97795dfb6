import ArgumentParser
import Foundation
import HoorayCLIHost
import HoorayClient
import HoorayConfig
import HoorayEngine
import HoorayKit
import HoorayTerminal
import HoorayText

extension ConfigCommand {
    struct Get: AsyncParsableCommand, OffersJSON {
        static let configuration = CommandConfiguration(
            commandName: "get",
            abstract: "Print a setting's value and the file it comes from.",
            discussion: """
                Prints KEY = VALUE as TOML, with the file and line that set it, after merging every file \
                `hooray config path` lists. A key no file sets says so: the built-in default applies. \
                Exits 78 when KEY is no key Hooray knows or the configuration has errors.
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The key, such as celebrations.style.")
        var key: String

        @Flag(help: "Print JSON: key, value, toml, file, line and column (null when not set).")
        var json = false

        func run() async throws {
            let lookup = try ConfigEditing.run("hooray config get") { () throws(ConfigEditRefusal) in
                try ConfigEditing.loader(configFile: global.configFile).lookUp(try ConfigKeyText.keys(key))
            }
            let shownKey = ConfigKeyText.text(lookup.path)
            if json {
                print(
                    try Output.json(
                        ConfigGetJSON(
                            key: shownKey, value: lookup.json, toml: lookup.toml, file: lookup.location?.file,
                            line: lookup.location?.line, column: lookup.location?.column)))
                return
            }
            guard let toml = lookup.toml, let location = lookup.location else {
                print("\(shownKey) is not set in any configuration file: its built-in default applies.")
                return
            }
            let place = "\(UserPaths.shown(location.file)):\(location.line)"
            print(TerminalText.safe("\(shownKey) = \(toml)  # \(place)"))
        }
    }

    struct SetValue: AsyncParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                commandName: "set",
                abstract: "Set a setting in your configuration file, keeping its comments.",
                discussion: """
                    Writes KEY = VALUE in your own file, \(UserPaths.configFile) (or the file of --config), \
                    creating it when missing: only that line changes, comments and layout stay. VALUE is read \
                    as TOML (true, 3, "text", ["mon", "fri"]); words that are not TOML, such as off or 21:30, \
                    are a string. The change is checked as `hooray config check` would check it, and a bad \
                    value, an unknown key or a plugin that is not installed is refused with the fix, the file \
                    untouched. Then a running hoorayd reloads. Exits 78 when the change is refused, 75 when \
                    another program changed the file meanwhile.
                    """)
        }

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The key, such as celebrations.style.")
        var key: String

        @Argument(help: "The value, such as off, 21:30, true or '[\"mon\", \"fri\"]'.")
        var value: [String]

        func run() async throws {
            let label = "hooray config set"
            guard !value.isEmpty else {
                warn("\(label): give a value after the key, such as `hooray config set \(key) off`")
                throw ExitCode(ExitStatus.usage.rawValue)
            }
            let (outcome, written, path) = try ConfigEditing.run(label) { () throws(ConfigEditRefusal) in
                let path = try ConfigKeyText.keys(key)
                let editor = try ConfigEditing.editor(configFile: global.configFile)
                let (outcome, written) = try editor.set(path, typed: value.joined(separator: " "))
                return (outcome, written, path)
            }
            let assignment = TerminalText.safe("\(ConfigKeyText.text(path)) = \(written.text)")
            let file = UserPaths.shown(outcome.file)
            guard outcome.changed else {
                print("\(file) has \(assignment) already; nothing changed.")
                return
            }
            print(
                "\(outcome.created ? "Created \(file) with" : "Set") \(assignment)\(outcome.created ? "" : " in \(file)")."
            )
            if let later = outcome.overriddenBy {
                warn(
                    "Note: \(UserPaths.shown(later)) sets \(ConfigKeyText.text(path)) too, and is read later, so its value is the one used."
                )
            }
            try ConfigEditing.reloadDaemon(label: label, configFile: global.configFile)
        }
    }

    struct Unset: AsyncParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: "Remove a setting from your configuration file, so its default applies again.",
                discussion: """
                    Removes KEY (or a whole table) from your own file, \(UserPaths.configFile) (or the file of \
                    --config); the rest of the file stays as it is, so `hooray config unset` after \
                    `hooray config set` of a key the file did not have gives the file back byte for byte. \
                    Then a running hoorayd reloads. Exits 64 when the file does not set KEY.
                    """)
        }

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The key, such as celebrations.style.")
        var key: String

        func run() async throws {
            let label = "hooray config unset"
            let (outcome, path) = try ConfigEditing.run(label) { () throws(ConfigEditRefusal) in
                let path = try ConfigKeyText.keys(key)
                let editor = try ConfigEditing.editor(configFile: global.configFile)
                do throws(ConfigEditRefusal) {
                    return (try editor.apply(.remove(path)), path)
                } catch let refusal where refusal.kind == .usage {
                    // Set elsewhere: say where, since hooray changes only the user's own file.
                    let source = try? ConfigEditing.loader(configFile: global.configFile).lookUp(path).location?.file
                    guard let source, source != editor.file else { throw refusal }
                    throw ConfigEditRefusal(
                        .usage,
                        "\(UserPaths.shown(editor.file)) does not set \(ConfigKeyText.text(path)); "
                            + "\(UserPaths.shown(source)) does",
                        hint: "hooray changes only your own file: `hooray config set \(ConfigKeyText.text(path)) "
                            + "VALUE` sets it there, over \(UserPaths.shown(source))")
                }
            }
            print("Removed \(TerminalText.safe(ConfigKeyText.text(path))) from \(UserPaths.shown(outcome.file)).")
            try ConfigEditing.reloadDaemon(label: label, configFile: global.configFile)
        }
    }
}

/// `hooray config get --json`: the `configValue` type of docs/json.md.
struct ConfigGetJSON: Encodable {
    var key: String
    var value: JSONValue?
    var toml: String?
    var file: String?
    var line: Int?
    var column: Int?

    // Every key is there, null when the key is not set.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encode(value, forKey: .value)
        try container.encode(toml, forKey: .toml)
        try container.encode(file, forKey: .file)
        try container.encode(line, forKey: .line)
        try container.encode(column, forKey: .column)
    }

    enum CodingKeys: String, CodingKey { case key, value, toml, file, line, column }
}
