import Foundation

/// A command was refused: its ``message`` is shown to the user as it is, so say what was wrong
/// and how to put it right.
///
/// Make it with ``invalidValue(_:_:)`` for a value on the command line that cannot be used
/// (`--ago "soon"`, `--mood grumpy`), a usage error — `hooray` prints the command's usage line under
/// the message and exits 64 — and with ``init(_:)`` for a command that could not do what was asked
/// (no habit by that name, a photo that cannot be read): `hooray` exits 1. What kind it is stays
/// the host's to read, so that it may gain kinds without breaking a plugin.
///
/// ```swift
/// throw PluginCommandError.invalidValue("--glasses", "--glasses \"lots\" is not a number; give one such as 2")
/// throw PluginCommandError("there is no habit called “Run”; `hooray habit list` shows yours")
/// ```
public struct PluginCommandError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of refusal it is, which decides `hooray`'s exit status.
    package enum Kind: Sendable, Hashable {
        /// The command ran and could not do what was asked: `hooray` exits 1.
        case failed
        /// A value given on the command line cannot be used: `hooray` shows the command's usage
        /// line and exits 64. `option` names it as typed, such as `--ago`, or `<name>` for an
        /// argument.
        case invalidValue(option: String)
    }

    /// What went wrong and what to do, for a person.
    public var message: String
    /// What kind of refusal it is.
    package var kind: Kind

    /// Creates a failure: the command ran and could not do what was asked, and `hooray` exits 1.
    ///
    /// - Parameter message: What went wrong and what to do, for a person.
    public init(_ message: String) {
        self.init(message, kind: .failed)
    }

    /// Creates an error of a kind.
    package init(_ message: String, kind: Kind) {
        self.message = message
        self.kind = kind
    }

    /// The exit status `hooray` ends with: 64 for a refused value, otherwise 1 unless the command
    /// said another (a plugin in another language may answer any status from 1 to 255).
    package var exitCode: Int32 {
        if invalidOption != nil { return 64 }
        return customExitCode ?? 1
    }
    var customExitCode: Int32?

    /// Creates a failure that ends `hooray` with a status of the command's choosing.
    ///
    /// - Parameters:
    ///   - message: What went wrong and what to do, for a person.
    ///   - exitCode: The status, from 1 to 255.
    public init(_ message: String, exitCode: Int32) {
        self.message = message
        self.kind = .failed
        self.customExitCode = (1...255).contains(exitCode) ? exitCode : 1
    }

    /// A refusal of a value given on the command line: `hooray` exits 64 with the usage line.
    ///
    /// - Parameters:
    ///   - option: The option or argument as typed, such as `--ago` or `<name>`.
    ///   - message: What is wrong with the value and what to give instead.
    /// - Returns: The error to throw.
    public static func invalidValue(_ option: String, _ message: String) -> PluginCommandError {
        PluginCommandError(message, kind: .invalidValue(option: option))
    }

    /// The option or argument whose value was refused, for an ``invalidValue(_:_:)``.
    package var invalidOption: String? {
        if case .invalidValue(let option) = kind { return option }
        return nil
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
package struct DetachedBackgroundWork: BackgroundWork {
    /// Creates it.
    package init() {}

    /// Starts the work in a detached task.
    package func start(_ label: String, _ work: @escaping @Sendable () async throws -> Void) {
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
