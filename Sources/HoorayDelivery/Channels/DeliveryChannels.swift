import HoorayKit
import Logging

/// The channels notices are delivered to, in order: the engine hands every notice to each of them.
///
/// A notice counts as shown when at least one channel showed it; each channel keeps its own handle
/// for it, stored under the channel's name, and is given that handle back to update the notice in
/// place. With no channel showing it, the first channel's reason is the notice's, and it waits in
/// `hooray inbox` to be tried again.
public struct DeliveryChannels: Sendable {
    /// The channels, in delivery order.
    public let all: [any DeliveryChannel]

    /// Creates a list of channels.
    ///
    /// - Parameter channels: The channels, in delivery order; their names must differ.
    public init(_ channels: [any DeliveryChannel]) {
        all = channels
    }

    /// The channels hoorayd delivers to: the one registration list. A new channel is one line here.
    ///
    /// - Parameters:
    ///   - icon: The icon name or path of notifications.
    ///   - serverTimeout: How long to wait for a channel before a notice is kept for later.
    ///   - logger: Where delivery problems are logged.
    public static func standard(icon: String, serverTimeout: Duration, logger: Logger) -> DeliveryChannels {
        DeliveryChannels([
            LibNotifyChannel(icon: icon, serverTimeout: serverTimeout, logger: logger),
            CelebrationWindowChannel(logger: logger),
        ])
    }

    /// Starts every channel; `onEvent` receives each event with the name of the channel it came from.
    public func start(onEvent: @escaping @Sendable (_ channel: String, ChannelEvent) -> Void) {
        for channel in all {
            let name = channel.name
            channel.start { onEvent(name, $0) }
        }
    }

    /// The first available channel's status; the first channel's when none is available.
    public func status() async -> ServerStatus {
        var first: ServerStatus?
        for channel in all {
            let status = await channel.status()
            if status.info != nil { return status }
            if first == nil { first = status }
        }
        return first ?? .unavailable(reason: "no delivery channel is registered")
    }

    /// The first channel's do-not-disturb state that is on; the first channel's state otherwise.
    public func doNotDisturb() async -> DoNotDisturb {
        var first: DoNotDisturb?
        for channel in all {
            let state = await channel.doNotDisturb()
            if state.isOn { return state }
            if first == nil { first = state }
        }
        return first ?? .off
    }

    /// Hands a notice to every channel, each replacing what it showed earlier under its handle.
    ///
    /// - Parameters:
    ///   - notice: What to show.
    ///   - id: The engine's id of the notice.
    ///   - handles: The channels' handles of earlier versions, by channel name.
    ///   - skipping: The names of channels the user turned off, such as the celebration window's.
    /// - Returns: The handles by channel name (earlier ones kept where a channel did not show it
    ///   now) when any channel showed it; otherwise the first channel's reason.
    public func deliver(
        _ notice: Notice, id: NoticeID, handles: [String: String], skipping: Set<String> = []
    ) async -> ChannelsOutcome {
        var shown = handles
        var delivered = false
        var failure: ChannelsOutcome?
        for channel in all where !skipping.contains(channel.name) {
            switch await channel.deliver(notice, id: id, replacing: handles[channel.name]) {
            case .delivered(let handle):
                shown[channel.name] = handle
                delivered = true
            case .unavailable(let reason):
                if failure == nil { failure = .unavailable(reason: reason) }
            case .timedOut:
                if failure == nil { failure = .timedOut }
            }
        }
        if delivered { return .delivered(handles: shown) }
        return failure ?? .unavailable(reason: "no delivery channel is registered")
    }

    /// Stops every channel.
    public func shutdown() async {
        for channel in all { await channel.shutdown() }
    }
}

/// The result of handing a notice to all channels.
public enum ChannelsOutcome: Sendable, Hashable {
    /// At least one channel showed it; every channel's handle for it, by channel name.
    case delivered(handles: [String: String])
    /// No channel showed it; the first channel's reason, written for a person.
    case unavailable(reason: String)
    /// No channel showed it, and the first one did not answer in time.
    case timedOut
}
