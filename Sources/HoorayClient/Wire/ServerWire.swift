// What `status` says of the notification server.

/// What the notification server said about itself.
public struct ServerInfo: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The server's product name, such as `gnome-shell`, `dunst` or `notification-daemon`.
    public var name: String
    /// Who makes it.
    public var vendor: String
    /// The server's own version.
    public var version: String
    /// The version of the Desktop Notifications specification it implements, such as `1.2`.
    public var specVersion: String
    /// Its capabilities in the order it listed them, such as `body`, `body-markup` and `actions`.
    public var capabilities: [String]

    enum CodingKeys: String, CodingKey {
        case name, vendor, version, capabilities
        case specVersion = "spec_version"
    }

    /// Creates a description of a server.
    ///
    /// - Parameters:
    ///   - name: The product name.
    ///   - vendor: Who makes it.
    ///   - version: The server's version.
    ///   - specVersion: The specification version it implements.
    ///   - capabilities: Its capabilities.
    public init(name: String, vendor: String, version: String, specVersion: String, capabilities: [String]) {
        self.name = name
        self.vendor = vendor
        self.version = version
        self.specVersion = specVersion
        self.capabilities = capabilities
    }

    /// Whether the server shows buttons (the `actions` capability).
    public var supportsActions: Bool { capabilities.contains("actions") }

    /// Whether the server reads markup in bodies (the `body-markup` capability), so text must be escaped.
    public var readsBodyMarkup: Bool { capabilities.contains("body-markup") }

    public var description: String {
        "\(name) \(version) by \(vendor), specification \(specVersion), "
            + "capabilities: \(capabilities.joined(separator: ", "))"
    }
}

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
