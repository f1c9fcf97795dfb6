import Foundation

/// A JSON value: what a command replies with `--json`, and what a reminder or an action carries as
/// its payload.
///
/// Plugins rarely build these by hand: encode a `Codable` value with ``init(encoding:)`` and decode
/// one with ``decode(_:)``. Instants are written as ISO 8601 in UTC (`2026-11-24T09:30:00Z`), the
/// same as everywhere on the wire between `hooray` and `hoorayd`.
public enum JSONValue: Sendable, Hashable, Codable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; JSON text lists its keys sorted.
    case object([String: JSONValue])

    /// Encodes a value as JSON, instants as ISO 8601 in UTC.
    ///
    /// - Throws: `EncodingError` when the value cannot be encoded.
    public init<Value: Encodable>(encoding value: Value) throws {
        self = try JSONValue.decoder.decode(JSONValue.self, from: JSONValue.encoder.encode(value))
    }

    /// Reads JSON text.
    ///
    /// - Throws: `DecodingError` when the text is not JSON.
    public init(json text: String) throws {
        self = try JSONValue.decoder.decode(JSONValue.self, from: Data(text.utf8))
    }

    /// Decodes a value from this JSON, instants as ISO 8601.
    ///
    /// - Throws: `DecodingError` when the JSON does not fit the type.
    public func decode<Value: Decodable>(_ type: Value.Type = Value.self) throws -> Value {
        try JSONValue.decoder.decode(Value.self, from: JSONValue.encoder.encode(self))
    }

    /// The JSON text, keys sorted; `pretty` indents it for people.
    public func text(pretty: Bool = false) -> String {
        let encoder = JSONValue.makeEncoder(pretty: pretty)
        guard let data = try? encoder.encode(self) else { return "null" }
        let text = String(decoding: data, as: UTF8.self)
        guard pretty else { return text }
        // Foundation on Linux spreads an empty array or object over lines. Only a bracket followed by
        // a raw newline is such a spread: inside a string a newline is escaped, so `"[ ]"` written
        // by a user stays as it is.
        return text.replacingOccurrences(of: #"\[\n\s*\]"#, with: "[]", options: .regularExpression)
            .replacingOccurrences(of: #"\{\n\s*\}"#, with: "{}", options: .regularExpression)
    }

    /// The string, when this is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The member of an object, or `nil`.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value as the JSON it stands for.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            // Whole numbers are written without a fraction, as people and other languages expect.
            if value.rounded() == value, abs(value) < 9_007_199_254_740_992 {
                try container.encode(Int64(value))
            } else {
                try container.encode(value)
            }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Encodes values the way the wire does: keys sorted, instants as ISO 8601 in UTC.
    public static func makeEncoder(pretty: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys]
        return encoder
    }

    /// Decodes values the way the wire does: instants as ISO 8601.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    private static var encoder: JSONEncoder { makeEncoder() }
    private static var decoder: JSONDecoder { makeDecoder() }
}
