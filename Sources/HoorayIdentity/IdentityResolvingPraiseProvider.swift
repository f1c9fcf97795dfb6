import Foundation
import HoorayAI
import HoorayClient
import HoorayConfig
import HoorayKeyring
import HoorayKit
import HoorayStorage
import Logging

/// The AI praise provider of a running Hooray: libcurl to the configured endpoint, with the
/// anonymous identity read when a request needs it.
///
/// When the identity cannot be read — the keyring is locked or not answering — a request fails
/// with ``AIRequestError/identityUnavailable(reason:)``; plugins keep the moment and retry later,
/// as when the network is down, so requests go out once the keyring is unlocked. A new identity is
/// never made in its place. The desktop's unlock prompt is asked for at most once per start, by
/// the first request that finds the keyring locked.
package final class IdentityResolvingPraiseProvider: PraiseProvider, @unchecked Sendable {
    // @unchecked: `identity` and `askedToUnlock` are only touched while holding `lock`.
    private let lock = NSLock()
    private var identity: AnonymousIdentity?
    private var askedToUnlock = false
    private let configuration: AIConfiguration
    private let vault: IdentityVault
    private let logger: Logger

    /// Creates the provider; the identity is read at the first request, or given by ``remember(_:)``.
    ///
    /// - Parameters:
    ///   - configuration: The `[ai]` section, with a provider set.
    ///   - vault: Where the identity is read.
    ///   - logger: Where failures are logged; it never receives the identity or a key.
    package init(configuration: AIConfiguration, vault: IdentityVault, logger: Logger) {
        self.configuration = configuration
        self.vault = vault
        self.logger = logger
    }

    /// Keeps an identity read elsewhere, so that requests need not read it again.
    package func remember(_ found: AnonymousIdentity) {
        lock.withLock { identity = found }
    }

    package func praise(for moment: MomentForPraise) async throws -> AIPraise {
        let userID = try await currentIdentity().userID
        return try await CurlPraiseProvider(configuration: configuration, userID: userID, logger: logger)
            .praise(for: moment)
    }

    private func currentIdentity() async throws(AIRequestError) -> AnonymousIdentity {
        if let known = lock.withLock({ identity }) { return known }
        let vault = self.vault
        var result = await Keyring.offThread { Result { () throws(IdentityVaultError) in try vault.identity().0 } }
        if case .failure(let error) = result, case .keyringLocked = error.problem, isFirstToAskForUnlock() {
            logger.notice("the keyring is locked; asking the desktop to unlock it, once")
            if await Keyring.offThread({ vault.keyring.unlock() }) {
                result = await Keyring.offThread { Result { () throws(IdentityVaultError) in try vault.identity().0 } }
            }
        }
        switch result {
        case .success(let found):
            lock.withLock { identity = found }
            return found
        case .failure(let error):
            throw .identityUnavailable(reason: error.description)
        }
    }

    /// Streams an AI service's answer to a conversation (``CurlChatProvider``), with the anonymous
    /// identity read first as for praise.
    ///
    /// - Parameter messages: The conversation, the system message first.
    /// - Returns: The answer's pieces as they arrive; the stream throws as
    ///   ``CurlChatProvider/stream(_:)``'s does, or ``AIRequestError`` when the identity cannot be read.
    package func chat(_ messages: [ChatMessage]) -> AsyncThrowingStream<String, any Error> {
        let (stream, continuation) = AsyncThrowingStream<String, any Error>.makeStream()
        let task = Task {
            do {
                let userID = try await currentIdentity().userID
                let chat = CurlChatProvider(configuration: configuration, userID: userID, logger: logger)
                for try await piece in chat.stream(messages) { continuation.yield(piece) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Whether this is the first request to ask for the unlock prompt; the next ones are not.
    private func isFirstToAskForUnlock() -> Bool {
        lock.withLock {
            defer { askedToUnlock = true }
            return !askedToUnlock
        }
    }
}

extension IdentityResolvingPraiseProvider {
    /// Makes the AI praise provider plugins get: libcurl to the configured endpoint, sending the
    /// anonymous identity as `x-user-id`; or one that always says "not configured".
    ///
    /// The identity is made (or moved into the keyring) here on the first run, on a thread of its
    /// own: a keyring that does not answer costs that thread its timeouts, never the scheduler's
    /// start. When it cannot be read — the keyring is locked or not answering, or the identity
    /// file is damaged — this is logged with what to do, offline praise keeps working, and each AI
    /// request tries again, so requests go out once the identity can be read.
    public static func make(
        _ configuration: AIConfiguration, identity store: CoreSettings.Identity.Store, paths: HoorayPaths,
        logger: Logger
    ) -> any PraiseProvider {
        let vault = IdentityVault(store: store, paths: paths)
        // Labelled "ai", at the caller's level: a command's quiet logger keeps a failed request off
        // the terminal (the praise falls back offline), the daemon's logs it.
        var aiLogger = Logger(label: "ai")
        aiLogger.logLevel = logger.logLevel
        let provider =
            configuration.provider == .off
            ? nil
            : IdentityResolvingPraiseProvider(configuration: configuration, vault: vault, logger: aiLogger)
        Thread.detachNewThread {
            do {
                let (identity, place) = try vault.identity()
                provider?.remember(identity)
                logger.info("the anonymous id is kept in \(place)")
            } catch {
                logger.log(level: provider == nil ? .warning : .error, "\(error)")
            }
        }
        guard let provider else { return NoPraiseProvider() }
        logger.info(
            "AI praise from \(configuration.provider.rawValue) at \(configuration.endpoint?.absoluteString ?? "?")")
        return provider
    }
}
