import Foundation
import HoorayDelivery
import HoorayKit
import Logging

/// The engine's sink for the real desktop: libnotify through ``NotificationDelivery``.
public final class LibNotifySink: NotificationSink {
    let delivery: NotificationDelivery
    private let forwarding = ForwardingTask()

    /// Creates the sink.
    ///
    /// - Parameters:
    ///   - icon: The icon name or path of notifications.
    ///   - serverTimeout: How long to wait for the server before a notice is kept for later.
    ///   - logger: Where delivery problems are logged.
    public init(icon: String, serverTimeout: Duration, logger: Logger) {
        delivery = NotificationDelivery(
            configuration: .init(iconName: icon, desktopEntry: "hooray", timeout: serverTimeout, logger: logger))
    }

    public func start(onEvent: @escaping @Sendable (SinkEvent) -> Void) {
        let events = delivery.events
        forwarding.set(
            Task {
                for await event in events {
                    switch event {
                    case .actionInvoked(let notice, let actionID): onEvent(.action(notice, actionID))
                    case .serverAppeared: onEvent(.serverAppeared)
                    case .doNotDisturbChanged(let state): onEvent(.doNotDisturbChanged(state))
                    case .closed, .serverVanished: break
                    }
                }
            })
    }

    public func serverStatus() async -> ServerStatus {
        await delivery.serverStatus()
    }

    public func doNotDisturb() async -> DoNotDisturb {
        await delivery.doNotDisturb()
    }

    public func show(_ notice: Notice, id: NoticeID, replacing: UInt32?) async -> DeliveryOutcome {
        await delivery.show(notice, id: id, replacing: replacing)
    }

    public func shutdown() async {
        forwarding.cancel()
        await delivery.shutdown()
    }
}

/// Holds the event-forwarding task so the sink can stay a `Sendable` final class.
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
