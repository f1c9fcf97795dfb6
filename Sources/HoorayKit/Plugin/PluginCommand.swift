import Foundation

/// A command a user gave a plugin from the command line, such as `hooray win "Took a walk"`.
///
/// The `hooray` CLI sends commands to the running `hoorayd`, which hands them to the plugin's
/// ``HoorayPlugin/handle(_:context:)``; when no daemon runs, the CLI hosts the plugin itself for
/// the one command. Either way the plugin sees the same context, so a command behaves the same.
///
/// A command's ``payload`` is the plugin's own JSON: define a `Codable` request type and use
/// ``init(name:encoding:)`` and ``decodePayload(as:)``.
public struct PluginCommand: Sendable, Hashable, Codable {
    /// The command's name within the plugin, such as `log`.
    public var name: String
    /// The command's arguments, as JSON the plugin defines.
    public var payload: Data

    /// Creates a command with raw JSON arguments.
    ///
    /// - Parameters:
    ///   - name: The command's name within the plugin.
    ///   - payload: Its arguments, as JSON.
    public init(name: String, payload: Data = Data("{}".utf8)) {
        self.name = name
        self.payload = payload
    }

    /// Creates a command whose arguments are a value encoded as JSON.
    ///
    /// - Parameters:
    ///   - name: The command's name within the plugin.
    ///   - payload: Its arguments.
    /// - Throws: `EncodingError` when the value cannot be encoded.
    public init<Payload: Encodable>(name: String, encoding payload: Payload) throws {
        self.init(name: name, payload: try PluginCommand.encode(payload))
    }

    /// Decodes the arguments.
    ///
    /// - Throws: ``PluginCommandError`` naming the command when the payload does not decode.
    public func decodePayload<Payload: Decodable>(as type: Payload.Type = Payload.self) throws -> Payload {
        do {
            return try PluginCommand.decode(Payload.self, from: payload)
        } catch {
            throw PluginCommandError("the arguments of the command \(name) could not be read: \(error)")
        }
    }

    /// Encodes a value the way commands and their replies carry it: JSON, dates as seconds since 1970.
    public static func encode<Value: Encodable>(_ value: Value) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(value)
    }

    /// Decodes a value encoded with ``encode(_:)``, such as a command's reply.
    public static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode(Value.self, from: data)
    }
}

/// A command was refused: its ``message`` is shown to the user as it is, so say what was wrong
/// and how to put it right.
public struct PluginCommandError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong and what to do, for a person.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameter message: What went wrong and what to do, for a person.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// Work a plugin starts that may outlive the call it started in, such as asking an AI service for
/// praise after a command has already answered.
///
/// Use it instead of `Task {}`: the engine keeps track of the work, logs what it throws with the
/// plugin's name, cancels it when the daemon stops, and — when the `hooray` CLI hosts the plugin
/// for one command — waits for it before the process exits.
public protocol BackgroundWork: Sendable {
    /// Starts `work` now, concurrently with the caller.
    ///
    /// - Parameters:
    ///   - label: What the work is, for logs, such as `praise for a moment`.
    ///   - work: The work. It should honour cancellation.
    func start(_ label: String, _ work: @escaping @Sendable () async throws -> Void)
}

/// Background work as plain unstructured tasks that nobody waits for; the default of a context
/// made without an engine.
public struct DetachedBackgroundWork: BackgroundWork {
    /// Creates it.
    public init() {}

    public func start(_ label: String, _ work: @escaping @Sendable () async throws -> Void) {
        Task { try? await work() }
    }
}
