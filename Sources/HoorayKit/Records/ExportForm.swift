import Foundation
import HoorayCalendar

/// The public form of records: how `hooray export` writes them and `hooray import` reads them back
/// (docs/export.md), with instants as ISO 8601 in UTC and days as `YYYY-MM-DD`.
///
/// A record's public form is its ``PluginRecord/exportValue()``; a plugin that keeps the default
/// gets its record's `Codable` form with instants written by ``instant(_:)`` and its id left out.
/// A plugin whose stored form holds numbers no person can read (bitmaps of days, weekday numbers)
/// writes its own, using this type's coders and ``ExportFormError`` to say which field is wrong.
public enum ExportForm {
    /// An instant as ISO 8601 in UTC, such as `2026-11-21T16:40:00Z`.
    ///
    /// An instant with a fraction of a second gets it, to the microsecond and without trailing
    /// zeros (`2026-11-21T16:40:00.063575Z`), so that reading the text back and writing it again
    /// gives the same text.
    ///
    /// - Parameter date: The instant.
    /// - Returns: Its text.
    public static func instant(_ date: Date) -> String {
        let micros = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        let (seconds, fraction) = micros.quotientAndRemainder(dividingBy: 1_000_000)
        let (whole, micro) = fraction < 0 ? (seconds - 1, fraction + 1_000_000) : (seconds, fraction)
        let (days, secondOfDay) = whole.quotientAndRemainder(dividingBy: 86_400)
        let (day, second) = secondOfDay < 0 ? (days - 1, secondOfDay + 86_400) : (days, secondOfDay)
        let date = LocalDate(daysSinceEpoch: Int(day))
        var text = date.description + "T" + two(second / 3600) + ":" + two(second / 60 % 60) + ":" + two(second % 60)
        if micro != 0 {
            var digits = String(micro)
            digits = String(repeating: "0", count: 6 - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return text + "Z"
    }

    /// Reads an instant written as ISO 8601: `YYYY-MM-DDTHH:MM:SS`, an optional fraction of a
    /// second, and `Z` or an offset such as `+01:00`.
    ///
    /// - Parameter text: The text.
    /// - Returns: The instant, or `nil` when the text is not such an instant.
    public static func instant(parsing text: String) -> Date? {
        let scalars = Array(text.utf8)
        guard scalars.count >= 20, scalars[10] == UInt8(ascii: "T") || scalars[10] == UInt8(ascii: "t"),
            let day = LocalDate(parsing: String(decoding: scalars[0..<10], as: UTF8.self)),
            scalars[13] == UInt8(ascii: ":"), scalars[16] == UInt8(ascii: ":"),
            let hour = number(scalars[11..<13]), let minute = number(scalars[14..<16]),
            let second = number(scalars[17..<19]), hour < 24, minute < 60, second < 60
        else { return nil }
        var index = 19
        var micros = 0
        if scalars[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < scalars.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(scalars[index]) {
                if digits < 6 { micros = micros * 10 + Int(scalars[index] - UInt8(ascii: "0")) }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            for _ in min(digits, 6)..<6 { micros *= 10 }
        }
        var offset = 0
        let rest = Array(scalars[index...])
        if rest == [UInt8(ascii: "Z")] || rest == [UInt8(ascii: "z")] {
            offset = 0
        } else if rest.count == 6, rest[0] == UInt8(ascii: "+") || rest[0] == UInt8(ascii: "-"),
            rest[3] == UInt8(ascii: ":"), let hours = number(rest[1..<3]), let minutes = number(rest[4..<6]),
            hours < 24, minutes < 60
        {
            offset = (hours * 3600 + minutes * 60) * (rest[0] == UInt8(ascii: "-") ? -1 : 1)
        } else {
            return nil
        }
        let whole = day.daysSinceEpoch * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(whole) + Double(micros) / 1_000_000)
    }

    /// An encoder for public forms: instants as ``instant(_:)`` writes them, keys sorted.
    package static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(instant(date))
        }
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// A decoder for public forms: instants as ``instant(parsing:)`` reads them; another text is
    /// an error that names it and the form to write.
    package static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = instant(parsing: text) else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "\"\(text)\" is not an instant; write it as ISO 8601 in UTC, "
                        + "such as \"2026-11-21T16:40:00Z\"")
            }
            return date
        }
        return decoder
    }

    /// Decodes a value of a public form, reading instants as ``instant(parsing:)`` does.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - value: The JSON.
    /// - Returns: The value.
    /// - Throws: ``ExportFormError`` naming the field that is wrong.
    public static func decode<Value: Decodable>(_ type: Value.Type, from value: JSONValue) throws(ExportFormError)
        -> Value
    {
        do {
            return try makeDecoder().decode(Value.self, from: Data(value.text().utf8))
        } catch let error as DecodingError {
            throw ExportFormError(error)
        } catch {
            throw ExportFormError(field: "", problem: "\(error)")
        }
    }

    /// Encodes a value as JSON, instants as ``instant(_:)`` writes them, keys sorted.
    ///
    /// - Throws: `EncodingError` when the value cannot be encoded.
    public static func encode<Value: Encodable>(_ value: Value) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: makeEncoder().encode(value))
    }

    /// A record's id that must be a UUID, as the export's `id` gives it.
    ///
    /// - Parameter id: The record's `id`.
    /// - Returns: The UUID.
    /// - Throws: ``ExportFormError`` when it is not one.
    public static func uuid(_ id: String) throws(ExportFormError) -> UUID {
        guard let uuid = UUID(uuidString: id) else {
            throw ExportFormError(field: "", problem: "its id \"\(id)\" is not a UUID")
        }
        return uuid
    }

    private static func two(_ number: Int64) -> String { number < 10 ? "0\(number)" : "\(number)" }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        guard digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }
}

/// Why the public form of a record cannot be read: the field, and what is wrong with it.
///
/// `hooray import` names the record and the field, such as
/// `plugins.habits.records[3].value.done[2]: "2026-13-01" is not a date`.
public struct ExportFormError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The field within the record's value, such as `done[2]` or `schedule.days`; empty for the
    /// value as a whole.
    public var field: String
    /// What is wrong, for a person, such as `it is missing`.
    public var problem: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - field: The field within the record's value, such as `done[2]`; empty for the whole value.
    ///   - problem: What is wrong, such as `2026-11-20 is listed twice`.
    public init(field: String, problem: String) {
        self.field = field
        self.problem = problem
    }

    /// The error a decoder gave, by field.
    ///
    /// - Parameter error: The decoder's error.
    public init(_ error: DecodingError) {
        switch error {
        case .keyNotFound(let key, let context):
            self.init(field: Self.path(context.codingPath + [key]), problem: "it is missing")
        case .typeMismatch(let type, let context):
            self.init(field: Self.path(context.codingPath), problem: "it is not \(Self.describe(type))")
        case .valueNotFound(_, let context):
            self.init(field: Self.path(context.codingPath), problem: "it is null, which it may not be")
        case .dataCorrupted(let context):
            self.init(
                field: Self.path(context.codingPath),
                problem: context.codingPath.isEmpty ? "it is not JSON" : context.debugDescription)
        @unknown default:
            self.init(field: "", problem: "\(error)")
        }
    }

    /// The field and the problem, such as `done[2]: "2026-13-01" is not a date`.
    public var description: String { field.isEmpty ? problem : "\(field): \(problem)" }

    /// `schedule.days[2]`, from a coding path.
    static func path(_ path: [any CodingKey]) -> String {
        path.reduce(into: "") { text, key in
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
    }

    static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Double.Type, is Int64.Type: "a number"
        case is [Any].Type: "a list"
        case is [String: Any].Type: "an object"
        default: "of the right type"
        }
    }
}
