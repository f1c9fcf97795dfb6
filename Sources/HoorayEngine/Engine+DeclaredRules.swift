import Foundation
import HoorayKit
import HoorayScheduling
import HoorayStorage

extension Engine {
    /// Makes a plugin's reminders exactly those declared, building and storing only those whose
    /// source changed (``HoorayStorage/HoorayDatabase/replaceRules(plugin:declaring:version:now:key:computeNextDue:)``),
    /// and plans them.
    func replaceAll(declaring declared: [DeclaredReminder], plugin: String, key: String? = nil) async throws {
        if let reserved = declared.first(where: { Snooze.reservedPrefix(of: $0.id) != nil }) {
            throw SnoozeError.reservedID(reserved.id)
        }
        let now = clock.now
        let from = planningStart(now: now)
        // The snoozes of reminders that stay are kept too (`times` has them); the plan is made again
        // at once rather than one rule at a time, while SQLite finishes the write.
        let plan = try await database.replaceRules(
            plugin: plugin, declaring: declared, version: HoorayVersion.current, now: now, key: key,
            computeNextDue: { schedule in NextDue.next(after: from, for: schedule) },
            planning: { times in
                PluginPlan(count: times.count) {
                    (times[$0].reminderID, times[$0].nextDue)
                }
            })
        state.replaceRules(of: plugin, with: plan)
        plannedAsStored.insert(plugin)
        loopContinuation.yield(.changed)
        changes.publish()
    }

    /// Plans a plugin's stored rules as they are, when the plugin declared them with `key` and
    /// nothing but their coming due and snoozes changed them since
    /// (``HoorayStorage/HoorayDatabase/declaredRuleTimes(plugin:key:version:)``).
    ///
    /// - Returns: How many reminders the plugin declared with the key; `nil` when the key is not the
    ///   stored one, and nothing changed.
    func keepDeclared(plugin: String, key: String) async throws -> Int? {
        guard
            let kept = try await database.declaredRuleTimes(plugin: plugin, key: key, version: HoorayVersion.current)
        else { return nil }
        state.replaceRules(of: plugin, with: kept.times.map { (reminder: $0.reminderID, nextDue: $0.nextDue) })
        plannedAsStored.insert(plugin)
        loopContinuation.yield(.changed)
        changes.publish()
        return kept.reminders
    }

    /// The active plugins whose reminders come due: all but those in other languages whose program
    /// is not running.
    var plannedPlugins: Set<String> { Set(plugins.keys.filter { !isHeld($0) }) }

    /// Plans the active plugins' rules as ``reloadRules()`` does once the plugins are activated,
    /// reading only the rules of plugins that did not replace all theirs meanwhile: a plugin that
    /// declared 100,000 reminders is not planned a second time from the database.
    func reloadRulesAfterActivation() async {
        let kept = plannedPlugins.intersection(plannedAsStored)
        let others = plannedPlugins.subtracting(kept)
        do {
            let rules = try await database.ruleTimes(plugins: others)
            // Anything that changed meanwhile (a plugin started or stopped, a reload ran) is planned
            // from the database, all of it.
            guard plannedPlugins == kept.union(others), plannedAsStored.isSuperset(of: kept) else {
                await reloadRules()
                return
            }
            state.replaceRules(
                ofPluginsOtherThan: kept,
                with: rules.lazy.map { (key: RuleKey(plugin: $0.plugin, reminder: $0.reminderID), nextDue: $0.nextDue) }
            )
        } catch {
            logger.error("cannot read reminders: \(error)")
        }
        loopContinuation.yield(.changed)
        deliveryContinuation.yield()
    }
}
