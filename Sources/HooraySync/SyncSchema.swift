import FoundationEssentials
import HoorayCalendar
import HoorayClient

/// How the fields of each kind of record merge.
///
/// A field merges as one value by default: two devices that both change a habit's name end with the
/// name changed last. A field listed here is a set instead, whose elements merge one by one: two
/// devices that each tick a different day both keep their day.
public struct SyncSchema: Sendable, Equatable {
    /// How a set field is written in a record.
    public enum SetShape: Sendable, Hashable {
        /// A JSON array; its elements are listed in the order they were first added.
        case array
        /// A `DaySet` (`{"from": DAY, "bits": BASE64}`); its elements are days since 1970.
        case daySet
    }

    /// The set fields, by kind of record (`plugin/kind`) and field.
    public var sets: [String: [String: SetShape]]

    /// Creates a schema.
    public init(sets: [String: [String: SetShape]]) {
        self.sets = sets
    }

    /// The built-in plugins' records: a habit's days done, resets, pauses and milestones celebrated;
    /// a rejection's screenshots; a moment's photos and tags.
    public static let builtIn = SyncSchema(sets: [
        "habits/habit": ["done": .daySet, "resets": .array, "pauses": .array, "celebrated": .array],
        "recovery/rejection": ["screenshots": .array],
        "wins/moment": ["photos": .array, "tags": .array],
    ])

    /// The days a day set's element may be, in days since 1970: from the year 1 to 9999. A segment
    /// sealed with the key but holding a day outside is not trusted with memory for it.
    public static let dayRange = -719_162...2_932_896

    /// The set fields of a record's kind, with their shapes.
    public func setFields(of record: SyncRecordKey) -> [String: SetShape] {
        sets["\(record.plugin)/\(record.kind)"] ?? [:]
    }

    // MARK: Elements

    /// The elements of a set field's value; `nil` when the value is not of the shape (merged as
    /// one value then).
    static func elements(of value: JSONValue, shape: SetShape) -> [JSONValue]? {
        switch shape {
        case .array:
            guard case .array(let elements) = value else { return nil }
            return elements
        case .daySet:
            guard let days = try? value.decodeValue(DaySet.self) else { return nil }
            return days.map { .number(Double($0.daysSinceEpoch)) }
        }
    }

    /// A set field's value made of `elements`, in their order.
    static func value(of elements: [JSONValue], shape: SetShape) -> JSONValue {
        switch shape {
        case .array:
            return .array(elements)
        case .daySet:
            let days = elements.compactMap { element -> LocalDate? in
                guard case .number(let day) = element, let whole = Int(exactly: day), dayRange.contains(whole) else {
                    return nil
                }
                return LocalDate(daysSinceEpoch: whole)
            }
            return (try? JSONValue(encodingValue: DaySet(days))) ?? .null
        }
    }
}

extension JSONValue {
    /// The value as JSON text with its keys sorted: equal values have equal text.
    var canonicalText: String {
        // A whole number (a day of a day set) without an encoder: a habit's state holds hundreds.
        if case .number(let number) = self, let whole = Int64(exactly: number), whole.magnitude < 1 << 53 {
            return String(whole)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// Decodes the value as `type`, as the record's own decoding would.
    func decodeValue<Value: Decodable>(_ type: Value.Type) throws -> Value {
        let data = try JSONEncoder().encode(self)
        return try JSONDecoder().decode(type, from: data)
    }

    /// The JSON of an encodable value.
    init(encodingValue value: some Encodable) throws {
        let data = try JSONEncoder().encode(value)
        self = try JSONDecoder().decode(JSONValue.self, from: data)
    }
}
