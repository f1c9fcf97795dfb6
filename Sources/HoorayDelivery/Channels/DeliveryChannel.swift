import HoorayKit

/// A place where Hooray shows notices: the desktop's notification server, or any other.
///
/// A channel speaks Hooray's terms: it is handed a ``Notice`` and the engine's ``NoticeID``, and it
/// answers with a handle of its own (an opaque text such as libnotify's server id) that it is given
/// back to update that notice in place. Button presses come back as ``ChannelEvent/action(_:_:)``
/// with the engine's id, so the engine routes them to the plugin that posted the notice.
///
/// Adding a channel is one type conforming to this protocol plus one line in
/// ``DeliveryChannels/standard(icon:serverTimeout:logger:)``.
public protocol DeliveryChannel: Sendable {
    /// The channel's name, unique among the channels, such as `libnotify`; handles are stored under it.
    var name: String { get }
    /// Whether the channel only adds to what the others show, such as the celebration window: what
    /// it shows never counts as the notice shown, so a notice no other channel showed stays in
    /// `hooray inbox` and is tried again. It is handed a notice once, the first time any channel is.
    var isAuxiliary: Bool { get }
    /// Starts the channel; `onEvent` receives button presses and the channel coming back, on any thread.
    func start(onEvent: @escaping @Sendable (ChannelEvent) -> Void)
    /// Whether the channel can show notices now, and what shows them.
    func status() async -> ServerStatus
    /// Shows a notice, replacing what the channel showed under `replacing` when given.
    ///
    /// - Parameters:
    ///   - notice: What to show.
    ///   - id: The engine's id, reported back with button presses.
    ///   - replacing: The handle this channel returned for an earlier version of the notice.
    /// - Returns: The channel's handle for it, or why it was not shown.
    func deliver(_ notice: Notice, id: NoticeID, replacing: String?) async -> ChannelOutcome
    /// Whether the channel's side is in do-not-disturb mode now, asked at delivery time.
    func doNotDisturb() async -> DoNotDisturb
    /// Takes off the screen what the channel showed under `handle`, when it still is there.
    func withdraw(handle: String) async
    /// Stops the channel.
    func shutdown() async
}

extension DeliveryChannel {
    /// A channel shows notices in their own right unless it says otherwise.
    public var isAuxiliary: Bool { false }

    /// A channel that knows no do-not-disturb state is never in it.
    public func doNotDisturb() async -> DoNotDisturb { .off }

    /// A channel whose notices go on their own has nothing to withdraw.
    public func withdraw(handle: String) async {}
}

/// Something that happened on a channel's side.
public enum ChannelEvent: Sendable, Equatable {
    /// The user pressed a button of a notice (`default` for a click on the notice itself).
    case action(NoticeID, String)
    /// The user typed a reply into a notice (where the server takes one): the button it answers.
    case reply(NoticeID, String, text: String)
    /// The channel can show notices again, such as a notification server appearing on the bus.
    case serverAppeared
    /// The do-not-disturb state changed (sent where the channel has a change signal).
    case doNotDisturbChanged(DoNotDisturb)
}

/// The result of handing a notice to a channel.
public enum ChannelOutcome: Sendable, Hashable {
    /// Shown; the channel's handle for it, given back to update it in place.
    case delivered(handle: String)
    /// Not shown; the reason is written for a person.
    case unavailable(reason: String)
    /// The channel did not answer in time; treat the notice as not shown.
    case timedOut
}

extension ServerStatus {
    /// Why no server is reachable, when none is.
    public var problem: String? {
        switch self {
        case .available: nil
        case .unavailable(let reason): reason
        case .timedOut: "the notification server did not answer in time"
        }
    }
}

/// A channel for CLI-side engines that never delivers (the daemon does that).
package struct OfflineChannel: DeliveryChannel {
    package init() {}
    package var name: String { "offline" }
    package func start(onEvent: @escaping @Sendable (ChannelEvent) -> Void) {}
    package func status() async -> ServerStatus { .unavailable(reason: "not checked by the CLI") }
    package func deliver(_ notice: Notice, id: NoticeID, replacing: String?) async -> ChannelOutcome {
        .unavailable(reason: "the CLI does not deliver notices")
    }
    package func shutdown() async {}
}
