import Foundation
import HoorayDelivery
import HoorayKit
import HoorayStorage

/// Calm delivery: quiet hours, do-not-disturb, digests of bursts and "While you were away".
///
/// Which notices wait, and which are gathered:
/// - An urgent notice (``Notice/Urgency/critical``) is always shown at once.
/// - While the notification server is in do-not-disturb, every other notice waits in the inbox and is
///   shown when it ends.
/// - While notifications are paused (``pause(until:)``), and during quiet hours, notices of
///   reminders (and Hooray's own summaries) wait until the pause or the quiet hours end. A notice that answers something the user just did, such as a command's celebration, is shown.
/// - Notices that waited go out together as one digest; so do more than `burst_limit` notices of
///   reminders within a minute.
extension Engine {
    /// The plugin name under which the host posts its own notices: digests and "While you were away".
    /// No plugin can have it (`hooray` is not a valid plugin name for another program).
    public static let hostPlugin = "hooray"

    /// Whether a notice may wait for calmer times: it is not urgent and is not an update of one on screen.
    static func mayWait(_ stored: StoredNotice) -> Bool {
        stored.notice.urgency != .critical && stored.handles.isEmpty
    }

    /// Whether a notice came from the schedule (a reminder, or the host's own summary) rather than
    /// answering what the user just did.
    static func isScheduled(_ stored: StoredNotice) -> Bool {
        stored.reminderID != nil || stored.plugin == hostPlugin
    }

    /// Holds back what must wait, and gathers what goes out together.
    ///
    /// - Parameters:
    ///   - pending: The notices waiting to be shown.
    ///   - gathering: Whether notices may be gathered into a digest.
    /// - Returns: The notices to hand over now; `nil` when a digest was made, so that the queue is
    ///   read again.
    func calmDelivery(_ pending: [StoredNotice], gathering: Bool) async throws -> [StoredNotice]? {
        guard !pending.isEmpty else { return pending }
        let now = clock.now
        let dnd = await channels.doNotDisturb()
        if dnd != doNotDisturbState {
            logger.info("do not disturb: \(dnd)")
            doNotDisturbState = dnd
            changes.publish()
        }
        let quietEnd = settings.quietHours.end(containing: now, in: timeZone).flatMap { $0 > now ? $0 : nil }
        // A pause first: quiet hours it ends in hold what waits on, at the next pass.
        let calm: (until: Date, because: String)? =
            if let pauseEnd = await currentPause(at: now) {
                (pauseEnd, "notifications paused until \(localTime(pauseEnd))")
            } else if let quietEnd {
                (quietEnd, "quiet hours until \(localTime(quietEnd))")
            } else {
                nil
            }
        let held: [StoredNotice]
        if dnd.isOn {
            held = pending.filter { $0.notice.urgency != .critical }
            let source = dnd.source.map { " (\($0))" } ?? ""
            try await database.holdNotices(
                held.map(\.id), because: "do not disturb is on\(source); shown when it ends", until: nil)
        } else if let calm {
            held = pending.filter { Self.mayWait($0) && Self.isScheduled($0) }
            try await database.holdNotices(held.map(\.id), because: calm.because, until: calm.until)
            if deliveryWake != calm.until, !held.isEmpty {
                deliveryWake = calm.until
                loopContinuation.yield(.changed)
            }
        } else {
            held = []
        }
        if !held.isEmpty {
            logger.info("\(held.count) notice(s) wait: \(dnd.isOn ? "do not disturb is on" : calm?.because ?? "")")
            changes.publish()
        }
        let heldIDs = Set(held.map(\.id))
        let ready = pending.filter { !heldIDs.contains($0.id) }
        // What waited goes out as one digest; so does a burst of reminders within a minute. Hooray's
        // own notices (a digest, "While you were away") are never gathered: their lists would be lost.
        guard gathering else { return ready }
        let gatherable = ready.filter { Self.mayWait($0) && $0.plugin != Self.hostPlugin }
        let released = gatherable.filter { $0.heldBecause != nil }
        let fresh = gatherable.filter { $0.heldBecause == nil && Self.isScheduled($0) }
        var gathered = released.count >= 2 ? released : []
        if fresh.count >= 2 {
            let recent = try await database.deliveredCount(since: now.addingTimeInterval(-60))
            if recent + fresh.count > settings.burstLimit { gathered += fresh }
        }
        if released.count == 1 && !gathered.isEmpty { gathered += released }
        guard gathered.count >= 2 else { return ready }
        let digest = digestNotice(of: gathered, waitedFor: released.first?.heldBecause)
        guard
            let id = try await database.gatherIntoDigest(
                gathered.map(\.id), withButtons: Set(gathered.filter { !$0.notice.actions.isEmpty }.map(\.id)),
                digest: digest, plugin: Self.hostPlugin, now: now)
        else { return ready }
        logger.info("gathered \(gathered.count) notices into digest \(id)")
        return nil
    }

    /// "4 reminders: Stretch, Water, Read 10 pages, Night Prep".
    ///
    /// - Parameters:
    ///   - notices: The notices it gathers.
    ///   - waitedFor: Why some of them waited, when they did.
    func digestNotice(of notices: [StoredNotice], waitedFor: String?) -> Notice {
        let titles = notices.map(\.notice.title)
        var listed: [String] = []
        var length = 0
        for title in titles {
            if !listed.isEmpty && length + title.count > 90 { break }
            listed.append(title)
            length += title.count + 2
        }
        let more = titles.count - listed.count
        let kind = notices.allSatisfy { $0.reminderID != nil } ? "reminders" : "notices"
        let title =
            "\(titles.count) \(kind): " + listed.joined(separator: ", ") + (more > 0 ? " and \(more) more" : "")
        var body =
            switch waitedFor {
            case .some(let reason) where reason.hasPrefix("quiet hours"): "These waited for your quiet hours to end."
            case .some(let reason) where reason.hasPrefix("notifications paused"):
                "These waited while notifications were paused."
            case .some: "These waited while do not disturb was on."
            case nil: "These came due together."
            }
        if notices.contains(where: { !$0.notice.actions.isEmpty }) {
            body += " Their buttons are in `hooray inbox`."
        }
        return Notice(title: title, body: body, urgency: .normal, category: "digest")
    }

    /// After a pass: one "While you were away" notice for every reminder missed in it.
    func tellMissed(now: Date) async {
        let missed = missedThisPass
        missedThisPass = []
        guard !missed.isEmpty else { return }
        do {
            try await database.recordMissed(missed)
            let total = missed.reduce(0) { $0 + $1.count }
            var counts: [(title: String, count: Int)] = []
            for entry in missed {
                if let index = counts.firstIndex(where: { $0.title == entry.title }) {
                    counts[index].count += entry.count
                } else {
                    counts.append((entry.title, entry.count))
                }
            }
            // The most missed first, at most five by name.
            let named = counts.enumerated().sorted { ($1.element.count, $0.offset) < ($0.element.count, $1.offset) }
                .map(\.element)
            var list = named.prefix(5).map { $0.count > 1 ? "\($0.title) ×\($0.count)" : $0.title }
            if named.count > 5 { list.append("\(named.count - 5) more") }
            let notice = Notice(
                title: "While you were away",
                body: "\(total == 1 ? "1 reminder" : "\(total) reminders") passed while the computer was off or "
                    + "asleep: \(list.joined(separator: ", ")). `hooray missed` lists them.",
                urgency: .low, category: "away")
            let id = try await database.insertNotice(notice, plugin: Self.hostPlugin, now: now)
            logger.notice("\(total) missed reminder(s) told in notice \(id)")
            changes.publish()
        } catch {
            logger.error("cannot note missed reminders: \(error)")
        }
    }

    /// Before a pass: lets held notices go when the quiet hours end, and prunes old delivery records
    /// once a day.
    func housekeeping() async {
        let now = clock.now
        if let wake = deliveryWake, wake <= now {
            deliveryWake = nil
        }
        guard nextPruning.map({ $0 <= now }) ?? true else { return }
        nextPruning = now.addingTimeInterval(86400)
        do {
            let pruned = try await database.pruneDeliveryRecords(
                before: now.addingTimeInterval(-settings.keepDelivered.timeInterval))
            if !pruned.isEmpty {
                let days = Int(settings.keepDelivered.timeInterval / 86400)
                logger.info(
                    "pruned delivery records older than \(days) days: \(pruned.notices) notice(s), \(pruned.occurrences) occurrence(s), \(pruned.missed) missed"
                )
            }
        } catch {
            logger.error("cannot prune delivery records: \(error)")
        }
    }

    /// A time as the user reads it, such as `07:30`, in their zone.
    func localTime(_ instant: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "HH:mm"
        return formatter.string(from: instant)
    }
}
