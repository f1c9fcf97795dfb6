import HoorayKeyring
import HooraySystemTesting

/// A private bus with a real GNOME Keyring on it, and a ``Keyring`` pointed at that bus.
struct KeyringFixture {
    let bus: PrivateSessionBus
    let daemon: KeyringDaemon
    let keyring: Keyring

    /// The attributes `secret-tool` finds Hooray's identity item by.
    static let identityAttributes = ["xdg:schema": "org.hooray.Secret", "kind": "identity"]
}

/// Runs `body` with a fresh bus and keyring daemon, and stops both afterwards, also when it throws.
func withKeyringDaemon(
    timeout: Duration = .seconds(5),
    _ body: (KeyringFixture) async throws -> Void
) async throws {
    try await KeyringDaemon.withPrivateKeyring { bus, daemon in
        try await body(
            KeyringFixture(
                bus: bus, daemon: daemon, keyring: Keyring(timeout: timeout, busAddress: bus.address)))
    }
}

/// How long `body` took on the continuous clock, with its result.
func timed<Value>(_ body: () throws -> Value) rethrows -> (value: Value, elapsed: Duration) {
    let clock = ContinuousClock()
    let start = clock.now
    let value = try body()
    return (value, clock.now - start)
}
