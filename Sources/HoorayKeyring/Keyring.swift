import CLibSecret
import Foundation

/// Hooray's secrets in the desktop's keyring, through the Secret Service API (libsecret).
///
/// Each ``SecretKind`` is one item of the user's default collection (the "Login" keyring of GNOME
/// Keyring, for instance). The methods are synchronous but never block their caller for longer
/// than ``timeout``: each runs on a thread of its own with a D-Bus connection of its own, and is
/// cancelled at the deadline. So a Secret Service that owns its bus name but never answers costs
/// `hoorayd` one timeout, not a hang.
///
/// Only ``unlock(promptTimeout:)`` may show the desktop's unlock prompt. Everything else reports a
/// locked keyring instead (``KeyringLookup/locked``, ``KeyringState/locked(service:)``,
/// ``KeyringError/Code/locked``): prompts that other calls would cause inside libsecret are refused.
///
/// ```swift
/// let keyring = Keyring()
/// switch keyring.lookup(.aiKey(provider: "openai")) {
/// case .found(let key): use(key)
/// case .locked: print("Unlock your keyring to use the AI key.")
/// default: break
/// }
/// ```
///
/// Secrets are never logged or printed, and never appear in errors.
public struct Keyring: Sendable {
    /// How long any call may keep its caller waiting.
    public let timeout: Duration
    /// The session bus to use; `nil` means `DBUS_SESSION_BUS_ADDRESS` at the time of each call.
    public let busAddress: String?

    /// Creates a keyring client; nothing is connected until a call.
    ///
    /// - Parameters:
    ///   - timeout: How long any call may keep its caller waiting.
    ///   - busAddress: The session bus address, for tests and programs that manage several buses.
    ///     By default, `DBUS_SESSION_BUS_ADDRESS` at the time of each call; when it is not set, calls
    ///     report an unavailable keyring rather than start a bus.
    public init(timeout: Duration = .seconds(5), busAddress: String? = nil) {
        self.timeout = timeout
        self.busAddress = busAddress
    }

    /// Why the keyring cannot be used on this computer at all, or `nil`: libsecret, which Hooray loads
    /// at the first keyring operation, is not installed (``KeyringError/Code/libraryMissing``).
    public static func libraryError() -> KeyringError? {
        do throws(KeyringFailure) {
            try SecretServiceSession.loadLibrary()
            return nil
        } catch {
            return error.error
        }
    }

    /// Whether a Secret Service answers, which one, and whether its default collection is locked.
    ///
    /// Never prompts.
    ///
    /// - Returns: The state; with no default collection, ``KeyringState/available(service:)``, and
    ///   ``store(_:value:)`` explains.
    public func state() -> KeyringState {
        let result = call(openSession: false) { session throws(KeyringFailure) in
            let name = session.serviceName()
            guard let collection = try session.defaultCollection() else { return KeyringState.available(service: name) }
            defer { g_object_unref(UnsafeMutableRawPointer(collection)) }
            return hooray_secret_collection_is_locked(collection) != 0
                ? .locked(service: name) : .available(service: name)
        }
        switch result {
        case .success(let state): return state
        case .failure(.locked(let service)): return .locked(service: service)
        case .failure(let failure): return .unavailable(reason: failure.reason)
        }
    }

    /// Whether the keyring has a default collection to store into; `nil` when it does not answer.
    ///
    /// Never prompts. Without one, ``store(_:value:)`` fails with ``KeyringError/Code/noDefaultCollection``,
    /// so nothing is ever moved into the keyring.
    public func hasDefaultCollection() -> Bool? {
        let result = call(openSession: false) { session throws(KeyringFailure) in
            guard let collection = try session.defaultCollection() else { return false }
            g_object_unref(UnsafeMutableRawPointer(collection))
            return true
        }
        return try? result.get()
    }

    /// Reads the secret of a kind.
    ///
    /// Never prompts: a locked item is reported as ``KeyringLookup/locked``. When several items of
    /// the kind exist and one of them is locked, the answer is `.locked` too, since nothing can be
    /// said about their values until the keyring is unlocked.
    ///
    /// - Parameter kind: Which secret.
    /// - Returns: The value, or why there is none.
    public func lookup(_ kind: SecretKind) -> KeyringLookup {
        let result = call(openSession: true) { session throws(KeyringFailure) in
            let items = try session.items(of: kind, loadingSecrets: true)
            defer { SecretServiceSession.release(items) }
            if items.contains(where: { hooray_secret_item_is_locked($0) != 0 }) { return KeyringLookup.locked }
            if items.count > 1 { return .ambiguous(count: items.count) }
            guard let item = items.first else { return .notFound }
            guard let secret = hooray_secret_item_get_secret(item) else {
                throw .refused("the keyring did not hand over the secret of \"\(kind.label)\"")
            }
            defer { hooray_secret_value_unref(secret) }
            guard let text = hooray_secret_value_get_text(secret) else {
                throw .refused("the secret of \"\(kind.label)\" is not text")
            }
            return .found(String(cString: text))
        }
        switch result {
        case .success(let lookup): return lookup
        case .failure(.locked): return .locked
        case .failure(let failure): return .unavailable(reason: failure.reason)
        }
    }

    /// Stores the secret of a kind in the default collection, replacing what was there.
    ///
    /// Afterwards exactly one item of the kind exists: the new item is created first, then any
    /// other items of the kind (duplicates made by other programs, for instance) are deleted.
    /// Never prompts: a locked collection or item throws ``KeyringError/Code/locked``.
    ///
    /// - Parameters:
    ///   - kind: Which secret.
    ///   - value: The secret, stored as text.
    /// - Throws: ``KeyringError`` when there is no keyring, it is locked, it has no default
    ///   collection, it did not answer in time or it refused.
    public func store(_ kind: SecretKind, value: String) throws(KeyringError) {
        let result = call(openSession: true) { session throws(KeyringFailure) in
            guard let collection = try session.defaultCollection() else { throw .noDefaultCollection }
            defer { g_object_unref(UnsafeMutableRawPointer(collection)) }
            if hooray_secret_collection_is_locked(collection) != 0 { throw .locked(service: session.serviceName()) }
            let existing = try session.items(of: kind, loadingSecrets: false)
            defer { SecretServiceSession.release(existing) }
            if existing.contains(where: { hooray_secret_item_is_locked($0) != 0 }) {
                throw .locked(service: session.serviceName())
            }
            let created = try session.create(kind, value: value, in: collection)
            for item in existing
            where String(cString: hooray_proxy_object_path(UnsafeMutableRawPointer(item))) != created {
                try session.delete(item)
            }
        }
        if case .failure(let failure) = result { throw failure.error }
    }

    /// Deletes every item of a kind, duplicates included.
    ///
    /// Never prompts: if any of them is locked, nothing is deleted and ``KeyringError/Code/locked`` is thrown.
    ///
    /// - Parameter kind: Which secret.
    /// - Returns: Whether something was deleted.
    /// - Throws: ``KeyringError`` when there is no keyring, it is locked, it did not answer in time or it refused.
    @discardableResult
    public func delete(_ kind: SecretKind) throws(KeyringError) -> Bool {
        let result = call(openSession: false) { session throws(KeyringFailure) in
            let items = try session.items(of: kind, loadingSecrets: false)
            defer { SecretServiceSession.release(items) }
            if items.contains(where: { hooray_secret_item_is_locked($0) != 0 }) {
                throw .locked(service: session.serviceName())
            }
            for item in items { try session.delete(item) }
            return !items.isEmpty
        }
        switch result {
        case .success(let deleted): return deleted
        case .failure(let failure): throw failure.error
        }
    }

    /// Unlocks the default collection, showing the desktop's unlock prompt if it is locked.
    ///
    /// The one call that may prompt. A prompt waits for a person, so it is given its own, longer
    /// deadline; at the deadline the prompt is dismissed. Without a desktop to show it on (no
    /// display), the prompt fails at once and so does the unlock.
    ///
    /// - Parameter promptTimeout: How long a person has to answer the prompt.
    /// - Returns: Whether the default collection is unlocked afterwards.
    public func unlock(promptTimeout: Duration = .seconds(120)) -> Bool {
        let result = call(openSession: false, timeout: max(timeout, promptTimeout)) { session throws(KeyringFailure) in
            guard let collection = try session.defaultCollection() else { return false }
            defer { g_object_unref(UnsafeMutableRawPointer(collection)) }
            if hooray_secret_collection_is_locked(collection) == 0 { return true }
            session.allowPrompts()
            return try session.unlock(collection)
        }
        return (try? result.get()) ?? false
    }

    /// Runs `body` with a session on a worker thread, within the timeout.
    private func call<Value: Sendable>(
        openSession: Bool,
        timeout: Duration? = nil,
        _ body: @escaping @Sendable (SecretServiceSession) throws(KeyringFailure) -> Value
    ) -> Result<Value, KeyringFailure> {
        let address = busAddress ?? ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"]
        return KeyringCall.run(timeout: timeout ?? self.timeout) { cancellable in
            Result { () throws(KeyringFailure) in
                let session = try SecretServiceSession(
                    address: address, openSession: openSession, cancellable: cancellable)
                return try body(session)
            }
        }
    }
}

extension Keyring {
    /// Runs blocking keyring work on a thread of its own and awaits it, so that no task thread of
    /// the caller waits on D-Bus for up to a keyring's timeout.
    ///
    /// - Parameter work: The work, such as `{ keyring.lookup(.identity) }`.
    /// - Returns: What the work returned.
    public static func offThread<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: work()) }
            thread.name = "hooray-keyring"
            thread.start()
        }
    }

    /// Runs blocking keyring work on a thread of its own and awaits it for at most `seconds`:
    /// a keyring that hangs costs its thread its own timeouts, never the caller's answer.
    ///
    /// - Parameters:
    ///   - seconds: How long to wait for the work.
    ///   - late: What to answer when the work has not finished by then.
    ///   - work: The work, such as `{ vault.whereabouts() }`.
    /// - Returns: What the work returned, or `late`.
    public static func offThread<Value: Sendable>(
        within seconds: Double, otherwise late: Value, _ work: @escaping @Sendable () -> Value
    ) async -> Value {
        let once = ResumeOnce<Value>()
        return await withCheckedContinuation { continuation in
            once.set(continuation)
            let thread = Thread { once.resume(work()) }
            thread.name = "hooray-keyring"
            thread.start()
            let timer = Thread {
                usleep(useconds_t(max(seconds, 0) * 1_000_000))
                once.resume(late)
            }
            timer.name = "hooray-keyring"
            timer.start()
        }
    }
}

/// A continuation resumed by whichever of two threads comes first.
private final class ResumeOnce<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `continuation` is only touched while holding `lock`.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, Never>?

    func set(_ continuation: CheckedContinuation<Value, Never>) {
        lock.withLock { self.continuation = continuation }
    }

    func resume(_ value: Value) {
        let taken: CheckedContinuation<Value, Never>? = lock.withLock {
            defer { continuation = nil }
            return continuation
        }
        taken?.resume(returning: value)
    }
}
