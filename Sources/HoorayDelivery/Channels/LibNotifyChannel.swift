import Foundation
import HoorayKit
import Logging

/// The desktop's notification server, through libnotify (``NotificationDelivery``).
///
/// Its handle is the server's notification id, in decimal.
public final class LibNotifyChannel: DeliveryChannel {
    /// The name libnotify's handles are stored under.
    public static let channelName = "libnotify"

    let delivery: NotificationDelivery
    private let forwarding = ForwardingTask()

    public var name: String { Self.channelName }

    /// Creates the channel.
    ///
    /// - Parameters:
    ///   - icon: The icon name or path of notifications.
    ///   - serverTimeout: How long to wait for the server before a notice is kept for later.
    ///   - logger: Where delivery problems are logged.
    public init(icon: String, serverTimeout: Duration, logger: Logger) {
        delivery = NotificationDelivery(
            configuration: .init(iconName: icon, desktopEntry: "hooray", timeout: serverTimeout, logger: logger))
    }

    public func start(onEvent: @escaping @Sendable (ChannelEvent) -> Void) {
        let events = delivery.events
        forwarding.set(
            Task {
                for await event in events {
                    switch event {
                    case .actionInvoked(let notice, let actionID): onEvent(.action(notice, actionID))
                    case .replied(let notice, let actionID, let text): onEvent(.reply(notice, actionID, text: text))
                    case .serverAppeared: onEvent(.serverAppeared)
                    case .doNotDisturbChanged(let state): onEvent(.doNotDisturbChanged(state))
                    case .closed, .serverVanished: break
                    }
                }
            })
    }

    public func status() async -> ServerStatus {
        await delivery.serverStatus()
    }

    public func doNotDisturb() async -> DoNotDisturb {
        await delivery.doNotDisturb()
    }

    public func deliver(_ notice: Notice, id: NoticeID, replacing: String?) async -> ChannelOutcome {
        switch await delivery.show(notice, id: id, replacing: replacing.flatMap { UInt32($0) }) {
        case .delivered(let serverID): .delivered(handle: String(serverID))
        case .unavailable(let reason): .unavailable(reason: reason)
        case .timedOut: .timedOut
        }
    }

    public func withdraw(handle: String) async {
        guard let serverID = UInt32(handle) else { return }
        _ = await delivery.close(serverID: serverID)
    }

    public func shutdown() async {
        forwarding.cancel()
        await delivery.shutdown()
    }
}

/// Holds the event-forwarding task so the channel can stay a `Sendable` final class.
final class ForwardingTask: @unchecked Sendable {
    // @unchecked: `task` is guarded by `lock`.
    private let lock = NSLock()
    private var task: Task<Void, Never>?

    func set(_ task: Task<Void, Never>) {
        lock.withLock { self.task = task }
    }

    func cancel() {
        lock.withLock { task?.cancel() }
    }
}
