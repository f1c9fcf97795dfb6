import Foundation
import HoorayKit
import HoorayText

/// The `Decoder` handed to a type's `init(from:)` for one node, and its single-value container.
///
/// A class, so that handing it on as `any Decoder` or as the single-value container costs no box
/// of its own; its path is made only when a table is opened below it or a message needs it.
final class NodeDecoder: Decoder, SingleValueDecodingContainer {
    let state: DecodingState
    let node: ConfigNode
    let place: ValuePath
    /// What the type being decoded looks like, from `ConfigValueDescribable`, for type-mismatch messages.
    let expectation: String?

    init(state: DecodingState, node: ConfigNode, path: ValuePath, expectation: String?) {
        self.state = state
        self.node = node
        self.place = path
        self.expectation = expectation
    }

    var codingPath: [any CodingKey] { state.codingPath(place.path) }
    var userInfo: [CodingUserInfoKey: Any] { state.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard let table = node.table else {
            throw state.typeMismatch(
                [String: Any].self, node, path: place, expected: expectation ?? "a table",
                hint: node.elementCount != nil ? "use [table] or { key = value }, not an array" : nil)
        }
        let path = place.path
        let visit = state.visit(table, node: node, path: path)
        return KeyedDecodingContainer(
            KeyedNodeContainer<Key>(state: state, node: node, table: table, path: path, visit: visit))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard let count = node.elementCount else {
            throw state.typeMismatch([Any].self, node, path: place, expected: expectation ?? "an array")
        }
        return UnkeyedNodeContainer(state: state, node: node, count: count, path: place.path)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        self
    }

    // MARK: The single-value container

    /// TOML has no null.
    func decodeNil() -> Bool { false }

    func decode(_ type: Bool.Type) throws -> Bool { try state.decodeBool(node, path: place, expectation: expectation) }

    func decode(_ type: String.Type) throws -> String {
        try state.decodeString(node, path: place, expectation: expectation)
    }

    func decode(_ type: Double.Type) throws -> Double {
        try state.decodeDouble(node, path: place, expectation: expectation)
    }

    func decode(_ type: Float.Type) throws -> Float {
        Float(try state.decodeDouble(node, path: place, expectation: expectation))
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
        try state.decodeInteger(I.self, node, path: place, expectation: expectation)
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try state.decodeSingle(T.self, node, path: place, expectation: expectation)
    }
}

/// A class, so that the standard library's box around it copies one reference per call, not five.
final class KeyedNodeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let state: DecodingState
    let node: ConfigNode
    let table: ConfigTable
    let path: ConfigKeyPath
    /// The table's place among the decoder's visits.
    let visit: Int

    init(state: DecodingState, node: ConfigNode, table: ConfigTable, path: ConfigKeyPath, visit: Int) {
        self.state = state
        self.node = node
        self.table = table
        self.path = path
        self.visit = visit
    }

    var codingPath: [any CodingKey] { state.codingPath(path) }

    var allKeys: [Key] {
        state.markIteratedAllKeys(at: visit)
        return (0..<table.count).compactMap { index in
            let key = table.key(at: index)
            guard let codingKey = Key(stringValue: key) else { return nil }
            state.request(key, index: index, at: visit)
            return codingKey
        }
    }

    func contains(_ key: Key) -> Bool {
        let name = key.stringValue
        let index = table.index(of: name)
        state.request(name, index: index, at: visit)
        return index != nil
    }

    /// TOML has no null: a present key is never nil, and an absent one reads as nil.
    func decodeNil(forKey key: Key) throws -> Bool {
        !contains(key)
    }

    private func child(_ key: Key) throws -> ConfigNode {
        let name = key.stringValue
        let index = table.index(of: name)
        state.request(name, index: index, at: visit)
        if let index { return table.node(at: index) }
        let present = (0..<table.count).filter { !state.wasRequested(index: $0, at: visit) }.map(table.key(at:))
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
        try decode(type, key, try child(key))
    }

    private func decode<T: Decodable>(_ type: T.Type, _ key: Key, _ value: ConfigNode) throws -> T {
        do {
            return try state.decodeValue(T.self, node: value, path: ValuePath(path, .key(key.stringValue)))
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
        guard let start = table.index(of: key.stringValue) else { return error }
        for sibling in (start + 1)..<table.count {
            let value = table.node(at: sibling)
            do {
                _ = try state.decodeValue(T.self, node: value, path: ValuePath(path, .key(table.key(at: sibling))))
            } catch {
                diagnostics.append(contentsOf: state.carried(error) ?? [])
            }
        }
        return decodingError.replacingUnderlyingError(with: diagnostics)
    }

    /// An optional value: absent is `nil`, present is decoded as `decode` does. Written out, so that
    /// a key is looked up once rather than three times (`contains`, `decodeNil`, `decode`).
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        let name = key.stringValue
        let index = table.index(of: name)
        state.request(name, index: index, at: visit)
        guard let index else { return nil }
        return try decode(type, key, table.node(at: index))
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
        try state.decodeSingle(T.self, value, path: ValuePath(path, .key(key.stringValue)), expectation: nil)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let value = try child(key)
        return try NodeDecoder(
            state: state, node: value, path: ValuePath(path, .key(key.stringValue)), expectation: nil
        ).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let value = try child(key)
        return try NodeDecoder(
            state: state, node: value, path: ValuePath(path, .key(key.stringValue)), expectation: nil
        ).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        superDecoder(named: "super")
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        superDecoder(named: key.stringValue)
    }

    private func superDecoder(named key: String) -> any Decoder {
        let index = table.index(of: key)
        state.request(key, index: index, at: visit)
        let value = index.map(table.node(at:)) ?? .emptyTable(location: node.location)
        return NodeDecoder(state: state, node: value, path: ValuePath(path, .key(key)), expectation: nil)
    }
}

struct UnkeyedNodeContainer: UnkeyedDecodingContainer {
    let state: DecodingState
    let node: ConfigNode
    let elementCount: Int
    let path: ConfigKeyPath
    private(set) var currentIndex = 0
    private var triedSiblings = false

    init(state: DecodingState, node: ConfigNode, count: Int, path: ConfigKeyPath) {
        self.state = state
        self.node = node
        self.elementCount = count
        self.path = path
    }

    var codingPath: [any CodingKey] { state.codingPath(path) }
    var count: Int? { elementCount }
    var isAtEnd: Bool { currentIndex >= elementCount }

    private func current() throws -> (ConfigNode, ValuePath) {
        guard !isAtEnd else {
            let diagnostic = state.diagnostic(
                at: node.location, path: path,
                "expected at least \(elementCount + 1) elements, found \(elementCount)")
            throw DecodingError.valueNotFound(
                Any.self,
                DecodingError.Context(
                    codingPath: codingPath + [ConfigCodingKey(intValue: currentIndex)],
                    debugDescription: diagnostic.message, underlyingError: ConfigDiagnostics([diagnostic])))
        }
        return (node.element(at: currentIndex), ValuePath(path, .index(currentIndex)))
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
        for index in (currentIndex + 1)..<max(currentIndex + 1, elementCount) {
            do {
                _ = try state.decodeValue(T.self, node: node.element(at: index), path: ValuePath(path, .index(index)))
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
            let value = try state.decodeSingle(T.self, element, path: elementPath, expectation: nil)
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

extension DecodingState {
    /// Decodes a value through the single-value logic, so that the fixed-type requirements share its messages.
    func decodeSingle<T: Decodable>(
        _ type: T.Type, _ node: ConfigNode, path: ValuePath, expectation: String?
    ) throws -> T {
        switch type {
        case is Bool.Type: return try decodeBool(node, path: path, expectation: expectation) as! T
        case is String.Type: return try decodeString(node, path: path, expectation: expectation) as! T
        case is Double.Type: return try decodeDouble(node, path: path, expectation: expectation) as! T
        case is Float.Type: return Float(try decodeDouble(node, path: path, expectation: expectation)) as! T
        case is Int.Type: return try decodeInteger(Int.self, node, path: path, expectation: expectation) as! T
        case is Int8.Type: return try decodeInteger(Int8.self, node, path: path, expectation: expectation) as! T
        case is Int16.Type: return try decodeInteger(Int16.self, node, path: path, expectation: expectation) as! T
        case is Int32.Type: return try decodeInteger(Int32.self, node, path: path, expectation: expectation) as! T
        case is Int64.Type: return try decodeInteger(Int64.self, node, path: path, expectation: expectation) as! T
        case is UInt.Type: return try decodeInteger(UInt.self, node, path: path, expectation: expectation) as! T
        case is UInt8.Type: return try decodeInteger(UInt8.self, node, path: path, expectation: expectation) as! T
        case is UInt16.Type: return try decodeInteger(UInt16.self, node, path: path, expectation: expectation) as! T
        case is UInt32.Type: return try decodeInteger(UInt32.self, node, path: path, expectation: expectation) as! T
        case is UInt64.Type: return try decodeInteger(UInt64.self, node, path: path, expectation: expectation) as! T
        default: return try decodeValue(T.self, node: node, path: path)
        }
    }
}
