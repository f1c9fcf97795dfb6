import Foundation
import HoorayCalendar
import HoorayKit

@testable import RecoveryPlugin

/// Helpers of the dashboard's tests, in a namespace of their own so other recovery tests can have theirs.
enum Insights {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    /// An instant given as wall-clock time in Berlin, such as `2027-03-14 21:00`.
    static func time(_ text: String, in zone: TimeZone = berlin) -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.date(from: text)!
    }

    /// A day written `YYYY-MM-DD`.
    static func day(_ text: String) -> LocalDate { LocalDate(parsing: text)! }

    /// A rejection that happened at `happened` (Berlin), logged then or at `logged`, and marked okay
    /// `okayAfter` hours after it happened (not marked okay when `nil`).
    static func rejection(
        _ happened: String, _ type: RejectionType, impact: Int = 5, note: String? = nil, okayAfter hours: Double?,
        logged: String? = nil
    ) -> Rejection {
        let happenedAt = time(happened)
        let loggedAt = logged.map { time($0) } ?? happenedAt
        return Rejection(
            type: type, impact: impact, note: note, happenedAt: happenedAt, loggedAt: loggedAt,
            timeZone: berlin.identifier, recoveredAt: hours.map { happenedAt.addingTimeInterval($0 * 3600) })
    }

    /// A check-in on a day.
    static func checkIn(_ text: String) -> CheckIn {
        CheckIn(day: day(text), mood: .good, at: time(text + " 20:00"))
    }

    /// A challenge done, or skipped, on a day.
    static func challenge(_ text: String, _ outcome: ChallengeEntry.Outcome = .done) -> ChallengeEntry {
        ChallengeEntry(
            day: day(text), challengeID: "small-social-step", title: "Small Social Step",
            points: outcome == .done ? 10 : 0, outcome: outcome, at: time(text + " 18:00"))
    }
}
