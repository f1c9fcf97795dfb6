/// Why a keyring operation failed, as the worker thread sees it; ``Keyring`` turns it into the
/// public ``KeyringLookup``, ``KeyringState`` or ``KeyringError``.
enum KeyringFailure: Error, Sendable, Equatable {
    case libraryMissing(String)
    case noSessionBus(String)
    case noSecretService
    case locked(service: String)
    case timedOut(Duration)
    case noDefaultCollection
    case refused(String)

    /// A short reason for ``KeyringLookup/unavailable(reason:)`` and ``KeyringState/unavailable(reason:)``.
    var reason: String {
        switch self {
        case .libraryMissing: "libsecret could not be loaded (package libsecret-1-0)"
        case .noSessionBus(let detail): "no session bus (\(detail))"
        case .noSecretService: "no Secret Service on the session bus"
        case .locked(let service): "the \(service) collection is locked"
        case .timedOut(let timeout): "the keyring did not answer in \(timeout.spokenSeconds)"
        case .noDefaultCollection: "the keyring has no default collection"
        case .refused(let message): "the keyring refused: \(message)"
        }
    }

    var error: KeyringError {
        switch self {
        case .libraryMissing(let detail):
            KeyringError(
                code: .libraryMissing,
                problem: "Hooray cannot use the keyring: libsecret could not be loaded (\(detail)).",
                fix: "Install it with `sudo apt install libsecret-1-0`."
            )
        case .noSessionBus(let detail):
            KeyringError(
                code: .noSessionBus,
                problem: "Hooray cannot reach the session bus to use the keyring: \(detail).",
                fix: "Run Hooray inside a desktop session, where DBUS_SESSION_BUS_ADDRESS is set."
            )
        case .noSecretService:
            KeyringError(
                code: .noSecretService,
                problem: "No keyring is running: nothing provides the Secret Service (org.freedesktop.secrets).",
                fix: "Install and start one, such as GNOME Keyring (package gnome-keyring), or turn on KeePassXC's "
                    + "Secret Service integration."
            )
        case .locked(let service):
            KeyringError(
                code: .locked,
                problem: "The keyring (\(service)) is locked.",
                fix: "Unlock it: log out and in again, or unlock the Login keyring in your desktop's password "
                    + "manager (Passwords and Keys), then try again."
            )
        case .timedOut(let timeout):
            KeyringError(
                code: .timedOut,
                problem: "The keyring did not answer in \(timeout.spokenSeconds).",
                fix: "It may be hung or waiting for a dialog: answer or close any keyring dialog, or restart it "
                    + "(for GNOME Keyring: log out and in again)."
            )
        case .noDefaultCollection:
            KeyringError(
                code: .noDefaultCollection,
                problem: "The keyring has no default collection to keep Hooray's secrets in.",
                fix: "Create a keyring (such as \"Login\") in your desktop's password manager and make it the default."
            )
        case .refused(let message):
            KeyringError(
                code: .refused,
                problem: "The keyring refused the request: \(message).",
                fix: "Check the keyring in your desktop's password manager (Passwords and Keys), then try again."
            )
        }
    }
}

extension Duration {
    /// "5 s", "1.5 s", "0.25 s": the duration in seconds, for messages.
    var spokenSeconds: String {
        let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
        if seconds == seconds.rounded() { return "\(Int(seconds)) s" }
        var text = String((seconds * 1000).rounded() / 1000)
        while text.hasSuffix("0") { text.removeLast() }
        return "\(text) s"
    }
}
