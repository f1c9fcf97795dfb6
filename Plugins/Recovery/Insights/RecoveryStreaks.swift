import Foundation
import HoorayCalendar
import HoorayKit

/// The recovery plugin's two streaks, on the shared streak engine (``StreakHistory``): days in a
/// row with a challenge done, and days in a row with a check-in. Today not done yet does not
/// break either.
public struct RecoveryStreaks: Sendable, Hashable, Codable {
    /// Days in a row with a challenge done.
    public var challenge: Int
    /// Days in a row with a check-in.
    public var checkIn: Int

    /// Counts both streaks up to `today`.
    public init(checkIns: [CheckIn], challenges: [ChallengeEntry], today: LocalDate) {
        challenge = Self.streak(days: challenges.filter { $0.outcome == .done }.map(\.day), today: today)
        checkIn = Self.streak(days: checkIns.map(\.day), today: today)
    }

    /// The streak of consecutive days in `days` that ends today or yesterday.
    static func streak(days: [LocalDate], today: LocalDate) -> Int {
        guard let first = days.min() else { return 0 }
        return StreakHistory(due: .daily, start: first, done: DaySet(days)).streak(today: today).days
    }
}
