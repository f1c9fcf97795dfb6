import Foundation
import HoorayKit

// The 24-hour follow-ups: one per group of rejections logged within an hour of each other.
extension RecoveryPlugin {
    /// The rejections of a follow-up group.
    func followUpMembers(_ group: UUID, context: PluginContext) async throws -> [Rejection] {
        try await context.records(of: Rejection.self).all().filter { $0.followUpGroup == group }
    }

    /// A follow-up still to come that a rejection whose own would be due at `due` joins: one whose
    /// members' own times (when each would have come alone: happened + `after`), its current time and
    /// `due` all lie within the hour. The group then comes at the earliest of them, so no member's
    /// follow-up moves by an hour or more, however many join one after the other.
    ///
    /// A follow-up due within ``followUpJoinMargin`` is not joined: it could be shown while the
    /// rejection is being saved, without it or with it. Nor does joining ever move a follow-up to
    /// a time within that margin, which a member's own time can be once `follow_up_after` was
    /// lowered: a one-off reminder moved to a time already past would never come.
    ///
    /// - Returns: The group, and when its follow-up comes once the rejection joined it.
    func followUpToJoin(dueAt due: Date, after: TimeInterval, context: PluginContext) async throws
        -> (group: UUID, due: Date)?
    {
        let soonest = context.now.addingTimeInterval(Self.followUpJoinMargin)
        let pending = try await context.reminders.list().filter {
            $0.reminder.id.hasPrefix(Self.followUpPrefix) && $0.nextDue != nil
        }
        guard !pending.isEmpty else { return nil }
        let rejections = try await context.records(of: Rejection.self).all()
        let candidates = pending.compactMap { scheduled -> (group: UUID, due: Date)? in
            guard let next = scheduled.nextDue, next > soonest,
                let group = UUID(uuidString: String(scheduled.reminder.id.dropFirst(Self.followUpPrefix.count)))
            else { return nil }
            let times =
                [next, due]
                + rejections.filter { $0.followUpGroup == group && $0.followUpShown == nil }
                .map { $0.happenedAt.addingTimeInterval(after) }
            guard let first = times.min(), let last = times.max(),
                last.timeIntervalSince(first) < Self.followUpWindow
            else { return nil }
            return (group, max(first, soonest))
        }
        return candidates.min { $0.due < $1.due }
    }

    /// Schedules a group's follow-up, and notes its time on the group's rejections not shown yet;
    /// scheduling it again at the same time keeps it as it is.
    ///
    /// - Returns: When it comes; `nil` when it was already shown, and then nothing is noted.
    @discardableResult
    func scheduleFollowUp(group: UUID, at due: Date, context: PluginContext) async throws -> Date? {
        let scheduled = try await context.reminders.schedule(
            Reminder(
                id: Self.followUpPrefix + group.uuidString.lowercased(), schedule: .once(at: due),
                notice: Self.followUpNotice(group: group, count: 1)))
        guard let next = scheduled.nextDue else { return nil }
        let book = context.records(of: Rejection.self)
        for member in try await followUpMembers(group, context: context)
        where member.followUpShown == nil && member.followUpDue != next {
            try await book.update(member.recordID) { stored in stored.followUpDue = next }
        }
        return next
    }

    /// Schedules the follow-up of a rejection saved in `group` at `due`.
    ///
    /// Its own follow-up (`group` is its id) is new: it stays ahead however long saving took, or it
    /// would never come. When the follow-up it joined came meanwhile, the rejection was shown if
    /// that follow-up counted it; otherwise it gets its own, at `ownDue` or at once.
    ///
    /// - Returns: The rejection as saved.
    func planFollowUp(of rejection: Rejection, group: UUID, at due: Date, ownDue: Date, context: PluginContext)
        async throws -> Rejection
    {
        let book = context.records(of: Rejection.self)
        let soon = context.now.addingTimeInterval(Self.soon)
        let own = group == rejection.id
        guard try await scheduleFollowUp(group: group, at: own ? max(due, soon) : due, context: context) == nil, !own
        else { return try await book.record(rejection.recordID) ?? rejection }
        if let shown = try await book.record(rejection.recordID)?.followUpShown {
            let saved = try await book.update(rejection.recordID) { stored -> Rejection in
                stored.followUpDue = shown
                return stored
            }
            return saved ?? rejection
        }
        _ = try await book.update(rejection.recordID) { stored in
            stored.followUpGroup = stored.id
            stored.followUpDue = max(ownDue, soon)
            stored.followUpShown = nil
        }
        try await scheduleFollowUp(group: rejection.id, at: max(ownDue, soon), context: context)
        return try await book.record(rejection.recordID) ?? rejection
    }

    /// Cancels a group's follow-up when none of its rejections still waits for it.
    func cancelFollowUpIfDone(group: UUID, context: PluginContext) async throws {
        let waiting = try await followUpMembers(group, context: context).filter { !$0.isRecovered }
        if waiting.isEmpty {
            try await context.reminders.cancel(id: Self.followUpPrefix + group.uuidString.lowercased())
        }
    }

    /// Puts back the follow-up of a rejection saved by a process that stopped before it scheduled
    /// it. A follow-up already shown stays in the list of reminders, so it is never shown twice.
    ///
    /// Reminders do not travel in an export, so after `hooray import` no follow-up is known: a
    /// rejection whose follow-up was shown (``Rejection/followUpShown``) gets none again; one not
    /// shown yet, still waiting and hard enough comes at its time, or at once when that has passed
    /// (exported before it was due, imported after). A record saved before that field existed is
    /// noted as shown once its follow-up is known to have come; one imported without it is treated
    /// as not shown.
    func reconcileFollowUps(context: PluginContext) async throws {
        let reminders = try await context.reminders.list().filter { $0.reminder.id.hasPrefix(Self.followUpPrefix) }
        let known = Set(reminders.map(\.reminder.id))
        let came = Set(reminders.filter { $0.nextDue == nil }.map(\.reminder.id))
        let least = try context.configuration(of: self).followUpMinImpact
        let book = context.records(of: Rejection.self)
        let all = try await book.all()
        for rejection in all where rejection.followUpShown == nil && !rejection.isRecovered {
            guard let group = rejection.followUpGroup, let due = rejection.followUpDue,
                came.contains(Self.followUpPrefix + group.uuidString.lowercased())
            else { continue }
            try await book.update(rejection.recordID) { stored in
                if stored.followUpShown == nil { stored.followUpShown = due }
            }
        }
        var scheduled: Set<UUID> = []
        for rejection in all
        where !rejection.isRecovered && rejection.followUpShown == nil && rejection.impact >= least {
            guard let group = rejection.followUpGroup, let due = rejection.followUpDue,
                !known.contains(Self.followUpPrefix + group.uuidString.lowercased()), scheduled.insert(group).inserted
            else { continue }
            try await scheduleFollowUp(
                group: group, at: max(due, context.now.addingTimeInterval(Self.soon)), context: context)
        }
    }
}
