import HoorayCalendar
import HoorayKit

/// The swaps plugin's settings in the desktop app's Settings: the daily inspiration, Night Prep and
/// Morning Focus, with the section's defaults.
extension SwapsPlugin: DeclaresSettings {
    package var settingDeclarations: [PluginSettingDeclaration] {
        let defaults = SwapsConfiguration()
        return [
            .init(
                key: "inspiration", title: "Daily inspiration", hint: "A sentence to start the day", kind: .toggle,
                defaultValue: defaults.inspiration ? "true" : "false"),
            .init(
                key: "night_prep", title: "Night Prep reminder", hint: "HH:MM, or off; from your first swap",
                kind: .entry,
                defaultValue: defaults.nightPrep?.description ?? "off"),
            .init(
                key: "morning_focus", title: "Morning Focus reminder", hint: "HH:MM, or off; from your first swap",
                kind: .entry,
                defaultValue: defaults.morningFocus?.description ?? "off"),
        ]
    }
}
