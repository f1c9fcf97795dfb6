import Foundation
import HoorayCommandLine
import HoorayKit

extension RecoveryPlugin {
    /// `hooray recovery templates [--type T] [--number N] [--fill Placeholder=text]… [--copy]`.
    ///
    /// Lists the response templates, numbered, grouped by kind of rejection, with the placeholders
    /// filled that `--fill` names. `--number N` shows only the Nth of the list. `--copy` shows one
    /// template — the Nth, or else the first of the list — and has `hooray` put its text on the
    /// clipboard (``HoorayKit/CommandReply/clipboard``).
    ///
    /// - Throws: ``PluginCommandError`` (a usage error) for an unknown kind, a number out of the
    ///   list, a `--fill` without `=`, or one naming a placeholder that no template shown has.
    func templatesCommand(_ command: CommandInvocation) throws -> CommandReply {
        let type = try command.value("type").map { try RejectionType.parse($0) }
        let listed = ResponseTemplates.templates(for: type)
        var shown = Array(zip(1..., listed))
        if let given = command.value("number") {
            guard let number = Int(given.trimmingCharacters(in: .whitespaces)) else {
                throw PluginCommandError.invalidValue(
                    "--number", "--number \"\(given)\" is not a number; give a template's number, such as --number 2")
            }
            guard (1...listed.count).contains(number) else {
                throw PluginCommandError.invalidValue(
                    "--number",
                    "--number \(given) is not in the list; give 1 to \(listed.count), as `hooray recovery templates\(type.map { " --type \($0.rawValue)" } ?? "")` numbers them"
                )
            }
            shown = [shown[number - 1]]
        } else if command.flag("copy") {
            shown = Array(shown.prefix(1))
        }
        let fills = try Self.fills(command.values("fill"), placeholders: Self.placeholders(of: shown.map(\.1)))

        var lines: [String] = []
        var views: [TemplateView] = []
        var group: RejectionType?
        for (number, template) in shown {
            if template.type != group {
                if group != nil { lines.append("") }
                lines.append(template.type.label)
                group = template.type
            }
            let text = template.filled(fills)
            lines += ["", "\(number). \(template.title) · \(template.tone)", "   \(template.scenario)", "   \(text)"]
            views.append(
                TemplateView(
                    number: number, template: template, text: text,
                    unfilled: template.placeholders.filter { fills[$0] == nil }))
        }
        let unfilled = Self.placeholders(of: shown.map(\.1)).filter { fills[$0] == nil }
        if let first = unfilled.first {
            lines.append("")
            lines.append(
                "Still to fill: \(unfilled.map { "[\($0)]" }.joined(separator: ", ")). "
                    + "Fill them with --fill, such as --fill \(first)=…")
        }
        if command.flag("copy"), command.value("number") == nil, listed.count > 1 {
            lines.append("")
            lines.append("--copy takes the first template; add --number N for another (1–\(listed.count)).")
        }
        let copied = command.flag("copy") ? shown.first.map { $0.1.filled(fills) } : nil
        return CommandReply(
            text: lines.joined(separator: "\n"),
            json: try JSONValue(encoding: TemplatesView(templates: views, unfilled: unfilled, copied: copied)),
            clipboard: copied)
    }

    /// The placeholders of the templates, each once, in order of first appearance.
    static func placeholders(of templates: [ResponseTemplate]) -> [String] {
        var names: [String] = []
        for name in templates.flatMap(\.placeholders) where !names.contains(name) {
            names.append(name)
        }
        return names
    }

    /// The `--fill` values, `Placeholder=text`, by placeholder name as the templates spell it.
    ///
    /// The name may be typed in any case and with its brackets (`--fill "[name]=Sam"`).
    ///
    /// - Throws: ``PluginCommandError`` (a usage error of `--fill`) for a value without `=` or
    ///   without text, or a name that none of `placeholders` is.
    static func fills(_ given: [String], placeholders: [String]) throws -> [String: String] {
        var fills: [String: String] = [:]
        for value in given {
            guard let equals = value.firstIndex(of: "=") else {
                throw PluginCommandError.invalidValue(
                    "--fill",
                    "--fill \"\(value)\" has no \"=\"; write the placeholder, = and its text, such as --fill Name=Sam")
            }
            var name = value[..<equals].trimmingCharacters(in: .whitespaces)
            if name.hasPrefix("["), name.hasSuffix("]"), name.count >= 2 { name = String(name.dropFirst().dropLast()) }
            let text = String(value[value.index(after: equals)...])
            guard !name.isEmpty, !text.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw PluginCommandError.invalidValue(
                    "--fill",
                    "--fill \"\(value)\" needs a placeholder before \"=\" and text after it, such as --fill Name=Sam")
            }
            guard let known = placeholders.first(where: { $0.lowercased() == name.lowercased() }) else {
                let message =
                    placeholders.isEmpty
                    ? "--fill \(name)=…: the templates shown have no placeholders; leave out --fill"
                    : "--fill \(name)=…: no template shown has a [\(name)] placeholder; the placeholders are "
                        + placeholders.map { "[\($0)]" }.joined(separator: ", ")
                throw PluginCommandError.invalidValue("--fill", message)
            }
            fills[known] = text
        }
        return fills
    }
}

/// A template as `hooray recovery templates --json` prints it.
struct TemplateView: Codable, Sendable, Hashable {
    /// Its number in the list, for `--number`.
    var number: Int
    var id: String
    var type: RejectionType
    var title: String
    var scenario: String
    var tone: String
    /// The text, filled.
    var text: String
    /// Its placeholders still to fill.
    var unfilled: [String]

    init(number: Int, template: ResponseTemplate, text: String, unfilled: [String]) {
        self.number = number
        id = template.id
        type = template.type
        title = template.title
        scenario = template.scenario
        tone = template.tone
        self.text = text
        self.unfilled = unfilled
    }
}

/// What `hooray recovery templates --json` prints.
struct TemplatesView: Codable, Sendable, Hashable {
    /// The templates shown.
    var templates: [TemplateView]
    /// The placeholders still to fill, of every template shown.
    var unfilled: [String]
    /// With `--copy`: the text for the clipboard.
    var copied: String?

    enum CodingKeys: String, CodingKey {
        case templates, unfilled, copied
    }

    /// Encodes every key, an absent value as `null` (docs/json.md).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(templates, forKey: .templates)
        try container.encode(unfilled, forKey: .unfilled)
        try container.encode(copied, forKey: .copied)
    }
}
