import Foundation
import HoorayExternalPlugins
import HoorayKit

extension Engine {
    /// Plans again the reminders of the plugins whose records another computer changed (sync): a
    /// habit ticked there holds its reminder here, a habit added there is reminded here too.
    ///
    /// Each plugin is activated again, as a reload of the configuration does, which plans its
    /// reminders from its records. A plugin in another language is left as it is: its program
    /// plans its own.
    public func recordsChangedElsewhere(plugins names: Set<String>) async {
        for name in names.sorted() {
            guard let plugin = plugins[name], !(plugin is ExternalPlugin),
                let setup = lastSetups.first(where: { $0.plugin.name == name })
            else { continue }
            let context = makeContext(for: name)
            do {
                try await withTimeLimit(settings.activationTimeLimit) {
                    try await setup.plugin.activate(context: context, erasedConfiguration: setup.configuration)
                }
            } catch {
                logger.error("plugin \(name) could not plan again after a change from another computer: \(error)")
            }
        }
        await reloadRules()
        await withdrawHeldReminders(of: names)
        changes.publish()
    }

    /// Takes off the screen the reminders due today whose plugin now holds them (a habit done on
    /// another computer): what is held is not to be done now. One due on an earlier day stays: its
    /// buttons are for that day.
    func withdrawHeldReminders(of names: Set<String>) async {
        let now = clock.now
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let today = calendar.startOfDay(for: now)
        for name in names.sorted() where plugins[name] != nil {
            do {
                let held = Set(
                    try await database.rules(plugin: name).filter { rule in
                        guard let hold = rule.reminder.hold else { return false }
                        return hold.until.map { $0 > now } ?? true
                    }.map(\.reminder.id))
                guard !held.isEmpty else { continue }
                let shown = try await database.shownNotices(plugin: name, reminderIDs: held, dueSince: today)
                for notice in shown {
                    await channels.withdraw(handles: notice.handles)
                    try await database.forgetHandles(of: notice.id)
                    logger.info(
                        "took \(name)'s reminder \(notice.reminderID ?? "") off the screen: done on another computer")
                }
            } catch {
                logger.error("cannot take \(name)'s reminders done elsewhere off the screen: \(error)")
            }
        }
    }

    /// Whether a plugin's stored value is this computer's own cache, which sync leaves out
    /// (``HoorayKit/HoorayPlugin/isDeviceCache(valueKey:)``), for the plugins as configured now.
    public func deviceCaches() -> @Sendable (_ plugin: String, _ key: String) -> Bool {
        let setups = lastSetups
        return { plugin, key in
            setups.first { $0.plugin.name == plugin }?.plugin.isDeviceCache(valueKey: key) ?? false
        }
    }
}
