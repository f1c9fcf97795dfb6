import Foundation
import HoorayKit

/// Writes reminders as the JSON stored in the `rule` table, fast for the many reminders a plugin
/// declares from its configuration, which differ only in their id, title, body and schedule.
///
/// `JSONEncoder` builds a tree of each value before it writes it, which cost about 20 µs a reminder:
/// two seconds at the first start with 100,000 reminders in the configuration. Here a reminder is
/// written by its notice's shape (``NoticeShapes``): everything but its title and body is encoded
/// once for each look, and each reminder is its shape's number and its own two strings
/// (``ShapedReminder``). A reminder with anything more (a payload, a hold, a catch-up limit, or
/// internal), or whose id holds a NUL, is encoded whole by `JSONEncoder`.
struct ReminderPayloads {
    private let encoder: JSONEncoder
    private var shapes: NoticeShapes
    private var last: (shape: Notice, id: Int64)?

    init(encoder: JSONEncoder, shapes: NoticeShapes) {
        self.encoder = encoder
        self.shapes = shapes
    }

    /// The reminder's JSON, and its shape when that is new and must be written first.
    mutating func encode(_ reminder: Reminder) throws -> (payload: [UInt8], newShape: NewNoticeShape?) {
        // SQLite's text of an id with a NUL in it reads back cut short: such an id stays in the JSON.
        guard reminder.catchUpWithin == nil, reminder.payload == nil, !reminder.isInternal, reminder.hold == nil,
            !reminder.id.utf8.contains(0)
        else {
            return (Array(try encoder.encode(reminder)), nil)
        }
        var shape = reminder.notice
        shape.title = ""
        shape.body = ""
        var newShape: NewNoticeShape?
        let id: Int64
        // Most reminders have the shape of the one before: compared, not hashed.
        if let last, last.shape == shape {
            id = last.id
        } else if let known = shapes.known[shape] {
            id = known
        } else {
            id = shapes.nextID
            shapes.nextID += 1
            shapes.known[shape] = id
            newShape = NewNoticeShape(id: id, json: Array(try encoder.encode(shape)))
        }
        last = (shape, id)
        return (ShapedReminder.json(shape: id, title: reminder.notice.title, body: reminder.notice.body), newShape)
    }

    /// Appends a string as JSON does: in quotes, with `"`, `\` and control characters escaped.
    static func appendString(_ text: String, to json: inout [UInt8]) {
        json.append(UInt8(ascii: "\""))
        // Most texts need no escape at all: their bytes go in at once.
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes in
            guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                return false
            }
            json.append(contentsOf: bytes)
            return true
        }
        if plain == true {
            json.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): json.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): json.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "\n"): json.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\t"): json.append(contentsOf: #"\t"#.utf8)
            case UInt8(ascii: "\r"): json.append(contentsOf: #"\r"#.utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                json.append(contentsOf: #"\u00"#.utf8)
                json.append(hex[Int(byte >> 4)])
                json.append(hex[Int(byte & 0xF)])
            default: json.append(byte)
            }
        }
        json.append(UInt8(ascii: "\""))
    }
}
