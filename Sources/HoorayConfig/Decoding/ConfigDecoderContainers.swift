import Foundation
import HoorayKit

/// The `Decoder` handed to a type's `init(from:)` for one node.
struct NodeDecoder: Decoder {
    let state: DecodingState
    let node: ConfigNode
    let path: ConfigKeyPath
    /// What the type being decoded looks like, from `ConfigValueDescribable`, for type-mismatch messages.
    let expectation: String?

    var codingPath: [any CodingKey] { state.codingPath(path) }
    var userInfo: [CodingUserInfoKey: Any] { state.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard let table = node.table else {
            throw state.typeMismatch(
                [String: Any].self, node, path: path, expected: expectation ?? "a table",
                hint: node.array != nil ? "use [table] or { key = value }, not an array" : nil)
        }
        let visit = state.visit(table, location: node.location, path: path)
        return KeyedDecodingContainer(
            KeyedNodeContainer<Key>(state: state, node: node, table: table, path: path, visit: visit))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard let elements = node.array else {
            throw state.typeMismatch([Any].self, node, path: path, expected: expectation ?? "an array")
        }
        // An array of tables, such as 100,000 `[[plugins.reminders.reminder]]`, is a visit each.
        if elements.count > 64, elements.first?.table != nil { state.expectVisits(elements.count) }
        return UnkeyedNodeContainer(state: state, node: node, elements: elements, path: path)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleNodeContainer(state: state, node: node, path: path, expectation: expectation)
    }
}

struct KeyedNodeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let state: DecodingState
    let node: ConfigNode
    let table: ConfigTable
    let path: ConfigKeyPath
    /// The table's place among the decoder's visits.
    let visit: Int

    var codingPath: [any CodingKey] { state.codingPath(path) }

    var allKeys: [Key] {
        state.markIteratedAllKeys(at: visit)
        return table.keys.compactMap { key in
            guard let codingKey = Key(stringValue: key) else { return nil }
            state.request(key, at: visit)
            return codingKey
        }
    }

    func contains(_ key: Key) -> Bool {
        state.request(key.stringValue, at: visit)
        return table[key.stringValue] != nil
    }

    /// TOML has no null: a present key is never nil, and an absent one reads as nil.
    func decodeNil(forKey key: Key) throws -> Bool {
        !contains(key)
    }

    private func child(_ key: Key) throws -> ConfigNode {
        state.request(key.stringValue, at: visit)
        if let child = table[key.stringValue] { return child }
        let present = table.keys.filter { !state.wasRequested($0, at: visit) }
        let hint = NameSuggestion.closest(to: key.stringValue, among: present).map {
            "`\($0)` is set here; did you mean `\(key.stringValue)`?"
        }
        let diagnostic = state.diagnostic(
            at: node.location, path: path, "missing required key `\(key.stringValue)`", hint: hint)
        throw DecodingError.keyNotFound(
            key,
            DecodingError.Context(
                codingPath: codingPath, debugDescription: diagnostic.message,
                underlyingError: ConfigDiagnostics([diagnostic])))
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let value = try child(key)
        do {
            return try state.decodeValue(T.self, node: value, path: path.appending(key: key.stringValue))
        } catch {
            throw withSiblingErrors(error, type: T.self, after: key)
        }
    }

    /// When a dictionary-like type fails on one value, the other values are checked too, so one
    /// run reports every bad entry.
    private func withSiblingErrors<T: Decodable>(_ error: any Error, type: T.Type, after key: Key) -> any Error {
        guard state.iteratedAllKeys(at: visit), !state.triedSiblings(at: visit),
            var diagnostics = state.carried(error), let decodingError = error as? DecodingError
        else { return error }
        state.markTriedSiblings(at: visit)
        guard let start = table.keys.firstIndex(of: key.stringValue) else { return error }
        for sibling in table.keys[(start + 1)...] {
            guard let value = table[sibling] else { continue }
            do {
                _ = try state.decodeValue(T.self, node: value, path: path.appending(key: sibling))
            } catch {
                diagnostics.append(contentsOf: state.carried(error) ?? [])
            }
        }
        return decodingError.replacingUnderlyingError(with: diagnostics)
    }

    /// An optional value: absent is `nil`, present is decoded as `decode` does. Written out, so that
    /// a key is looked up once rather than three times (`contains`, `decodeNil`, `decode`).
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard contains(key) else { return nil }
        return try decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard contains(key) else { return nil }
        return try decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard contains(key) else { return nil }
        return try decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard contains(key) else { return nil }
        return try decode(type, forKey: key)
    }

    // The common cases answer at once; only a value of another type makes the path its message names.
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        let value = try child(key)
        if case .boolean(let flag) = value.value { return flag }
        return try scalar(type, value, key)
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        let value = try child(key)
        if case .string(let text) = value.value { return text }
        return try scalar(type, value, key)
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        let value = try child(key)
        if case .integer(let number) = value.value { return number }
        return try scalar(type, value, key)
    }

    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(type, key) }

    /// Routes the fixed-type requirements through the single-value logic, so they share its messages.
    private func decode<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        try scalar(type, try child(key), key)
    }

    private func scalar<T: Decodable>(_ type: T.Type, _ value: ConfigNode, _ key: Key) throws -> T {
        let container = SingleNodeContainer(
            state: state, node: value, path: path.appending(key: key.stringValue), expectation: nil)
        return try container.decode(T.self)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let value = try child(key)
        return try NodeDecoder(
            state: state, node: value, path: path.appending(key: key.stringValue), expectation: nil
        ).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let value = try child(key)
        return try NodeDecoder(
            state: state, node: value, path: path.appending(key: key.stringValue), expectation: nil
        ).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        superDecoder(named: "super")
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        superDecoder(named: key.stringValue)
    }

    private func superDecoder(named key: String) -> any Decoder {
        state.request(key, at: visit)
        let value = table[key] ?? .emptyTable(location: node.location)
        return NodeDecoder(state: state, node: value, path: path.appending(key: key), expectation: nil)
    }
}

struct UnkeyedNodeContainer: UnkeyedDecodingContainer {
    let state: DecodingState
    let node: ConfigNode
    let elements: [ConfigNode]
    let path: ConfigKeyPath
    private(set) var currentIndex = 0
    private var triedSiblings = false

    init(state: DecodingState, node: ConfigNode, elements: [ConfigNode], path: ConfigKeyPath) {
        self.state = state
        self.node = node
        self.elements = elements
        self.path = path
    }

    var codingPath: [any CodingKey] { state.codingPath(path) }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private func current() throws -> (ConfigNode, ConfigKeyPath) {
        guard !isAtEnd else {
            let diagnostic = state.diagnostic(
                at: node.location, path: path,
                "expected at least \(elements.count + 1) elements, found \(elements.count)")
            throw DecodingError.valueNotFound(
                Any.self,
                DecodingError.Context(
                    codingPath: codingPath + [ConfigCodingKey(intValue: currentIndex)],
                    debugDescription: diagnostic.message, underlyingError: ConfigDiagnostics([diagnostic])))
        }
        return (elements[currentIndex], path.appending(index: currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        _ = try current()
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (element, elementPath) = try current()
        do {
            let value = try state.decodeValue(T.self, node: element, path: elementPath)
            currentIndex += 1
            return value
        } catch {
            throw withSiblingErrors(error, type: T.self)
        }
    }

    /// When one element fails, the elements after it are checked too, so one run reports every
    /// bad element of an array rather than only the first.
    private mutating func withSiblingErrors<T: Decodable>(_ error: any Error, type: T.Type) -> any Error {
        guard !triedSiblings, var diagnostics = state.carried(error), let decodingError = error as? DecodingError
        else { return error }
        triedSiblings = true
        for index in (currentIndex + 1)..<max(currentIndex + 1, elements.count) {
            do {
                _ = try state.decodeValue(T.self, node: elements[index], path: path.appending(index: index))
            } catch {
                diagnostics.append(contentsOf: state.carried(error) ?? [])
            }
        }
        return decodingError.replacingUnderlyingError(with: diagnostics)
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try decodeScalar(type) }
    mutating func decode(_ type: String.Type) throws -> String { try decodeScalar(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try decodeScalar(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try decodeScalar(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try decodeScalar(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try decodeScalar(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try decodeScalar(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try decodeScalar(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try decodeScalar(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try decodeScalar(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeScalar(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeScalar(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeScalar(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeScalar(type) }

    private mutating func decodeScalar<T: Decodable>(_ type: T.Type) throws -> T {
        let (element, elementPath) = try current()
        do {
            let value = try SingleNodeContainer(state: state, node: element, path: elementPath, expectation: nil)
                .decode(T.self)
            currentIndex += 1
            return value
        } catch {
            throw withSiblingErrors(error, type: T.self)
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let (element, elementPath) = try current()
        let container = try NodeDecoder(state: state, node: element, path: elementPath, expectation: nil)
            .container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (element, elementPath) = try current()
        let container = try NodeDecoder(state: state, node: element, path: elementPath, expectation: nil)
            .unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let (element, elementPath) = try current()
        currentIndex += 1
        return NodeDecoder(state: state, node: element, path: elementPath, expectation: nil)
    }
}

struct SingleNodeContainer: SingleValueDecodingContainer {
    let state: DecodingState
    let node: ConfigNode
    let path: ConfigKeyPath
    let expectation: String?

    var codingPath: [any CodingKey] { state.codingPath(path) }

    /// TOML has no null.
    func decodeNil() -> Bool { false }

    func decode(_ type: Bool.Type) throws -> Bool { try state.decodeBool(node, path: path, expectation: expectation) }

    func decode(_ type: String.Type) throws -> String {
        try state.decodeString(node, path: path, expectation: expectation)
    }

    func decode(_ type: Double.Type) throws -> Double {
        try state.decodeDouble(node, path: path, expectation: expectation)
    }

    func decode(_ type: Float.Type) throws -> Float {
        Float(try state.decodeDouble(node, path: path, expectation: expectation))
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    private func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        try state.decodeInteger(I.self, node, path: path, expectation: expectation)
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        switch type {
        case is Bool.Type: return try decode(Bool.self) as! T
        case is String.Type: return try decode(String.self) as! T
        case is Double.Type: return try decode(Double.self) as! T
        case is Float.Type: return try decode(Float.self) as! T
        case is Int.Type: return try decode(Int.self) as! T
        case is Int8.Type: return try decode(Int8.self) as! T
        case is Int16.Type: return try decode(Int16.self) as! T
        case is Int32.Type: return try decode(Int32.self) as! T
        case is Int64.Type: return try decode(Int64.self) as! T
        case is UInt.Type: return try decode(UInt.self) as! T
        case is UInt8.Type: return try decode(UInt8.self) as! T
        case is UInt16.Type: return try decode(UInt16.self) as! T
        case is UInt32.Type: return try decode(UInt32.self) as! T
        case is UInt64.Type: return try decode(UInt64.self) as! T
        default: return try state.decodeValue(T.self, node: node, path: path)
        }
    }
}
