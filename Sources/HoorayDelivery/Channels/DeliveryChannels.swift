import HoorayKit
import Logging

/// The channels notices are delivered to, in order: the engine hands every notice to each of them.
///
/// A notice counts as shown when at least one channel that is not auxiliary showed it; each channel
/// keeps its own handle for it, stored under the channel's name, and is given that handle back to
/// update the notice in place. With no such channel showing it, the first one's reason is the
/// notice's, and it waits in `hooray inbox` to be tried again. An auxiliary channel (the
/// celebration window) is handed a notice only the first time it is handed over, while no channel
/// holds a handle for it: never on a retry, never on an update.
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
            CelebrationWindowChannel(timeout: serverTimeout, logger: logger),
        ])
    }

    /// These channels without the auxiliary ones: what a command run while hoorayd is stopped shows
    /// notices on, so that it never waits for anything but the notification.
    public var withoutAuxiliary: DeliveryChannels {
        DeliveryChannels(all.filter { !$0.isAuxiliary })
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
    ///   - handles: The channels' handles of earlier versions or attempts, by channel name; an
    ///     auxiliary channel is handed the notice only while there are none.
    ///   - skipping: The names of channels the user turned off, such as the celebration window's.
    /// - Returns: The handles by channel name (earlier ones kept where a channel did not show it
    ///   now) when a channel that is not auxiliary showed it; otherwise the first such channel's
    ///   reason, with the handles to keep all the same.
    public func deliver(
        _ notice: Notice, id: NoticeID, handles: [String: String], skipping: Set<String> = []
    ) async -> ChannelsOutcome {
        var shown = handles
        var delivered = false
        var failure: ChannelsFailure?
        for channel in all where !skipping.contains(channel.name) {
            if channel.isAuxiliary, !handles.isEmpty { continue }
            let outcome = await channel.deliver(notice, id: id, replacing: handles[channel.name])
            if case .delivered(let handle) = outcome { shown[channel.name] = handle }
            guard !channel.isAuxiliary else { continue }
            switch outcome {
            case .delivered: delivered = true
            case .unavailable(let reason): if failure == nil { failure = .unavailable(reason: reason) }
            case .timedOut: if failure == nil { failure = .timedOut }
            }
        }
        if delivered { return .delivered(handles: shown) }
        return .notShown(failure ?? .unavailable(reason: "no delivery channel is registered"), handles: shown)
    }

    /// Opens the desktop app at `place` (a click on a notification), through the celebration
    /// window's channel, which speaks to the app.
    ///
    /// - Returns: Whether the app was asked; `false` without that channel among these (`[celebrations]
    ///   window = false` turns off the window, not this).
    public func openApp(at place: AppPlace) -> Bool {
        guard let window = all.lazy.compactMap({ $0 as? CelebrationWindowChannel }).first else { return false }
        window.open(at: place)
        return true
    }

    /// Takes a notice off the screen on every channel that showed it.
    ///
    /// - Parameter handles: The channels' handles of it, by channel name.
    public func withdraw(handles: [String: String]) async {
        for channel in all {
            if let handle = handles[channel.name] { await channel.withdraw(handle: handle) }
        }
    }

    /// Stops every channel.
    public func shutdown() async {
        for channel in all { await channel.shutdown() }
    }
}

/// The result of handing a notice to all channels.
public enum ChannelsOutcome: Sendable, Hashable {
    /// A channel that is not auxiliary showed it; every channel's handle for it, by channel name.
    case delivered(handles: [String: String])
    /// No channel that is not auxiliary showed it; why, and the handles to keep all the same (an
    /// auxiliary channel's, so that it is not handed the notice again when it is retried).
    case notShown(ChannelsFailure, handles: [String: String])
}

/// Why no channel showed a notice.
public enum ChannelsFailure: Sendable, Hashable {
    /// The first channel's reason, written for a person.
    case unavailable(reason: String)
    /// The first channel did not answer in time.
    case timedOut
}
