import HoorayKit

/// A top-level section read by a part of Hooray outside this module, such as `[ai]`.
///
/// The loader decodes and checks it like the core settings: errors and unknown keys are reported
/// with their file, line and column, and a missing section gives the default value.
public struct ExtraSection: Sendable {
    /// The section's name, such as `ai`.
    public let name: String
    let decode: @Sendable (ConfigNode?) throws(ConfigDiagnostics) -> (any Sendable, [ConfigDiagnostic])

    /// Describes a section decoded into `type`.
    ///
    /// - Parameters:
    ///   - name: The section's name.
    ///   - type: The `Decodable` type it holds.
    ///   - defaultValue: The value when the section is absent.
    public init<Value: Decodable & Sendable>(name: String, as type: Value.Type, default defaultValue: Value) {
        self.name = name
        self.decode = { node throws(ConfigDiagnostics) in
            guard let node else { return (defaultValue, []) }
            let (value, warnings) = try ConfigDecoder().decode(Value.self, from: node, at: ConfigKeyPath(keys: [name]))
            return (value, warnings)
        }
    }
}
