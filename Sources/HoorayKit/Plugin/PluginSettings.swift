/// A setting of a built-in plugin's `[plugins.NAME]` section that the desktop app's Settings shows
/// with a control of its own: a switch for a yes-or-no, a field for a time or a number. Its default
/// is the one the plugin's configuration takes when the file does not say.
package struct PluginSettingDeclaration: Sendable, Hashable {
    /// How the setting is changed.
    package enum Kind: String, Sendable, Hashable {
        /// `true` or `false`, with a switch.
        case toggle
        /// A value typed in a field, such as a time or a number.
        case entry
    }

    /// The key in the section, such as `checkin_at`.
    package var key: String
    /// What it is, for the row's title, such as "Check-in time".
    package var title: String
    /// What to type or what it does, for the row's subtitle, such as "HH:MM".
    package var hint: String
    package var kind: Kind
    /// The value used when the file does not say, as `hooray config set` takes it: `true`, `20:00`, `off`.
    package var defaultValue: String

    package init(key: String, title: String, hint: String, kind: Kind, defaultValue: String) {
        self.key = key
        self.title = title
        self.hint = hint
        self.kind = kind
        self.defaultValue = defaultValue
    }
}

/// A built-in plugin whose settings the desktop app's Settings shows (``PluginSettingDeclaration``).
package protocol DeclaresSettings {
    /// The settings shown, in order.
    var settingDeclarations: [PluginSettingDeclaration] { get }
}
