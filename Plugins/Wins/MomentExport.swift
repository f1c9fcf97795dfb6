import Foundation
import HoorayKit

/// A moment in `hooray export`: the keys of the `moment` type of docs/json.md that the user logged
/// or the AI service gave, without what is worked out from them (`day`, `timeAgo`, `praise`) and
/// without this computer's AI bookkeeping (retry count, next retry, the service's id).
struct MomentExport: Codable {
    var text: String
    var placeholder: Bool
    var happenedAt: Date
    var submittedAt: Date
    var timeZone: String
    var offlinePraise: String
    var aiPraise: String?
    var mood: Mood?
    var note: String?
    var photos: [String]
    var tags: [String]
    var action: String?
    var favorite: Bool
    var sync: Moment.SyncState
    var syncError: String?

    enum CodingKeys: String, CodingKey {
        case text, placeholder, happenedAt, submittedAt, timeZone, offlinePraise, aiPraise, mood, note, photos, tags
        case action, favorite, sync, syncError
    }

    init(_ moment: Moment) {
        text = moment.text
        placeholder = moment.isPlaceholder
        happenedAt = moment.happenedAt
        submittedAt = moment.submittedAt
        timeZone = moment.timeZone
        offlinePraise = moment.offlinePraise
        aiPraise = moment.aiPraise
        mood = moment.mood
        note = moment.note
        photos = moment.photos
        tags = moment.tags
        action = moment.action
        favorite = moment.isFavorite
        sync = moment.sync
        syncError = moment.syncError
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        text = try container.decode(String.self, forKey: .text)
        placeholder = try container.decodeIfPresent(Bool.self, forKey: .placeholder) ?? false
        happenedAt = try container.decode(Date.self, forKey: .happenedAt)
        submittedAt = try container.decode(Date.self, forKey: .submittedAt)
        timeZone = try container.decode(String.self, forKey: .timeZone)
        offlinePraise = try container.decode(String.self, forKey: .offlinePraise)
        aiPraise = try container.decodeIfPresent(String.self, forKey: .aiPraise)
        mood = try container.decodeIfPresent(Mood.self, forKey: .mood)
        note = try container.decodeIfPresent(String.self, forKey: .note)
        photos = try container.decodeIfPresent([String].self, forKey: .photos) ?? []
        tags = try container.decodeIfPresent([String].self, forKey: .tags) ?? []
        action = try container.decodeIfPresent(String.self, forKey: .action)
        favorite = try container.decodeIfPresent(Bool.self, forKey: .favorite) ?? false
        sync = try container.decodeIfPresent(Moment.SyncState.self, forKey: .sync) ?? .local
        syncError = try container.decodeIfPresent(String.self, forKey: .syncError)
    }

    /// Every key, `null` when absent, as `--json` writes a moment.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
        try container.encode(placeholder, forKey: .placeholder)
        try container.encode(happenedAt, forKey: .happenedAt)
        try container.encode(submittedAt, forKey: .submittedAt)
        try container.encode(timeZone, forKey: .timeZone)
        try container.encode(offlinePraise, forKey: .offlinePraise)
        try container.encode(aiPraise, forKey: .aiPraise)
        try container.encode(mood, forKey: .mood)
        try container.encode(note, forKey: .note)
        try container.encode(photos, forKey: .photos)
        try container.encode(tags, forKey: .tags)
        try container.encode(action, forKey: .action)
        try container.encode(favorite, forKey: .favorite)
        try container.encode(sync, forKey: .sync)
        try container.encode(syncError, forKey: .syncError)
    }
}

extension Moment {
    /// The `moment` of docs/export.md: the keys of `hooray moments --json`, less what is worked
    /// out from them and this computer's AI bookkeeping.
    public func exportValue() throws -> JSONValue {
        try ExportForm.encode(MomentExport(self))
    }

    /// Reads a moment from its public form. One still waiting for AI praise is due to be asked
    /// again at once: its next try is set to when it was submitted, an instant of the record
    /// itself, so that every import of the same file stores the same bytes.
    public init(exportValue value: JSONValue, id: String) throws {
        let uuid = try ExportForm.uuid(id)
        let form = try ExportForm.decode(MomentExport.self, from: value)
        guard TimeZone(identifier: form.timeZone) != nil else {
            throw ExportFormError(field: "timeZone", problem: "\"\(form.timeZone)\" is not a time zone")
        }
        self.init(
            id: uuid, text: form.text, isPlaceholder: form.placeholder, submittedAt: form.submittedAt,
            happenedAt: form.happenedAt, timeZone: form.timeZone, offlinePraise: form.offlinePraise,
            aiPraise: form.aiPraise, mood: form.mood, note: form.note, photos: form.photos, tags: form.tags,
            action: form.action, isFavorite: form.favorite, sync: form.sync, syncError: form.syncError,
            nextSyncAt: form.sync == .pending ? form.submittedAt : nil)
    }
}

extension Moment {
    /// A row of `moments.csv`: when it happened in `timeZone`, the words, mood, note and praise.
    public func csvRows(timeZone: TimeZone) throws -> [CSVRow] {
        let (day, time) = CSVRow.dateAndTime(of: happenedAt, in: timeZone)
        return [
            CSVRow(
                table: "moments",
                cells: [
                    ("date", day), ("time", time), ("text", text), ("mood", mood?.rawValue ?? ""), ("note", note ?? ""),
                    ("praise", praise), ("favorite", isFavorite ? "yes" : ""), ("tags", tags.joined(separator: "; ")),
                    ("photos", photos.joined(separator: "; ")), ("id", recordID),
                ])
        ]
    }
}
