import Foundation
import HoorayKeyring
import HoorayKit
import Logging

/// Asks the configured AI service for praise, over libcurl.
///
/// One provider serves every request of a configuration; it holds no connection between requests.
/// Every request re-reads the API key (from the environment, a file or the keyring), checks the endpoint before connecting (plain `http` only to
/// loopback), sends the user's anonymous id as `x-user-id` to that endpoint only, and enforces the
/// configured timeouts and response size. Nothing secret is logged: log lines name the provider,
/// the endpoint's host and the outcome.
///
/// ```swift
/// let provider = CurlPraiseProvider(configuration: settings.ai, userID: identity, logger: logger)
/// do {
///     let praise = try await provider.praise(for: moment)
/// } catch let error as AIRequestError where error.isRetryable {
///     // keep the offline praise; try again later with retryDelay(attempt:base:cap:random:)
/// }
/// ```
public final class CurlPraiseProvider: PraiseProvider {
    /// The configuration the provider was made with.
    public let configuration: AIConfiguration
    /// The anonymous identity, kept private so that it cannot be printed by accident.
    private let userID: UUID
    private let logger: Logger
    /// Where a key stored with `hooray ai set-key` is looked up.
    private let keyring: Keyring

    /// Creates a provider.
    ///
    /// - Parameters:
    ///   - configuration: The `[ai]` section.
    ///   - userID: The user's anonymous identity, sent as `x-user-id` in lowercase canonical form.
    ///   - logger: Where to log requests and failures; it never receives the key or the identity.
    ///   - keyring: The keyring holding keys stored with `hooray ai set-key`; the session bus's by default.
    public init(configuration: AIConfiguration, userID: UUID, logger: Logger, keyring: Keyring = Keyring()) {
        self.configuration = configuration
        self.userID = userID
        self.logger = logger
        self.keyring = keyring
    }

    /// Asks for praise for a moment.
    ///
    /// - Parameter moment: The moment to praise.
    /// - Returns: The praise, as plain text, with the service's id, action and tags when it gives them.
    /// - Throws: ``AIRequestError/notConfigured`` at once when AI is off; other ``AIRequestError``
    ///   cases when the request fails; `CancellationError` when the task is cancelled, which aborts
    ///   the transfer within about a second.
    public func praise(for moment: MomentForPraise) async throws -> AIPraise {
        let provider = configuration.provider
        guard provider != .off, let endpoint = configuration.endpoint else { throw AIRequestError.notConfigured }
        let path: String
        let body: Data
        switch provider {
        case .off:
            throw AIRequestError.notConfigured
        case .hooray:
            path = HoorayWire.path
            body = try HoorayWire.body(for: moment)
        case .openai:
            guard let model = configuration.model, !model.isEmpty else { throw AIRequestError.notConfigured }
            path = OpenAIWire.path
            body = try OpenAIWire.body(for: moment, model: model)
        }
        var logger = logger
        logger[metadataKey: "ai.provider"] = "\(provider.rawValue)"
        do {
            let target = try EndpointPolicy.target(endpoint, appending: path)
            logger[metadataKey: "ai.host"] = "\(target.host)"
            var headers = [
                "Content-Type: application/json", "Accept: application/json",
                "x-user-id: \(userID.uuidString.lowercased())",
                // Without this, libcurl waits for a "100 Continue" that simple servers never send.
                "Expect:",
            ]
            if provider == .openai,
                let key = try await APIKeySource(configuration: configuration, keyring: keyring).resolve()
            {
                headers.append("Authorization: Bearer \(key)")
            }
            logger.debug("Asking the AI service for praise")
            let response = try await CurlHTTP.post(
                HTTPRequest(
                    target: target, headers: headers, body: body, connectTimeout: configuration.connectTimeout,
                    timeout: configuration.timeout, maxResponseBytes: configuration.maxResponseBytes))
            let praise =
                switch provider {
                case .hooray: try HoorayWire.praise(from: response.body, for: moment)
                case .openai, .off: try OpenAIWire.praise(from: response.body)
                }
            logger.debug("The AI service sent praise")
            AIExchange.current?.record(status: response.status)
            return praise
        } catch let error as AIRequestError {
            logger.warning("No praise from the AI service: \(error)")
            throw error
        }
    }
}

/// What one AI request answered, for `hooray ai test`: bind ``current`` around a request to learn
/// the HTTP status of a successful answer (a failed one says its status in ``AIRequestError``).
public final class AIExchange: @unchecked Sendable {
    // @unchecked: `_status` is only touched while holding `lock`.
    private let lock = NSLock()
    private var _status: Int?

    /// The exchange of the requests made in this task, when one is being watched.
    @TaskLocal public static var current: AIExchange?

    /// Creates an exchange to watch.
    public init() {}

    /// The HTTP status of the last successful answer, when there was one.
    public var status: Int? { lock.withLock { _status } }

    func record(status: Int) {
        lock.withLock { _status = status }
    }
}
