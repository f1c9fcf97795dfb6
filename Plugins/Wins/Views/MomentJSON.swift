import Foundation
import HoorayCalendar
import HoorayKit

/// One moment as every command that prints moments writes it with `--json` (`hooray win`, `hooray
/// moments`, `hooray moments edit`): the `moment` type of `docs/json.md`. Absent values are written
/// as `null`, so every moment has the same keys.
struct MomentJSON: Encodable {
    let moment: Moment
    let day: LocalDate

    /// The moment, with `day` its local day in `timeZone`.
    init(_ moment: Moment, timeZone: TimeZone) {
        self.moment = moment
        day = LocalCalendar.day(of: moment.happenedAt, in: timeZone)
    }

    init(moment: Moment, day: LocalDate) {
        self.moment = moment
        self.day = day
    }

    /// The moment as a JSON value, for a reply.
    static func value(_ moment: Moment, timeZone: TimeZone) throws -> JSONValue {
        try JSONValue(json: ViewText.json(MomentJSON(moment, timeZone: timeZone)))
    }

    enum CodingKeys: String, CodingKey {
        case id, text, placeholder, happenedAt, submittedAt, day, timeZone, timeAgo, offlinePraise, aiPraise, praise
        case mood, note, photos, tags, favorite, sync, syncError
    }

    func encode(to encoder: any Encoder) throws {
        let iso = Date.ISO8601FormatStyle()
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(moment.id.uuidString.lowercased(), forKey: .id)
        try container.encode(moment.text, forKey: .text)
        try container.encode(moment.isPlaceholder, forKey: .placeholder)
        try container.encode(moment.happenedAt.formatted(iso), forKey: .happenedAt)
        try container.encode(moment.submittedAt.formatted(iso), forKey: .submittedAt)
        try container.encode(day.description, forKey: .day)
        try container.encode(moment.timeZone, forKey: .timeZone)
        try container.encode(moment.timeAgo, forKey: .timeAgo)
        try container.encode(moment.offlinePraise, forKey: .offlinePraise)
        try container.encode(moment.aiPraise, forKey: .aiPraise)
        try container.encode(moment.praise, forKey: .praise)
        try container.encode(moment.mood?.rawValue, forKey: .mood)
        try container.encode(moment.note, forKey: .note)
        try container.encode(moment.photos, forKey: .photos)
        try container.encode(moment.tags, forKey: .tags)
        try container.encode(moment.isFavorite, forKey: .favorite)
        try container.encode(moment.sync.rawValue, forKey: .sync)
        try container.encode(moment.syncError, forKey: .syncError)
    }
}
