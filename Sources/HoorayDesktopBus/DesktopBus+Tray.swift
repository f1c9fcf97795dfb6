import CLibNotify
import Foundation
import HoorayClient
import HoorayLauncher

/// The tray icon's state, guarded by ``DesktopBus/lock``.
struct TrayState {
    /// Whether `[delivery] tray` asks for the icon.
    var wanted: Bool
    /// Whether the user chose Quit the tray: it stays away until hoorayd starts again.
    var quit = false
    /// The menu last made; `nil` before the first.
    var menu: TrayMenu?
    /// The status bar's snapshot the tray was last handed; `nil` before the first, when it is asked for.
    var bar: BarSnapshot?
    /// Whether the desktop app can be opened, as last asked.
    var appInstalled = false
    /// The menu's revision, one more each time it is made again.
    var revision: UInt32 = 0
    /// Each entry's id, by its action's key: an entry keeps its id while it stays in the menu.
    var ids: [String: Int32] = [:]
    var nextID: Int32 = 1
    /// The ids of the menu's entries, in order.
    var entryIDs: [Int32] = []
    /// Whether a new menu is being made, and whether another change came meanwhile.
    var refreshing = false
    var refreshAgain = false
    /// What keeps the menu up to date while the icon is in a tray.
    var following: Task<Void, Never>?

    init(wanted: Bool) { self.wanted = wanted }

    /// The entry with the id `id`, and its place.
    func entry(_ id: Int32) -> TrayMenu.Entry? {
        guard let menu, let index = entryIDs.firstIndex(of: id), index < menu.entries.count else { return nil }
        return menu.entries[index]
    }
}

/// A call to the bus waiting for its reply: what reads it.
private final class PendingBusCall {
    let done: (OpaquePointer?) -> Void
    init(_ done: @escaping (OpaquePointer?) -> Void) { self.done = done }
}

/// The tray's hold on the bus, touched on the bus thread only.
struct TrayBus {
    /// The watch of ``DesktopBus/watcherName``.
    var watch: guint = 0
    /// The ownership of the item's own name, while the icon is shown.
    var owner: guint = 0
    /// Whether the StatusNotifierWatcher is on the bus.
    var watcherPresent = false
}

/// The tray icon: a StatusNotifierItem (`org.kde.StatusNotifierItem`, as KDE Plasma, XFCE, waybar and
/// GNOME's AppIndicator extension show it) with its menu over `com.canonical.dbusmenu`.
///
/// The item is registered with `org.kde.StatusNotifierWatcher` whenever the watcher comes onto the
/// bus, and the watcher's name is watched, never polled: a desktop without a tray (GNOME without the
/// extension) gets nothing. While it is shown, the menu is made again after each of hoorayd's
/// changes; each entry is a command hoorayd already runs (``TrayMenu``).
extension DesktopBus {
    static let itemPath = "/StatusNotifierItem"
    static let menuPath = "/MenuBar"
    static let watcherName = "org.kde.StatusNotifierWatcher"
    static let watcherPath = "/StatusNotifierWatcher"

    /// The item's own bus name, as the StatusNotifierItem specification names items.
    var itemName: String { "org.kde.StatusNotifierItem-\(getpid())-1" }

    // MARK: Showing and hiding

    /// Shows or hides the icon, as `[delivery] tray` now says (after a reload).
    public func setTray(shown: Bool) {
        lock.withLock { tray.wanted = shown }
        onBusThread { bus in bus.showOrHideTray() }
    }

    /// Watches for the tray's watcher (bus thread).
    func watchForTray() {
        guard let connection else { return }
        trayBus.watch = g_bus_watch_name_on_connection(
            connection, Self.watcherName, G_BUS_NAME_WATCHER_FLAGS_NONE,
            { _, _, _, data in
                let bus = Unmanaged<DesktopBus>.fromOpaque(data!).takeUnretainedValue()
                bus.trayBus.watcherPresent = true
                bus.showOrHideTray(watcherCame: true)
            },
            { _, _, data in
                let bus = Unmanaged<DesktopBus>.fromOpaque(data!).takeUnretainedValue()
                if bus.trayBus.watcherPresent, bus.trayBus.owner != 0 {
                    bus.logger.info("the tray went away; hoorayd's icon comes back with it")
                }
                bus.trayBus.watcherPresent = false
            }, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    /// Leaves the tray and stops watching for it, as the bus closes (bus thread).
    func leaveTray() {
        if trayBus.watch != 0 { g_bus_unwatch_name(trayBus.watch) }
        trayBus.watch = 0
        hideTray()
    }

    /// Shows the icon when it is wanted, not quit and a watcher is there; hides it otherwise (bus thread).
    ///
    /// - Parameter watcherCame: Whether a watcher just came onto the bus: it knows no items yet, so
    ///   an icon shown already is registered with it again.
    func showOrHideTray(watcherCame: Bool = false) {
        let (wanted, quit) = lock.withLock { (tray.wanted, tray.quit) }
        guard wanted, !quit else {
            if watcherCame {
                logger.info(
                    "a tray came onto the session bus; hoorayd's icon stays away, as \(quit ? "Quit the tray" : "[delivery] tray = false") asked"
                )
            }
            return hideTray()
        }
        guard trayBus.watcherPresent, let connection else { return }
        if trayBus.owner != 0 {
            if watcherCame { registerWithWatcher() }
            return
        }
        trayBus.owner = g_bus_own_name_on_connection(
            connection, itemName, G_BUS_NAME_OWNER_FLAGS_NONE,
            { _, _, data in
                // The menu and tooltip are made first: a tray reads them as soon as it hears of the icon.
                let bus = Unmanaged<DesktopBus>.fromOpaque(data!).takeUnretainedValue()
                Task {
                    _ = await bus.currentMenu()
                    bus.onBusThread { bus in bus.registerWithWatcher() }
                }
            },
            { _, name, data in
                let bus = Unmanaged<DesktopBus>.fromOpaque(data!).takeUnretainedValue()
                bus.logger.warning("the tray icon's bus name \(String(cString: name!)) is taken; no icon is shown")
            }, Unmanaged.passUnretained(self).toOpaque(), nil)
        startFollowing()
    }

    /// Takes the icon out of the tray: the item's name goes, so the watcher drops it (bus thread).
    func hideTray() {
        guard trayBus.owner != 0 else { return }
        g_bus_unown_name(trayBus.owner)
        trayBus.owner = 0
        let following = lock.withLock {
            defer { tray.following = nil }
            return tray.following
        }
        following?.cancel()
    }

    /// Tells the watcher where the item is (bus thread).
    private func registerWithWatcher() {
        // Quit or hidden meanwhile: the name is not the icon's any more.
        guard let connection, trayBus.watcherPresent, trayBus.owner != 0 else { return }
        g_dbus_connection_call(
            connection, Self.watcherName, Self.watcherPath, Self.watcherName, "RegisterStatusNotifierItem",
            BusValue.tuple([.string(itemName)]).make(), nil, G_DBUS_CALL_FLAGS_NONE, 25_000, nil,
            { source, result, data in
                let bus = Unmanaged<DesktopBus>.fromOpaque(data!).takeUnretainedValue()
                var error: UnsafeMutablePointer<GError>?
                let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error)
                if let reply {
                    g_variant_unref(reply)
                    bus.logger.info("hoorayd's icon is in the tray")
                } else {
                    bus.logger.warning("the tray did not take hoorayd's icon: \(DesktopBus.take(&error))")
                }
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    // MARK: The menu

    /// Keeps the menu up to date while the icon is shown: after each change hoorayd publishes, with
    /// the status bar's snapshot made for it.
    private func startFollowing() {
        let updates = trayUpdates
        let task = Task { [weak self] in
            guard let updates else { return }
            for await snapshot in updates() {
                guard let self else { return }
                self.lock.withLock { self.tray.bar = snapshot }
                self.trayChanged()
            }
        }
        let old = lock.withLock {
            defer { tray.following = task }
            return tray.following
        }
        old?.cancel()
    }

    /// Makes the menu again from what hoorayd knows now, and tells the tray; changes that come while
    /// it is made are taken in one more round.
    func trayChanged() {
        let start = lock.withLock {
            if tray.refreshing {
                tray.refreshAgain = true
                return false
            }
            tray.refreshing = true
            return true
        }
        guard start else { return }
        Task {
            var again = true
            while again {
                publish(await makeMenu())
                again = lock.withLock {
                    let again = tray.refreshAgain
                    tray.refreshAgain = false
                    if !again { tray.refreshing = false }
                    return again
                }
            }
        }
    }

    /// The menu for what hoorayd knows now.
    func makeMenu() async -> TrayMenu {
        async let habits = host.checklist()
        let known = lock.withLock { tray.bar }
        let bar = known != nil ? known : await host.bar()
        let installed = await appInstalled()
        return TrayMenu(bar: bar, habits: await habits ?? [], appInstalled: installed)
    }

    /// Keeps `menu` with ids for its entries, and tells the tray it changed.
    ///
    /// - Parameter first: Keep it only when there is no menu yet (a newer one may have come meanwhile).
    private func publish(_ menu: TrayMenu, first: Bool = false) {
        let revision: UInt32? = lock.withLock {
            guard !first || tray.menu == nil else { return nil }
            tray.menu = menu
            var ids: [Int32] = []
            var keys: Set<String> = []
            for (index, entry) in menu.entries.enumerated() {
                let key = entry.action?.key ?? (entry.isSeparator ? "separator:\(index)" : "line:\(entry.label)")
                keys.insert(key)
                if let id = tray.ids[key] {
                    ids.append(id)
                } else {
                    // Never an id given before: a click on an entry of an older menu then names nothing.
                    tray.ids[key] = tray.nextID
                    ids.append(tray.nextID)
                    tray.nextID += 1
                }
            }
            tray.ids = tray.ids.filter { keys.contains($0.key) }
            tray.entryIDs = ids
            tray.revision += 1
            return tray.revision
        }
        guard let revision else { return }
        onBusThread { bus in
            guard let connection = bus.connection else { return }
            g_dbus_connection_emit_signal(
                connection, nil, Self.menuPath, "com.canonical.dbusmenu", "LayoutUpdated",
                BusValue.tuple([.uint32(revision), .int32(0)]).make(), nil)
            g_dbus_connection_emit_signal(
                connection, nil, Self.itemPath, "org.kde.StatusNotifierItem", "NewToolTip", nil, nil)
        }
    }

    /// The menu as it is, made first when there is none yet.
    func currentMenu() async -> (menu: TrayMenu, revision: UInt32, ids: [Int32]) {
        if lock.withLock({ tray.menu == nil }) { publish(await makeMenu(), first: true) }
        return lock.withLock { (tray.menu!, tray.revision, tray.entryIDs) }
    }

    /// Whether the desktop app is installed (the bus can start it) or running; asked without
    /// holding the bus thread.
    private func appInstalled() async -> Bool {
        let activatable = await callBus("ListActivatableNames", replyType: "(as)") { $0.strings(0) } ?? []
        let installed =
            activatable.contains(Self.appBusName)
            ? true
            : await callBus("NameHasOwner", .tuple([.string(Self.appBusName)]), replyType: "(b)") { $0.boolean(0) }
                ?? false
        lock.withLock { tray.appInstalled = installed }
        return installed
    }

    /// Calls a method of the bus itself (`org.freedesktop.DBus`) and reads its reply; `nil` when it
    /// failed or the bus is gone.
    private func callBus<Value: Sendable>(
        _ method: String, _ arguments: BusValue? = nil, replyType: String,
        read: @escaping @Sendable (BusArguments) -> Value?
    ) async -> Value? {
        return await withCheckedContinuation { (answer: CheckedContinuation<Value?, Never>) in
            let attached = onBusThread { bus in
                guard let connection = bus.connection else { return answer.resume(returning: nil) }
                let pending = PendingBusCall { reply in
                    answer.resume(returning: reply.flatMap { read(BusArguments(parameters: $0)) })
                }
                let type = g_variant_type_new(replyType)
                defer { g_variant_type_free(type) }
                g_dbus_connection_call(
                    connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", method,
                    arguments?.make(), type, G_DBUS_CALL_FLAGS_NONE, 2_000, nil,
                    { source, result, data in
                        let pending = Unmanaged<PendingBusCall>.fromOpaque(data!).takeRetainedValue()
                        var error: UnsafeMutablePointer<GError>?
                        let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error)
                        if let error { g_error_free(error) }
                        pending.done(reply)
                        if let reply { g_variant_unref(reply) }
                    }, Unmanaged.passRetained(pending).toOpaque())
            }
            if !attached { answer.resume(returning: nil) }
        }
    }

    // MARK: Calls

    /// A property of the item or its menu.
    func property(_ name: String, at path: String) -> BusValue? {
        let noPixmaps = BusValue.array(elementType: "(iiay)", [])
        switch (path, name) {
        case (Self.itemPath, "Category"): return .string("ApplicationStatus")
        case (Self.itemPath, "Id"): return .string("hooray")
        case (Self.itemPath, "Title"): return .string("Hooray")
        case (Self.itemPath, "Status"): return .string("Active")
        case (Self.itemPath, "WindowId"): return .int32(0)
        case (Self.itemPath, "IconThemePath"), (Self.itemPath, "OverlayIconName"),
            (Self.itemPath, "AttentionIconName"), (Self.itemPath, "AttentionMovieName"):
            return .string("")
        case (Self.itemPath, "IconName"): return .string("hooray")
        case (Self.itemPath, "IconPixmap"), (Self.itemPath, "OverlayIconPixmap"),
            (Self.itemPath, "AttentionIconPixmap"):
            return noPixmaps
        case (Self.itemPath, "Menu"): return .objectPath(Self.menuPath)
        // Without the app, a click has nothing to open: the tray shows the menu instead.
        case (Self.itemPath, "ItemIsMenu"): return .boolean(!lock.withLock { tray.appInstalled })
        case (Self.itemPath, "ToolTip"):
            // Plasma reads the tooltip's text as a little HTML: a habit named "<b>" stays as typed.
            let menu = lock.withLock { tray.menu }
            return .tuple([
                .string("hooray"), noPixmaps, .string(Self.escaped(menu?.title ?? "Hooray")),
                .string(Self.escaped(menu?.tooltip ?? "")),
            ])
        case (Self.menuPath, "Version"): return .uint32(3)
        case (Self.menuPath, "TextDirection"): return .string("ltr")
        case (Self.menuPath, "Status"): return .string("normal")
        case (Self.menuPath, "IconThemePath"): return .strings([])
        default: return nil
        }
    }

    /// A method of the item or its menu (bus thread).
    func calledTray(_ method: String, at path: String, arguments: BusArguments, reply: BusReply) {
        switch (path, method) {
        case (Self.itemPath, "Activate"):
            if lock.withLock({ tray.appInstalled }) { openApp() }
            reply.send(nil)
        case (Self.itemPath, "SecondaryActivate"), (Self.itemPath, "ContextMenu"), (Self.itemPath, "Scroll"):
            reply.send(nil)
        case (Self.menuPath, "GetLayout"):
            guard let parent = arguments.int32(0) else { return reply.invalid("parentId must be an int32") }
            answerOrRefuse(reply) {
                let (menu, revision, ids) = await self.currentMenu()
                guard let layout = Self.layout(of: menu, ids: ids, parent: parent) else {
                    return .failure("the menu has no item \(parent) now")
                }
                return .success(.tuple([.uint32(revision), layout]))
            }
        case (Self.menuPath, "GetGroupProperties"):
            guard let wanted = arguments.int32s(0) else { return reply.invalid("ids must be an array of int32") }
            answer(reply) {
                let (menu, _, ids) = await self.currentMenu()
                let found: [BusValue] = wanted.compactMap { id in
                    Self.properties(of: menu, ids: ids, id: id).map { .tuple([.int32(id), .dictionary($0)]) }
                }
                return .tuple([.array(elementType: "(ia{sv})", found)])
            }
        case (Self.menuPath, "GetProperty"):
            guard let id = arguments.int32(0), let name = arguments.string(1) else {
                return reply.invalid("give an item's id and a property's name")
            }
            answerOrRefuse(reply) {
                let (menu, _, ids) = await self.currentMenu()
                guard let value = Self.properties(of: menu, ids: ids, id: id)?.first(where: { $0.0 == name }) else {
                    return .failure("the menu's item \(id) has no property \(name) now")
                }
                return .success(.tuple([.variant(value.1)]))
            }
        case (Self.menuPath, "Event"):
            guard let id = arguments.int32(0), let event = arguments.string(1) else {
                return reply.invalid("give an item's id and the event's name")
            }
            if event == "clicked" { clicked(id) }
            reply.send(nil)
        case (Self.menuPath, "EventGroup"):
            guard let events = arguments.menuEvents(0) else { return reply.invalid("events must be a(isvu)") }
            let unknown = events.filter { lock.withLock { [id = $0.id] in tray.entry(id) } == nil }.map(\.id)
            for event in events where event.event == "clicked" { clicked(event.id) }
            reply.send(.tuple([.array(elementType: "i", unknown.map { .int32($0) })]))
        case (Self.menuPath, "AboutToShow"):
            reply.send(.tuple([.boolean(false)]))
        case (Self.menuPath, "AboutToShowGroup"):
            reply.send(.tuple([.array(elementType: "i", []), .array(elementType: "i", [])]))
        default:
            reply.unknown(method)
        }
    }

    /// Carries out the entry with the id `id`; an id of an older menu that names nothing now does nothing.
    private func clicked(_ id: Int32) {
        guard let action = lock.withLock({ tray.entry(id)?.action }) else { return }
        switch action {
        case .open(let place):
            openApp(at: place == .home ? nil : place.rawValue)
        case .tickHabit(let name):
            answerQuietly { await self.choose(LauncherAction.tickHabit(name).id) }
        case .pause(let length):
            answerQuietly { await self.paused(self.host.pause(length)) }
        case .resume:
            answerQuietly { await self.paused(self.host.pause(nil)) }
        case .quitTray:
            lock.withLock { tray.quit = true }
            logger.notice(
                "the tray icon was quit; it comes back when hoorayd starts again ([delivery] tray = false keeps it away)"
            )
            hideTray()
        }
    }

    /// Answers from a task, with the value or, for arguments that name nothing, an error.
    private func answerOrRefuse(_ reply: BusReply, _ make: @escaping @Sendable () async -> Result<BusValue, Refusal>) {
        lock.withLock { answering += 1 }
        Task {
            switch await make() {
            case .success(let value): reply.send(value)
            case .failure(let refusal): reply.invalid(refusal.message)
            }
            lock.withLock { answering -= 1 }
        }
    }

    /// Why a call's arguments name nothing.
    struct Refusal: Error, ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
        let message: String
        init(stringLiteral value: String) { message = value }
        init(stringInterpolation: DefaultStringInterpolation) {
            message = String(stringInterpolation: stringInterpolation)
        }
    }

    /// Says a pause that could not be set in a notice.
    private func paused(_ outcome: LauncherOutcome) async {
        if case .failed(let message) = outcome { await tell("hooray", message) }
    }

    /// Runs `work` in a task that `stop` waits for, as an answer is waited for.
    private func answerQuietly(_ work: @escaping @Sendable () async -> Void) {
        lock.withLock { answering += 1 }
        Task {
            await work()
            lock.withLock { answering -= 1 }
        }
    }

    /// `text` with `&`, `<` and `>` as HTML entities.
    static func escaped(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
    }

    // MARK: Layout

    /// dbusmenu's layout `(ia{sv}av)` of the item `parent`: the root with its entries, or one entry.
    static func layout(of menu: TrayMenu, ids: [Int32], parent: Int32) -> BusValue? {
        guard let own = properties(of: menu, ids: ids, id: parent) else { return nil }
        let children: [BusValue] =
            parent == 0
            ? ids.map { id in
                .variant(
                    .tuple([
                        .int32(id), .dictionary(properties(of: menu, ids: ids, id: id) ?? []),
                        .array(elementType: "v", []),
                    ]))
            } : []
        return .tuple([.int32(parent), .dictionary(own), .array(elementType: "v", children)])
    }

    /// The dbusmenu properties of the item `id`; `nil` when the menu has none such.
    static func properties(of menu: TrayMenu, ids: [Int32], id: Int32) -> [(String, BusValue)]? {
        if id == 0 { return [("children-display", .string("submenu"))] }
        guard let index = ids.firstIndex(of: id), index < menu.entries.count else { return nil }
        let entry = menu.entries[index]
        if entry.isSeparator { return [("type", .string("separator"))] }
        // An underscore marks a mnemonic in dbusmenu's labels: doubled, it is an underscore.
        var properties: [(String, BusValue)] = [
            ("label", .string(entry.label.replacing("_", with: "__"))), ("enabled", .boolean(entry.action != nil)),
        ]
        if entry.isCheckbox { properties += [("toggle-type", .string("checkmark")), ("toggle-state", .int32(0))] }
        return properties
    }
}
