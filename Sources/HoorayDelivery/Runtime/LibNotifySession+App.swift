import CLibNotify

// The desktop app, as a notification's click opens it (``HoorayKit/Notice/opens``).
extension LibNotifySession {
    /// The action key of a click on the notification itself.
    static let clickAction = "default"

    /// Whether the desktop app can be asked to open: it is installed (the bus can start it, asked
    /// once per connection) or runs.
    func appIsThere(on bus: OpaquePointer) -> Bool {
        let app = CelebrationWindowChannel.applicationID
        let activatable = appIsActivatable ?? busNames(on: bus, "ListActivatableNames").contains(app)
        appIsActivatable = activatable
        return activatable || busNames(on: bus, "ListNames").contains(app)
    }

    /// The bus's names, as `method` (`ListNames`, `ListActivatableNames`) lists them; none on an error.
    func busNames(on bus: OpaquePointer, _ method: String) -> [String] {
        let type = g_variant_type_new("(as)")
        defer { g_variant_type_free(type) }
        guard
            let reply = g_dbus_connection_call_sync(
                bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", method, nil, type,
                G_DBUS_CALL_FLAGS_NONE, gint(clamping: configuration.timeout.milliseconds), nil, nil)
        else { return [] }
        defer { g_variant_unref(reply) }
        return Self.strings(in: reply)
    }

    /// The strings of a reply `(as)`.
    static func strings(in reply: OpaquePointer) -> [String] {
        let list = g_variant_get_child_value(reply, 0)
        defer { g_variant_unref(list) }
        var count: gsize = 0
        guard let strings = g_variant_get_strv(list, &count) else { return [] }
        defer { g_free(strings) }
        return (0..<Int(count)).compactMap { strings[$0].map { String(cString: $0) } }
    }
}
