import CLibSecret
import Foundation

/// A Secret Service proxy on a D-Bus connection of its own, used by one operation on its worker thread.
///
/// Every call passes the operation's cancellable, so a timed-out caller can end it. The connection
/// is private (see `hooray_secret_service_open` in the shim) and closed when the session ends, and
/// the proxy refuses to prompt unless ``allowPrompts()`` was called.
final class SecretServiceSession {
    private static let busName = "org.freedesktop.secrets"

    private let service: OpaquePointer
    private let connection: OpaquePointer
    private let cancellable: UnsafeMutablePointer<GCancellable>

    /// Connects and makes sure a Secret Service owns its name.
    ///
    /// - Parameters:
    ///   - address: The session bus address; `nil` or empty means there is none.
    ///   - openSession: Also negotiate the transfer session that reading and writing secrets needs.
    ///   - cancellable: The operation's cancellable.
    init(address: String?, openSession: Bool, cancellable: Cancellable) throws(KeyringFailure) {
        guard let address, !address.isEmpty else {
            // GIO would look for a bus elsewhere, and with DISPLAY set even autolaunch one.
            throw .noSessionBus("DBUS_SESSION_BUS_ADDRESS is not set")
        }
        try Self.loadLibrary()
        self.cancellable = cancellable.pointer
        var connection: OpaquePointer?
        var error: UnsafeMutablePointer<GError>?
        let service = hooray_secret_service_open(address, cancellable.pointer, &connection, &error)
        guard let service, let connection else {
            defer { hooray_connection_close(connection) }
            throw Self.failure(error, whileConnecting: connection == nil)
        }
        self.service = service
        self.connection = connection
        guard hooray_secret_service_has_owner(service) != 0 else { throw .noSecretService }
        if openSession {
            guard hooray_secret_service_ensure_session(service, cancellable.pointer, &error) != 0 else {
                throw failure(error)
            }
        }
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(service))
        hooray_connection_close(connection)
    }

    /// Lets libsecret show the desktop's prompt (for ``Keyring/unlock(promptTimeout:)`` only).
    func allowPrompts() {
        hooray_secret_service_allow_prompts(service, 1)
    }

    /// A name for people of the program that owns `org.freedesktop.secrets`.
    func serviceName() -> String {
        let pid = hooray_bus_name_owner_pid(connection, Self.busName, -1, cancellable)
        guard pid > 0 else { return "Secret Service" }
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) ?? ""
        let command = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
        let program = executable.isEmpty ? command : (executable as NSString).lastPathComponent
        switch program.trimmingCharacters(in: .whitespacesAndNewlines) {
        case let name where name.hasPrefix("gnome-keyring"): return "GNOME Keyring"
        case let name where name.hasPrefix("kwalletd") || name.hasPrefix("ksecretd"): return "KWallet"
        case let name where name.lowercased().hasPrefix("keepassxc"): return "KeePassXC"
        default: return "Secret Service"
        }
    }

    /// The collection behind the `default` alias, or `nil` when there is none. Release with `g_object_unref`.
    func defaultCollection() throws(KeyringFailure) -> OpaquePointer? {
        var error: UnsafeMutablePointer<GError>?
        let collection = hooray_secret_default_collection(service, cancellable, &error)
        if let error { throw failure(error) }
        return collection
    }

    /// Every item of this kind, locked or not, with the secrets of the unlocked ones when `loadingSecrets`.
    ///
    /// Never unlocks, so never prompts. Release the items with ``release(_:)``.
    func items(of kind: SecretKind, loadingSecrets: Bool) throws(KeyringFailure) -> [OpaquePointer] {
        var error: UnsafeMutablePointer<GError>?
        let list = hooray_secret_search(
            service, kind.attributes["kind"], kind.attributes["provider"], loadingSecrets ? 1 : 0, cancellable, &error)
        if let error {
            hooray_object_list_free(list)
            throw failure(error)
        }
        var items: [OpaquePointer] = []
        var node = list
        while let current = node {
            if let data = current.pointee.data {
                items.append(OpaquePointer(data))
                g_object_ref(data)
            }
            node = current.pointee.next
        }
        hooray_object_list_free(list)
        return items
    }

    /// Creates an item in `collection`, replacing one with exactly the same attributes.
    ///
    /// - Returns: The new item's object path.
    func create(
        _ kind: SecretKind,
        value: String,
        in collection: OpaquePointer
    ) throws(KeyringFailure) -> String {
        var error: UnsafeMutablePointer<GError>?
        guard
            let item = hooray_secret_item_create(
                collection, kind.attributes["kind"], kind.attributes["provider"], kind.label, value, cancellable, &error
            )
        else { throw failure(error) }
        defer { g_object_unref(UnsafeMutableRawPointer(item)) }
        return String(cString: hooray_proxy_object_path(UnsafeMutableRawPointer(item)))
    }

    /// Deletes an item.
    func delete(_ item: OpaquePointer) throws(KeyringFailure) {
        var error: UnsafeMutablePointer<GError>?
        guard hooray_secret_item_delete(item, cancellable, &error) != 0 else { throw failure(error) }
    }

    /// Unlocks a collection, which may show the desktop's prompt if ``allowPrompts()`` was called.
    ///
    /// - Returns: Whether the collection is unlocked afterwards.
    func unlock(_ collection: OpaquePointer) throws(KeyringFailure) -> Bool {
        let objects = hooray_list_of(UnsafeMutableRawPointer(collection))
        defer { hooray_list_free(objects) }
        var unlocked: UnsafeMutablePointer<GList>?
        var error: UnsafeMutablePointer<GError>?
        let count = hooray_secret_service_unlock(service, objects, cancellable, &unlocked, &error)
        hooray_object_list_free(unlocked)
        if let error { throw failure(error) }
        return count > 0
    }

    /// Releases items returned by ``items(of:loadingSecrets:)``.
    static func release(_ items: [OpaquePointer]) {
        for item in items { g_object_unref(UnsafeMutableRawPointer(item)) }
    }

    /// Loads libsecret at the first operation of the process (see `hooray_secret_load`).
    static func loadLibrary() throws(KeyringFailure) {
        var why = [CChar](repeating: 0, count: 512)
        guard hooray_secret_load(&why, why.count) == 0 else { return }
        let reason = String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        throw .libraryMissing(reason)
    }

    /// Turns a GError (freed here) into a failure; "locked" names the service.
    private func failure(_ error: UnsafeMutablePointer<GError>?) -> KeyringFailure {
        if hooray_error_is_locked(error) != 0 {
            g_error_free(error)
            return .locked(service: serviceName())
        }
        return Self.failure(error, whileConnecting: false)
    }

    private static func failure(_ error: UnsafeMutablePointer<GError>?, whileConnecting: Bool) -> KeyringFailure {
        guard let error else { return .refused("an unknown error") }
        defer { g_error_free(error) }
        let message = String(cString: error.pointee.message)
        if hooray_error_is_cancelled(error) != 0 { return .timedOut(.zero) }
        if whileConnecting { return .noSessionBus(message) }
        if hooray_error_is_dbus(error) != 0, message.contains("ServiceUnknown") || message.contains("NameHasNoOwner") {
            return .noSecretService
        }
        return .refused(message)
    }
}
