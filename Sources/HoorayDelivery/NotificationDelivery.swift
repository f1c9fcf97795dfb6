import HoorayKit
import Logging

/// Shows notices as desktop notifications through libnotify, and reports what the user does with them.
///
/// Every notification carries the application name "Hooray", the configured icon, the
/// `desktop-entry` hint, the notice's urgency, category and timeout, and its sound: the
/// `suppress-sound` hint for a silent notice, `sound-name` for a named one, neither when the server
/// decides. Before each notification the server's capabilities are read: bodies are escaped for
/// servers that read markup (see ``BodyMarkup``) and buttons are added only for servers that show
/// them. Titles are never markup.
///
/// All libnotify work happens on one dedicated thread that also runs the GLib main loop delivering
/// button presses. The async methods never wait longer than ``Configuration/timeout``: a server
/// that owns the name but never answers yields ``DeliveryOutcome/timedOut`` instead of blocking the
/// caller for GDBus's 25 seconds.
///
/// Consume ``events`` for button presses, closed notifications and the server coming and going;
/// ``DeliveryEvent/serverAppeared`` is the moment to retry notices that were not delivered.
///
/// libnotify is process-wide, so use one instance per process. A second instance works once the
/// first has been shut down; until then its calls wait (and time out). Call ``shutdown()`` when done.
///
/// The session bus is the one named by `DBUS_SESSION_BUS_ADDRESS` when the connection is made.
public final class NotificationDelivery: Sendable {
    /// The application name every notification carries.
    public static let appName = "Hooray"

    /// How notifications look and how long callers wait.
    public struct Configuration: Sendable {
        /// The icon name (from the icon theme) or absolute path of the icon shown with notifications.
        public var iconName: String
        /// The `desktop-entry` hint: the name of Hooray's `.desktop` file without its extension.
        public var desktopEntry: String
        /// How long a call waits for the notification server before it reports a timeout.
        public var timeout: Duration
        /// How often to try reconnecting while the session bus is gone.
        public var busRetryInterval: Duration
        /// Where delivery logs what it could not do.
        public var logger: Logger

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - iconName: The icon of notifications; `hooray` by default.
        ///   - desktopEntry: The `desktop-entry` hint; `hooray` by default.
        ///   - timeout: How long calls wait for the server; 5 seconds by default.
        ///   - busRetryInterval: How often to reconnect while the bus is gone; 10 seconds by default.
        ///   - logger: The logger; label `hooray.delivery` by default.
        public init(
            iconName: String = "hooray",
            desktopEntry: String = "hooray",
            timeout: Duration = .seconds(5),
            busRetryInterval: Duration = .seconds(10),
            logger: Logger = Logger(label: "hooray.delivery")
        ) {
            self.iconName = iconName
            self.desktopEntry = desktopEntry
            self.timeout = timeout
            self.busRetryInterval = busRetryInterval
            self.logger = logger
        }
    }

    /// The configuration this instance was made with.
    public let configuration: Configuration

    /// What happens on the desktop: button presses, closed notifications, the server coming and going.
    ///
    /// One consumer only. The stream ends when delivery shuts down.
    public let events: AsyncStream<DeliveryEvent>

    private let thread: DeliveryThread

    /// Starts delivery: its thread initialises libnotify and connects to the session bus.
    ///
    /// Creating it never fails; with no bus or no server, calls report ``DeliveryOutcome/unavailable(reason:)``
    /// until one is there.
    ///
    /// - Parameter configuration: Icon, hint and timeouts.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        let (events, continuation) = AsyncStream.makeStream(of: DeliveryEvent.self)
        self.events = events
        thread = DeliveryThread(session: LibNotifySession(configuration: configuration, events: continuation))
    }

    deinit {
        thread.stop()
    }

    /// Reads the notification server's name, version and capabilities.
    ///
    /// - Returns: The server's description, or why there is none.
    public func serverStatus() async -> ServerStatus {
        await thread.perform(
            timeout: configuration.timeout,
            timedOut: .timedOut,
            stopped: .unavailable(reason: DeliveryFailure.shutDown)
        ) { session in
            session.serverStatus()
        }
    }

    /// Asks the notification server whether it is in do-not-disturb mode, such as dunst paused.
    ///
    /// Servers with a change signal (dunst, KDE, GNOME) also report changes on ``events`` as
    /// ``DeliveryEvent/doNotDisturbChanged(_:)``; mako has none, so ask before delivering.
    ///
    /// - Returns: The state and the server it comes from; ``DoNotDisturb/off`` when there is no
    ///   server, it keeps no such state, or it did not answer in time.
    public func doNotDisturb() async -> DoNotDisturb {
        await thread.perform(timeout: configuration.timeout, timedOut: .off, stopped: .off) { session in
            session.doNotDisturb()
        }
    }

    /// Shows a notice, or updates it in place.
    ///
    /// A notice this process already shows is updated in place: same notification, same server id,
    /// new text and buttons. After a restart, pass the server id stored from the earlier process as
    /// `serverID` to replace that notification instead of adding a second one.
    ///
    /// - Parameters:
    ///   - notice: What to show.
    ///   - id: The engine's id of the notice, reported back with its button presses.
    ///   - serverID: The server id of an earlier notification of this notice to replace, if any.
    /// - Returns: The server id, or why it was not shown. After ``DeliveryOutcome/timedOut``, a
    ///   notification the server shows late is closed again, so retrying never shows it twice.
    public func show(_ notice: Notice, id: NoticeID, replacing serverID: UInt32? = nil) async -> DeliveryOutcome {
        await thread.perform(
            timeout: configuration.timeout,
            timedOut: .timedOut,
            stopped: .unavailable(reason: DeliveryFailure.shutDown)
        ) { session in
            session.show(notice, id: id, replacing: serverID)
        } whenLate: { session, outcome in
            if case .delivered(let serverID) = outcome {
                session.withdrawLateDelivery(of: id, serverID: serverID)
            }
        }
    }

    /// Closes a notification, whichever process showed it.
    ///
    /// - Parameter serverID: The id the server gave it.
    /// - Returns: Whether the server was asked, or why not.
    public func close(serverID: UInt32) async -> CloseOutcome {
        await thread.perform(
            timeout: configuration.timeout,
            timedOut: .timedOut,
            stopped: .unavailable(reason: DeliveryFailure.shutDown)
        ) { session in
            session.close(serverID: serverID)
        }
    }

    /// Stops delivery: notifications stay on screen, libnotify is released and the thread exits.
    ///
    /// Notifications with buttons are left alone so that the next `hoorayd` can take them over by
    /// their server ids; close them first with ``close(serverID:)`` if they should go. Later calls
    /// report ``DeliveryOutcome/unavailable(reason:)`` and ``events`` ends.
    ///
    /// Waits for the thread at most the configured timeout (at least one second): a call blocked
    /// on a hung server can hold it longer, and it then exits on its own.
    public func shutdown() async {
        thread.stop()
        await thread.waitUntilExited(timeout: max(configuration.timeout, .seconds(1)))
    }
}
