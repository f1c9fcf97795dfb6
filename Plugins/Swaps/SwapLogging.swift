import Foundation
import HoorayCalendar
import HoorayKit

/// What recording a swap did, for the command, the button and their replies.
struct SwapOutcome: Sendable, Hashable {
    /// The swap as saved.
    var swap: Swap
    /// The streak of days in a row with a swap, counted up to today, after this one.
    var streak: Int
    /// Whether this swap added a day (`false` for a second swap the same day).
    var addedDay: Bool
    /// The milestone this swap reached and celebrated big, if any.
    var milestone: Int?
    /// The celebration's line for a terminal, when there was a celebration.
    var celebrationLine: String?
}

extension SwapsPlugin {
    /// Records a swap for `day` and celebrates it in the user's style: the one way every path (the
    /// command, the **I did my swap** button) saves a swap. Check the text and the day first.
    ///
    /// - Parameters:
    ///   - text: What the user swapped, checked.
    ///   - day: The user's day it counts for, checked (not in the future).
    ///   - fromPrep: Whether it came from the night's prep.
    ///   - context: The plugin's context.
    func recordSwap(_ text: String, on day: LocalDate, fromPrep: Bool, context: PluginContext) async throws
        -> SwapOutcome
    {
        let configuration = try context.configuration(of: self)
        let book = context.records(of: Swap.self)
        let today = context.today
        let swap = Swap(text: text, day: day, loggedAt: context.now, fromPrep: fromPrep)
        try await book.insert(swap)
        // Saved: what follows crowns it, and must not make the user think it failed (and log it again).
        let all = (try? await book.all()) ?? [swap]
        let days = DaySet(all.map(\.day))
        let earlierDays = DaySet(all.filter { $0.id != swap.id }.map(\.day))
        var milestone: Int?
        do {
            milestone = try await SwapStreak.complete(
                day, earlierDays: earlierDays, today: today, milestones: configuration.milestones,
                storage: context.storage)
        } catch {
            context.logger.error("a swap was saved, but its milestone could not be checked: \(error)")
        }
        let streak = SwapStreak.history(days: days).streak(today: today).days
        // Today's swap and tomorrow's prep both there: tonight's Night Prep has nothing left to ask.
        if day == today {
            do {
                try await holdNightPrep(ifPreppedFor: today.adding(days: 1), context: context)
            } catch {
                context.logger.error("a swap was saved, but tonight's Night Prep could not be held: \(error)")
            }
        }
        let style = context.celebrations.style
        let celebration = SwapCelebration.celebration(for: swap, streak: streak, milestone: milestone, style: style)
        let outcome = await context.celebrate(celebration)
        let line = style == .off ? SwapCelebration.savedLine : outcome?.line
        return SwapOutcome(
            swap: swap, streak: streak, addedDay: !earlierDays.contains(day), milestone: milestone,
            celebrationLine: line)
    }

    /// The user's most frequent swaps, most frequent first (ties: the most recent first), compared
    /// without case or surrounding spaces, each in the words of its latest use.
    ///
    /// - Parameters:
    ///   - limit: How many; three for "I need help".
    ///   - context: The plugin's context.
    func topSwaps(limit: Int = 3, context: PluginContext) async throws -> [(text: String, count: Int)] {
        let swaps = try await context.records(of: Swap.self).all().sorted { $0.loggedAt > $1.loggedAt }
        var order: [String] = []
        var found: [String: (text: String, count: Int)] = [:]
        // The words the **I did my swap** button saves without a prep name no swap to reach for.
        for swap in swaps where swap.text != Self.unnamedSwap {
            let key = swap.text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            if let known = found[key] {
                found[key] = (known.text, known.count + 1)
            } else {
                found[key] = (swap.text, 1)
                order.append(key)
            }
        }
        // A stable sort: among equals, the order of latest use stays.
        return order.enumerated().sorted { lhs, rhs in
            let (left, right) = (found[lhs.element]!.count, found[rhs.element]!.count)
            return left != right ? left > right : lhs.offset < rhs.offset
        }.prefix(limit).map { found[$0.element]! }
    }
}
