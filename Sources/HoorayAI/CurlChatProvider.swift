import Foundation
import HoorayKeyring
import HoorayKit
import Logging

/// One message of a conversation with an AI service.
public struct ChatMessage: Sendable, Hashable, Codable {
    /// Who says it.
    public enum Role: String, Sendable, Hashable, Codable {
        /// The instructions and the context, from Hooray.
        case system
        /// The user's words.
        case user
        /// The service's earlier answers.
        case assistant
    }

    /// Who says it.
    public var role: Role
    /// What is said.
    public var content: String

    /// Creates a message.
    public init(role: Role, content: String) {
        self.role = role
        self.content = content
    }
}

/// A conversation with an OpenAI-compatible chat service (OpenAI, Ollama, llama.cpp's server),
/// streamed as it is written: `POST {endpoint}/v1/chat/completions` with `stream: true`.
///
/// Hardened as praise is: the endpoint is checked before connecting (plain `http` only to
/// loopback), no redirect is followed, the API key is re-read for each request and never logged,
/// and the user's anonymous id goes as `x-user-id` to that endpoint only. A stream may run up to
/// five minutes as long as bytes keep coming; the `[ai]` section's `timeout` is how long it may be
/// silent. Each chunk is decoded strictly (``ChatStreamBroken`` says how one was not right).
///
/// ```swift
/// let chat = CurlChatProvider(configuration: ai, userID: identity, logger: logger)
/// do {
///     for try await piece in chat.stream(messages) { print(piece, terminator: "") }
/// } catch let broken as ChatStreamBroken {
///     print("\n(\(broken))")  // what arrived before is kept
/// }
/// ```
public final class CurlChatProvider: Sendable {
    /// The configuration the provider was made with.
    public let configuration: AIConfiguration
    private let userID: UUID
    private let logger: Logger
    private let keyring: Keyring

    /// The most tokens an answer may have: a few short paragraphs.
    static let maxTokens = 400
    /// How long a whole streamed answer may take.
    static let longestAnswer: Duration = .seconds(300)
    /// The most bytes a stream may bring, whatever the `[ai]` section's smaller cap for praise.
    static let maxStreamBytes = 1 << 20

    /// Creates a provider.
    ///
    /// - Parameters:
    ///   - configuration: The `[ai]` section.
    ///   - userID: The user's anonymous identity, sent as `x-user-id`.
    ///   - logger: Where requests are logged; it never receives the key, the identity or the text.
    ///   - keyring: Where a key stored with `hooray ai set-key` is looked up.
    public init(configuration: AIConfiguration, userID: UUID, logger: Logger, keyring: Keyring = Keyring()) {
        self.configuration = configuration
        self.userID = userID
        self.logger = logger
        self.keyring = keyring
    }

    /// Whether a configuration can hold a conversation: the `openai` provider with an endpoint and
    /// a model. The Hooray backend answers praise only.
    public static func canChat(_ configuration: AIConfiguration) -> Bool {
        configuration.provider == .openai && configuration.endpoint != nil && !(configuration.model ?? "").isEmpty
    }

    /// Streams the answer to a conversation, piece by piece as it arrives.
    ///
    /// Ending the iteration early (or cancelling the task) aborts the transfer within about a second.
    ///
    /// - Parameter messages: The conversation so far, the system message first.
    /// - Returns: The pieces of the answer, plain text that holds no markup. The stream throws
    ///   ``AIRequestError`` when no answer began (the service is off, unreachable, refused the
    ///   request) and ``ChatStreamBroken`` when one began and broke; what came before was yielded.
    public func stream(_ messages: [ChatMessage]) -> AsyncThrowingStream<String, any Error> {
        let (stream, continuation) = AsyncThrowingStream<String, any Error>.makeStream()
        let task = Task {
            do {
                try await run(messages, continuation: continuation)
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private struct Request: Encodable {
        var model: String
        var messages: [ChatMessage]
        var max_tokens: Int
        var stream: Bool
    }

    private func run(_ messages: [ChatMessage], continuation: AsyncThrowingStream<String, any Error>.Continuation)
        async throws
    {
        guard Self.canChat(configuration), let endpoint = configuration.endpoint, let model = configuration.model else {
            throw AIRequestError.notConfigured
        }
        var logger = logger
        logger[metadataKey: "ai.provider"] = "\(configuration.provider.rawValue)"
        let target = try EndpointPolicy.target(endpoint, appending: OpenAIWire.path)
        logger[metadataKey: "ai.host"] = "\(target.host)"
        var headers = [
            "Content-Type: application/json", "Accept: text/event-stream",
            "x-user-id: \(userID.uuidString.lowercased())", "Expect:",
        ]
        if let key = try await APIKeySource(configuration: configuration, keyring: keyring).resolve() {
            headers.append("Authorization: Bearer \(key)")
        }
        let body = try WireJSON.encode(
            Request(model: model, messages: messages, max_tokens: Self.maxTokens, stream: true))
        let reader = StreamReader(continuation: continuation)
        let stall = max(1, Int(configuration.timeout.components.seconds))
        logger.debug("Asking the AI service for a streamed answer")
        let response: HTTPResponse
        let started = ContinuousClock.now
        do {
            response = try await CurlHTTP.post(
                HTTPRequest(
                    target: target, headers: headers, body: body, connectTimeout: configuration.connectTimeout,
                    timeout: Self.longestAnswer,
                    maxResponseBytes: max(configuration.maxResponseBytes, Self.maxStreamBytes),
                    stream: { reader.feed($0) }, stallSeconds: stall))
        } catch let error as AIRequestError where reader.began {
            // The answer began: say how it broke, after what arrived.
            reader.flush()
            switch error.reason {
            case .timedOut where ContinuousClock.now - started >= Self.longestAnswer - .seconds(1):
                throw ChatStreamBroken(.tookTooLong(seconds: Int(Self.longestAnswer.components.seconds)))
            case .timedOut: throw ChatStreamBroken(.stalled(seconds: stall))
            case .responseTooLarge(let limit): throw ChatStreamBroken(.tooManyBytes(limit: limit))
            default: throw ChatStreamBroken(.cutOff)
            }
        } catch let error as AIRequestError {
            logger.warning("No answer from the AI service: \(error)")
            throw error
        }
        AIExchange.current?.record(status: response.status)
        try reader.end()
        logger.debug("The AI service finished its answer")
    }
}

/// The decoder of one stream, fed on the transfer's thread and ended on the caller's once the
/// transfer is over: never at the same time, which makes the `@unchecked Sendable` sound.
private final class StreamReader: @unchecked Sendable {
    private var decoder = ChatStreamDecoder()
    private var failure: ChatStreamBroken?
    private let continuation: AsyncThrowingStream<String, any Error>.Continuation

    init(continuation: AsyncThrowingStream<String, any Error>.Continuation) {
        self.continuation = continuation
    }

    var maxCharacters: Int { decoder.maxCharacters }

    /// Whether any event arrived: then a failure is a broken answer, not a failed request.
    var began: Bool { decoder.sawEvent || failure != nil }

    /// Reads bytes; `false` ends the transfer (done, or broken).
    func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        do {
            let text = try decoder.feed(bytes)
            if !text.isEmpty { continuation.yield(text) }
            return !decoder.isDone
        } catch {
            if !decoder.pendingMarkup.isEmpty { continuation.yield(decoder.pendingMarkup) }
            failure = error
            return false
        }
    }

    /// Hands out what was held back, when the transfer broke.
    func flush() {
        let rest = decoder.heldBack
        if failure == nil, !rest.isEmpty, ChatStreamDecoder.markupStart(in: Array(rest.unicodeScalars)) == nil {
            continuation.yield(rest)
        }
    }

    /// Ends the answer after the transfer: the rest of the text, or how it broke.
    func end() throws(ChatStreamBroken) {
        if let failure { throw failure }
        do throws(ChatStreamBroken) {
            let rest = try decoder.finish()
            if !rest.isEmpty { continuation.yield(rest) }
            guard decoder.isDone else { throw ChatStreamBroken(.cutOff) }
        } catch {
            if !decoder.pendingMarkup.isEmpty { continuation.yield(decoder.pendingMarkup) }
            throw error
        }
    }
}
