import Foundation
import HoorayCalendar
import HoorayKit

/// The resilience score, 0–100, from the 30 days that end today. The README's "Resilience score"
/// section writes the same formula out for people; keep them together.
///
/// | part | points | from |
/// |---|---|---|
/// | recovery speed | 40 | each rejection of the window scores `1 − hours to okay ÷ 72` (at least 0); one not marked okay after 72 h scores 0, a younger one is still under way and left out; the part is 40 × their average, or 20 when none counts |
/// | challenges | 25 | 2.5 for each day a challenge was done, up to 10 days |
/// | check-ins | 20 | 1 for each day with a check-in, up to 20 days |
/// | steady logging | 15 | 3.75 for each of the four 7-day blocks ending today (days 1–7, 8–14, 15–21, 22–28 back) with anything logged: a rejection, a check-in or a challenge done or skipped |
///
/// The score is the sum, rounded half up.
public struct ResilienceScore: Sendable, Hashable, Codable {
    /// The days the score looks back over, today included.
    public static let windowDays = 30
    /// Hours to okay that score nothing for recovery speed.
    public static let slowRecoveryHours = 72.0

    /// The score, 0–100.
    public var total: Int
    /// Recovery speed, 0–40.
    public var recoverySpeed: Double
    /// Challenges done, 0–25.
    public var challenges: Double
    /// Check-ins, 0–20.
    public var checkIns: Double
    /// Steady logging, 0–15.
    public var steadyLogging: Double

    /// The seed's message for the score, such as "Building solid resilience 💪".
    public var message: String { RecoveryCopy.scoreMessage(total) }
    /// The level challenges are chosen for.
    public var level: ResilienceLevel { ResilienceLevel(score: total) }

    /// Computes the score.
    ///
    /// - Parameters:
    ///   - rejections: Rejections (any; those outside the window are left out).
    ///   - checkIns: Check-ins.
    ///   - challenges: Challenge entries.
    ///   - now: The current instant; the window ends at the end of its day.
    ///   - timeZone: The user's time zone, where days start.
    public init(
        rejections: [Rejection], checkIns: [CheckIn], challenges: [ChallengeEntry], now: Date, timeZone: TimeZone
    ) {
        let today = LocalDate(instant: now, in: timeZone)
        let first = today.adding(days: -(Self.windowDays - 1))
        func inWindow(_ day: LocalDate) -> Bool { first <= day && day <= today }
        let windowRejections = rejections.filter { inWindow(LocalDate(instant: $0.happenedAt, in: timeZone)) }

        var speeds: [Double] = []
        for rejection in windowRejections {
            if let seconds = rejection.recoverySeconds {
                speeds.append(max(0, 1 - seconds / 3600 / Self.slowRecoveryHours))
            } else if now.timeIntervalSince(rejection.happenedAt) >= Self.slowRecoveryHours * 3600 {
                speeds.append(0)
            }
        }
        recoverySpeed = speeds.isEmpty ? 20 : 40 * speeds.reduce(0, +) / Double(speeds.count)

        let doneDays = Set(challenges.filter { $0.outcome == .done && inWindow($0.day) }.map(\.day))
        self.challenges = 2.5 * Double(min(doneDays.count, 10))
        let checkInDays = Set(checkIns.filter { inWindow($0.day) }.map(\.day))
        self.checkIns = Double(min(checkInDays.count, 20))

        var activeDays = Set(windowRejections.map { LocalDate(instant: $0.happenedAt, in: timeZone) })
        activeDays.formUnion(checkInDays)
        activeDays.formUnion(challenges.filter { inWindow($0.day) }.map(\.day))
        let blocks = (0..<4).filter { block in
            activeDays.contains { day in
                let back = day.days(until: today)
                return back >= block * 7 && back < block * 7 + 7
            }
        }
        steadyLogging = 3.75 * Double(blocks.count)

        // Worked to the millionth first: floating point makes a part such as 40 × 1.5 / 3 come out
        // as 19.999999999999996, and a sum of exactly x.5 would then round down instead of up.
        let sum = ((recoverySpeed + self.challenges + self.checkIns + steadyLogging) * 1_000_000).rounded() / 1_000_000
        total = min(100, max(0, Int((sum + 0.5).rounded(.down))))
    }
}

/// How challenging a challenge may be: beginner below 40, intermediate below 70, advanced from 70.
public enum ResilienceLevel: String, Sendable, Hashable, Codable, CaseIterable {
    case beginner, intermediate, advanced

    /// The level of a score.
    public init(score: Int) {
        switch score {
        case ..<40: self = .beginner
        case ..<70: self = .intermediate
        default: self = .advanced
        }
    }
}
