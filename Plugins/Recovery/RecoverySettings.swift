import HoorayCalendar
import HoorayKit

/// The recovery plugin's settings in the desktop app's Settings: the daily check-in and its time,
/// and the morning challenge's reminder, with the section's defaults.
extension RecoveryPlugin: DeclaresSettings {
    package var settingDeclarations: [PluginSettingDeclaration] {
        let defaults = RecoveryConfiguration()
        return [
            .init(
                key: "checkin", title: "Daily check-in",
                hint: "“How are you feeling today?” each evening, from your first rejection or check-in",
                kind: .toggle, defaultValue: defaults.checkIn ? "true" : "false"),
            .init(
                key: "checkin_at", title: "Check-in time", hint: "HH:MM, such as 20:00", kind: .entry,
                defaultValue: defaults.checkInAt.description),
            .init(
                key: "challenge_at", title: "Today's challenge reminder", hint: "HH:MM, or off; from your first use",
                kind: .entry,
                defaultValue: defaults.challengeAt?.description ?? "off"),
        ]
    }
}
