/// Gathers the errors of several decoding steps so that all of them are reported, not only the first.
///
/// A synthesized `init(from:)` stops at the first bad key. A configuration type with several
/// independent settings can instead decode each one through a collector and throw once at the end;
/// Hooray's configuration loader then reports every error at its own `file:line:column`. It works
/// with any `Decoder`: one error is rethrown as it is, several together.
///
/// ```swift
/// init(from decoder: any Decoder) throws {
///     let container = try decoder.container(keyedBy: CodingKeys.self)
///     var errors = ConfigErrorCollector()
///     title = errors.attempt { try container.decode(String.self, forKey: .title) } ?? ""
///     at = errors.attempt { try container.decode(TimeOfDay.self, forKey: .at) } ?? TimeOfDay(hour: 0)!
///     try errors.throwIfAny()
/// }
/// ```
public struct ConfigErrorCollector: Sendable {
    /// The errors gathered so far, in the order they happened.
    public private(set) var errors: [any Error] = []

    /// Creates an empty collector.
    public init() {}

    /// Runs one decoding step, keeping its error instead of throwing it.
    ///
    /// - Parameter body: The step, such as a `container.decode(_:forKey:)` call.
    /// - Returns: The step's result, or `nil` when it threw.
    public mutating func attempt<T>(_ body: () throws -> T) -> T? {
        do {
            return try body()
        } catch {
            errors.append(error)
            return nil
        }
    }

    /// Keeps an error found by other means, such as a value out of range.
    ///
    /// Use `DecodingError.dataCorruptedError(forKey:in:debugDescription:)` so the error points at the value.
    /// - Parameter error: The error.
    public mutating func record(_ error: any Error) {
        errors.append(error)
    }

    /// Throws the gathered errors, if there are any: the error itself when there is one, all of
    /// them together when there are several.
    public func throwIfAny() throws {
        switch errors.count {
        case 0: return
        case 1: throw errors[0]
        default: throw ConfigErrorGroup(errors: errors)
        }
    }
}

/// Several errors from decoding one value: throw one from a configuration's `init(from:)` to have
/// each reported.
///
/// Hooray's configuration loader reports each of them at its own location; other decoders pass the
/// group on as it is.
package struct ConfigErrorGroup: Error, CustomStringConvertible {
    /// The errors, in the order they happened.
    package var errors: [any Error]

    /// Creates a group of errors.
    ///
    /// - Parameter errors: The errors, in the order they happened.
    package init(errors: [any Error]) {
        self.errors = errors
    }

    /// Every error's description, one per line.
    package var description: String {
        errors.map { String(describing: $0) }.joined(separator: "\n")
    }
}
