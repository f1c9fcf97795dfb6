import Foundation
import HoorayCommandLine
import HoorayKit
import HoorayKitTesting
import HoorayText
import Testing

@testable import RecoveryPlugin

/// `hooray recovery [--weeks N] [--json]` through the plugin's `run`, on HoorayKitTesting's fakes.
@Suite struct DashboardCommandTests {
    static let berlin = CommandEnvironment(timeZoneIdentifier: "Europe/Berlin")

    /// A harness at the fixture's "now", holding the fixture's history when `filled`.
    func setUp(filled: Bool = true) async throws -> PluginTestHarness {
        let harness = PluginTestHarness(
            pluginName: "recovery", now: DashboardFixtureTests.now, timeZone: Insights.berlin,
            configuration: RecoveryConfiguration())
        guard filled else { return harness }
        for rejection in DashboardFixtureTests.rejections {
            try await harness.context.records(of: Rejection.self).insert(rejection)
        }
        for checkIn in DashboardFixtureTests.checkIns {
            try await harness.context.records(of: CheckIn.self).insert(checkIn)
        }
        for challenge in DashboardFixtureTests.challenges {
            try await harness.context.records(of: ChallengeEntry.self).insert(challenge)
        }
        return harness
    }

    func dashboard(
        _ harness: PluginTestHarness, _ values: [String: [String]] = [:], json: Bool = false,
        environment: CommandEnvironment = berlin
    ) async throws -> CommandReply {
        try await RecoveryPlugin().run(
            CommandInvocation(command: "dashboard", values: values, json: json, environment: environment),
            context: harness.context, configuration: RecoveryConfiguration())
    }

    @Test func theTextShowsTheScoreTheWeeksThePatternsTheTrendAndTheStreaks() async throws {
        let reply = try await dashboard(try await setUp())
        let expected = """
            Your Resilience

            Resilience score: 68/100 — Building solid resilience 💪
              Recovery speed   30 of 40
              Challenges done  15 of 25
              Check-ins         8 of 20
              Steady logging   15 of 15

            This week's reality       This week   Last week
              Days                     8–14 Mar     1–7 Mar
              💔 Dating                       1           2
              💼 Job                          2           2
              👥 Social                       1           1
              📚 Academic                     1           0
              All rejections                  5           5
              Average impact                6.0         5.8
              Average recovery time         4 h        12 h

            Patterns
              👻 Ghosting Pattern Detected
                 You've been ghosted 5 times this month
                 This is about their communication style, not your worth
                 Try apps that require more investment upfront
              📅 Mondays Are Heavy
                 9 of your 22 rejections this month came on a Monday (41%)
                 That's about timing, not about you: some days simply bring more answers
                 Plan something kind for yourself on Mondays, before the day begins
              ⚡ Recovering Faster
                 Your last 5 recoveries took 4 h (median), down from 12 h before
                 You're bouncing back quicker than you used to. That's resilience, growing
                 Notice what helped this time, and keep it close

            Recovery time, week by week (8 weeks from Mon 18 Jan, in hours)
              █▆·▅▄▃▂▁  45 h → 4 h
              · a week with nothing marked okay

            Streaks
              Challenges   3 days in a row
              Check-ins    5 days in a row
              Today: not checked in yet (hooray recovery checkin)
            """
        #expect(reply.text == expected)
        #expect(!reply.text.contains("\u{1B}"), "no colour unless the terminal takes it")
    }

    @Test func theWeeksTableLinesUpInTerminalCells() async throws {
        let lines = try await dashboard(try await setUp()).text.split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("This week's reality") })
        let table = lines[start...(start + 7)]
        // Emoji take two cells: every row ends in the same column, and so does each row's first figure.
        #expect(Set(table.map(TerminalText.width)) == [TerminalText.width(lines[start])])
        let firstColumnEnd = TerminalText.width(String(lines[start].dropLast("   Last week".count)))
        for row in table.dropFirst() {
            let beforeLast = String(row.dropLast(12))
            #expect(TerminalText.width(beforeLast) == firstColumnEnd)
            #expect(beforeLast.last != " ", "\(row): a figure ends the first column")
        }
    }

    @Test func withColourTheHeadingsAreBold() async throws {
        let color = CommandEnvironment(timeZoneIdentifier: "Europe/Berlin", color: true)
        let text = try await dashboard(try await setUp(), environment: color).text
        #expect(text.hasPrefix("\u{1B}[1mYour Resilience\u{1B}[0m\n"))
        #expect(text.contains("\u{1B}[1mPatterns\u{1B}[0m"))
    }

    @Test func theJSONHoldsEveryFigure() async throws {
        let json = try #require(try await dashboard(try await setUp(), json: true).json)
        #expect(json["today"] == .string("2027-03-14"))
        #expect(json["timeZone"] == .string("Europe/Berlin"))
        let score = try #require(json["score"])
        #expect(score["total"] == .number(68))
        #expect(score["message"] == .string("Building solid resilience 💪"))
        #expect(score["level"] == .string("intermediate"))
        #expect(score["challenges"] == .number(15))
        #expect(score["checkIns"] == .number(8))
        #expect(score["steadyLogging"] == .number(15))
        #expect(score["recoverySpeed"] == .number(30))

        #expect(
            json["thisWeek"]
                == (try JSONValue(
                    json: """
                        {"from": "2027-03-08", "through": "2027-03-14", "total": 5, "averageImpact": 6,
                         "recovered": 4, "averageRecoveryHours": 4,
                         "counts": {"dating": 1, "job": 2, "social": 1, "academic": 1, "other": 0}}
                        """)))
        #expect(
            json["lastWeek"]?["counts"]
                == (try JSONValue(json: #"{"dating": 2, "job": 2, "social": 1, "academic": 0, "other": 0}"#)))
        #expect(json["lastWeek"]?["averageRecoveryHours"] == .number(12))

        guard case .array(let patterns) = json["patterns"] else {
            Issue.record("patterns is not an array")
            return
        }
        #expect(patterns.map { $0["kind"] } == [.string("ghosting"), .string("weekday"), .string("recoveringFaster")])
        #expect(patterns[0]["figures"] == (try JSONValue(json: #"{"ghosted": 5, "dating": 6}"#)))
        #expect(
            patterns[1]["figures"]
                == (try JSONValue(json: #"{"weekday": "monday", "count": 9, "total": 22, "percent": 41}"#)))
        #expect(
            patterns[2]["figures"] == (try JSONValue(json: #"{"recentMedianHours": 4, "earlierMedianHours": 12}"#)))
        #expect(patterns[0]["actionable"] == .string("Try apps that require more investment upfront"))

        #expect(json["trend"]?["sparkline"] == .string("█▆·▅▄▃▂▁"))
        guard case .array(let weeks) = json["trend"]?["weeks"] else {
            Issue.record("trend.weeks is not an array")
            return
        }
        #expect(weeks.count == 8)
        #expect(
            weeks[2]
                == (try JSONValue(
                    json:
                        #"{"from": "2027-02-01", "through": "2027-02-07", "recovered": 0, "averageRecoveryHours": null}"#
                )))
        #expect(
            weeks.map { $0["averageRecoveryHours"] }
                == [45, 36, nil, 30, 23, 15, 12, 4].map { $0.map(JSONValue.number) ?? .null })
        #expect(json["streaks"] == (try JSONValue(json: #"{"challenge": 3, "checkIn": 5}"#)))
    }

    @Test func weeksChoosesHowFarTheTrendLooksBack() async throws {
        let harness = try await setUp()
        let reply = try await dashboard(harness, ["weeks": ["3"]], json: true)
        #expect(reply.json?["trend"]?["sparkline"] == .string("█▆▁"))
        #expect(
            reply.text.contains("Recovery time, week by week (3 weeks from Mon 22 Feb, in hours)\n  █▆▁  15 h → 4 h\n"))
    }

    @Test(arguments: [
        ("0", "--weeks 0 is outside the range; give 1 to 52 weeks (a year at most), such as --weeks 12"),
        ("53", "--weeks 53 is outside the range; give 1 to 52 weeks (a year at most), such as --weeks 12"),
        ("many", "--weeks \"many\" is not a number of weeks; give 1 to 52, such as --weeks 12"),
        ("", "--weeks \"\" is not a number of weeks; give 1 to 52, such as --weeks 12"),
    ])
    func aBadNumberOfWeeksIsAUsageErrorThatSaysTheFix(given: String, message: String) async throws {
        let harness = try await setUp(filled: false)
        await #expect(throws: PluginCommandError.invalidValue("--weeks", message)) {
            try await dashboard(harness, ["weeks": [given]])
        }
    }

    @Test func anEmptyHistoryGetsAFriendlyFirstRunThatSaysHowToLog() async throws {
        let harness = try await setUp(filled: false)
        let reply = try await dashboard(harness, json: true)
        #expect(
            reply.text == """
                Your Resilience

                Nothing logged yet, and that's a fine place to start.
                When a rejection stings, log it in 30 seconds and get a plan that fits:
                  hooray reject --type job --impact 5 "No reply after the interview"
                Check in with yourself any day:
                  hooray recovery checkin good
                Your score, patterns and trends fill in here as you go.
                """)
        // The JSON has the same keys, with nothing yet: no average, no pattern, no figure in the trend.
        let json = try #require(reply.json)
        #expect(json["score"]?["total"] == .number(20))  // 20 for recovery speed with nothing to measure
        #expect(json["thisWeek"]?["averageImpact"] == .null)
        #expect(json["patterns"] == .array([]))
        #expect(json["trend"]?["sparkline"] == .string("········"))
    }

    @Test func aCheckInAloneShowsTheDashboardWithoutAPatternOrTrend() async throws {
        let harness = try await setUp(filled: false)
        try await harness.context.records(of: CheckIn.self).insert(Insights.checkIn("2027-03-14"))
        let text = try await dashboard(harness).text
        // 20 + 0 + 1 + 3.75 = 24.75 → 25.
        #expect(text.contains("Resilience score: 25/100 — Every step counts 🌱\n"))
        #expect(text.contains("  All rejections                  0           0\n"))
        #expect(text.contains("  Average impact                  —           —\n"))
        #expect(text.contains("Patterns\n  Nothing stands out yet. Patterns show here as your history grows.\n"))
        #expect(text.contains("  Nothing marked okay yet. When you feel better, `hooray recovery okay` records it.\n"))
        #expect(
            text.hasSuffix(
                "Streaks\n  Challenges   ready when you are\n  Check-ins    1 day in a row\n  Today: checked in 🙂 Good")
        )
    }
}
