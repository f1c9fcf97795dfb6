import Foundation

/// A small win the user logged — or a rejection (``Kind``) — as it is sent to an AI service for praise.
///
/// It carries only what the service needs to answer warmly: the words, when it happened and when
/// it was logged, the user's time zone and a human "how long ago". Mood, notes and photos stay on
/// the computer.
public struct MomentForPraise: Sendable, Hashable {
    /// The moment's own id, made on this computer; the service echoes it back.
    public var clientID: UUID
    /// What the user did, in their words.
    public var text: String
    /// When the win happened, which may be earlier than when it was logged.
    public var happenedAt: Date
    /// When the user logged it.
    public var submittedAt: Date
    /// The user's IANA time zone, such as `Europe/Berlin`, so the service can speak of "this morning".
    public var timeZone: String
    /// How long before logging the win happened, written for a person, such as `5 min ago` or `just now`.
    public var timeAgo: String
    /// What the user logged: a win to praise, or a rejection to be encouraged about. A prompt-based
    /// service is asked in the voice that fits it.
    public var kind: Kind

    /// What a ``MomentForPraise`` is about.
    public enum Kind: String, Sendable, Hashable {
        /// Something the user did that counts: praise it.
        case win
        /// A rejection that hurt: encourage, never praise the hurt. A prompt-based service gets
        /// only ``MomentForPraise/text``, no time.
        case rejection
    }

    /// Creates a moment to praise.
    ///
    /// - Parameters:
    ///   - clientID: The moment's id, made on this computer.
    ///   - text: What the user did.
    ///   - happenedAt: When it happened.
    ///   - submittedAt: When it was logged.
    ///   - timeZone: The user's IANA time zone identifier.
    ///   - timeAgo: How long before logging it happened, in words, such as `5 min ago`, for prompts.
    ///     (The Hooray backend receives the seconds between `happenedAt` and `submittedAt` instead.)
    ///   - kind: A win (the default) or a rejection.
    public init(
        clientID: UUID, text: String, happenedAt: Date, submittedAt: Date, timeZone: String, timeAgo: String,
        kind: Kind = .win
    ) {
        self.kind = kind
        self.clientID = clientID
        self.text = text
        self.happenedAt = happenedAt
        self.submittedAt = submittedAt
        self.timeZone = timeZone
        self.timeAgo = timeAgo
    }
}

/// Praise an AI service wrote for a moment.
///
/// ``text`` is plain text: control characters are removed, it is trimmed and its length is capped
/// before a plugin sees it. Markup such as `<b>` is kept as literal characters; the delivery layer
/// escapes it, so it is shown, never interpreted.
public struct AIPraise: Sendable, Hashable {
    /// The praise, in plain text.
    public var text: String
    /// The service's id for the moment, when the service stores moments (the `hooray` provider does).
    public var serverID: String?
    /// The kind of action the service recognised in the moment, such as `exercise`, when it says.
    public var action: String?
    /// Tags the service found in the moment; empty when it gave none.
    public var tags: [String]

    /// Creates praise.
    ///
    /// - Parameters:
    ///   - text: The praise, in plain text.
    ///   - serverID: The service's id for the moment, if any.
    ///   - action: The recognised kind of action, if any.
    ///   - tags: Tags found in the moment.
    public init(text: String, serverID: String? = nil, action: String? = nil, tags: [String] = []) {
        self.text = text
        self.serverID = serverID
        self.action = action
        self.tags = tags
    }
}

/// Something that can write praise for a moment, such as an AI service.
///
/// The engine provides one built from the `[ai]` configuration; tests can substitute their own.
/// Implementations must honour task cancellation promptly and must never let a secret (an API key,
/// the user's anonymous id) reach an error description or a log.
public protocol PraiseProvider: Sendable {
    /// Asks for praise for a moment.
    ///
    /// - Parameter moment: The moment to praise.
    /// - Returns: The praise.
    /// - Throws: ``AIRequestError`` when no praise could be had (AI is off, the service is down or
    ///   answered something unusable), or `CancellationError` when the calling task was cancelled.
    func praise(for moment: MomentForPraise) async throws -> AIPraise

    /// Whether praise can be asked for at all: `false` when AI is off, so that every request would
    /// fail with ``AIRequestError/notConfigured`` until the configuration changes. A plugin plans no
    /// retries then. `true` by default.
    var isConfigured: Bool { get }
}

extension PraiseProvider {
    /// `true`: a provider that exists is configured, unless it says otherwise.
    public var isConfigured: Bool { true }
}

/// The praise provider of a Hooray without AI: every request fails with the same error.
///
/// Plugins get it through ``PluginContext/ai`` until AI is configured in the `[ai]` section, so
/// they always keep their offline praise.
package struct NoPraiseProvider: PraiseProvider {
    /// The error every request fails with; ``AIRequestError/notConfigured`` by default.
    package let error: AIRequestError

    /// Creates the provider.
    ///
    /// - Parameter error: The error every request fails with.
    package init(error: AIRequestError = .notConfigured) {
        self.error = error
    }

    /// Fails with ``error``.
    package func praise(for moment: MomentForPraise) async throws -> AIPraise {
        throw error
    }

    /// `false` when ``error`` is ``AIRequestError/notConfigured``: AI is off.
    package var isConfigured: Bool { error != .notConfigured }
}
