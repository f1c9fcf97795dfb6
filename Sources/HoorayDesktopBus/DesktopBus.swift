import CLibNotify
import Foundation
import HoorayClient
import HoorayLauncher
import HoorayThreads
import Logging

/// `hoorayd` on the session bus, where the desktop's launchers find it: GNOME Shell's search
/// (`org.gnome.Shell.SearchProvider2`) and KRunner (`org.kde.krunner1`), under the bus name
/// ``busName``, which the D-Bus service file `org.hooray.Hoorayd.service` lets the bus start.
///
/// Every offer and every choice goes through ``Launcher`` and a ``LauncherHost``: the words are read
/// as `hooray menu` reads them, and a choice runs the command `hooray` would run. The bus has a
/// thread of its own with a GLib main context, and a private connection (not the process's shared
/// one, which would end the process should the bus go away); calls are answered from tasks, so a
/// slow answer never holds the next call.
public final class DesktopBus: @unchecked Sendable {
    // @unchecked: `connection`, `ownerID` and `registrations` are only touched on the bus thread;
    // `metas`, `recent`, `stopping`, `answering` and `ended` are guarded by `lock`.

    /// The bus name the launchers call.
    public static let busName = "org.hooray.Hoorayd"
    /// GNOME Shell's search provider's object.
    public static let searchProviderPath = "/org/hooray/Hoorayd/SearchProvider"
    /// KRunner's runner's object.
    public static let krunnerPath = "/org/hooray/Hoorayd/KRunner"
    /// The desktop app's bus name, which opens the app.
    static let appBusName = "org.hooray.Hooray"
    static let appPath = "/org/hooray/Hooray"
    /// How long a second choice of the same offer is taken for the first one again (a double
    /// press, or two launchers answering the same keystroke).
    static let repeatWindow: Duration = .seconds(3)

    let host: any TrayHost
    let tell: @Sendable (_ plugin: String, _ message: String) async -> Void
    let logger: Logger
    let context: OpaquePointer
    private let loop: OpaquePointer
    var connection: OpaquePointer?
    private var ownerID: guint = 0
    var registrations: [guint] = []
    let lock = NSLock()
    /// The tray's state, guarded by `lock` (DesktopBus+Tray.swift).
    var tray: TrayState
    /// The tray's watch of the StatusNotifierWatcher and its own name, on the bus thread.
    var trayBus = TrayBus()
    /// A new stream of hoorayd's changes, followed while the tray icon is shown.
    let trayUpdates: (@Sendable () -> AsyncStream<BarSnapshot>)?
    private var metas: [String: LauncherResult] = [:]
    private var recent: [String: ContinuousClock.Instant] = [:]
    private var stopping = false
    var answering = 0
    private var ended = false
    /// Whether the connection is closed: work for the bus thread is refused from then on, and what
    /// was handed to it before is run (with no connection) by the last dispatch.
    private var closed = false

    /// Makes the bus's front; nothing is on the bus before ``start()``.
    ///
    /// - Parameters:
    ///   - host: Where offers are read from and choices carried out, the tray's too.
    ///   - tray: Whether to show the tray icon where the desktop has a tray (`[delivery] tray`).
    ///   - trayUpdates: Makes a stream of the status bar's snapshot after each of hoorayd's changes
    ///     (and the clock's, such as midnight), which the tray follows while it is shown.
    ///   - tell: Shows a notice from `plugin` saying why a choice could not be carried out (the
    ///     launcher that made it has closed by then).
    ///   - logger: Where what happens on the bus is logged.
    public init(
        host: some TrayHost, tray: Bool = true, trayUpdates: (@Sendable () -> AsyncStream<BarSnapshot>)? = nil,
        tell: @escaping @Sendable (_ plugin: String, _ message: String) async -> Void, logger: Logger
    ) {
        self.host = host
        self.tray = TrayState(wanted: tray)
        self.trayUpdates = trayUpdates
        self.tell = tell
        self.logger = logger
        context = g_main_context_new()
        loop = g_main_loop_new(context, 0)
    }

    deinit {
        g_main_loop_unref(loop)
        g_main_context_unref(context)
    }

    /// Connects to the session bus on a thread of its own, puts the objects there and asks for
    /// ``busName``. Without a session bus it logs why, and `hoorayd` goes on without launchers.
    public func start() {
        let thread = Thread { [self] in
            nameThisThread("hooray-bus")
            g_main_context_push_thread_default(context)
            if connect() { g_main_loop_run(loop) }
            disconnect()
            g_main_context_pop_thread_default(context)
            lock.withLock { ended = true }
        }
        thread.name = "hooray-bus"
        thread.start()
    }

    /// Leaves the bus: calls arriving now are refused, the answers under way are given (a choice
    /// being carried out finishes), then the name is released and the thread ends.
    ///
    /// - Parameter limit: How long to wait for the answers under way and for the thread.
    public func stop(waitingAtMost limit: Duration = .seconds(3)) async {
        lock.withLock { stopping = true }
        let deadline = ContinuousClock.now + limit
        while lock.withLock({ answering > 0 }), ContinuousClock.now < deadline {
            try? await TaskTimer.sleep(for: .milliseconds(20))
        }
        quit()
        while !lock.withLock({ ended }), ContinuousClock.now < deadline {
            try? await TaskTimer.sleep(for: .milliseconds(20))
        }
    }

    private func quit() {
        let source = g_idle_source_new()
        let quit: GSourceFunc = { data in
            g_main_loop_quit(OpaquePointer(data))
            return 0
        }
        g_source_set_callback(source, quit, UnsafeMutableRawPointer(loop), nil)
        g_source_attach(source, context)
        g_source_unref(source)
    }

    // MARK: On the bus thread

    private func connect() -> Bool {
        var error: UnsafeMutablePointer<GError>?
        guard let address = g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            logger.info("no session bus, so launchers cannot find hoorayd (\(Self.take(&error)))")
            return false
        }
        defer { g_free(address) }
        let flags = GDBusConnectionFlags(
            rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let opened = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            logger.info("the session bus cannot be reached, so launchers cannot find hoorayd (\(Self.take(&error)))")
            return false
        }
        g_dbus_connection_set_exit_on_close(opened, 0)
        connection = opened
        let me = Unmanaged.passUnretained(self).toOpaque()
        let objects = [
            (Self.searchProviderPath, Self.searchProviderXML), (Self.krunnerPath, Self.krunnerXML),
            (Self.itemPath, Self.statusNotifierItemXML), (Self.menuPath, Self.dbusMenuXML),
        ]
        for (path, xml) in objects {
            guard let node = g_dbus_node_info_new_for_xml(xml, &error) else {
                logger.error("the launcher interface at \(path) does not parse: \(Self.take(&error))")
                continue
            }
            defer { g_dbus_node_info_unref(node) }
            var vtable = GDBusInterfaceVTable()
            vtable.method_call = { _, sender, path, _, method, parameters, invocation, data in
                guard let invocation else { return }
                guard let data, let method, let path, let parameters else {
                    return BusReply(invocation).invalid("the call came without its name or arguments")
                }
                let bus = Unmanaged<DesktopBus>.fromOpaque(data).takeUnretainedValue()
                bus.called(
                    String(cString: method), at: String(cString: path), sender: sender.map { String(cString: $0) },
                    arguments: BusArguments(parameters: parameters), reply: BusReply(invocation))
            }
            vtable.get_property = { _, _, path, _, name, _, data in
                guard let data, let path, let name else { return nil }
                let bus = Unmanaged<DesktopBus>.fromOpaque(data).takeUnretainedValue()
                return bus.property(String(cString: name), at: String(cString: path))?.make()
            }
            let id = g_dbus_connection_register_object(
                opened, path, node.pointee.interfaces[0], &vtable, me, nil, &error)
            if id == 0 {
                logger.error("cannot put the object \(path) on the session bus: \(Self.take(&error))")
            } else {
                registrations.append(id)
            }
        }
        ownerID = g_bus_own_name_on_connection(
            opened, Self.busName, G_BUS_NAME_OWNER_FLAGS_NONE,
            { _, name, data in
                guard let data else { return }
                Unmanaged<DesktopBus>.fromOpaque(data).takeUnretainedValue().logger.info(
                    "launchers find hoorayd on the session bus as \(String(cString: name!))")
            },
            { connection, name, data in
                guard let data else { return }
                let bus = Unmanaged<DesktopBus>.fromOpaque(data).takeUnretainedValue()
                bus.logger.info(
                    "\(String(cString: name!)) belongs to another process on the session bus (another hoorayd?); launchers will find this one once it goes"
                )
            }, me, nil)
        watchForTray()
        return !registrations.isEmpty
    }

    private func disconnect() {
        leaveTray()
        if ownerID != 0 { g_bus_unown_name(ownerID) }
        ownerID = 0
        if let connection {
            for id in registrations { g_dbus_connection_unregister_object(connection, id) }
            g_dbus_connection_flush_sync(connection, nil, nil)
            g_dbus_connection_close_sync(connection, nil, nil)
            g_object_unref(UnsafeMutableRawPointer(connection))
        }
        registrations = []
        connection = nil
        lock.withLock { closed = true }
        // What the closing left for this context, and work handed to the thread before it closed,
        // is dispatched before the thread ends.
        while g_main_context_iteration(context, 0) != 0 {}
    }

    /// The error's message; the error is freed and `error` is `nil` again, ready for the next call.
    static func take(_ error: inout UnsafeMutablePointer<GError>?) -> String {
        guard let taken = error else { return "no reason given" }
        defer {
            g_error_free(taken)
            error = nil
        }
        return String(cString: taken.pointee.message)
    }

    private func called(_ method: String, at path: String, sender: String?, arguments: BusArguments, reply: BusReply) {
        guard !lock.withLock({ stopping }) else {
            return reply.failed("hoorayd is stopping; nothing was done")
        }
        switch (path, method) {
        case (Self.searchProviderPath, "GetInitialResultSet"):
            guard let terms = arguments.strings(0) else { return reply.invalid("terms must be an array of strings") }
            answer(reply) { .tuple([.strings(await self.offers(terms.joined(separator: " ")).map(\.id))]) }
        case (Self.searchProviderPath, "GetSubsearchResultSet"):
            guard let terms = arguments.strings(1) else { return reply.invalid("terms must be an array of strings") }
            answer(reply) { .tuple([.strings(await self.offers(terms.joined(separator: " ")).map(\.id))]) }
        case (Self.searchProviderPath, "GetResultMetas"):
            guard let ids = arguments.strings(0) else { return reply.invalid("identifiers must be strings") }
            let metas: [BusValue] = ids.compactMap { id in
                guard let result = meta(id) else { return nil }
                return .dictionary([
                    ("id", .string(id)), ("name", .string(result.title)),
                    ("description", .string(result.detail)),
                ])
            }
            reply.send(.tuple([.array(elementType: "a{sv}", metas)]))
        case (Self.searchProviderPath, "ActivateResult"):
            guard let id = arguments.string(0) else { return reply.invalid("the identifier must be a string") }
            answer(reply) {
                await self.choose(id)
                return nil
            }
        case (Self.searchProviderPath, "LaunchSearch"):
            openApp()
            reply.send(nil)
        case (Self.krunnerPath, "Actions"):
            reply.send(.tuple([.array(elementType: "(sss)", [])]))
        case (Self.krunnerPath, "Match"):
            guard let query = arguments.string(0) else { return reply.invalid("the query must be a string") }
            answer(reply) {
                let matches: [BusValue] = await self.offers(query).map { result in
                    // KRunner's match: id, text, icon, type (100, an exact match: the words asked
                    // for it), relevance and properties.
                    .tuple([
                        .string(result.id), .string(result.title), .string("hooray"), .int32(100), .double(1),
                        .dictionary([("subtext", .string(result.detail))]),
                    ])
                }
                return .tuple([.array(elementType: "(sssida{sv})", matches)])
            }
        case (Self.krunnerPath, "Run"):
            guard let id = arguments.string(0) else { return reply.invalid("the match id must be a string") }
            answer(reply) {
                await self.choose(id)
                return nil
            }
        case (Self.krunnerPath, "Teardown"):
            reply.send(nil)
        case (Self.itemPath, _), (Self.menuPath, _):
            calledTray(method, at: path, arguments: arguments, reply: reply)
        default:
            reply.unknown(method)
        }
    }

    /// Answers from a task: the bus thread goes on with the next call meanwhile.
    func answer(_ reply: BusReply, _ make: @escaping @Sendable () async -> BusValue?) {
        lock.withLock { answering += 1 }
        Task {
            reply.send(await make())
            lock.withLock { answering -= 1 }
        }
    }

    // MARK: Offers and choices

    func offers(_ query: String) async -> [LauncherResult] {
        let results = await Launcher.offers(for: query, from: host)
        lock.withLock {
            if metas.count > 256 { metas = [:] }
            for result in results { metas[result.id] = result }
        }
        return results
    }

    func meta(_ id: String) -> LauncherResult? {
        if let known = lock.withLock({ metas[id] }) { return known }
        return LauncherAction(id: id).map { LauncherResult($0) }
    }

    /// Carries out a chosen offer, once however often the same choice arrives within ``repeatWindow``.
    func choose(_ id: String) async {
        let now = ContinuousClock.now
        let repeated = lock.withLock {
            recent = recent.filter { now - $0.value < Self.repeatWindow }
            defer { recent[id] = now }
            return recent[id] != nil
        }
        guard !repeated else {
            logger.info("a launcher chose the same offer again within \(Self.repeatWindow); it was done once")
            return
        }
        guard let action = LauncherAction(id: id) else {
            logger.warning("a launcher chose an offer hoorayd never made; nothing was done")
            return
        }
        if case .open = action { return openApp() }
        switch await Launcher.perform(id: id, on: host) {
        case .done, .unknown: break
        case .failed(let message):
            // Not done, so choosing it again is not a repeat.
            _ = lock.withLock { recent.removeValue(forKey: id) }
            await tell(action.command?.plugin ?? "hooray", message)
        }
    }

    /// Opens the desktop app (D-Bus activation starts it), at `place` (its `show` action's names, such
    /// as `log`) or as it opens; when it is not installed, nothing happens.
    func openApp(at place: String? = nil) {
        onBusThread { bus in
            guard let connection = bus.connection else { return }
            let (method, arguments): (String, BusValue) =
                if let place {
                    (
                        "ActivateAction",
                        .tuple([
                            .string("show"), .array(elementType: "v", [.variant(.tuple([.string(place)]))]),
                            .dictionary([]),
                        ])
                    )
                } else {
                    ("Activate", .tuple([.dictionary([])]))
                }
            g_dbus_connection_call(
                connection, DesktopBus.appBusName, DesktopBus.appPath, "org.freedesktop.Application", method,
                arguments.make(), nil, G_DBUS_CALL_FLAGS_NONE, 25_000, nil, nil, nil)
        }
    }

    /// Runs `work` on the bus thread, where the connection and the objects are touched.
    ///
    /// - Returns: `false` when the thread has ended, so `work` never runs.
    @discardableResult
    func onBusThread(_ work: @escaping (DesktopBus) -> Void) -> Bool {
        final class Box {
            let bus: DesktopBus
            let work: (DesktopBus) -> Void
            init(_ bus: DesktopBus, _ work: @escaping (DesktopBus) -> Void) {
                self.bus = bus
                self.work = work
            }
        }
        let run: GSourceFunc = { data in
            let box = Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue()
            box.work(box.bus)
            return 0
        }
        // Checked and attached at once: work attached before the thread closes is run by its last dispatch.
        return lock.withLock {
            guard !closed else { return false }
            let source = g_idle_source_new()
            g_source_set_callback(
                source, run, Unmanaged.passRetained(Box(self, work)).toOpaque(),
                { data in Unmanaged<AnyObject>.fromOpaque(data!).release() })
            g_source_attach(source, context)
            g_source_unref(source)
            return true
        }
    }
}

/// One method call's answer, sent once from any thread (GDBus allows it).
struct BusReply: @unchecked Sendable {
    // @unchecked: the invocation is only used by the one call of `send`, `invalid` or `unknown`.
    let invocation: OpaquePointer

    init(_ invocation: OpaquePointer) { self.invocation = invocation }

    /// Answers with `value`, a tuple of the method's out arguments, or nothing.
    func send(_ value: BusValue?) {
        g_dbus_method_invocation_return_value(invocation, value?.make())
    }

    func invalid(_ message: String) {
        g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.InvalidArgs", message)
    }

    func failed(_ message: String) {
        g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.Failed", message)
    }

    func unknown(_ method: String) {
        g_dbus_method_invocation_return_dbus_error(
            invocation, "org.freedesktop.DBus.Error.UnknownMethod", "hoorayd has no method \(method) here")
    }
}
