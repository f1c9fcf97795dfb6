import HoorayKit
import HoorayTOML

/// A key's value in the merged configuration, and the file that gives it: `hooray config get`.
public struct ConfigLookup: Sendable {
    /// The key path.
    public var path: [String]
    /// The merged value; `nil` when no file sets the key (the built-in default applies).
    public var node: ConfigNode?

    /// The file the value comes from, with its line and column.
    public var location: SourceLocation? { node?.location }

    /// The value as TOML, as it would be written after `KEY = `.
    public var toml: String? { node.map { ConfigLookup.literal($0).text } }

    /// The value as JSON.
    public var json: JSONValue? { node.map(ConfigLookup.json) }

    static func literal(_ node: ConfigNode) -> TOMLLiteral {
        switch node.value {
        case .string(let text): .string(text)
        case .integer(let number): .integer(Int64(number))
        case .float(let number): .float(number)
        case .boolean(let flag): .boolean(flag)
        case .dateTime(let dateTime): .dateTime(dateTime.text)
        case .array(let elements): .array(elements.map(literal))
        case .table(let table): .inlineTable(table.map { ($0.key, literal($0.node)) })
        }
    }

    static func json(_ node: ConfigNode) -> JSONValue {
        switch node.value {
        case .string(let text): .string(text)
        case .integer(let number): .number(Double(number))
        case .float(let number): .number(number)
        case .boolean(let flag): .bool(flag)
        case .dateTime(let dateTime): .string(dateTime.text)
        case .array(let elements): .array(elements.map(json))
        case .table(let table):
            .object(Dictionary(table.map { ($0.key, json($0.node)) }, uniquingKeysWith: { first, _ in first }))
        }
    }
}

extension ConfigLoader {
    /// Looks a key up in the merged configuration.
    ///
    /// - Parameter path: The key path, such as `["plugins", "swaps", "night_prep"]`.
    /// - Returns: The value and where it comes from; no value when no file sets it.
    /// - Throws: ``ConfigEditRefusal`` when the configuration has errors (they are listed), or when no
    ///   file sets the key and it is no key Hooray knows (with the nearest one).
    public func lookUp(_ path: [String]) throws(ConfigEditRefusal) -> ConfigLookup {
        let evaluation = evaluate(layers())
        if let node = evaluation.root.node(at: ConfigKeyPath(keys: path)) {
            return ConfigLookup(path: path, node: node)
        }
        let errors = evaluation.diagnostics.errors
        if !errors.isEmpty {
            throw ConfigEditRefusal(
                .configuration, "the configuration has \(ConfigFileEditor.count(errors.count, "error"))",
                hint: "`hooray config check` shows where; fix them, then run the command again",
                diagnostics: errors)
        }
        if let unknown = unknownKey(path) { throw unknown }
        return ConfigLookup(path: path, node: nil)
    }

    /// Whether a key is one Hooray knows: it is set alone in an empty file, and the decoder is asked
    /// whether it is unknown. Its value's type is not the question, so an error about it is no answer.
    func unknownKey(_ path: [String]) -> ConfigEditRefusal? {
        var document = TOMLDocument(parsing: "")
        guard (try? document.set(path, to: .string(""))) != nil else { return nil }
        let probe = "<\(ConfigKeyText.text(path))>"
        var loader = self
        loader.explicitFile = nil
        loader.replacedTexts = [probe: document.text]
        let keyPath = ConfigKeyPath(keys: path)
        let found = loader.evaluate([.file(probe, required: true)]).diagnostics.warnings.first { warning in
            guard let warned = warning.path, warned.components.count <= keyPath.components.count else { return false }
            return ConfigKeyPath(Array(keyPath.components.prefix(warned.components.count))) == warned
        }
        return found.map { warning in
            ConfigEditRefusal(.configuration, warning.message, hint: warning.hint)
        }
    }
}
