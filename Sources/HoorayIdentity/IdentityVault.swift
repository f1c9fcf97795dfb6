import Foundation
import HoorayClient
import HoorayConfig
import HoorayKeyring
import HoorayStorage

/// Where the anonymous identity lives: the desktop's keyring when there is one, otherwise the
/// private identity file, as `[identity] store` says.
///
/// With `auto` (the default) the identity is made in the keyring when a Secret Service answers,
/// and an identity file from before moves there with the same UUID — the file is removed only
/// after the keyring item has been read back equal. Without a Secret Service the file is used, as
/// before keyrings were supported.
///
/// A keyring that is locked, or stops answering, never leads to a second identity: while an item
/// may exist (the keyring is locked, or a marker file says the identity was moved to the keyring),
/// ``identity()`` throws instead of making one, and AI requests wait until it can be read.
public struct IdentityVault: Sendable {
    /// Where an identity is kept.
    public enum Place: Sendable, Equatable, CustomStringConvertible {
        /// In the desktop's keyring; the name of the Secret Service, such as "GNOME Keyring".
        case keyring(service: String)
        /// In the private identity file at this path.
        case file(String)

        /// Where it is kept, for a person: "your keyring (GNOME Keyring)" or the file's path.
        public var description: String {
            switch self {
            case .keyring(let service): "your keyring (\(service)), as “\(SecretKind.identity.label)”"
            case .file(let path): path
            }
        }

        /// `keyring` or `file`, for JSON.
        public var kind: String {
            switch self {
            case .keyring: "keyring"
            case .file: "file"
            }
        }
    }

    /// Which store `[identity] store` chose.
    public let store: CoreSettings.Identity.Store
    let file: IdentityStore
    let keyring: Keyring
    /// A file holding no secret, written once the identity lives in the keyring: while it exists,
    /// an unreachable keyring means "wait", not "make a new identity in the file".
    let markerPath: String
    /// Where Hooray's files are: the lock held while the identity is read or made is in the runtime folder.
    let paths: HoorayPaths

    /// Creates a vault; nothing is read or written yet.
    ///
    /// - Parameters:
    ///   - store: `[identity] store`.
    ///   - paths: Where Hooray's files are.
    ///   - keyring: The keyring client.
    public init(store: CoreSettings.Identity.Store, paths: HoorayPaths, keyring: Keyring = Keyring()) {
        self.store = store
        self.file = IdentityStore(path: paths.identityFile)
        self.keyring = keyring
        self.markerPath = paths.identityKeyringMarker
        self.paths = paths
    }

    /// Returns the identity and where it is kept, making one when there is none.
    ///
    /// - Throws: ``IdentityVaultError`` when it cannot be read, and a new one must not be made.
    public func identity() throws(IdentityVaultError) -> (AnonymousIdentity, Place) {
        guard let found = try resolve(making: true) else {
            throw IdentityVaultError(.keyringRefused("the identity could not be made"))
        }
        return found
    }

    /// Returns the identity and where it is kept, or `nil` when none has been made.
    ///
    /// An identity file is still moved to the keyring when one answers.
    ///
    /// - Throws: ``IdentityVaultError`` when it cannot be read.
    public func existingIdentity() throws(IdentityVaultError) -> (AnonymousIdentity, Place)? {
        try resolve(making: false)
    }

    /// How long `hooray status` waits for the keyring to say where the identity is.
    public static let statusKeyringWait = 1.0

    /// ``whereabouts()`` within ``statusKeyringWait`` seconds, asked on a thread of its own: a
    /// keyring that hangs makes `hooray status` say so rather than wait for its 5 s timeout.
    public func promptWhereabouts() async -> String {
        await Keyring.offThread(
            within: Self.statusKeyringWait,
            otherwise:
                "not known now: the keyring did not answer within \(Int(Self.statusKeyringWait)) s; `hooray identity` waits longer for it",
            { whereabouts() })
    }

    /// Says where the identity is kept, without making or moving it: for `hooray status`.
    ///
    /// - Returns: A phrase such as "in your keyring (GNOME Keyring)", "in /home/…/identity" or
    ///   "not made yet", with a problem when there is one.
    public func whereabouts() -> String {
        if store == .file {
            return FileManager.default.fileExists(atPath: file.path) ? "in \(file.path)" : "not made yet (file)"
        }
        let fileExists = FileManager.default.fileExists(atPath: file.path)
        switch keyring.state() {
        case .available(let service):
            switch keyring.lookup(.identity) {
            case .found: return "in your keyring (\(service))"
            case .notFound where fileExists:
                // A keyring with nowhere to keep items never takes it: say so, not that it will move.
                guard keyring.hasDefaultCollection() != false else {
                    return "in \(file.path); it stays there, because your keyring (\(service)) has no default "
                        + "collection to move it to (make one, such as a \"Login\" keyring in Seahorse, and it moves "
                        + "when next used)"
                }
                return "in \(file.path); it moves to your keyring (\(service)) when next used"
            case .notFound: return "not made yet (keyring: \(service))"
            case .locked: return "in your keyring (\(service)), which is locked"
            case .ambiguous(let count):
                return "unclear: \(count) items in your keyring (\(service)); `hooray identity` explains"
            case .unavailable(let reason): return "unknown: the keyring did not answer (\(reason))"
            }
        case .locked(let service):
            return fileExists ? "in \(file.path)" : "in your keyring (\(service)), which is locked"
        case .unavailable(let reason):
            if FileManager.default.fileExists(atPath: markerPath) {
                return "in your keyring, which does not answer (\(reason))"
            }
            if store == .keyring { return "nowhere yet: no keyring answers (\(reason))" }
            return fileExists ? "in \(file.path) (no keyring)" : "not made yet (no keyring; the file will be used)"
        }
    }

    /// Removes the identity from the keyring and the file, so that the next ``identity()`` makes a
    /// new one.
    ///
    /// - Returns: Whether there was one to remove.
    /// - Throws: ``IdentityVaultError`` when the keyring item or the file could not be removed.
    @discardableResult
    public func delete() throws(IdentityVaultError) -> Bool {
        var removed = false
        if store != .file || markerExists {
            switch keyring.state() {
            case .available, .locked:
                do {
                    removed = try keyring.delete(.identity)
                } catch {
                    throw IdentityVaultError(.keyringRefused(error.description, code: error.code))
                }
            case .unavailable(let reason):
                if markerExists {
                    throw IdentityVaultError(.keyringUnavailable(reason, itemMayExist: true))
                }
            }
        }
        let hadFile = FileManager.default.fileExists(atPath: file.path)
        do {
            try file.delete()
        } catch {
            throw IdentityVaultError(.file(error))
        }
        unlink(markerPath)
        return removed || hadFile
    }

    /// Whether the identity was moved to (or made in) the keyring.
    private var markerExists: Bool { FileManager.default.fileExists(atPath: markerPath) }

    private func resolve(making: Bool) throws(IdentityVaultError) -> (AnonymousIdentity, Place)? {
        // One process, one thread at a time: two first runs at once must agree on one identity.
        let lock = IdentityLock(paths: paths)
        defer { lock.release() }
        return try resolveLocked(making: making)
    }

    private func resolveLocked(making: Bool) throws(IdentityVaultError) -> (AnonymousIdentity, Place)? {
        if store == .file {
            // The identity lives in the keyring: a file of its own would be a second one.
            if markerExists, try existingFileIdentity() == nil { throw IdentityVaultError(.keptInKeyring) }
            return try fromFile(making: making)
        }
        let service: String
        switch keyring.state() {
        case .available(let name):
            service = name
        case .locked(let name):
            // Never a second identity: an identity file that was never moved is the same one.
            if !markerExists, let existing = try existingFileIdentity() { return (existing, .file(file.path)) }
            throw IdentityVaultError(.keyringLocked(service: name))
        case .unavailable(let reason):
            let itemMayExist = markerExists
            if store == .keyring || itemMayExist {
                throw IdentityVaultError(.keyringUnavailable(reason, itemMayExist: itemMayExist))
            }
            return try fromFile(making: making)
        }
        switch keyring.lookup(.identity) {
        case .found(let text):
            guard let identity = AnonymousIdentity(storedText: text) else {
                throw IdentityVaultError(.keyringValueInvalid(service: service))
            }
            try writeMarker()
            // A file left by a move that stopped half-way holds the same identity; it can go now.
            if let leftover = try? file.existingIdentity(), leftover == identity { try? file.delete() }
            return (identity, .keyring(service: service))
        case .notFound:
            if let existing = try existingFileIdentity() {
                return try move(existing, service: service)
            }
            guard making else { return nil }
            guard let made = AnonymousIdentity.make(now: Date()) else {
                throw IdentityVaultError(.keyringRefused("the system did not make a random (version 4) UUID"))
            }
            do {
                return (try save(made, service: service), .keyring(service: service))
            } catch let error where store == .auto && error.code == .noDefaultCollection {
                // A keyring with nowhere to keep items: the file, as without a keyring. Nothing was
                // stored, so this is still the one identity.
                unlink(markerPath)
                return try fromFile(making: true)
            }
        case .locked:
            if !markerExists, let existing = try existingFileIdentity() { return (existing, .file(file.path)) }
            throw IdentityVaultError(.keyringLocked(service: service))
        case .ambiguous(let count):
            throw IdentityVaultError(.keyringAmbiguous(count: count, service: service))
        case .unavailable(let reason):
            throw IdentityVaultError(.keyringUnavailable(reason, itemMayExist: true))
        }
    }

    /// Moves an identity file's identity into the keyring, keeping its UUID and creation time.
    private func move(_ identity: AnonymousIdentity, service: String) throws(IdentityVaultError) -> (
        AnonymousIdentity, Place
    ) {
        let saved: AnonymousIdentity
        do {
            saved = try save(identity, service: service)
        } catch {
            // The file stays the one place it is kept; the move is tried again next time. Only a
            // store that timed out may still leave an item behind, so only then does the marker stay.
            if error.code != .timedOut { unlink(markerPath) }
            return (identity, .file(file.path))
        }
        // Only an equal read-back lets the file go.
        guard saved == identity else { return (saved, .keyring(service: service)) }
        do {
            try file.delete()
        } catch {
            throw IdentityVaultError(.file(error))
        }
        return (identity, .keyring(service: service))
    }

    /// Stores an identity in the keyring and returns what reads back.
    private func save(_ identity: AnonymousIdentity, service: String) throws(IdentityVaultError) -> AnonymousIdentity {
        // First the marker: a store that fails late (a timeout, say) may still leave an item, and
        // from then on an unreachable keyring must mean "wait".
        try writeMarker()
        do {
            try keyring.store(.identity, value: identity.storedText)
        } catch {
            throw IdentityVaultError(.keyringRefused(error.description, code: error.code))
        }
        // Another process making the first identity at the same moment may have stored after us:
        // the keyring keeps one item, and that one is the identity from now on.
        guard case .found(let text) = keyring.lookup(.identity), let kept = AnonymousIdentity(storedText: text) else {
            throw IdentityVaultError(.keyringRefused("the identity stored in \(service) could not be read back"))
        }
        return kept
    }

    private func fromFile(making: Bool) throws(IdentityVaultError) -> (AnonymousIdentity, Place)? {
        do {
            let identity = making ? try file.identity() : try file.existingIdentity()
            return identity.map { ($0, .file(file.path)) }
        } catch {
            throw IdentityVaultError(.file(error))
        }
    }

    private func existingFileIdentity() throws(IdentityVaultError) -> AnonymousIdentity? {
        do {
            return try file.existingIdentity()
        } catch {
            throw IdentityVaultError(.file(error))
        }
    }

    private func writeMarker() throws(IdentityVaultError) {
        guard !markerExists else { return }
        let text = "# Hooray's anonymous id is kept in your keyring (`hooray identity` shows it); no secret is here.\n"
        try? FileManager.default.createDirectory(
            atPath: (markerPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        guard
            FileManager.default.createFile(
                atPath: markerPath, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
        else {
            throw IdentityVaultError(
                .keyringRefused("cannot write \(markerPath), which remembers that the id is in the keyring"))
        }
    }
}

/// Why the anonymous identity cannot be had right now, with what to do about it.
public struct IdentityVaultError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Problem: Sendable {
        /// The identity file is damaged or unsafe.
        case file(IdentityError)
        /// The keyring is locked: the identity may be in it, so none is made.
        case keyringLocked(service: String)
        /// No Secret Service answers; with `itemMayExist`, the identity was moved there before.
        case keyringUnavailable(String, itemMayExist: Bool)
        /// The keyring's identity item holds something that is not an identity.
        case keyringValueInvalid(service: String)
        /// Several identity items were found.
        case keyringAmbiguous(count: Int, service: String)
        /// The keyring refused to store or remove the item; with the keyring's own reason, when it gave one.
        case keyringRefused(String, code: KeyringError.Code? = nil)
        /// `[identity] store = "file"`, but the identity was moved to the keyring.
        case keptInKeyring
    }

    /// What went wrong.
    public let problem: Problem

    init(_ problem: Problem) {
        self.problem = problem
    }

    /// The keyring's reason, when it refused.
    var code: KeyringError.Code? {
        if case .keyringRefused(_, let code) = problem { return code }
        return nil
    }

    /// Whether waiting may help: the keyring is locked or not answering.
    public var isTemporary: Bool {
        switch problem {
        case .keyringLocked, .keyringUnavailable: true
        default: false
        }
    }

    /// The command that removes every identity item from the keyring, for a person to run.
    static let clearCommand = "secret-tool clear xdg:schema org.hooray.Secret kind identity"

    public var description: String {
        switch problem {
        case .file(let error):
            return error.description
        case .keyringLocked(let service):
            return "your keyring (\(service)) is locked, so Hooray cannot read your anonymous id; AI requests wait "
                + "until it is unlocked. Unlock it (log in again, or open Passwords and Keys); nothing else is needed."
        case .keyringUnavailable(let reason, let itemMayExist):
            let fix =
                itemMayExist
                ? "Your anonymous id was moved to the keyring, so Hooray waits for it instead of making a new one; "
                    + "start your desktop's keyring (GNOME Keyring, KWallet or KeePassXC) and AI requests go out again."
                : "Start your desktop's keyring (GNOME Keyring, KWallet or KeePassXC), or set [identity] store = "
                    + "\"auto\" to keep the id in a private file when there is none."
            return "no keyring answers (\(reason)). " + fix
        case .keyringValueInvalid(let service):
            return "the item “\(SecretKind.identity.label)” in your keyring (\(service)) does not hold a Hooray "
                + "identity, so it is left as it is and AI requests wait. Remove it with `\(Self.clearCommand)` "
                + "(or in Passwords and Keys); a new anonymous id is then made."
        case .keyringAmbiguous(let count, let service):
            return "your keyring (\(service)) holds \(count) items “\(SecretKind.identity.label)”, so Hooray cannot "
                + "tell which is yours and AI requests wait. Keep one in Passwords and Keys, or remove them all with "
                + "`\(Self.clearCommand)`; a new anonymous id is then made."
        case .keyringRefused(let reason, _):
            return "the keyring could not keep your anonymous id: \(reason)"
        case .keptInKeyring:
            return "your anonymous id is kept in your keyring, and [identity] store = \"file\" would make a second "
                + "one. Set store = \"auto\" (or \"keyring\") to keep using it, or run `hooray delete-my-data` first "
                + "to start afresh with a file."
        }
    }
}

/// An exclusive `flock` on a file beside the identity, held while it is read or made, so that two
/// first runs — two threads, or hoorayd and `hooray` — agree on one identity.
private struct IdentityLock {
    private let descriptor: Int32

    /// Takes the lock, waiting for another holder; without a usable file, goes on unlocked.
    ///
    /// The runtime folder is made, and checked when it is the shared fallback: a lock file in a
    /// folder someone else controls could be held by them forever.
    init(paths: HoorayPaths) {
        do {
            try paths.makeRuntimeDirectory()
        } catch {
            descriptor = -1
            return
        }
        descriptor = open(paths.runtimeDirectory + "/identity.lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if descriptor >= 0 {
            while flock(descriptor, LOCK_EX) != 0 && errno == EINTR {}
        }
    }

    func release() {
        guard descriptor >= 0 else { return }
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
