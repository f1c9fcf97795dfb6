import HoorayCalendar
import HoorayKit

/// The water plugin's settings in the desktop app's Settings: the daily goal and the reminders'
/// first and last times, with the section's defaults.
extension WaterPlugin: DeclaresSettings {
    package var settingDeclarations: [PluginSettingDeclaration] {
        let defaults = WaterConfiguration()
        return [
            .init(
                key: "goal", title: "Glasses a day", hint: "Reaching it is celebrated, once a day", kind: .entry,
                defaultValue: String(defaults.goal)),
            .init(
                key: "from", title: "First reminder", hint: "HH:MM; then every two hours", kind: .entry,
                defaultValue: defaults.from.description),
            .init(
                key: "until", title: "Last reminder", hint: "HH:MM", kind: .entry,
                defaultValue: defaults.until.description),
        ]
    }
}
