import Foundation

/// Where Hooray keeps its files, following the XDG base directory specification.
///
/// | what | where |
/// |---|---|
/// | database | `$XDG_DATA_HOME/hooray/hooray.sqlite` (default `~/.local/share/hooray/`) |
/// | anonymous identity | `$XDG_DATA_HOME/hooray/identity` |
/// | lock, control socket | `$XDG_RUNTIME_DIR/hooray/` |
/// | user configuration | `$XDG_CONFIG_HOME/hooray/` (default `~/.config/hooray/`) |
public struct HoorayPaths: Sendable, Hashable {
    /// The data directory, `$XDG_DATA_HOME/hooray`.
    public var dataDirectory: String
    /// The runtime directory, `$XDG_RUNTIME_DIR/hooray`.
    public var runtimeDirectory: String

    /// The database file.
    public var database: String { dataDirectory + "/hooray.sqlite" }
    /// The anonymous identity's file, read and written by `IdentityStore`.
    public var identityFile: String { dataDirectory + "/identity" }
    /// A file with no secret in it that says the identity was moved to the keyring (see `IdentityVault`).
    public var identityKeyringMarker: String { dataDirectory + "/identity-in-keyring" }
    /// The lock file that keeps one `hoorayd` per user.
    public var lockFile: String { runtimeDirectory + "/hoorayd.lock" }
    /// The daemon's control socket.
    public var controlSocket: String { runtimeDirectory + "/control.sock" }

    /// Works out the paths from an environment.
    ///
    /// When `XDG_RUNTIME_DIR` is unset (outside a login session) a private directory under `/tmp`
    /// named after the user id is used instead.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/share"
        dataDirectory = dataHome + "/hooray"
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            runtimeDirectory = runtime + "/hooray"
        } else {
            runtimeDirectory = "/tmp/hooray-\(getuid())"
        }
    }

    /// Creates the runtime directory with mode 0700 when it does not exist.
    public func makeRuntimeDirectory() throws {
        try FileManager.default.createDirectory(
            atPath: runtimeDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }
}
