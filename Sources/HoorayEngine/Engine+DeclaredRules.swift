import Foundation
import HoorayKit
import HoorayScheduling
import HoorayStorage

extension Engine {
    /// Makes a plugin's reminders exactly those declared, building and storing only those whose
    /// source changed (``HoorayStorage/HoorayDatabase/replaceRules(plugin:declaring:version:now:computeNextDue:)``),
    /// and plans them.
    func replaceAll(declaring declared: [DeclaredReminder], plugin: String) async throws {
        if let reserved = declared.first(where: { Snooze.reservedPrefix(of: $0.id) != nil }) {
            throw SnoozeError.reservedID(reserved.id)
        }
        let now = clock.now
        let times = try await database.replaceRules(
            plugin: plugin,
            declaring: declared.map { DeclaredRule(id: $0.id, sourceDigest: $0.sourceDigest, build: $0.build) },
            version: HoorayVersion.current, now: now
        ) { schedule in
            NextDue.next(after: now, for: schedule)
        }
        // The snoozes of reminders that stay are kept too (`times` has them); the plan is made again
        // at once rather than one rule at a time.
        state.replaceRules(of: plugin, with: times.lazy.map { (reminder: $0.reminderID, nextDue: $0.nextDue) })
        loopContinuation.yield(.changed)
        changes.publish()
    }
}
