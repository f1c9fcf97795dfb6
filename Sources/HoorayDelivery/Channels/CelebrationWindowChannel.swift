import CLibNotify
import Foundation
import HoorayKit
import Logging

/// The desktop app's short celebration window, for milestones (a notice of category
/// `hooray.celebration.big`): hoorayd asks the app for it over the session bus with
/// `org.freedesktop.Application.ActivateAction("celebrate", …)` on `org.hooray.Hooray`, which the bus
/// starts through D-Bus activation (`org.hooray.Hooray.service`) when the app is not running.
///
/// It comes after libnotify's channel, so the notification is shown whatever happens here: with no
/// session bus or no app installed, the window is simply not shown. Calm delivery (do-not-disturb,
/// quiet hours) holds a milestone before any channel sees it, so the window waits as the
/// notification does. `[celebrations] window = false` leaves this channel out (the engine skips it).
///
/// Its handle is `shown`; it never updates a window, which closes itself after a few seconds.
public final class CelebrationWindowChannel: DeliveryChannel {
    /// The name its handles are stored under, and that `[celebrations] window = false` skips.
    public static let channelName = "window"
    /// The app's id: its name on the session bus.
    public static let applicationID = "org.hooray.Hooray"
    /// The app's object path, as GApplication derives it from the id.
    public static let objectPath = "/org/hooray/Hooray"
    /// The app's action that shows the window; its parameter is (title, body, style).
    public static let actionName = "celebrate"
    /// The notice category of milestones (``HoorayKit/Celebration/Size/big``).
    public static let milestoneCategory = "hooray.celebration.big"

    private let timeout: Duration
    private let logger: Logger

    public var name: String { Self.channelName }

    /// Creates the channel.
    ///
    /// - Parameters:
    ///   - timeout: How long to wait for the app (started on demand) to take the request.
    ///   - logger: Where a window that could not be asked for is logged.
    public init(timeout: Duration = .seconds(10), logger: Logger) {
        self.timeout = timeout
        self.logger = logger
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
        let (title, body, milliseconds) = (notice.title, notice.body, Int32(clamping: timeout.milliseconds))
        let failure: String? = await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(
                    returning: Self.askForWindow(title: title, body: body, style: style, timeout: milliseconds))
            }
            thread.name = "hooray-celebrate"
            thread.start()
        }
        if let failure {
            logger.info("no celebration window for notice \(id): \(failure); the notification alone shows it")
            return .unavailable(reason: failure)
        }
        return .delivered(handle: "shown")
    }

    public func shutdown() async {}

    /// The window's style for a milestone's notice, as the celebration center designed it: `calm`
    /// (low urgency) or `playful`; `nil` for any other notice.
    public static func style(of notice: Notice) -> String? {
        guard notice.category == milestoneCategory else { return nil }
        return notice.urgency == .low ? "calm" : "playful"
    }

    /// Calls the app's `celebrate` action on a connection of its own to the session bus.
    ///
    /// - Returns: Why the app could not be asked, or `nil` once it took the request.
    static func askForWindow(title: String, body: String, style: String, timeout: Int32) -> String? {
        var error: UnsafeMutablePointer<GError>?
        guard let address = g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            return "no session bus (\(GLibError(taking: error).message))"
        }
        defer { g_free(address) }
        let flags = GDBusConnectionFlags(
            rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let bus = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            return "the session bus cannot be reached (\(GLibError(taking: error).message))"
        }
        defer {
            g_dbus_connection_close_sync(bus, nil, nil)
            g_object_unref(UnsafeMutableRawPointer(bus))
        }
        let reply = g_dbus_connection_call_sync(
            bus, applicationID, objectPath, "org.freedesktop.Application", "ActivateAction",
            parameters(title: title, body: body, style: style), nil, G_DBUS_CALL_FLAGS_NONE, timeout, nil, &error)
        guard let reply else {
            let failure = GLibError(taking: error)
            return failure.meansNoServer
                ? "the desktop app is not installed (no \(applicationID) on the session bus)"
                : "the desktop app did not take it (\(failure.message))"
        }
        g_variant_unref(reply)
        return nil
    }

    /// `("celebrate", [<(title, body, style)>], {})`, floating: the call takes it.
    private static func parameters(title: String, body: String, style: String) -> OpaquePointer? {
        var strings: [OpaquePointer?] = [
            g_variant_new_string(title), g_variant_new_string(body), g_variant_new_string(style),
        ]
        let celebration = g_variant_new_tuple(&strings, 3)
        var wrapped: [OpaquePointer?] = [g_variant_new_variant(celebration)]
        let variantType = g_variant_type_new("v")
        defer { g_variant_type_free(variantType) }
        let arguments = g_variant_new_array(variantType, &wrapped, 1)
        let entryType = g_variant_type_new("{sv}")
        defer { g_variant_type_free(entryType) }
        let platformData = g_variant_new_array(entryType, nil, 0)
        var members: [OpaquePointer?] = [g_variant_new_string(actionName), arguments, platformData]
        return g_variant_new_tuple(&members, 3)
    }
}
