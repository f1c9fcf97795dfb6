import Foundation
import HoorayKit

/// Writes reminders as the JSON stored in the `rule` table, fast for the many reminders a plugin
/// declares from its configuration, which differ only in their id, title, body and schedule.
///
/// `JSONEncoder` builds a tree of each value before it writes it, which cost about 20 µs a reminder:
/// two seconds at the first start with 100,000 reminders in the configuration. Here each notice of
/// the same shape (everything but its title and body) is encoded once, with a mark where the title
/// and the body go, and each schedule once (by the caller, who keeps it); a reminder is then those
/// parts with its own strings put in. What is written is JSON that `JSONDecoder` reads back as the same reminder. A reminder with
/// anything more (a payload, a hold, a catch-up limit, or internal) is encoded by `JSONEncoder`.
struct ReminderPayloads {
    private typealias Cut = (parts: [[UInt8]], titleFirst: Bool)
    private let encoder: JSONEncoder
    /// A notice shape's JSON, cut at the marks: the parts between them, and which mark came first.
    /// `nil` for a shape whose marks could not be found: its reminders are encoded whole.
    private var notices: [Notice: Cut?] = [:]
    private var last: (shape: Notice, cut: Cut?)?

    private static let titleMark = "\u{1}hooray-title\u{1}"
    private static let bodyMark = "\u{1}hooray-body\u{1}"

    init(encoder: JSONEncoder) {
        self.encoder = encoder
    }

    /// The reminder's JSON.
    ///
    /// - Parameters:
    ///   - reminder: The reminder.
    ///   - schedule: Its schedule as `JSONEncoder` writes it.
    mutating func encode(_ reminder: Reminder, schedule: [UInt8]) throws -> [UInt8] {
        guard reminder.catchUpWithin == nil, reminder.payload == nil, !reminder.isInternal, reminder.hold == nil else {
            return Array(try encoder.encode(reminder))
        }
        var shape = reminder.notice
        shape.title = Self.titleMark
        shape.body = Self.bodyMark
        let found: Cut?
        // Most reminders have the shape of the one before: compared, not hashed.
        if let last, last.shape == shape {
            found = last.cut
        } else if let known = notices[shape] {
            found = known
        } else {
            found = try cut(Array(encoder.encode(shape)))
            notices[shape] = .some(found)
        }
        last = (shape, found)
        guard let notice = found else { return Array(try encoder.encode(reminder)) }
        // The keys in the order `.sortedKeys` writes them: id, notice, schedule.
        var json: [UInt8] = []
        json.reserveCapacity(notice.parts.reduce(0) { $0 + $1.count } + schedule.count + 64)
        json.append(contentsOf: #"{"id":"#.utf8)
        Self.appendString(reminder.id, to: &json)
        json.append(contentsOf: #","notice":"#.utf8)
        json.append(contentsOf: notice.parts[0])
        Self.appendString(notice.titleFirst ? reminder.notice.title : reminder.notice.body, to: &json)
        json.append(contentsOf: notice.parts[1])
        Self.appendString(notice.titleFirst ? reminder.notice.body : reminder.notice.title, to: &json)
        json.append(contentsOf: notice.parts[2])
        json.append(contentsOf: #","schedule":"#.utf8)
        json.append(contentsOf: schedule)
        json.append(UInt8(ascii: "}"))
        return json
    }

    /// The JSON of a notice shape cut where its two marks are (each a JSON string, quotes included,
    /// as the encoder writes it).
    private func cut(_ json: [UInt8]) throws -> Cut? {
        let title = Array(try encoder.encode(Self.titleMark))
        let body = Array(try encoder.encode(Self.bodyMark))
        guard let titleAt = Self.range(of: title, in: json), let bodyAt = Self.range(of: body, in: json) else {
            return nil
        }
        let (first, second) = titleAt.lowerBound < bodyAt.lowerBound ? (titleAt, bodyAt) : (bodyAt, titleAt)
        return (
            [
                Array(json[..<first.lowerBound]), Array(json[first.upperBound..<second.lowerBound]),
                Array(json[second.upperBound...]),
            ],
            titleAt.lowerBound < bodyAt.lowerBound
        )
    }

    private static func range(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
        guard needle.count <= haystack.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return start..<(start + needle.count) }
        }
        return nil
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
