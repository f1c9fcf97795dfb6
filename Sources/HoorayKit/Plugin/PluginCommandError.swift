import Foundation

/// A command was refused: its ``message`` is shown to the user as it is, so say what was wrong
/// and how to put it right. `hooray` exits with status 1.
public struct PluginCommandError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong and what to do, for a person.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameter message: What went wrong and what to do, for a person.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
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

    /// Starts the work in a detached task.
    public func start(_ label: String, _ work: @escaping @Sendable () async throws -> Void) {
        Task { try? await work() }
    }
}

/// A pressed button did nothing, and why: throw it from ``HoorayPlugin/actionInvoked(_:context:)``
/// when the button no longer applies, such as a welcome button whose moment was logged already.
///
/// `hooray act` prints the ``reason`` and exits with status 1 instead of saying the button was
/// handled; the daemon does not log it as a failure.
public struct ActionDeclined: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why the button did nothing, for a person: a sentence such as
    /// `That button has expired: your first moment is already logged.`
    public var reason: String

    /// Creates a declined action.
    ///
    /// - Parameter reason: Why the button did nothing, for a person.
    public init(_ reason: String) {
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
}
