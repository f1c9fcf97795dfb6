import HoorayKit

/// The 5-minute recovery plan as `hooray recovery plan --json` prints it (docs/json.md,
/// `recoveryPlan`): what a window shows after a rejection is logged, and from its **Plan** button.
struct RecoveryPlanView: Encodable, Sendable, Hashable {
    /// The rejection it is for; `nil` with `--type`, or before any is logged.
    var rejection: String?
    var type: RejectionType
    var emoji: String
    var title: String
    var heading: String
    var steps: [String]
    /// The response template fitting the situation, by its number in the kind's list; `nil` when the
    /// note names no situation.
    var template: TemplatePointer?
    /// The line pointing at the words for a reply, as the text ends with it.
    var templateLine: String

    /// A template, as `hooray recovery templates --type TYPE --number N` shows it.
    struct TemplatePointer: Encodable, Sendable, Hashable {
        var id: String
        var number: Int
        var title: String
    }

    init(_ situation: RecoverySituation, rejection: Rejection?) {
        self.rejection = rejection?.recordID
        type = situation.type
        emoji = situation.type.emoji
        title = RecoveryCopy.title(for: situation)
        heading = RecoveryCopy.planHeading
        steps = RecoveryCopy.plan(for: situation)
        if let template = situation.template, let number = situation.templateNumber {
            self.template = TemplatePointer(id: template.id, number: number, title: template.title)
        }
        templateLine = RecoveryCopy.templateLine(for: situation)
    }

    enum CodingKeys: String, CodingKey {
        case rejection, type, emoji, title, heading, steps, template, templateLine
    }

    /// Encodes every key, an absent value as `null` (docs/json.md).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rejection, forKey: .rejection)
        try container.encode(type, forKey: .type)
        try container.encode(emoji, forKey: .emoji)
        try container.encode(title, forKey: .title)
        try container.encode(heading, forKey: .heading)
        try container.encode(steps, forKey: .steps)
        try container.encode(template, forKey: .template)
        try container.encode(templateLine, forKey: .templateLine)
    }
}
