import HoorayCommandLine
import HoorayCommands
import HoorayConfig
import HoorayKit

/// Reading a `plugin.toml`'s `[[commands]]`: each command, its aliases, arguments, options and flags.
extension ManifestReader {
    static let commandKeys = [
        "name", "summary", "discussion", "aliases", "examples", "json", "writes", "arguments", "options", "flags",
    ]
    static let argumentKeys = ["name", "help", "optional", "repeating"]
    static let optionKeys = ["name", "value_name", "help", "choices", "required", "repeating"]
    static let flagKeys = ["name", "help"]

    // MARK: commands

    func readCommands(plugin: String) throws(PluginManifestError) -> [CommandSpec] {
        guard let node = root["commands"] else { return [] }
        guard let elements = node.array else {
            throw fail(
                at: node.location,
                "`commands` must be a list of tables, one [[commands]] per command; found \(node.kindDescription)")
        }
        var commands: [CommandSpec] = []
        // Every word within the plugin, command names and aliases, and the command that has it.
        var owners: [String: (command: String, location: SourceLocation?)] = [:]
        for element in elements {
            guard let table = element.table else {
                throw fail(
                    at: element.location,
                    "each command must be a table, written [[commands]] with name = … and summary = … below; "
                        + "found \(element.kindDescription)")
            }
            let (spec, words) = try readCommand(table, at: element.location, plugin: plugin)
            for (word, location) in words {
                if let earlier = owners[word] {
                    let first = earlier.command == word ? "the command \(word)" : "an alias of \(earlier.command)"
                    let place = earlier.location.map { " (line \($0.line))" } ?? ""
                    throw fail(
                        at: location,
                        "`hooray \(plugin) \(word)` is already \(first)\(place); "
                            + "give each command and alias a name of its own")
                }
                owners[word] = (spec.name, location)
            }
            commands.append(spec)
        }
        return commands
    }

    /// Reads one `[[commands]]` table.
    ///
    /// - Returns: The command, and the words it takes within the plugin (its name, then its
    ///   aliases) with where each is written.
    func readCommand(_ table: ConfigTable, at location: SourceLocation?, plugin: String) throws(PluginManifestError)
        -> (CommandSpec, [(String, SourceLocation?)])
    {
        try checkKeys(of: table, known: Self.commandKeys, in: "a command")
        let commandName = try readItemName(table, at: location, what: "command", example: "start")
        if commandName == "help" {
            throw fail(
                at: table["name"]?.location,
                "a command cannot be named help: `hooray \(plugin) --help` and `hooray help \(plugin)` show the plugin's "
                    + "help; rename the command")
        }
        let owner = "the command \(commandName)"
        let summary = try requiredString(
            "summary", in: table, owner: owner, at: location, example: "summary = \"Start a focus session.\"")
        let discussion =
            try optionalString("discussion", in: table, example: "discussion = \"More about the command.\"") ?? ""
        let examples =
            try optionalStrings("examples", in: table, example: "examples = [\"hooray \(plugin) \(commandName)\"]")
            ?? []
        let offersJSON = try optionalBool("json", in: table) ?? false
        let writes = try optionalBool("writes", in: table) ?? true
        var aliases: [String] = []
        var words: [(String, SourceLocation?)] = [(commandName, table["name"]?.location)]
        if let node = table["aliases"] {
            let texts = try optionalStrings("aliases", in: table, example: "aliases = [\"go\"]") ?? []
            for (word, element) in zip(texts, node.array ?? []) {
                guard Self.isName(word) else {
                    let such = Self.suggestedName(for: word) ?? "go"
                    throw fail(
                        at: element.location,
                        "the alias \"\(word)\" is not a name hooray can take; an alias is one more name for the "
                            + "command within the plugin (`hooray \(plugin) \(such)`): use lowercase letters, digits "
                            + "and dashes, starting with a letter, such as aliases = [\"\(such)\"]")
                }
                if word == "help" {
                    throw fail(
                        at: element.location,
                        "an alias cannot be help: `hooray \(plugin) --help` shows the plugin's help; remove it")
                }
                // CommandSpec's aliases are words from the top; a manifest's are within the plugin.
                aliases.append(plugin + " " + word)
                words.append((word, element.location))
            }
        }

        var seen: [String: String] = [:]
        func claim(_ itemName: String, _ what: String, at itemLocation: SourceLocation?) throws(PluginManifestError) {
            if let earlier = seen[itemName] {
                throw fail(
                    at: itemLocation,
                    "\(owner) already has \(earlier) named \(itemName); give each argument, option and flag a name of its own"
                )
            }
            seen[itemName] = what
        }

        var arguments: [CommandSpec.Argument] = []
        for (table, itemLocation) in try items("arguments", in: table, owner: owner) {
            try checkKeys(of: table, known: Self.argumentKeys, in: "an argument")
            let argumentName = try readItemName(table, at: itemLocation, what: "argument", example: "task")
            try claim(argumentName, "an argument", at: table["name"]?.location)
            let help = try requiredString(
                "help", in: table, owner: "the argument \(argumentName) of \(commandName)", at: itemLocation,
                example: "help = \"What the session is for.\"")
            let isOptional = try optionalBool("optional", in: table) ?? false
            let isRepeating = try optionalBool("repeating", in: table) ?? false
            if let previous = arguments.last, previous.isOptional || previous.isRepeating {
                throw fail(
                    at: itemLocation,
                    "the argument \(previous.name) of \(owner) may be left out or repeated, so no argument may follow it; "
                        + "move \(previous.name) to the end, or make it required and not repeating")
            }
            arguments.append(
                CommandSpec.Argument(name: argumentName, help: help, isOptional: isOptional, isRepeating: isRepeating))
        }

        var options: [CommandSpec.Option] = []
        for (table, itemLocation) in try items("options", in: table, owner: owner) {
            try checkKeys(of: table, known: Self.optionKeys, in: "an option")
            let optionName = try readItemName(table, at: itemLocation, what: "option", example: "minutes")
            try checkHostOption(optionName, at: table["name"]?.location)
            try claim(optionName, "an option", at: table["name"]?.location)
            let what = "the option --\(optionName)"
            let help = try requiredString(
                "help", in: table, owner: "\(what) of \(commandName)", at: itemLocation,
                example: "help = \"How long the session lasts.\"")
            let valueName = try optionalString("value_name", in: table, example: "value_name = \"N\"")
            if let valueName, valueName.isEmpty || valueName.contains(where: \.isWhitespace) {
                throw fail(
                    at: table["value_name"]?.location,
                    "`value_name` of \(what) must be one word, shown as <\(optionName)> in the usage line, such as value_name = \"N\""
                )
            }
            let choices = try optionalStrings("choices", in: table, example: "choices = [\"short\", \"long\"]") ?? []
            let isRequired = try optionalBool("required", in: table) ?? false
            let isRepeating = try optionalBool("repeating", in: table) ?? false
            options.append(
                CommandSpec.Option(
                    name: optionName, valueName: valueName, help: help, isRepeating: isRepeating, choices: choices,
                    isRequired: isRequired))
        }

        var flags: [CommandSpec.Flag] = []
        for (table, itemLocation) in try items("flags", in: table, owner: owner) {
            try checkKeys(of: table, known: Self.flagKeys, in: "a flag")
            let flagName = try readItemName(table, at: itemLocation, what: "flag", example: "quiet")
            try checkHostOption(flagName, at: table["name"]?.location)
            try claim(flagName, "a flag", at: table["name"]?.location)
            let help = try requiredString(
                "help", in: table, owner: "the flag --\(flagName) of \(commandName)", at: itemLocation,
                example: "help = \"Start without a notice.\"")
            flags.append(CommandSpec.Flag(name: flagName, help: help))
        }

        let spec = CommandSpec(
            name: commandName, summary: summary, discussion: discussion, arguments: arguments, options: options,
            flags: flags, examples: examples, aliases: aliases, offersJSON: offersJSON, writes: writes)
        return (spec, words)
    }

    /// Refuses an option or flag `hooray` gives every command.
    func checkHostOption(_ optionName: String, at location: SourceLocation?) throws(PluginManifestError) {
        guard CommandTree.hostOptions.contains(optionName) else { return }
        if optionName == "json" {
            throw fail(
                at: location,
                "--json is hooray's own; write json = true in the command to offer it, and remove this one")
        }
        throw fail(at: location, "hooray gives every command --\(optionName) itself; rename this one")
    }

    /// The tables of a command's `arguments`, `options` or `flags`, with where each is written.
    func items(_ key: String, in table: ConfigTable, owner: String) throws(PluginManifestError) -> [(
        ConfigTable, SourceLocation?
    )] {
        guard let node = table[key] else { return [] }
        guard let elements = node.array else {
            throw fail(
                at: node.location,
                "`\(key)` of \(owner) must be a list of tables, one [[commands.\(key)]] each; found \(node.kindDescription)"
            )
        }
        var tables: [(ConfigTable, SourceLocation?)] = []
        for element in elements {
            guard let item = element.table else {
                throw fail(
                    at: element.location,
                    "each of the `\(key)` of \(owner) must be a table, written [[commands.\(key)]] with name = … "
                        + "and help = … below; found \(element.kindDescription)")
            }
            tables.append((item, element.location))
        }
        return tables
    }

    /// The `name` of a command, argument, option or flag.
    func readItemName(_ table: ConfigTable, at location: SourceLocation?, what: String, example: String)
        throws(PluginManifestError) -> String
    {
        guard let node = table["name"] else {
            throw fail(at: location, "a \(what) has no `name`; add one, such as name = \"\(example)\"")
        }
        guard case .string(let text) = node.value else {
            throw fail(
                at: node.location,
                "the name of a \(what) must be a string, such as name = \"\(example)\"; found \(node.kindDescription)")
        }
        guard Self.isName(text) else {
            throw fail(
                at: node.location, Self.nameProblem(text, what: "the \(what) name", key: "name", example: example))
        }
        return text
    }
}
