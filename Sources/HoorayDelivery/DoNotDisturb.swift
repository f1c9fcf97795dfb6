/// Whether the notification server is in do-not-disturb mode, and which server says so.
///
/// Servers keep this state in different places: dunst's `paused` property
/// (`org.dunstproject.cmd0`), KDE's `Inhibited` property on `org.freedesktop.Notifications`,
/// GNOME's `show-banners` setting (`org.gnome.desktop.notifications`) and mako's
/// `do-not-disturb` mode. While it is on, non-urgent notices wait in the inbox.
public struct DoNotDisturb: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Whether do-not-disturb is on.
    public var isOn: Bool
    /// Who said so, such as `dunst`, `KDE`, `GNOME` or `mako`; `nil` when nothing could tell.
    public var source: String?

    /// Creates a state.
    ///
    /// - Parameters:
    ///   - isOn: Whether do-not-disturb is on.
    ///   - source: Who said so.
    public init(isOn: Bool, source: String?) {
        self.isOn = isOn
        self.source = source
    }

    /// Off, as far as anything can tell.
    public static let off = DoNotDisturb(isOn: false, source: nil)

    /// "on (dunst)", "off (dunst)", or "off" when no server keeps such a state.
    public var description: String {
        (isOn ? "on" : "off") + (source.map { " (\($0))" } ?? "")
    }
}
