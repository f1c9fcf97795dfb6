import CLibNotify
import Foundation
import HoorayKit
import HoorayThreads
import Logging

/// The desktop app's short celebration window, for milestones (a notice of category
/// `hooray.celebration.big`): hoorayd asks the app for it over the session bus with
/// `org.freedesktop.Application.ActivateAction("celebrate", …)` on `org.hooray.Hooray`, which the bus
/// starts through D-Bus activation (`org.hooray.Hooray.service`) when the app is not running.
///
/// It is auxiliary (``isAuxiliary``): the window never counts as the milestone shown, so with no
/// notification server the milestone waits in `hooray inbox` all the same; and it is asked for once,
/// the first time the milestone is handed over, never on a retry or an update. The request is sent
/// on one long-lived thread and bus connection of the channel's own, without waiting for the app to
/// start: delivery of this and later notices goes on at once. With no session bus or no app
/// installed, the window is simply not shown (and logged). Calm delivery (do-not-disturb, quiet
/// hours) holds a milestone before any channel sees it, so the window waits as the notification
/// does. `[celebrations] window = false` turns it off (``turnedOff(window:)``).
///
/// Its handle is `asked`; it never updates a window, which closes itself after a few seconds.
public final class CelebrationWindowChannel: DeliveryChannel {
    /// The name its handles are stored under, and that `[celebrations] window = false` turns off.
    public static let channelName = "window"
    /// The app's id: its name on the session bus.
    public static let applicationID = "org.hooray.Hooray"
    /// The app's object path, as GApplication derives it from the id.
    public static let objectPath = "/org/hooray/Hooray"
    /// The app's action that shows the window; its parameter is (title, body, style).
    public static let actionName = "celebrate"
    /// The app's action that opens its window at a place (``HoorayKit/AppPlace``); its parameter is
    /// (place).
    public static let showActionName = "show"
    /// The notice category of milestones (``HoorayKit/Celebration/Size/big``).
    public static let milestoneCategory = "hooray.celebration.big"

    private let asker: WindowAsker
    private let logger: Logger

    public var name: String { Self.channelName }
    public var isAuxiliary: Bool { true }

    /// Creates the channel.
    ///
    /// - Parameters:
    ///   - timeout: How long the app (started on demand) may take to take a request (`[delivery]
    ///     server_timeout`); only the channel's own thread waits for it.
    ///   - logger: Where a window that could not be asked for is logged.
    public init(timeout: Duration, logger: Logger) {
        asker = WindowAsker(timeout: Int32(clamping: timeout.milliseconds))
        self.logger = logger
    }

    /// The channels `[celebrations] window` turns off: this one when it is `false`.
    public static func turnedOff(window: Bool) -> Set<String> {
        window ? [] : [channelName]
    }

    public func start(onEvent: @escaping @Sendable (ChannelEvent) -> Void) {}

    /// Never available on its own: whether notices can be shown is the notification server's to say.
    public func status() async -> ServerStatus {
        .unavailable(reason: "the celebration window shows milestones only")
    }

    public func deliver(_ notice: Notice, id: NoticeID, replacing: String?) async -> ChannelOutcome {
        guard replacing == nil, let style = Self.style(of: notice) else {
            return .unavailable(reason: "the celebration window shows milestones only")
        }
        let logger = logger
        asker.ask(Self.actionName, texts: [notice.title, notice.body, style]) { failure in
            logger.info("no celebration window for notice \(id): \(failure); the notification alone shows it")
        }
        return .delivered(handle: "asked")
    }

    public func shutdown() async {}

    /// Opens the app's window at `place`, for a click on a notification; returns at once.
    public func open(at place: AppPlace) {
        let logger = logger
        asker.ask(Self.showActionName, texts: [place.rawValue]) { failure in
            logger.info("a notification could not open \(place.rawValue) in the desktop app: \(failure)")
        }
    }

    /// The window's style for a milestone's notice, as the celebration center designed it: `calm`
    /// (low urgency) or `playful`; `nil` for any other notice.
    public static func style(of notice: Notice) -> String? {
        guard notice.category == milestoneCategory else { return nil }
        return notice.urgency == .low ? "calm" : "playful"
    }

    /// `(action, [<(texts…)>], {})`, floating: the call takes it.
    static func parameters(action: String, texts: [String]) -> OpaquePointer? {
        var strings: [OpaquePointer?] = texts.map { g_variant_new_string($0) }
        let celebration = g_variant_new_tuple(&strings, gsize(strings.count))
        var wrapped: [OpaquePointer?] = [g_variant_new_variant(celebration)]
        let variantType = g_variant_type_new("v")
        defer { g_variant_type_free(variantType) }
        let arguments = g_variant_new_array(variantType, &wrapped, 1)
        let entryType = g_variant_type_new("{sv}")
        defer { g_variant_type_free(entryType) }
        let platformData = g_variant_new_array(entryType, nil, 0)
        var members: [OpaquePointer?] = [g_variant_new_string(action), arguments, platformData]
        return g_variant_new_tuple(&members, 3)
    }
}

/// Sends the celebration window's requests, one after another, on a thread and a private session
/// bus connection of its own, kept open between requests (not the process's shared connection,
/// which would end the process should the bus go away).
final class WindowAsker: @unchecked Sendable {
    // @unchecked: `bus` is only touched on `queue`'s thread.
    private let queue = SerialThread(name: "hooray-celebrate")
    private let timeout: Int32
    private var bus: OpaquePointer?

    init(timeout: Int32) {
        self.timeout = timeout
    }

    deinit {
        queue.finish()
        if let bus { g_object_unref(UnsafeMutableRawPointer(bus)) }
    }

    /// Queues a request for the app's `action` with `texts` and returns at once; `failed` is called,
    /// on the asker's thread, with why the app could not be asked.
    func ask(_ action: String, texts: [String], failed: @escaping @Sendable (String) -> Void) {
        queue.async {
            if let failure = self.send(action, texts: texts) { failed(failure) }
        }
    }

    /// Calls the app's action, opening the connection first when none is open.
    ///
    /// - Returns: Why the app could not be asked, or `nil` once it took the request.
    private func send(_ action: String, texts: [String]) -> String? {
        var error: UnsafeMutablePointer<GError>?
        if let open = bus, g_dbus_connection_is_closed(open) != 0 {
            g_object_unref(UnsafeMutableRawPointer(open))
            bus = nil
        }
        if bus == nil {
            guard let address = g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION, nil, &error) else {
                return "no session bus (\(GLibError(taking: error).message))"
            }
            defer { g_free(address) }
            let flags = GDBusConnectionFlags(
                rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                    | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
            guard let opened = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
                return "the session bus cannot be reached (\(GLibError(taking: error).message))"
            }
            g_dbus_connection_set_exit_on_close(opened, 0)
            bus = opened
        }
        let reply = g_dbus_connection_call_sync(
            bus, CelebrationWindowChannel.applicationID, CelebrationWindowChannel.objectPath,
            "org.freedesktop.Application", "ActivateAction",
            CelebrationWindowChannel.parameters(action: action, texts: texts), nil, G_DBUS_CALL_FLAGS_NONE,
            timeout, nil, &error)
        guard let reply else {
            let failure = GLibError(taking: error)
            return failure.meansNoServer
                ? "the desktop app is not installed (no \(CelebrationWindowChannel.applicationID) on the session bus)"
                : "the desktop app did not take it (\(failure.message))"
        }
        g_variant_unref(reply)
        return nil
    }
}
