/// Why the keyring could not store or delete a secret, with what a person can do about it.
///
/// The description never contains a secret: it is built from the failure and, for refusals, the
/// Secret Service's own error message, which names no values.
public struct KeyringError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of failure, for code that reacts differently to each.
    public enum Code: Sendable, Hashable {
        /// libsecret, which Hooray loads at the first keyring operation, is not installed.
        case libraryMissing
        /// There is no session bus to reach a Secret Service on.
        case noSessionBus
        /// Nothing owns `org.freedesktop.secrets` on the session bus.
        case noSecretService
        /// The collection or item is locked, and Hooray does not prompt outside ``Keyring/unlock(promptTimeout:)``.
        case locked
        /// The Secret Service did not answer within the keyring's timeout.
        case timedOut
        /// The Secret Service has no default collection to store into.
        case noDefaultCollection
        /// The Secret Service answered with an error.
        case refused
    }

    /// What went wrong.
    public let code: Code
    /// The problem, as a sentence for a person.
    public let problem: String
    /// What the person can do about it, as a sentence.
    public let fix: String

    /// Creates an error from its parts.
    ///
    /// - Parameters:
    ///   - code: What went wrong.
    ///   - problem: The problem, as a sentence.
    ///   - fix: What to do about it, as a sentence.
    public init(code: Code, problem: String, fix: String) {
        self.code = code
        self.problem = problem
        self.fix = fix
    }

    /// The problem followed by the fix.
    public var description: String { "\(problem) \(fix)" }
}
