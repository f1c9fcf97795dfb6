import CLibNotify

/// A `GError` copied into Swift, with the questions delivery asks about it.
struct GLibError: Error, CustomStringConvertible {
    let domain: GQuark
    let code: Int32
    let message: String

    /// Copies and frees a `GError`.
    ///
    /// - Parameter error: The error a GLib call set, or `nil` when it failed without saying why.
    init(taking error: UnsafeMutablePointer<GError>?) {
        guard let error else {
            domain = 0
            code = 0
            message = "unknown error"
            return
        }
        domain = error.pointee.domain
        code = error.pointee.code
        message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
        g_error_free(error)
    }

    /// An error of our own, with no GLib domain.
    ///
    /// - Parameter message: What went wrong, for a person.
    init(message: String) {
        domain = 0
        code = 0
        self.message = message
    }

    /// Made with ``init(message:)`` rather than by GLib.
    var isOurOwn: Bool { domain == 0 }

    /// The call waited for an answer that did not come in time.
    var isTimeout: Bool {
        isIO(G_IO_ERROR_TIMED_OUT) || isDBus(G_DBUS_ERROR_TIMEOUT) || isDBus(G_DBUS_ERROR_TIMED_OUT)
    }

    /// Nobody owns the server's name, and the bus cannot start a server for it.
    var meansNoServer: Bool {
        isDBus(G_DBUS_ERROR_SERVICE_UNKNOWN) || isDBus(G_DBUS_ERROR_NAME_HAS_NO_OWNER)
    }

    /// The server left the bus while the call waited for its answer.
    var meansServerLeft: Bool { isDBus(G_DBUS_ERROR_NO_REPLY) }

    /// The connection to the bus is closed: the bus went away.
    var meansConnectionClosed: Bool { isIO(G_IO_ERROR_CLOSED) }

    /// The server answered that it has no such object, interface, method or property.
    var meansNoSuchMember: Bool {
        [
            G_DBUS_ERROR_UNKNOWN_METHOD, G_DBUS_ERROR_UNKNOWN_INTERFACE, G_DBUS_ERROR_UNKNOWN_PROPERTY,
            G_DBUS_ERROR_UNKNOWN_OBJECT, G_DBUS_ERROR_INVALID_ARGS, G_DBUS_ERROR_NOT_SUPPORTED,
        ].contains { isDBus($0) }
    }

    var description: String { message }

    private func isIO(_ value: GIOErrorEnum) -> Bool {
        domain == g_io_error_quark() && code == Int32(value.rawValue)
    }

    private func isDBus(_ value: GDBusError) -> Bool {
        domain == g_dbus_error_quark() && code == Int32(value.rawValue)
    }
}

/// Why an operation on the notification server did not succeed.
enum DeliveryFailure: Error {
    /// No bus, no server, or an error from the server; the reason is written for a person.
    case unavailable(String)
    /// The server did not answer in time.
    case timedOut

    static let noServer =
        "No notification server is running on the session bus (nobody owns org.freedesktop.Notifications). "
        + "Start your desktop's notification service, or one such as dunst or mako."

    static let busLost =
        "The connection to the session bus was lost. Notices are kept and shown once the bus and a "
        + "notification server are back."

    static let serverLeft = "The notification server left the bus without answering."

    static let shutDown = "Notification delivery was shut down."

    static func cannotConnect(_ error: GLibError) -> Self {
        .unavailable(
            "Cannot connect to the D-Bus session bus: \(error.message). Desktop notifications need the "
                + "session bus of a graphical login; check DBUS_SESSION_BUS_ADDRESS."
        )
    }

    static func serverError(_ error: GLibError) -> Self {
        .unavailable("The notification server reported an error: \(error.message)")
    }

    var deliveryOutcome: DeliveryOutcome {
        switch self {
        case .unavailable(let reason): .unavailable(reason: reason)
        case .timedOut: .timedOut
        }
    }

    var closeOutcome: CloseOutcome {
        switch self {
        case .unavailable(let reason): .unavailable(reason: reason)
        case .timedOut: .timedOut
        }
    }

    var serverStatus: ServerStatus {
        switch self {
        case .unavailable(let reason): .unavailable(reason: reason)
        case .timedOut: .timedOut
        }
    }
}
