/// One line of `hooray plugins`: a plugin and how it is doing. The `plugins` answer of
/// docs/protocol.md writes it as it is; `hooray plugins --json` (the `plugin` type of docs/json.md)
/// names the same members in camelCase.
public struct PluginReport: Codable, Sendable, Hashable {
    /// The plugin's name.
    public var name: String
    /// `built-in` or `external`.
    public var kind: String
    /// `running`, `disabled`, `starting`, `restarting`, `given up`, `stopped` or `refused`; for a
    /// built-in plugin while hoorayd is stopped, `enabled`.
    public var state: String
    /// What it does, in a line.
    public var summary: String
    /// An external plugin's own version.
    public var version: String?
    /// The plugin API it speaks: the settled version while it runs, else its `plugin.toml` range.
    public var apiVersion: String?
    /// The process id while it runs.
    public var pid: Int32?
    /// How many times it was started again.
    public var restarts: Int?
    /// The last thing that went wrong, why it is refused, or why it is held.
    public var lastError: String?
    /// Its folder.
    public var folder: String?
    /// What a plugin in another language may do, in plain words (the manifest's `permissionWords`);
    /// `nil` for a built-in plugin, part of hoorayd, and for a refused folder.
    public var permissions: [String]?
    /// While it is held (state `held`), the permissions it asks for that the user has not allowed,
    /// in plain words.
    public var notAllowed: [String]?

    /// For a plugin in another language: the card its `plugin.toml` declares for the desktop
    /// app's Today view; `nil` for none.
    public var card: PluginCard?

    /// For a built-in plugin: the settings of its section the desktop app's Settings shows with
    /// controls of their own; `nil` for none.
    public var settings: [PluginSetting]?

    /// Creates a report.
    public init(
        name: String, kind: String, state: String, summary: String, version: String? = nil,
        apiVersion: String? = nil, pid: Int32? = nil, restarts: Int? = nil, lastError: String? = nil,
        folder: String? = nil, permissions: [String]? = nil, notAllowed: [String]? = nil, card: PluginCard? = nil,
        settings: [PluginSetting]? = nil
    ) {
        self.card = card
        self.settings = settings
        self.name = name
        self.kind = kind
        self.state = state
        self.summary = summary
        self.version = version
        self.apiVersion = apiVersion
        self.pid = pid
        self.restarts = restarts
        self.lastError = lastError
        self.folder = folder
        self.permissions = permissions
        self.notAllowed = notAllowed
    }

    enum CodingKeys: String, CodingKey {
        case name, kind, state, summary, version, pid, restarts, folder, permissions, card, settings
        case apiVersion = "api_version"
        case lastError = "last_error"
        case notAllowed = "not_allowed"
    }

    public func encode(to encoder: any Encoder) throws {
        // Absent values are written as null, as every JSON of hooray does.
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(kind, forKey: .kind)
        try container.encode(state, forKey: .state)
        try container.encode(summary, forKey: .summary)
        try container.encode(version, forKey: .version)
        try container.encode(apiVersion, forKey: .apiVersion)
        try container.encode(pid, forKey: .pid)
        try container.encode(restarts, forKey: .restarts)
        try container.encode(lastError, forKey: .lastError)
        try container.encode(folder, forKey: .folder)
        try container.encode(permissions, forKey: .permissions)
        try container.encode(notAllowed, forKey: .notAllowed)
        try container.encode(card, forKey: .card)
        try container.encode(settings, forKey: .settings)
    }
}

/// What a plugin in another language shows on the desktop app's Today view, as its `plugin.toml`
/// declares it (`[card]`, docs/protocol.md): a title, a line of text, and up to three buttons, each
/// running one of the plugin's commands.
public struct PluginCard: Codable, Sendable, Hashable {
    /// A button: its label, and the plugin's command it runs, with nothing more than its name.
    public struct Button: Codable, Sendable, Hashable {
        public var label: String
        public var command: String
        /// Whether the command may change what is stored (its `writes`): a client then keeps it in
        /// the spool under a request id, as `hooray` does.
        public var writes: Bool

        /// Creates a button.
        public init(label: String, command: String, writes: Bool = true) {
            self.label = label
            self.command = command
            self.writes = writes
        }
    }

    public var title: String
    /// The line under the title; empty for none.
    public var text: String
    public var buttons: [Button]

    /// Creates a card.
    public init(title: String, text: String, buttons: [Button]) {
        self.title = title
        self.text = text
        self.buttons = buttons
    }
}

/// A setting of a built-in plugin's section that the desktop app's Settings shows with a control of
/// its own (``PluginReport/settings``).
public struct PluginSetting: Codable, Sendable, Hashable {
    /// The key in the plugin's section, such as `checkin_at`: the setting is `plugins.NAME.KEY`.
    public var key: String
    /// What it is, such as "Check-in time".
    public var title: String
    /// What to type or what it does, such as "HH:MM, or off".
    public var hint: String
    /// `toggle` (a switch) or `entry` (a field).
    public var kind: String
    /// The value used when the files do not say, as `hooray config set` takes it.
    public var defaultValue: String

    /// Creates a setting.
    public init(key: String, title: String, hint: String, kind: String, defaultValue: String) {
        self.key = key
        self.title = title
        self.hint = hint
        self.kind = kind
        self.defaultValue = defaultValue
    }

    enum CodingKeys: String, CodingKey {
        case key, title, hint, kind
        case defaultValue = "default"
    }
}
