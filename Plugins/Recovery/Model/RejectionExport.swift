import Foundation
import HoorayKit

/// A rejection in `hooray export`: the keys of the `rejection` type of docs/json.md, less
/// `recoverySeconds` (worked out from two of them), and what its follow-up needs to come once.
struct RejectionExport: Codable {
    var type: RejectionType
    var impact: Int
    var note: String?
    var screenshots: [String]
    var happenedAt: Date
    var loggedAt: Date
    var timeZone: String
    var recoveredAt: Date?
    var encouragement: String
    var encouragementFromAI: Bool
    var followUpAt: Date?
    var followUpGroup: String?
    var followUpShown: Date?

    enum CodingKeys: String, CodingKey {
        case type, impact, note, screenshots, happenedAt, loggedAt, timeZone, recoveredAt, encouragement
        case encouragementFromAI, followUpAt, followUpGroup, followUpShown
    }

    init(_ rejection: Rejection) {
        type = rejection.type
        impact = rejection.impact
        note = rejection.note
        screenshots = rejection.screenshots
        happenedAt = rejection.happenedAt
        loggedAt = rejection.loggedAt
        timeZone = rejection.timeZone
        recoveredAt = rejection.recoveredAt
        encouragement = rejection.encouragement
        encouragementFromAI = rejection.encouragementFromAI
        followUpAt = rejection.followUpDue
        followUpGroup = rejection.followUpGroup?.uuidString.lowercased()
        followUpShown = rejection.followUpShown
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(RejectionType.self, forKey: .type)
        impact = try container.decode(Int.self, forKey: .impact)
        note = try container.decodeIfPresent(String.self, forKey: .note)
        screenshots = try container.decodeIfPresent([String].self, forKey: .screenshots) ?? []
        happenedAt = try container.decode(Date.self, forKey: .happenedAt)
        loggedAt = try container.decode(Date.self, forKey: .loggedAt)
        timeZone = try container.decode(String.self, forKey: .timeZone)
        recoveredAt = try container.decodeIfPresent(Date.self, forKey: .recoveredAt)
        encouragement = try container.decodeIfPresent(String.self, forKey: .encouragement) ?? ""
        encouragementFromAI = try container.decodeIfPresent(Bool.self, forKey: .encouragementFromAI) ?? false
        followUpAt = try container.decodeIfPresent(Date.self, forKey: .followUpAt)
        followUpGroup = try container.decodeIfPresent(String.self, forKey: .followUpGroup)
        followUpShown = try container.decodeIfPresent(Date.self, forKey: .followUpShown)
    }

    /// Every key, `null` when absent, as `--json` writes a rejection.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(impact, forKey: .impact)
        try container.encode(note, forKey: .note)
        try container.encode(screenshots, forKey: .screenshots)
        try container.encode(happenedAt, forKey: .happenedAt)
        try container.encode(loggedAt, forKey: .loggedAt)
        try container.encode(timeZone, forKey: .timeZone)
        try container.encode(recoveredAt, forKey: .recoveredAt)
        try container.encode(encouragement, forKey: .encouragement)
        try container.encode(encouragementFromAI, forKey: .encouragementFromAI)
        try container.encode(followUpAt, forKey: .followUpAt)
        try container.encode(followUpGroup, forKey: .followUpGroup)
        try container.encode(followUpShown, forKey: .followUpShown)
    }
}

extension Rejection {
    /// The `rejection` of docs/export.md.
    public func exportValue() throws -> JSONValue {
        try ExportForm.encode(RejectionExport(self))
    }

    /// Reads a rejection from its public form; an impact outside 1–10 is refused.
    public init(exportValue value: JSONValue, id: String) throws {
        let uuid = try ExportForm.uuid(id)
        let form = try ExportForm.decode(RejectionExport.self, from: value)
        guard (1...10).contains(form.impact) else {
            throw ExportFormError(field: "impact", problem: "\(form.impact) is not from 1 to 10")
        }
        var group: UUID?
        if let text = form.followUpGroup {
            guard let id = UUID(uuidString: text) else {
                throw ExportFormError(field: "followUpGroup", problem: "\"\(text)\" is not a rejection's id (a UUID)")
            }
            group = id
        }
        self.init(
            id: uuid, type: form.type, impact: form.impact, note: form.note, screenshots: form.screenshots,
            happenedAt: form.happenedAt, loggedAt: form.loggedAt, timeZone: form.timeZone,
            recoveredAt: form.recoveredAt, encouragement: form.encouragement,
            encouragementFromAI: form.encouragementFromAI, followUpGroup: group, followUpDue: form.followUpAt,
            followUpShown: form.followUpShown)
    }
}
