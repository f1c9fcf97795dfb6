import Foundation

// `JSONValue` itself is a wire type (HoorayClient's, named here by a typealias, see WireTypes.swift);
// what needs the whole of Foundation is here.
extension JSONValue {
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

    /// Encodes values the way the wire does: keys sorted, instants as ISO 8601 in UTC.
    package static func makeEncoder(pretty: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys]
        return encoder
    }

    /// Decodes values the way the wire does: instants as ISO 8601.
    package static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    private static var encoder: JSONEncoder { makeEncoder() }
    private static var decoder: JSONDecoder { makeDecoder() }
}
