import HoorayCalendar
import HoorayKit

/// The journey, as `hooray journey --json` tells it (Plugins/Wins `JourneyView`).
extension DaemonLink {
    /// A day of the journey: a `hooray journey --json` element.
    struct JourneyDay: Sendable, Equatable, Decodable {
        /// The day, in the user's time zone.
        var date: LocalDate
        /// The day's mood, such as "Calm day", and its emoji.
        var moodLabel: String
        var moodEmoji: String
        /// The day's moments' words, oldest first.
        var moments: [String]
        /// A short summary of the day, or `nil`.
        var summary: String?
    }

    /// The days with moments among the last `days`, today included, newest first.
    func journey(days: Int) async throws(Problem) -> [JourneyDay] {
        let reply = try await command("journey", values: ["days": [String(days)]], json: true, requestID: nil)
        guard let listed = try? reply.json?.decode([JourneyDay].self) else {
            throw .failed("hoorayd told the journey in a form this window does not read; update Hooray")
        }
        return listed
    }
}
