import Foundation
import HoorayKit
import HoorayText

/// Decodes a plugin's `Configuration` (or any other section) from the configuration, reporting
/// every problem at the `file:line:column` where it is written.
///
/// `ConfigDecoder` is a `Decoder` over ``ConfigNode`` trees. Any `Decodable` type works, with these
/// differences from a JSON decoder, all meant to give the user a clear message:
///
/// - A value of the wrong TOML type is an error at the value, naming its key path and what was
///   expected: `plugins.reminders.reminder[1].at: expected a string such as "15:00", found integer 1500`.
///   A value type conforming to HoorayKit's `ConfigValueDescribable` says what it looks like.
/// - A missing required key is an error at the table that lacks it.
/// - An error a type throws from its own `init(from:)`, such as
///   `DecodingError.dataCorruptedError(in:debugDescription:)`, is reported at the value with that
///   message. Any other error is reported at the value with its description.
/// - Keys in the file that the type never asked for (through `decode`, `decodeIfPresent` or
///   `contains`) are warnings, with a "did you mean `title`?" hint when they look like a typo.
/// - An enumeration with `String` raw values that is `CaseIterable` lists its allowed values
///   when given another one.
/// - Integers are accepted where a `Double` is wanted; floats are not accepted where an `Int` is.
/// - `Date` decodes from TOML date-times (local ones in ``timeZone``) and from RFC 3339 strings.
///   TOML dates and times also decode as `String`, in their RFC 3339 text form.
/// - `URL` decodes from a string.
///
/// Decoding goes on past the first error where it can: every element of an array and every
/// value of a dictionary is checked, and HoorayKit's `ConfigErrorCollector` lets a type report
/// several bad settings at once.
public struct ConfigDecoder: Sendable {
    /// The zone in which local date-times and dates without an offset are read, when decoding `Date`.
    public var timeZone: TimeZone
    /// Values handed to the types being decoded through `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable]
    /// Whether a ``HoorayKit/ConfigTableDecodable`` type reads a good table by itself; `false` sends
    /// every table through `init(from:)`, for tests that compare the two.
    package var readsTablesDirectly = true

    /// Creates a decoder.
    ///
    /// - Parameters:
    ///   - timeZone: The zone for local date-times when decoding `Date`; the system's by default.
    ///   - userInfo: Values for `Decoder.userInfo`.
    public init(timeZone: TimeZone = .current, userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
        self.timeZone = timeZone
        self.userInfo = userInfo
    }

    /// Decodes a value from a configuration node.
    ///
    /// - Parameters:
    ///   - type: The type to decode, such as a plugin's `Configuration`.
    ///   - node: The node, such as the `[plugins.NAME]` table.
    ///   - path: Where `node` sits in the whole configuration, such as `plugins.reminders`; messages
    ///     name values by their full path.
    ///   - permittedKeys: Keys of `node` itself that may be present without being decoded, because
    ///     something else reads them (the host reads `enabled` of every plugin section).
    ///   - knownKeys: Every key the type reads from `node` itself, when known: then a key of `node`
    ///     outside these and `permittedKeys` is reported even when decoding stopped at an error
    ///     before reaching it (otherwise such keys are reported only when they look like a typo).
    /// - Returns: The value, and warnings about keys the type did not use.
    /// - Throws: ``ConfigDiagnostics`` with every error found, and the warnings, in file order.
    public func decode<T: Decodable>(
        _ type: T.Type, from node: ConfigNode, at path: ConfigKeyPath = ConfigKeyPath(),
        permittedKeys: Set<String> = [], knownKeys: [String]? = nil
    ) throws(ConfigDiagnostics) -> (value: T, warnings: [ConfigDiagnostic]) {
        let state = DecodingState(root: node, basePath: path, timeZone: timeZone, userInfo: userInfo)
        state.readsTablesDirectly = readsTablesDirectly
        do {
            let value = try state.decodeValue(T.self, node: node, path: ValuePath(ConfigKeyPath()))
            let warnings = state.unknownKeyWarnings(permittedAtRoot: permittedKeys, knownAtRoot: knownKeys)
            return (value, ConfigDiagnostics(warnings).sortedByLocation().diagnostics)
        } catch {
            var diagnostics = state.diagnostics(for: error)
            diagnostics.append(
                contentsOf: state.unknownKeyWarnings(permittedAtRoot: permittedKeys, knownAtRoot: knownKeys))
            throw diagnostics.sortedByLocation()
        }
    }
}

/// A coding key for any table key or array index.
struct ConfigCodingKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = "Index \(intValue)"
        self.intValue = intValue
    }

    init(_ component: ConfigKeyPath.Component) {
        switch component {
        case .key(let key): self.init(stringValue: key)
        case .index(let index): self.init(intValue: index)
        }
    }
}

/// The path of a value being decoded, made only when a message or a table visit needs it: the
/// path of the table or array it is in, and its key or index there.
struct ValuePath {
    let parent: ConfigKeyPath
    let last: ConfigKeyPath.Component?

    init(_ path: ConfigKeyPath) {
        parent = path
        last = nil
    }

    init(_ parent: ConfigKeyPath, _ last: ConfigKeyPath.Component) {
        self.parent = parent
        self.last = last
    }

    var path: ConfigKeyPath {
        last.map(parent.appending) ?? parent
    }
}

/// Everything one call of ``ConfigDecoder/decode(_:from:at:permittedKeys:)`` shares: the root,
/// and which keys of which tables the decoded types asked for.
final class DecodingState {
    struct Visit {
        var table: ConfigTable
        var node: ConfigNode
        /// Which of the table's first 64 keys were asked for, one bit each by place in the table.
        var requestedMask: UInt64 = 0
        /// Which of the keys after the first 64 were asked for, by place.
        var requestedBeyondMask: Set<Int>?
        var failed = false
        /// Set once a type read `allKeys`: it iterates over the table, as a dictionary does.
        var iteratedAllKeys = false
        var triedSiblings = false

        func wasRequested(index: Int) -> Bool {
            index < 64 ? requestedMask & (1 << UInt64(index)) != 0 : requestedBeyondMask?.contains(index) == true
        }

        /// `true` when every key of the table was asked for: then it has nothing to warn about.
        var requestedAll: Bool {
            let count = table.count
            if count > 64 { return (0..<count).allSatisfy(wasRequested(index:)) }
            return requestedMask == (count == 64 ? ~0 : (1 << UInt64(count)) - 1)
        }
    }

    let root: ConfigNode
    let basePath: ConfigKeyPath
    let timeZone: TimeZone
    let userInfo: [CodingUserInfoKey: Any]
    var readsTablesDirectly = true
    /// Each visited table's place in `visitList`, by path; a container keeps its table's place, so
    /// that recording a key it was asked for costs no look-up of the path.
    private var visits: [ConfigKeyPath: Int] = [:]
    /// The visited tables, in the order they were first visited.
    private var visitList: [Visit] = []
    private var visitPaths: [ConfigKeyPath] = []
    /// Every key asked for, with its table's place, in the order asked: what a table takes, named
    /// in the hint of an unknown-key warning. One list for all tables, so a table costs nothing here.
    private var requests: [(visit: Int32, key: String)] = []

    init(root: ConfigNode, basePath: ConfigKeyPath, timeZone: TimeZone, userInfo: [CodingUserInfoKey: any Sendable]) {
        self.root = root
        self.basePath = basePath
        self.timeZone = timeZone
        self.userInfo = userInfo
    }

    // MARK: Paths and messages

    func fullPath(_ path: ConfigKeyPath) -> ConfigKeyPath {
        ConfigKeyPath(basePath.components + path.components)
    }

    func codingPath(_ path: ConfigKeyPath) -> [any CodingKey] {
        path.components.map(ConfigCodingKey.init)
    }

    /// A message that starts with the full key path, when there is one.
    func message(_ path: ConfigKeyPath, _ text: String) -> String {
        let full = fullPath(path)
        return full.isEmpty ? text : "\(full): \(text)"
    }

    func diagnostic(
        _ severity: ConfigDiagnostic.Severity = .error, at location: SourceLocation?, path: ConfigKeyPath,
        _ text: String, hint: String? = nil
    ) -> ConfigDiagnostic {
        ConfigDiagnostic(severity, at: location, path: fullPath(path), message: message(path, text), hint: hint)
    }

    // MARK: Table visits

    /// Notes that a table is being decoded and returns its place, which the other calls take.
    func visit(_ table: ConfigTable, node: ConfigNode, path: ConfigKeyPath) -> Int {
        if let index = visits[path] { return index }
        visits[path] = visitList.count
        visitList.append(Visit(table: table, node: node))
        visitPaths.append(path)
        return visitList.count - 1
    }

    /// Notes that a type asked for `key`, which is at `index` in the table (`nil` when the table lacks it).
    func request(_ key: String, index: Int?, at visit: Int) {
        requests.append((Int32(visit), key))
        guard let index else { return }
        if index < 64 {
            visitList[visit].requestedMask |= 1 << UInt64(index)
        } else {
            visitList[visit].requestedBeyondMask = (visitList[visit].requestedBeyondMask ?? []).union([index])
        }
    }

    func wasRequested(index: Int, at visit: Int) -> Bool {
        visitList[visit].wasRequested(index: index)
    }

    func markIteratedAllKeys(at visit: Int) {
        visitList[visit].iteratedAllKeys = true
    }

    func iteratedAllKeys(at visit: Int) -> Bool {
        visitList[visit].iteratedAllKeys
    }

    func markTriedSiblings(at visit: Int) {
        visitList[visit].triedSiblings = true
    }

    func triedSiblings(at visit: Int) -> Bool {
        visitList[visit].triedSiblings
    }

    func markFailed(_ path: ConfigKeyPath) {
        if let index = visits[path] { visitList[index].failed = true }
    }

    /// Warnings for keys no decoded type asked for.
    ///
    /// Tables whose decoding failed part-way only get warnings for keys that look like a typo
    /// of a key that was asked for: the keys after the failure were never asked for at all.
    func unknownKeyWarnings(permittedAtRoot: Set<String>, knownAtRoot: [String]? = nil) -> [ConfigDiagnostic] {
        var warnings: [ConfigDiagnostic] = []
        // What each table was asked for, in order; gathered once, and only when some table has a stray key.
        var requestedByVisit: [Int: [String]]?
        for (visitIndex, (path, visit)) in zip(visitPaths, visitList).enumerated() {
            let permitted = path.isEmpty ? permittedAtRoot : []
            let known = path.isEmpty ? knownAtRoot : nil
            let table = visit.table
            func isStray(_ index: Int) -> Bool {
                guard !visit.wasRequested(index: index) else { return false }
                let key = table.key(at: index)
                return !permitted.contains(key) && known?.contains(key) != true
            }
            // Most tables have no key that was not asked for: then nothing below is needed.
            if visit.requestedAll { continue }
            guard (0..<table.count).contains(where: isStray) else { continue }
            if requestedByVisit == nil {
                var lists: [Int: [String]] = [:]
                for (owner, key) in requests where !(lists[Int(owner)]?.contains(key) ?? false) {
                    lists[Int(owner), default: []].append(key)
                }
                requestedByVisit = lists
            }
            let requested = requestedByVisit?[visitIndex] ?? []
            // What the table takes, in the order to name it: what the type read (or all it reads),
            // then what is read elsewhere, such as `plugins` and `ai` at the top.
            var takes = known ?? requested
            for key in requested where !takes.contains(key) { takes.append(key) }
            takes += permitted.sorted().filter { !takes.contains($0) }
            for index in 0..<table.count where isStray(index) {
                let key = table.key(at: index)
                let suggestion = NameSuggestion.closest(to: key, among: takes)
                if visit.failed && suggestion == nil && known == nil { continue }
                let hint: String
                if let suggestion {
                    hint = "did you mean `\(suggestion)`?"
                } else if takes.isEmpty {
                    hint = "this table takes no settings; remove the key"
                } else {
                    let known = takes.prefix(12).map { "`\($0)`" }.joined(separator: ", ")
                    hint = "remove it or check its spelling; this table takes \(known)"
                }
                let location = table.keyLocation(of: key) ?? table.node(at: index).location ?? visit.node.location
                // The message starts with the table's path, not the key's: "plugins.x: unknown key `y`".
                warnings.append(
                    ConfigDiagnostic(
                        .warning, at: location, path: fullPath(path.appending(key: key)),
                        message: message(path, "unknown key `\(key)`"), hint: hint))
            }
        }
        return warnings
    }

    // MARK: Decoding

    /// Decodes a value of any type from a node: the one place every value goes through, so that
    /// errors get located and special types get their configuration meaning.
    func decodeValue<T: Decodable>(_ type: T.Type, node: ConfigNode, path: ValuePath) throws -> T {
        if T.self == String.self { return try decodeString(node, path: path, expectation: nil) as! T }
        if T.self == Bool.self { return try decodeBool(node, path: path, expectation: nil) as! T }
        if T.self == Int.self { return try decodeInteger(Int.self, node, path: path, expectation: nil) as! T }
        if T.self == Double.self { return try decodeDouble(node, path: path, expectation: nil) as! T }
        if T.self == Date.self { return try decodeDate(node, path: path) as! T }
        if T.self == URL.self { return try decodeURL(node, path: path) as! T }
        let (allowed, expectation, reading) = typeFacts(T.self)
        // A type that reads a good table by itself (100,000 reminders) skips the keyed containers;
        // a table with anything off goes on to `init(from:)`, which says what.
        if let reading, readsTablesDirectly, let value = reading.readGood(T.self, from: node) { return value }
        if let allowed {
            try checkEnumeration(node, path: path, allowed: allowed)
        }
        let decoder = NodeDecoder(state: self, node: node, path: path, expectation: expectation)
        do {
            return try T(from: decoder)
        } catch {
            let path = path.path
            markFailed(path)
            throw locate(error, node: node, path: path)
        }
    }

    // MARK: Scalars

    func typeMismatch(
        _ type: Any.Type, _ node: ConfigNode, path: ValuePath, expected: String, hint: String? = nil
    ) -> DecodingError {
        let path = path.path
        let diagnostic = diagnostic(
            at: node.location, path: path, "expected \(expected), found \(node.kindDescription)", hint: hint)
        return .typeMismatch(
            type,
            DecodingError.Context(
                codingPath: codingPath(path), debugDescription: diagnostic.message,
                underlyingError: ConfigDiagnostics([diagnostic])))
    }

    func corrupted(_ node: ConfigNode, path: ValuePath, _ text: String, hint: String? = nil) -> DecodingError {
        let path = path.path
        let diagnostic = diagnostic(at: node.location, path: path, text, hint: hint)
        return .dataCorrupted(
            DecodingError.Context(
                codingPath: codingPath(path), debugDescription: diagnostic.message,
                underlyingError: ConfigDiagnostics([diagnostic])))
    }

    func decodeString(_ node: ConfigNode, path: ValuePath, expectation: String?) throws -> String {
        switch node.value {
        case .string(let text): return text
        case .dateTime(let dateTime):
            // `at = 15:00` (TOML 1.1) or `at = 15:00:00`: a time of day on the minute is the "15:00" meant.
            return ConfigDateTime.decodedString(isLocalTime: dateTime.kind == .localTime, text: dateTime.text)
        default:
            // With an expectation, its example already shows the quotes.
            var hint: String?
            switch node.value {
            case .integer, .float, .boolean: hint = expectation == nil ? "put the value in double quotes" : nil
            default: hint = nil
            }
            throw typeMismatch(String.self, node, path: path, expected: expectation ?? "a string", hint: hint)
        }
    }

    func decodeBool(_ node: ConfigNode, path: ValuePath, expectation: String?) throws -> Bool {
        if case .boolean(let flag) = node.value { return flag }
        let hint: String? =
            if case .string(let text) = node.value, ["true", "false"].contains(text.lowercased()) {
                "write true or false without quotes"
            } else {
                nil
            }
        throw typeMismatch(Bool.self, node, path: path, expected: expectation ?? "true or false", hint: hint)
    }

    func decodeInteger<I: FixedWidthInteger>(
        _ type: I.Type, _ node: ConfigNode, path: ValuePath, expectation: String?
    ) throws -> I {
        switch node.value {
        case .integer(let number):
            guard let value = I(exactly: number) else {
                throw corrupted(node, path: path, "\(number) is out of range (\(I.min) to \(I.max))")
            }
            return value
        case .float(let number):
            throw typeMismatch(
                I.self, node, path: path, expected: expectation ?? "a whole number",
                hint: number.rounded() == number ? "write it without the decimal point" : nil)
        default:
            throw typeMismatch(I.self, node, path: path, expected: expectation ?? "a whole number")
        }
    }

    func decodeDouble(_ node: ConfigNode, path: ValuePath, expectation: String?) throws -> Double {
        switch node.value {
        case .float(let number): return number
        case .integer(let number): return Double(number)
        default: throw typeMismatch(Double.self, node, path: path, expected: expectation ?? "a number")
        }
    }

    func decodeDate(_ node: ConfigNode, path: ValuePath) throws -> Date {
        let expected = "a date and time such as 2026-01-05T08:00:00+01:00"
        switch node.value {
        case .dateTime(let dateTime):
            if let date = dateTime.date(in: timeZone) { return date }
        case .string(let text):
            if let dateTime = ConfigDateTime(parsing: text), let date = dateTime.date(in: timeZone) { return date }
        default:
            break
        }
        throw typeMismatch(Date.self, node, path: path, expected: expected)
    }

    func decodeURL(_ node: ConfigNode, path: ValuePath) throws -> URL {
        let text = try decodeString(node, path: path, expectation: "a URL such as \"https://example.org/\"")
        guard let url = URL(string: text), url.scheme != nil else {
            throw corrupted(
                node, path: path, "\"\(text)\" is not a URL", hint: "write a full URL such as \"https://example.org/\"")
        }
        return url
    }

    // MARK: Enumerations

    /// What the decoder looks up about each type it decodes, once per type rather than once per value.
    private var facts: [ObjectIdentifier: (allowed: [String]?, expectation: String?, reading: TableReading?)] = [:]

    /// A type's allowed values, when it is an enumeration of strings, what it looks like
    /// (``HoorayKit/ConfigValueDescribable``), and whether it reads itself from a table
    /// (``HoorayKit/ConfigTableDecodable``).
    private func typeFacts<T>(_ type: T.Type) -> (allowed: [String]?, expectation: String?, reading: TableReading?) {
        if let known = facts[ObjectIdentifier(type)] { return known }
        let found = (
            allowedRawValues(of: type), (type as? any ConfigValueDescribable.Type)?.configValueDescription,
            TableReading(type)
        )
        facts[ObjectIdentifier(type)] = found
        return found
    }

    private func allowedRawValues<T>(of type: T.Type) -> [String]? {
        guard let caseType = type as? any CaseIterable.Type else { return nil }
        return rawStrings(of: caseType)
    }

    private func rawStrings<C: CaseIterable>(of type: C.Type) -> [String]? {
        var values: [String] = []
        for value in C.allCases {
            guard let raw = value as? any RawRepresentable, let text = raw.rawValue as? String else { return nil }
            values.append(text)
        }
        return values.isEmpty ? nil : values
    }

    private func checkEnumeration(_ node: ConfigNode, path: ValuePath, allowed: [String]) throws {
        if case .string(let text) = node.value, allowed.contains(text) { return }
        let list = allowed.map { "\"\($0)\"" }
        let choices =
            list.count <= 2
            ? list.joined(separator: " or ") : list.dropLast().joined(separator: ", ") + " or " + list.last!
        let text = try decodeString(node, path: path, expectation: "one of \(choices)")
        guard !allowed.contains(text) else { return }
        let hint = NameSuggestion.closest(to: text, among: allowed).map { "did you mean \"\($0)\"?" }
        throw corrupted(node, path: path, "\"\(text)\" is not one of \(choices)", hint: hint)
    }

    // MARK: Errors

    /// The diagnostics an error carries, when it came from this decoder.
    func carried(_ error: any Error) -> ConfigDiagnostics? {
        if let diagnostics = error as? ConfigDiagnostics { return diagnostics }
        guard let decodingError = error as? DecodingError else { return nil }
        return decodingError.context?.underlyingError as? ConfigDiagnostics
    }

    /// Turns an error thrown while decoding `node` into one that carries located diagnostics.
    func locate(_ error: any Error, node: ConfigNode, path: ConfigKeyPath) -> any Error {
        if carried(error) != nil { return error }
        let diagnostics = locatedDiagnostics(error, node: node, path: path)
        if let decodingError = error as? DecodingError {
            return decodingError.replacingUnderlyingError(with: diagnostics)
        }
        return DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: codingPath(path), debugDescription: diagnostics.description, underlyingError: diagnostics))
    }

    private func locatedDiagnostics(_ error: any Error, node: ConfigNode, path: ConfigKeyPath) -> ConfigDiagnostics {
        if let diagnostics = carried(error) { return diagnostics }
        if let group = error as? ConfigErrorGroup {
            var all = ConfigDiagnostics()
            for member in group.errors { all.append(contentsOf: locatedDiagnostics(member, node: node, path: path)) }
            return all
        }
        guard let decodingError = error as? DecodingError, let context = decodingError.context else {
            return [diagnostic(at: node.location, path: path, String(describing: error))]
        }
        let (target, targetPath) = resolve(context.codingPath, from: node, path: path)
        if case .keyNotFound(let key, _) = decodingError {
            return [diagnostic(at: target.location, path: targetPath, "missing required key `\(key.stringValue)`")]
        }
        var text = context.debugDescription
        if text.isEmpty { text = "this value is not valid here" }
        return [diagnostic(at: target.location, path: targetPath, text)]
    }

    /// The node a coding path leads to from the root, or the deepest one on the way that exists.
    ///
    /// Coding paths are relative to the root of this decode; an error thrown by a type names the
    /// value it is about that way.
    private func resolve(
        _ codingPath: [any CodingKey], from fallback: ConfigNode, path fallbackPath: ConfigKeyPath
    ) -> (ConfigNode, ConfigKeyPath) {
        var node = root
        var path = ConfigKeyPath()
        for key in codingPath {
            if let index = key.intValue, let count = node.elementCount, (0..<count).contains(index) {
                node = node.element(at: index)
                path = path.appending(index: index)
            } else if let child = node[key.stringValue] {
                node = child
                path = path.appending(key: key.stringValue)
            } else {
                break
            }
        }
        // A type that threw with a path outside this tree (or an empty one) is about the value it was decoding.
        if path.components.count < fallbackPath.components.count { return (fallback, fallbackPath) }
        return (node, path)
    }

    /// The diagnostics for an error that reached the top of a decode.
    func diagnostics(for error: any Error) -> ConfigDiagnostics {
        locatedDiagnostics(error, node: root, path: ConfigKeyPath())
    }
}

extension DecodingError {
    var context: Context? {
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            context
        @unknown default:
            nil
        }
    }

    /// The same error, carrying `diagnostics` as its underlying error.
    func replacingUnderlyingError(with diagnostics: ConfigDiagnostics) -> DecodingError {
        func replaced(_ context: Context) -> Context {
            Context(
                codingPath: context.codingPath, debugDescription: diagnostics.description, underlyingError: diagnostics)
        }
        switch self {
        case .typeMismatch(let type, let context): return .typeMismatch(type, replaced(context))
        case .valueNotFound(let type, let context): return .valueNotFound(type, replaced(context))
        case .keyNotFound(let key, let context): return .keyNotFound(key, replaced(context))
        case .dataCorrupted(let context): return .dataCorrupted(replaced(context))
        @unknown default:
            return .dataCorrupted(
                Context(codingPath: [], debugDescription: diagnostics.description, underlyingError: diagnostics))
        }
    }
}
