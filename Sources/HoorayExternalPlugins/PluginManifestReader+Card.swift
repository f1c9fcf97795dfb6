import HoorayClient
import HoorayCommandLine
import HoorayConfig
import HoorayText

/// Reading a `plugin.toml`'s `[card]`: what the desktop app's Today view shows of the plugin.
extension ManifestReader {
    static let cardKeys = ["title", "text", "buttons"]
    static let buttonKeys = ["label", "command"]
    /// The most buttons a card has.
    static let mostCardButtons = 3
    /// The longest title, line of text and button label a card takes, in characters.
    static let longestCardTitle = 60
    static let longestCardText = 200
    static let longestButtonLabel = 40

    /// Reads the optional `[card]`: a title, a line of text, and up to three buttons, each running one
    /// of the plugin's own commands that needs nothing more than its name.
    func readCard(commands: [CommandSpec]) throws(PluginManifestError) -> PluginCard? {
        guard let node = root["card"] else { return nil }
        guard let table = node.table else {
            throw fail(
                at: node.location,
                "`card` must be a table, written [card] with title = … and text = … below; found \(node.kindDescription)"
            )
        }
        try checkKeys(of: table, known: Self.cardKeys, in: "the card")
        let title = try requiredString(
            "title", in: table, owner: "the card", at: node.location, example: "title = \"Focus\"")
        let text = try optionalString("text", in: table, example: "text = \"25 minutes, then a break.\"") ?? ""
        try checkLength(title, of: "title", in: table, most: Self.longestCardTitle)
        try checkLength(text, of: "text", in: table, most: Self.longestCardText)
        var buttons: [PluginCard.Button] = []
        if let list = table["buttons"] {
            guard let elements = list.array else {
                throw fail(
                    at: list.location,
                    "`buttons` must be a list of tables, one [[card.buttons]] per button; found \(list.kindDescription)"
                )
            }
            guard elements.count <= Self.mostCardButtons else {
                throw fail(
                    at: elements[Self.mostCardButtons].location,
                    "the card has \(elements.count) buttons, and a card shows at most \(Self.mostCardButtons); "
                        + "keep the ones used most")
            }
            for element in elements {
                guard let button = element.table else {
                    throw fail(
                        at: element.location,
                        "each button must be a table, written [[card.buttons]] with label = … and command = … below; "
                            + "found \(element.kindDescription)")
                }
                buttons.append(try readButton(button, at: element.location, commands: commands))
            }
        }
        return PluginCard(title: title, text: text, buttons: buttons)
    }

    private func readButton(_ table: ConfigTable, at location: SourceLocation?, commands: [CommandSpec])
        throws(PluginManifestError) -> PluginCard.Button
    {
        try checkKeys(of: table, known: Self.buttonKeys, in: "a button")
        let label = try requiredString(
            "label", in: table, owner: "a button", at: location, example: "label = \"Start\"")
        try checkLength(label, of: "label", in: table, most: Self.longestButtonLabel)
        let command = try requiredString(
            "command", in: table, owner: "the button \(label)", at: location, example: "command = \"start\"")
        guard let spec = commands.first(where: { $0.name == command }) else {
            let names = commands.map { "`\($0.name)`" }
            throw fail(
                at: table["command"]?.location,
                "the button \(label) runs `\(TerminalText.safe(String(command.prefix(40))))`, which is no command of the plugin; "
                    + (names.isEmpty
                        ? "declare it in [[commands]] first"
                        : "give one of \(names.joined(separator: ", ")), or declare it in [[commands]]"))
        }
        if let needed = spec.arguments.first(where: { !$0.isOptional }) {
            throw fail(
                at: table["command"]?.location,
                "the button \(label) runs `\(command)`, which needs its <\(needed.name)>, and a button gives none; "
                    + "make it optional = true, or choose a command that needs nothing")
        }
        if let needed = spec.options.first(where: \.isRequired) {
            throw fail(
                at: table["command"]?.location,
                "the button \(label) runs `\(command)`, which needs --\(needed.name), and a button gives none; "
                    + "make it not required, or choose a command that needs nothing")
        }
        return PluginCard.Button(label: label, command: command, writes: spec.writes)
    }

    private func checkLength(_ text: String, of key: String, in table: ConfigTable, most: Int)
        throws(PluginManifestError)
    {
        // One line of plain text: no line break, control character or direction override, which
        // would break the card, or the terminal a refusal is printed on.
        if let bad = text.unicodeScalars.first(where: {
            $0 == "\n" || $0 == "\t" || TerminalText.needsNeutralising(String($0))
        }) {
            let code = String(bad.value, radix: 16, uppercase: true)
            throw fail(
                at: table[key]?.location,
                "`\(key)` holds a line break or control character (U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code)); "
                    + "write it as one line of plain text")
        }
        guard text.count <= most else {
            throw fail(
                at: table[key]?.location,
                "`\(key)` has \(text.count) characters, more than the \(most) the card shows; make it shorter")
        }
    }
}
