import HoorayKit

/// The recovery plugin's commands the Recovery view runs, as `hooray reject`, `hooray recovery …`
/// and `hooray challenge …` do from a terminal.
extension DaemonLink {
    /// The built-in plugin of rejection recovery.
    static let recoveryPlugin = "recovery"

    /// A rejection: a `hooray recovery list --json` element (docs/json.md, `rejection`).
    struct Rejection: Sendable, Equatable, Decodable {
        var id: String
        /// `dating`, `job`, `social`, `academic` or `other`.
        var type: String
        var impact: Int
        var note: String?
        var screenshots: [String]
        /// When it happened, an ISO 8601 instant.
        var happenedAt: String
        /// When the user said "I'm okay now"; `nil` before.
        var recoveredAt: String?
        var encouragement: String
    }

    /// "Your resilience": a `hooray recovery --json` reply (docs/json.md, `recoveryDashboard`).
    struct Dashboard: Sendable, Equatable, Decodable {
        struct Score: Sendable, Equatable, Decodable {
            var total: Double
            var message: String
            var level: String
        }
        struct Week: Sendable, Equatable, Decodable {
            var from: String
            var through: String
            var counts: [String: Int]
            var total: Int
            var averageImpact: Double?
            var recovered: Int
            var averageRecoveryHours: Double?
        }
        struct Pattern: Sendable, Equatable, Decodable {
            var title: String
            var description: String
            var insight: String
            var actionable: String
        }
        struct TrendWeek: Sendable, Equatable, Decodable {
            var from: String
            var through: String
            var recovered: Int
            var averageRecoveryHours: Double?
        }
        struct Trend: Sendable, Equatable, Decodable {
            var weeks: [TrendWeek]
        }
        struct Streaks: Sendable, Equatable, Decodable {
            var challenge: Int
            var checkIn: Int
        }
        struct CheckIn: Sendable, Equatable, Decodable {
            /// `low`, `okay`, `good` or `strong`.
            var mood: String
            /// What the user wrote about the day, if anything.
            var note: String?
        }
        var today: String
        var score: Score
        var thisWeek: Week
        var patterns: [Pattern]
        var trend: Trend
        var streaks: Streaks
        var todayCheckIn: CheckIn?
    }

    /// Today's challenge: a `hooray challenge --json` reply (docs/json.md, `challenge`).
    struct Challenge: Sendable, Equatable, Decodable {
        struct Details: Sendable, Equatable, Decodable {
            var title: String
            var description: String
            var points: Int
            var timeEstimate: String
        }
        var day: String
        var challenge: Details
        /// `open`, `done` or `skipped`.
        var status: String
        var totalPoints: Int
        var streak: Int
        /// For `done`: the celebration's line.
        var celebration: String?
    }

    /// The 5-minute recovery plan: a `hooray recovery plan --json` reply (docs/json.md, `recoveryPlan`).
    struct Plan: Sendable, Equatable, Decodable {
        struct Template: Sendable, Equatable, Decodable {
            var number: Int
            var title: String
        }
        var rejection: String?
        var type: String
        var emoji: String
        var title: String
        var heading: String
        var steps: [String]
        var template: Template?
    }

    /// A response template: a `hooray recovery templates --json` element (docs/json.md, `templates`).
    struct ResponseTemplate: Sendable, Equatable, Decodable {
        var number: Int
        var id: String
        var type: String
        var title: String
        var scenario: String
        var tone: String
        var text: String
    }

    /// A rejection to log, as `hooray reject` takes it.
    struct NewRejection: Sendable, Equatable {
        var type: String
        var impact: Int
        var note: String
        var screenshots: [String]
    }

    /// The rejections, newest first, as `hooray recovery list --json` lists them.
    func rejections() async throws(Problem) -> [Rejection] {
        try await recoveryRead("list", as: [Rejection].self, what: "the rejections")
    }

    /// The dashboard, as `hooray recovery --json` prints it.
    func recoveryDashboard() async throws(Problem) -> Dashboard {
        try await recoveryRead("dashboard", as: Dashboard.self, what: "your resilience")
    }

    /// Today's challenge, as `hooray challenge --json` prints it; the same all day.
    func challenge() async throws(Problem) -> Challenge {
        try await recoveryRead("challenge", as: Challenge.self, what: "today's challenge")
    }

    /// The plan for a rejection, by its id, as `hooray recovery plan ID --json` prints it.
    func plan(for rejection: String) async throws(Problem) -> Plan {
        try await recoveryRead("plan", values: ["id": [rejection]], as: Plan.self, what: "the plan")
    }

    /// The response templates for a kind of rejection, numbered, as `hooray recovery templates --type
    /// TYPE --json` lists them.
    func templates(for type: String) async throws(Problem) -> [ResponseTemplate] {
        struct Listed: Decodable { var templates: [ResponseTemplate] }
        return try await recoveryRead("templates", values: ["type": [type]], as: Listed.self, what: "the templates")
            .templates
    }

    /// Logs a rejection, as `hooray reject --type T --impact N [NOTE] [--screenshot F]…` does; hoorayd
    /// plans its follow-up.
    ///
    /// - Returns: The rejection saved, with its encouraging line, and what hoorayd adds for the user
    ///   to know, such as the daily reminders a first rejection started.
    func logRejection(_ new: NewRejection, requestID: String) async throws(Problem) -> (Rejection, [String]) {
        var values = ["type": [new.type], "impact": [String(new.impact)]]
        if !new.note.isEmpty { values["note"] = [new.note] }
        if !new.screenshots.isEmpty { values["screenshot"] = new.screenshots }
        let reply = try await command(
            "log", plugin: Self.recoveryPlugin, values: values, json: true, requestID: requestID)
        guard let rejection = try? reply.json?.decode(Rejection.self) else {
            throw .failed(
                "hoorayd saved the rejection but sent it back in a form this window does not read; see `hooray recovery list`"
            )
        }
        return (rejection, reply.warnings)
    }

    /// Says the user is okay now about a rejection, as `hooray recovery okay ID` does; its follow-up is
    /// cancelled.
    ///
    /// - Returns: hoorayd's words, such as "Glad you're okay. 💼 Job · 8/10 — bounced back in 2 h.".
    func markOkay(_ rejection: String, requestID: String) async throws(Problem) -> String {
        try await command(
            "okay", plugin: Self.recoveryPlugin, values: ["id": [rejection]], json: false, requestID: requestID
        ).text
    }

    /// Today's check-in, as `hooray recovery checkin MOOD [--note TEXT]` does; checking in again
    /// changes it, and a note given takes the place of the day's.
    ///
    /// - Returns: hoorayd's thanks, and what it adds for the user to know.
    func checkIn(_ mood: String, note: String? = nil, requestID: String) async throws(Problem) -> [String] {
        var values = ["mood": [mood]]
        if let note { values["note"] = [note] }
        let reply = try await command(
            "checkin", plugin: Self.recoveryPlugin, values: values, json: false, requestID: requestID)
        return ([reply.text] + reply.warnings).filter { !$0.isEmpty }
    }

    /// Marks today's challenge done or skipped, as `hooray challenge done` (`skip`) does.
    func finishChallenge(done: Bool, requestID: String) async throws(Problem) -> (Challenge, [String]) {
        let reply = try await command(
            done ? "challenge-done" : "challenge-skip", plugin: Self.recoveryPlugin, values: [:], json: true,
            requestID: requestID)
        guard let challenge = try? reply.json?.decode(Challenge.self) else {
            throw .failed("hoorayd told the challenge in a form this window does not read; update Hooray")
        }
        return (challenge, reply.warnings)
    }

    /// A read of the recovery plugin that changes nothing, decoded.
    private func recoveryRead<Value: Decodable>(
        _ name: String, values: [String: [String]] = [:], as type: Value.Type, what: String
    ) async throws(Problem) -> Value {
        let reply = try await command(name, plugin: Self.recoveryPlugin, values: values, json: true, requestID: nil)
        guard let value = try? reply.json?.decode(Value.self) else {
            throw .failed("hoorayd told \(what) in a form this window does not read; update Hooray")
        }
        return value
    }
}
