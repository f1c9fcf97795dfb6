import CLibNotify
import HoorayKit
import Logging

private let serverName = "org.freedesktop.Notifications"
private let serverPath = "/org/freedesktop/Notifications"
private let serverInterface = "org.freedesktop.Notifications"

/// libnotify, the session bus connection and the notifications on screen, as the delivery thread sees them.
///
/// Every method runs on the delivery thread (see ``DeliveryThread``), including the C callbacks,
/// which GLib dispatches from the thread's main loop. Nothing here is shared with other threads,
/// which is why it needs no locks.
///
/// Decisions worth knowing:
/// - The session bus connection is opened here, before libnotify touches it, so that
///   `exit-on-close` can be turned off: GIO's default raises `SIGTERM` in the whole process when the
///   session bus goes away, and `hoorayd` must survive that and keep its notices.
/// - Capabilities, server information and closing are plain GDBus calls with the configured
///   timeout. libnotify's own `notify_get_server_caps` and `notify_get_server_info` return no error
///   (so no reason for the user), log warnings when there is no server, and wait 25 s on a hung one.
///   Showing goes through libnotify, which is what keeps buttons and `closed` signals working.
/// - libnotify 0.8 drops its cached D-Bus proxy by itself when there is no server, and its proxy
///   follows a server that restarts, so it is reset (`notify_uninit` + `notify_init`) only when the
///   bus connection itself was lost. `notify_uninit` also closes every notification with buttons
///   it still knows, so ours are released first: they are gone with the bus anyway.
final class LibNotifySession {
    let configuration: NotificationDelivery.Configuration
    /// The thread this session lives on; set by the thread before it starts.
    weak var thread: DeliveryThread?
    /// Set by ``stop()``; jobs that run afterwards only answer.
    private(set) var isStopped = false

    private let events: AsyncStream<DeliveryEvent>.Continuation
    private var logger: Logger { configuration.logger }
    private var connection: OpaquePointer?
    private var connectionClosedHandler: gulong = 0
    private var nameWatch: guint = 0
    private var retryTimer: UnsafeMutablePointer<GSource>?
    private var serverPresent = false
    private var shown: [NoticeID: ShownNotification] = [:]
    /// The button each notification's typed reply answers, where the server takes one.
    private var replyActions: [NoticeID: String] = [:]
    private var replySubscription: guint = 0
    /// Whether the bus can start the desktop app, asked once per connection.
    var appIsActivatable: Bool?
    /// Notifications the server closed, kept until libnotify has finished emitting `closed` on them.
    private var closedNotifications: [ShownNotification] = []
    /// The do-not-disturb state last reported on ``events``.
    private var reportedDoNotDisturb = DoNotDisturb.off
    /// The server's name, from `GetServerInformation`, until it leaves the bus.
    private var knownServerName: String?
    /// The do-not-disturb state while it needs no asking: of a server whose change signals are
    /// followed (cleared when one comes), or of one that keeps no such state. Until the server leaves.
    private var settledDoNotDisturb: DoNotDisturb?
    private lazy var doNotDisturbWatch = DoNotDisturbWatch(timeout: configuration.timeout, logger: logger) {
        [weak self] in
        // Read outside the signal's dispatch, after the jobs already queued.
        self?.thread?.post { [weak self] in
            self?.settledDoNotDisturb = nil
            self?.reportDoNotDisturb()
        }
    }

    init(configuration: NotificationDelivery.Configuration, events: AsyncStream<DeliveryEvent>.Continuation) {
        self.configuration = configuration
        self.events = events
    }

    // MARK: Life cycle

    /// Initialises libnotify and connects to the bus, the first thing the thread does.
    func start() {
        notify_init(NotificationDelivery.appName)
        if case .failure(let failure) = connectedBus() {
            logger.debug("Notification delivery starts without a session bus", metadata: ["reason": "\(failure)"])
        }
    }

    /// Releases everything: notifications (left on screen), the name watch, the bus and libnotify.
    func stop() {
        guard !isStopped else { return }
        isStopped = true
        cancelRetry()
        // Released before notify_uninit, which would otherwise close every notification with buttons.
        releaseNotifications()
        disconnect()
        notify_uninit()
        events.finish()
    }

    // MARK: Operations

    /// Reads the server's capabilities and information.
    func serverStatus() -> ServerStatus {
        do {
            let bus = try connectedBus().get()
            let capabilities = try capabilities(on: bus)
            let reply = try call(bus, "GetServerInformation", replyType: "(ssss)")
            defer { g_variant_unref(reply) }
            return .available(
                ServerInfo(
                    name: string(in: reply, at: 0),
                    vendor: string(in: reply, at: 1),
                    version: string(in: reply, at: 2),
                    specVersion: string(in: reply, at: 3),
                    capabilities: capabilities
                )
            )
        } catch {
            return error.serverStatus
        }
    }

    /// Shows a notice, or updates it in place when it is already on screen.
    ///
    /// - Parameters:
    ///   - notice: What to show.
    ///   - id: The engine's id of the notice; updates reuse the notification shown for it.
    ///   - serverID: The server id of the notification to replace when this process has not shown
    ///     it, for example after a restart.
    func show(_ notice: Notice, id: NoticeID, replacing serverID: UInt32?) -> DeliveryOutcome {
        let capabilities: [String]
        do {
            capabilities = try self.capabilities(on: try connectedBus().get())
        } catch {
            return error.deliveryOutcome
        }
        // A click opens the app only where there is one to open (else it closes the notification).
        let opens =
            notice.opens != nil && capabilities.contains("actions") && connection.map { appIsThere(on: $0) } == true
        let title = notice.title.isEmpty ? NotificationDelivery.appName : notice.title
        let body = BodyMarkup.body(notice.body, serverReadsMarkup: capabilities.contains("body-markup"))
        let result = present(
            notice,
            id: id,
            replacing: serverID,
            title: title,
            body: body,
            withButtons: capabilities.contains("actions"),
            opens: opens,
            withReply: capabilities.contains("inline-reply")
        )
        switch result {
        case .success(let serverID):
            return .delivered(serverID: serverID)
        case .failure(let error):
            // Handled only here, where no notification is referenced any more: a lost bus resets
            // libnotify, and a notification let go after that reset makes libnotify build a new
            // proxy on the dead connection, which would then never be replaced.
            return failure(error).deliveryOutcome
        }
    }

    /// Asks the server to close a notification.
    ///
    /// - Parameter serverID: The id the server gave it.
    func close(serverID: UInt32) -> CloseOutcome {
        do {
            let bus = try connectedBus().get()
            let parameters = [g_variant_new_uint32(serverID)]
            let reply = try parameters.withUnsafeBufferPointer {
                try call(bus, "CloseNotification", parameters: g_variant_new_tuple($0.baseAddress, 1), replyType: "()")
            }
            g_variant_unref(reply)
            return .closed
        } catch {
            return (error as? DeliveryFailure ?? .unavailable("\(error)")).closeOutcome
        }
    }

    /// Takes back a notice whose show finished after the caller stopped waiting.
    ///
    /// The caller was told it was not delivered and will try again; leaving it on screen would show it twice.
    func withdrawLateDelivery(of id: NoticeID, serverID: UInt32) {
        logger.warning(
            "The notification server answered after the timeout; closing the late notification",
            metadata: ["notice": "\(id)", "serverID": "\(serverID)"]
        )
        shown[id] = nil
        _ = close(serverID: serverID)
    }

    /// Asks the server whether it is in do-not-disturb mode; see ``DoNotDisturbWatch`` for where each
    /// server keeps it. Off when there is no server or it keeps no such state.
    ///
    /// Servers whose changes come as signals, and servers that keep no such state, are asked once
    /// after they appear; only mako (no signal) is asked every time.
    func doNotDisturb() -> DoNotDisturb {
        if let settledDoNotDisturb { return settledDoNotDisturb }
        guard case .success(let bus) = connectedBus() else { return .off }
        let name: String
        if let knownServerName {
            name = knownServerName
        } else {
            guard let reply = try? call(bus, "GetServerInformation", replyType: "(ssss)") else { return .off }
            name = string(in: reply, at: 0)
            g_variant_unref(reply)
            knownServerName = name
        }
        let reading = doNotDisturbWatch.read(on: bus, serverName: name)
        switch reading {
        case .state where DoNotDisturbWatch.signalsChanges(name), .none:
            settledDoNotDisturb = reading.state
        case .state, .unknown:
            break
        }
        return reading.state
    }

    /// Forgets what is known of the server, which has just appeared or left.
    private func forgetServer() {
        knownServerName = nil
        settledDoNotDisturb = nil
    }

    /// Reads the do-not-disturb state and reports it on ``events`` when it differs from the last report.
    private func reportDoNotDisturb(_ known: DoNotDisturb? = nil) {
        guard !isStopped else { return }
        let state = known ?? doNotDisturb()
        guard state != reportedDoNotDisturb else { return }
        reportedDoNotDisturb = state
        logger.debug("Do not disturb: \(state)")
        events.yield(.doNotDisturbChanged(state))
    }

    // MARK: Callbacks from GLib

    func actionInvoked(on notice: NoticeID, key: String) {
        guard !isStopped else { return }
        events.yield(.actionInvoked(notice: notice, actionID: key))
    }

    /// A reply typed into the notification the server knows as `serverID`.
    func replied(serverID: UInt32, text: String) {
        guard !isStopped,
            let notice = shown.first(where: {
                UInt32(bitPattern: hooray_notification_get_id($0.value.pointer)) == serverID
            })?.key,
            let action = replyActions[notice]
        else {
            logger.info("a reply came for notification \(serverID), which takes none now; it was left alone")
            return
        }
        // One reply per notification: a repeated signal logs nothing more.
        replyActions[notice] = nil
        events.yield(.replied(notice: notice, actionID: action, text: text))
    }

    func notificationClosed(_ notice: NoticeID, pointer: UnsafeMutablePointer<NotifyNotification>) {
        guard !isStopped, let notification = shown[notice], notification.pointer == pointer else { return }
        replyActions[notice] = nil
        let serverID = UInt32(bitPattern: hooray_notification_get_id(pointer))
        let reason = CloseReason(code: notify_notification_get_closed_reason(pointer))
        shown[notice] = nil
        // libnotify is still emitting the signal on this object: let it go once that is over.
        closedNotifications.append(notification)
        thread?.post { [weak self] in self?.closedNotifications.removeAll() }
        events.yield(.closed(notice: notice, serverID: serverID, reason: reason))
    }

    func serverAppeared() {
        guard !isStopped else { return }
        serverPresent = true
        logger.debug("A notification server appeared on the session bus")
        forgetServer()
        // Before `serverAppeared`, so that notices retried then see a server that is in do-not-disturb.
        reportDoNotDisturb()
        events.yield(.serverAppeared)
    }

    func serverVanished() {
        guard !isStopped else { return }
        if let connection, g_dbus_connection_is_closed(connection) != 0 {
            // The watch reports the bus going away as the name vanishing; handle it as a lost bus,
            // outside this callback, since that removes the watch.
            thread?.post { [weak self] in self?.connectionLost() }
            return
        }
        // Its notifications left the screen with it; a new server does not know their ids.
        releaseNotifications()
        forgetServer()
        if serverPresent {
            serverPresent = false
            logger.info("The notification server left the session bus")
            reportDoNotDisturb(.off)
            events.yield(.serverVanished)
        }
    }

    func connectionClosed() {
        thread?.post { [weak self] in self?.connectionLost() }
    }

    // MARK: The bus

    /// The open session bus connection, connecting first when needed.
    private func connectedBus() -> Result<OpaquePointer, DeliveryFailure> {
        if let connection {
            if g_dbus_connection_is_closed(connection) == 0 { return .success(connection) }
            connectionLost()
        }
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            armRetry()
            return .failure(.cannotConnect(GLibError(taking: error)))
        }
        if g_dbus_connection_is_closed(bus) != 0 {
            // GIO still hands out the old connection until its last reference is gone.
            g_object_unref(UnsafeMutableRawPointer(bus))
            armRetry()
            return .failure(.unavailable(DeliveryFailure.busLost))
        }
        g_dbus_connection_set_exit_on_close(bus, 0)
        connectionClosedHandler = g_signal_connect_data(
            UnsafeMutableRawPointer(bus),
            "closed",
            unsafeBitCast(connectionClosedCallback, to: GCallback.self),
            SessionReference.retained(self),
            SessionReference.releaseClosure,
            GConnectFlags(rawValue: 0)
        )
        nameWatch = g_bus_watch_name_on_connection(
            bus,
            serverName,
            G_BUS_NAME_WATCHER_FLAGS_NONE,
            nameAppearedCallback,
            nameVanishedCallback,
            SessionReference.retained(self),
            SessionReference.release
        )
        replySubscription = g_dbus_connection_signal_subscribe(
            // Only the notification server's: another client on the bus cannot type for the user.
            bus, serverName, serverInterface, "NotificationReplied", serverPath, nil, G_DBUS_SIGNAL_FLAGS_NONE,
            notificationRepliedCallback, SessionReference.retained(self), SessionReference.release)
        connection = bus
        doNotDisturbWatch.attach(to: bus)
        cancelRetry()
        logger.debug("Connected to the session bus")
        return .success(bus)
    }

    /// Forgets a connection whose bus went away, and resets libnotify so its next call connects anew.
    private func connectionLost() {
        guard connection != nil else { return }
        logger.warning("Lost the connection to the session bus")
        releaseNotifications()
        forgetServer()
        disconnect()
        notify_uninit()
        notify_init(NotificationDelivery.appName)
        if serverPresent {
            serverPresent = false
            reportDoNotDisturb(.off)
            events.yield(.serverVanished)
        }
        armRetry()
    }

    private func disconnect() {
        if nameWatch != 0 {
            g_bus_unwatch_name(nameWatch)
            nameWatch = 0
        }
        doNotDisturbWatch.detach()
        if let connection {
            appIsActivatable = nil
            if replySubscription != 0 {
                g_dbus_connection_signal_unsubscribe(connection, replySubscription)
                replySubscription = 0
            }
            if connectionClosedHandler != 0 {
                g_signal_handler_disconnect(UnsafeMutableRawPointer(connection), connectionClosedHandler)
                connectionClosedHandler = 0
            }
            g_object_unref(UnsafeMutableRawPointer(connection))
            self.connection = nil
        }
    }

    /// Tries to reconnect every `busRetryInterval` while there is no bus, so that a bus coming back
    /// is noticed (and reported as ``DeliveryEvent/serverAppeared``) without anyone asking.
    private func armRetry() {
        guard retryTimer == nil, !isStopped, let thread else { return }
        retryTimer = thread.repeatEvery(configuration.busRetryInterval) { [weak self] in
            guard let self, !self.isStopped else { return false }
            return self.connectedBus().isFailure
        }
    }

    private func cancelRetry() {
        guard let retryTimer else { return }
        self.retryTimer = nil
        thread?.cancel(retryTimer)
    }

    // MARK: Calls

    private func capabilities(on bus: OpaquePointer) throws(DeliveryFailure) -> [String] {
        let reply = try call(bus, "GetCapabilities", replyType: "(as)")
        defer { g_variant_unref(reply) }
        return Self.strings(in: reply)
    }

    /// Calls a method of the notification server with the configured timeout.
    ///
    /// - Returns: The reply, which the caller unrefs.
    private func call(
        _ bus: OpaquePointer,
        _ method: String,
        parameters: OpaquePointer? = nil,
        replyType: String
    ) throws(DeliveryFailure) -> OpaquePointer {
        let type = g_variant_type_new(replyType)
        defer { g_variant_type_free(type) }
        var error: UnsafeMutablePointer<GError>?
        let reply = g_dbus_connection_call_sync(
            bus, serverName, serverPath, serverInterface, method, parameters, type,
            G_DBUS_CALL_FLAGS_NONE, gint(clamping: configuration.timeout.milliseconds), nil, &error
        )
        guard let reply else { throw failure(GLibError(taking: error)) }
        return reply
    }

    private func string(in tuple: OpaquePointer, at index: Int) -> String {
        let child = g_variant_get_child_value(tuple, gsize(index))
        defer { g_variant_unref(child) }
        return g_variant_get_string(child, nil).map { String(cString: $0) } ?? ""
    }

    private func failure(_ error: GLibError) -> DeliveryFailure {
        if error.isOurOwn { return .unavailable(error.message) }
        if error.isTimeout { return .timedOut }
        if error.meansNoServer { return .unavailable(DeliveryFailure.noServer) }
        if error.meansServerLeft { return .unavailable(DeliveryFailure.serverLeft) }
        if error.meansConnectionClosed {
            connectionLost()
            return .unavailable(DeliveryFailure.busLost)
        }
        return .serverError(error)
    }

    // MARK: Notifications

    private func configure(
        _ notification: ShownNotification, for notice: Notice, withButtons: Bool, opens: Bool, withReply: Bool
    ) {
        let pointer = notification.pointer
        notify_notification_clear_hints(pointer)
        notify_notification_set_hint_string(pointer, "desktop-entry", configuration.desktopEntry)
        notify_notification_set_urgency(pointer, notice.urgency.libnotify)
        if let category = notice.category, !category.isEmpty {
            notify_notification_set_category(pointer, category)
        }
        notify_notification_set_timeout(pointer, notice.timeout.libnotify)
        switch notice.sound {
        case .serverDefault:
            break
        case .silent:
            notify_notification_set_hint(pointer, "suppress-sound", g_variant_new_boolean(1))
        case .named(let name):
            if !name.isEmpty { notify_notification_set_hint_string(pointer, "sound-name", name) }
        }
        notify_notification_clear_actions(pointer)
        guard withButtons else { return }
        // The click on the notification itself (the specification's `default` action).
        if opens, !notice.actions.contains(where: { $0.id == Self.clickAction }) {
            notify_notification_add_action(
                pointer, Self.clickAction, "Open", actionCallback,
                NotificationReference.retained(notification.notice, session: self), NotificationReference.release)
        }
        // The first answer-only button is the typed reply, where the server takes one (KDE's
        // `inline-reply`, which swaync shares): its text comes back as `NotificationReplied`.
        let reply = withReply ? notice.actions.first { $0.answerOnly && $0.prompt != nil && !$0.id.isEmpty } : nil
        replyActions[notification.notice] = reply?.id
        if let reply {
            notify_notification_set_hint_string(pointer, "x-kde-reply-placeholder-text", reply.prompt ?? "")
            notify_notification_add_action(
                pointer, "inline-reply", reply.label, actionCallback,
                NotificationReference.retained(notification.notice, session: self), NotificationReference.release)
        }
        // An answer-only button without a reply field opens the app for the answer: without the
        // app, it could do nothing, so it is left off.
        for action in notice.actions where !action.id.isEmpty && action.id != reply?.id && (!action.answerOnly || opens)
        {
            notify_notification_add_action(
                pointer,
                action.id,
                action.label.isEmpty ? action.id : action.label,
                actionCallback,
                NotificationReference.retained(notification.notice, session: self),
                NotificationReference.release
            )
        }
    }

    /// Updates the notice's notification or creates one, and shows it.
    ///
    /// - Returns: The server id, or libnotify's error.
    private func present(
        _ notice: Notice,
        id: NoticeID,
        replacing serverID: UInt32?,
        title: String,
        body: String,
        withButtons: Bool,
        opens: Bool,
        withReply: Bool
    ) -> Result<UInt32, GLibError> {
        if let existing = shown[id] {
            notify_notification_update(existing.pointer, title, body, configuration.iconName)
            configure(existing, for: notice, withButtons: withButtons, opens: opens, withReply: withReply)
            return show(existing)
        }
        guard let pointer = notify_notification_new(title, body, configuration.iconName) else {
            return .failure(GLibError(message: "libnotify could not create a notification."))
        }
        let notification = ShownNotification(pointer, notice: id, session: self)
        if let serverID, serverID > 0, serverID <= UInt32(Int32.max) {
            hooray_notification_set_id(pointer, gint(serverID))
        }
        configure(notification, for: notice, withButtons: withButtons, opens: opens, withReply: withReply)
        let result = show(notification)
        if case .success = result { shown[id] = notification }
        return result
    }

    private func show(_ notification: ShownNotification) -> Result<UInt32, GLibError> {
        var error: UnsafeMutablePointer<GError>?
        guard notify_notification_show(notification.pointer, &error) != 0 else {
            return .failure(GLibError(taking: error))
        }
        return .success(UInt32(bitPattern: hooray_notification_get_id(notification.pointer)))
    }

    /// Lets go of every notification, while libnotify's proxy still exists to disconnect them from.
    private func releaseNotifications() {
        shown.removeAll()
        replyActions.removeAll()
        closedNotifications.removeAll()
    }
}

/// A `NotifyNotification` this process shows, kept alive so its buttons and `closed` signal keep working.
final class ShownNotification {
    let pointer: UnsafeMutablePointer<NotifyNotification>
    let notice: NoticeID

    /// Takes over a new notification's reference and listens for it being closed.
    init(_ pointer: UnsafeMutablePointer<NotifyNotification>, notice: NoticeID, session: LibNotifySession) {
        self.pointer = pointer
        self.notice = notice
        g_signal_connect_data(
            UnsafeMutableRawPointer(pointer),
            "closed",
            unsafeBitCast(notificationClosedCallback, to: GCallback.self),
            NotificationReference.retained(notice, session: session),
            NotificationReference.releaseClosure,
            GConnectFlags(rawValue: 0)
        )
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(pointer))
    }
}
