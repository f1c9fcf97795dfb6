import CLibNotify
import Logging

/// Asks the notification server whether it is in do-not-disturb mode, and listens for it changing.
///
/// Every server keeps this state somewhere else, so the server's name (from `GetServerInformation`)
/// decides where to look:
/// - dunst: the `paused` property of `org.dunstproject.cmd0`; dunst 1.9 emits `PropertiesChanged`
///   when `dunstctl set-paused` changes it.
/// - KDE Plasma (and any other server with it): the `Inhibited` property of
///   `org.freedesktop.Notifications`, with `PropertiesChanged`.
/// - GNOME Shell: the `show-banners` key of the `org.gnome.desktop.notifications` settings, with
///   its `changed::show-banners` signal. The schema is looked up first: GSettings aborts the whole
///   process when asked for a schema that is not installed.
/// - mako: its modes (`fr.emersion.Mako` at `/fr/emersion/Mako`: `ListModes` since 1.7, `GetMode`
///   before); mako sends no signal, so it is only asked at delivery time.
///
/// Lives on the delivery thread, like the session that owns it; GLib dispatches its signals there.
final class DoNotDisturbWatch {
    private static let dunstInterface = "org.dunstproject.cmd0"
    private static let notificationsInterface = "org.freedesktop.Notifications"
    private static let gnomeSchema = "org.gnome.desktop.notifications"
    private static let makoMode = "do-not-disturb"

    private let timeout: Duration
    private let logger: Logger
    /// Called on the delivery thread when a server's change signal says the state may have changed.
    private let onChange: () -> Void
    private var bus: OpaquePointer?
    private var subscription: guint = 0
    private var gnomeSettings: UnsafeMutablePointer<GSettings>?
    private var gnomeHandler: gulong = 0
    /// Whether the GNOME schema was looked up and found missing, so it is not looked up again.
    private var gnomeSchemaMissing = false

    /// Creates a watch that is not listening yet.
    ///
    /// - Parameters:
    ///   - timeout: How long a call to the server may take.
    ///   - logger: Where it says what it found.
    ///   - onChange: Called on the delivery thread after a change signal.
    init(timeout: Duration, logger: Logger, onChange: @escaping () -> Void) {
        self.timeout = timeout
        self.logger = logger
        self.onChange = onChange
    }

    /// Starts listening for `PropertiesChanged` from whoever owns the server's name on `bus`.
    ///
    /// The subscription names the well-known name, so it follows a server that restarts.
    func attach(to bus: OpaquePointer) {
        detach()
        self.bus = bus
        subscription = g_dbus_connection_signal_subscribe(
            bus, "org.freedesktop.Notifications", "org.freedesktop.DBus.Properties", "PropertiesChanged",
            "/org/freedesktop/Notifications", nil, G_DBUS_SIGNAL_FLAGS_NONE, propertiesChangedCallback,
            WatchReference.retained(self), WatchReference.release)
    }

    /// Stops listening: the bus went away, or delivery stops.
    func detach() {
        if let bus, subscription != 0 {
            g_dbus_connection_signal_unsubscribe(bus, subscription)
        }
        subscription = 0
        bus = nil
        if let gnomeSettings {
            if gnomeHandler != 0 { g_signal_handler_disconnect(UnsafeMutableRawPointer(gnomeSettings), gnomeHandler) }
            g_object_unref(UnsafeMutableRawPointer(gnomeSettings))
        }
        gnomeSettings = nil
        gnomeHandler = 0
    }

    /// What reading a server's state found.
    enum Reading: Equatable {
        /// The server's state.
        case state(DoNotDisturb)
        /// The server answered that it keeps no such state: it is never in do-not-disturb.
        case none
        /// The server could not be asked, or did not answer in time.
        case unknown

        /// The state to act on: off unless the server said it is on.
        var state: DoNotDisturb {
            if case .state(let state) = self { return state }
            return .off
        }
    }

    /// Whether the server named `serverName` reports changes of its state with a signal that this
    /// watch follows, so that the last reading holds until the signal says otherwise.
    static func signalsChanges(_ serverName: String) -> Bool {
        ["dunst", "Plasma", "gnome-shell"].contains(serverName)
    }

    /// Reads the state of the server named `serverName`.
    ///
    /// - Parameters:
    ///   - bus: The session bus.
    ///   - serverName: What `GetServerInformation` called the server.
    /// - Returns: The state, with the server it comes from; or that the server keeps none; or that
    ///   it could not tell.
    func read(on bus: OpaquePointer, serverName: String) -> Reading {
        switch serverName {
        case "dunst":
            return booleanProperty(on: bus, interface: Self.dunstInterface, name: "paused")
                .map { DoNotDisturb(isOn: $0, source: "dunst") }
        case "gnome-shell":
            guard let showBanners = showBanners() else { return .none }
            return .state(DoNotDisturb(isOn: !showBanners, source: "GNOME"))
        case "mako":
            return makoModes(on: bus).map { DoNotDisturb(isOn: $0.contains(Self.makoMode), source: "mako") }
        default:
            let source = serverName == "Plasma" ? "KDE" : serverName
            return booleanProperty(on: bus, interface: Self.notificationsInterface, name: "Inhibited")
                .map { DoNotDisturb(isOn: $0, source: source) }
        }
    }

    // MARK: Signals

    fileprivate func propertiesChanged(interface: String, changed: [String]) {
        let relevant =
            (interface == Self.dunstInterface && changed.contains("paused"))
            || (interface == Self.notificationsInterface && changed.contains("Inhibited"))
        if relevant { onChange() }
    }

    fileprivate func gnomeSettingChanged() {
        onChange()
    }

    // MARK: Reading

    /// A boolean property of the server's object.
    private func booleanProperty(on bus: OpaquePointer, interface: String, name: String) -> Answer<Bool> {
        let arguments = [g_variant_new_string(interface), g_variant_new_string(name)]
        let parameters = arguments.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, 2) }
        let reply: OpaquePointer
        switch call(
            bus, path: "/org/freedesktop/Notifications", interface: "org.freedesktop.DBus.Properties",
            method: "Get", parameters: parameters, replyType: "(v)")
        {
        case .value(let value): reply = value
        case .absent: return .absent
        case .unknown: return .unknown
        }
        defer { g_variant_unref(reply) }
        let boxed = g_variant_get_child_value(reply, 0)
        defer { g_variant_unref(boxed) }
        guard let value = g_variant_get_variant(boxed) else { return .absent }
        defer { g_variant_unref(value) }
        guard g_variant_get_type_string(value).map({ String(cString: $0) }) == "b" else { return .absent }
        return .value(g_variant_get_boolean(value) != 0)
    }

    /// mako's active modes: `ListModes` (mako 1.7 and later), else `GetMode` (earlier releases).
    private func makoModes(on bus: OpaquePointer) -> Answer<[String]> {
        let listed = call(
            bus, path: "/fr/emersion/Mako", interface: "fr.emersion.Mako", method: "ListModes", parameters: nil,
            replyType: "(as)")
        if case .unknown = listed { return .unknown }
        if case .value(let reply) = listed {
            defer { g_variant_unref(reply) }
            let list = g_variant_get_child_value(reply, 0)
            defer { g_variant_unref(list) }
            var count: gsize = 0
            guard let strings = g_variant_get_strv(list, &count) else { return .value([]) }
            defer { g_free(strings) }
            return .value((0..<Int(count)).compactMap { strings[$0].map { String(cString: $0) } })
        }
        let reply: OpaquePointer
        switch call(
            bus, path: "/fr/emersion/Mako", interface: "fr.emersion.Mako", method: "GetMode", parameters: nil,
            replyType: "(s)")
        {
        case .value(let value): reply = value
        case .absent: return .absent
        case .unknown: return .unknown
        }
        defer { g_variant_unref(reply) }
        let mode = g_variant_get_child_value(reply, 0)
        defer { g_variant_unref(mode) }
        return .value([g_variant_get_string(mode, nil).map { String(cString: $0) } ?? ""])
    }

    /// GNOME's `show-banners`, or `nil` when its schema is not installed.
    private func showBanners() -> Bool? {
        if gnomeSettings == nil {
            guard !gnomeSchemaMissing else { return nil }
            guard let source = g_settings_schema_source_get_default(),
                let schema = g_settings_schema_source_lookup(source, Self.gnomeSchema, 1)
            else {
                gnomeSchemaMissing = true
                logger.debug("No \(Self.gnomeSchema) settings schema; GNOME's do-not-disturb is not read")
                return nil
            }
            let hasKey = g_settings_schema_has_key(schema, "show-banners") != 0
            g_settings_schema_unref(schema)
            guard hasKey, let settings = g_settings_new(Self.gnomeSchema) else {
                gnomeSchemaMissing = true
                return nil
            }
            gnomeSettings = settings
            gnomeHandler = g_signal_connect_data(
                UnsafeMutableRawPointer(settings), "changed::show-banners",
                unsafeBitCast(settingChangedCallback, to: GCallback.self), WatchReference.retained(self),
                WatchReference.releaseClosure, GConnectFlags(rawValue: 0))
        }
        guard let gnomeSettings else { return nil }
        return g_settings_get_boolean(gnomeSettings, "show-banners") != 0
    }

    /// Calls a method on the notification server's name; a failure is logged.
    ///
    /// - Returns: The reply, which the caller unrefs; ``Answer/absent`` when the server has no such
    ///   method, property or object; ``Answer/unknown`` when it could not be asked or did not answer.
    private func call(
        _ bus: OpaquePointer, path: String, interface: String, method: String, parameters: OpaquePointer?,
        replyType: String
    ) -> Answer<OpaquePointer> {
        let type = g_variant_type_new(replyType)
        defer { g_variant_type_free(type) }
        var error: UnsafeMutablePointer<GError>?
        let reply = g_dbus_connection_call_sync(
            bus, "org.freedesktop.Notifications", path, interface, method, parameters, type,
            G_DBUS_CALL_FLAGS_NONE, gint(clamping: timeout.milliseconds), nil, &error)
        if let reply { return .value(reply) }
        let failure = GLibError(taking: error)
        logger.debug("Could not read do-not-disturb: \(interface).\(method): \(failure.message)")
        return failure.meansNoSuchMember ? .absent : .unknown
    }
}

/// What a server answered when asked for one value.
private enum Answer<Value> {
    /// The value.
    case value(Value)
    /// The server has no such method, property or object.
    case absent
    /// It could not be asked, or did not answer in time.
    case unknown

    /// The reading of a state made from the value.
    func map(_ transform: (Value) -> DoNotDisturb) -> DoNotDisturbWatch.Reading {
        switch self {
        case .value(let value): .state(transform(value))
        case .absent: .none
        case .unknown: .unknown
        }
    }
}

/// The user data of the watch's callbacks: a weak way back to it.
private final class WatchReference {
    weak var watch: DoNotDisturbWatch?

    private init(_ watch: DoNotDisturbWatch) { self.watch = watch }

    static func retained(_ watch: DoNotDisturbWatch) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(WatchReference(watch)).toOpaque()
    }

    static func watch(from data: UnsafeMutableRawPointer?) -> DoNotDisturbWatch? {
        guard let data else { return nil }
        return Unmanaged<WatchReference>.fromOpaque(data).takeUnretainedValue().watch
    }

    static let release: GDestroyNotify = { data in
        if let data { Unmanaged<WatchReference>.fromOpaque(data).release() }
    }

    static let releaseClosure: GClosureNotify = { data, _ in
        if let data { Unmanaged<WatchReference>.fromOpaque(data).release() }
    }
}

private let propertiesChangedCallback: GDBusSignalCallback = { _, _, _, _, _, parameters, data in
    guard let parameters, let watch = WatchReference.watch(from: data),
        g_variant_n_children(parameters) >= 2
    else { return }
    let interfaceValue = g_variant_get_child_value(parameters, 0)
    defer { g_variant_unref(interfaceValue) }
    let interface = g_variant_get_string(interfaceValue, nil).map { String(cString: $0) } ?? ""
    let changed = g_variant_get_child_value(parameters, 1)
    defer { g_variant_unref(changed) }
    var names: [String] = []
    for index in 0..<g_variant_n_children(changed) {
        let entry = g_variant_get_child_value(changed, index)
        let key = g_variant_get_child_value(entry, 0)
        names.append(g_variant_get_string(key, nil).map { String(cString: $0) } ?? "")
        g_variant_unref(key)
        g_variant_unref(entry)
    }
    // Invalidated properties (the third member) changed too, without their new value.
    if g_variant_n_children(parameters) >= 3 {
        let invalidated = g_variant_get_child_value(parameters, 2)
        defer { g_variant_unref(invalidated) }
        var count: gsize = 0
        if let strings = g_variant_get_strv(invalidated, &count) {
            names += (0..<Int(count)).compactMap { strings[$0].map { String(cString: $0) } }
            g_free(strings)
        }
    }
    watch.propertiesChanged(interface: interface, changed: names)
}

private let settingChangedCallback:
    @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<gchar>?, UnsafeMutableRawPointer?) -> Void = {
        _, _, data in
        WatchReference.watch(from: data)?.gnomeSettingChanged()
    }
