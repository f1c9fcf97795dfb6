import Foundation
import GRDB
import HoorayKit

/// The looks of stored notices, each kept once: the many reminders a plugin declares from its
/// configuration differ only in their id, title, body and schedule, and a row that held the rest
/// of its notice (buttons, urgency, category, sound, timeout) took two thirds of each row's bytes
/// — and of SQLite's work at a first start that writes 100,000 of them.
///
/// Such a reminder is stored as ``ShapedReminder``: its shape's number, its title and its body; its
/// id and schedule are in the row already (`reminderID`, and `scheduleKey`, the schedule's JSON with
/// its days in order). A reminder with anything more (a payload, a hold, a catch-up limit, or
/// internal), or whose id holds a NUL (SQLite's text of it reads back cut short), is stored whole,
/// as `JSONEncoder` writes it; rows written before shapes existed read as they are.
///
/// Shapes are few (one for each look of a notice ever declared) and are kept when no rule uses
/// them any more; deleting the user's data deletes them too.
extension HoorayDatabase {
    static func registerNoticeShapes(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v10: notice shapes") { db in
            try db.execute(sql: "CREATE TABLE noticeShape (id INTEGER PRIMARY KEY, notice BLOB NOT NULL)")
        }
    }
}

/// A reminder stored by its notice's shape (``HoorayDatabase/registerNoticeShapes(in:)``):
/// `{"shape":N,"title":…,"body":…}`. A reminder's whole JSON, as `JSONEncoder` writes it with its
/// keys sorted, never opens with `{"shape":`, so a row holds one or the other.
struct ShapedReminder: Codable {
    var shape: Int64
    var title: String
    var body: String

    /// How a shaped reminder's JSON opens.
    static let opening = Array(#"{"shape":"#.utf8)

    /// Whether `json` is a shaped reminder's.
    static func isShaped(_ json: Data) -> Bool { json.starts(with: opening) }

    /// The JSON of a reminder of shape `shape` with this title and body.
    static func json(shape: Int64, title: String, body: String) -> [UInt8] {
        var json: [UInt8] = []
        json.reserveCapacity(title.utf8.count + body.utf8.count + 40)
        json.append(contentsOf: opening)
        json.append(contentsOf: String(shape).utf8)
        json.append(contentsOf: #","title":"#.utf8)
        ReminderPayloads.appendString(title, to: &json)
        json.append(contentsOf: #","body":"#.utf8)
        ReminderPayloads.appendString(body, to: &json)
        json.append(UInt8(ascii: "}"))
        return json
    }
}

/// A shape new to the `noticeShape` table, to be written before the rule that uses it.
struct NewNoticeShape {
    var id: Int64
    var json: [UInt8]
}

/// The shapes stored, and the number the next new one gets: read at the start of a write, handed
/// to ``ReminderPayloads``.
struct NoticeShapes {
    var known: [Notice: Int64] = [:]
    var nextID: Int64 = 1

    /// The shapes stored in `db`.
    static func read(in db: Database) throws -> NoticeShapes {
        var shapes = NoticeShapes()
        for row in try Row.fetchAll(db, sql: "SELECT id, notice FROM noticeShape") {
            let id: Int64 = row[0]
            shapes.known[try decodeJSON(Notice.self, row[1])] = id
            shapes.nextID = max(shapes.nextID, id + 1)
        }
        return shapes
    }

    /// Writes a new shape.
    static func write(_ shape: NewNoticeShape, in db: Database) throws {
        try db.execute(
            sql: "INSERT INTO noticeShape (id, notice) VALUES (?, ?)", arguments: [shape.id, Data(shape.json)])
    }
}

/// Reads stored rules, each shape read and decoded once.
struct StoredRuleReader {
    private let db: Database
    private var shapes: [Int64: Notice] = [:]

    init(_ db: Database) {
        self.db = db
    }

    /// The rule of a row of the `rule` table.
    mutating func rule(from row: Row) throws -> StoredRule {
        StoredRule(
            plugin: row["plugin"],
            reminder: try reminder(from: row),
            nextDue: (row["nextDue"] as Double?).map(Date.init(unixSeconds:)),
            snoozedDueAt: (row["snoozedDueAt"] as Double?).map(Date.init(unixSeconds:)))
    }

    /// The row's reminder, whole again when it was stored by its shape.
    mutating func reminder(from row: Row) throws -> Reminder {
        let json: Data = row["reminder"]
        guard ShapedReminder.isShaped(json) else { return try decodeJSON(Reminder.self, json) }
        let shaped = try decodeJSON(ShapedReminder.self, json)
        var notice = try shape(shaped.shape)
        notice.title = shaped.title
        notice.body = shaped.body
        let scheduleKey: String = row["scheduleKey"]
        return Reminder(
            id: row["reminderID"], schedule: try decodeJSON(Schedule.self, Data(scheduleKey.utf8)), notice: notice)
    }

    private mutating func shape(_ id: Int64) throws -> Notice {
        if let known = shapes[id] { return known }
        let statement = try db.cachedStatement(sql: "SELECT notice FROM noticeShape WHERE id = ?")
        guard let json = try Data.fetchOne(statement, arguments: [id]) else {
            throw DatabaseError(message: "the shape \(id) of a stored reminder is missing")
        }
        let notice = try decodeJSON(Notice.self, json)
        shapes[id] = notice
        return notice
    }
}
