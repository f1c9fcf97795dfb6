import Foundation
import HooraySystemTesting
import Testing

/// `hooray review` end to end on a faked clock: a week lived through the real commands, then the
/// review's figures beside what each plugin's own commands report for that week.
@Suite(.timeLimit(.minutes(8)))
struct ReviewTests {
    /// Runs `hooray` at a faked UTC time and expects it to succeed.
    @discardableResult
    func run(_ fixture: HoorayFixture, at time: String, _ arguments: String...) async throws -> ProcessOutput {
        let output = try await fixture.hooray(arguments: arguments, fakeTime: time)
        #expect(output.status == .exited(0), "\(arguments): \(output.standardError)")
        return output
    }

    func json(_ output: ProcessOutput) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8))
    }

    /// A figure of the review: (this week, last week, out of).
    func figure(_ review: [String: Any], _ area: String, _ key: String) -> (Double?, Double?, Double?) {
        let areas = review["areas"] as? [[String: Any]] ?? []
        let figures = areas.first { $0["area"] as? String == area }?["figures"] as? [[String: Any]] ?? []
        let found = figures.first { $0["key"] as? String == key }
        return (found?["thisWeek"] as? Double, found?["lastWeek"] as? Double, found?["outOf"] as? Double)
    }

    @Test func aSeededWeekShowsEachAreasFiguresAsThePluginsOwnCommandsReportThem() async throws {
        try await HoorayFixture.with { fixture in
            // The week before, 2026-W47: one win, the habit begins.
            try await run(fixture, at: "2026-11-18 09:00:00", "win", "Planted the tulips")
            try await run(fixture, at: "2026-11-20 08:00:00", "habit", "add", "Read 10 pages")
            try await run(fixture, at: "2026-11-20 21:00:00", "habit", "done", "Read 10 pages")
            // 2026-W48, Monday 23 to Sunday 29 November.
            try await run(fixture, at: "2026-11-23 21:00:00", "habit", "done", "Read 10 pages")
            try await run(fixture, at: "2026-11-24 10:00:00", "win", "Called my sister")
            try await run(fixture, at: "2026-11-24 21:00:00", "habit", "done", "Read 10 pages")
            try await run(
                fixture, at: "2026-11-25 10:00:00", "reject", "No reply to the application", "--type", "job",
                "--impact", "8")
            try await run(fixture, at: "2026-11-26 12:00:00", "win", "Finished the report")
            try await run(fixture, at: "2026-11-26 18:00:00", "recovery", "okay")
            try await run(fixture, at: "2026-11-26 21:00:00", "habit", "done", "Read 10 pages")
            try await run(fixture, at: "2026-11-27 19:00:00", "challenge", "done")
            try await run(fixture, at: "2026-11-27 20:00:00", "swap", "Sparkling water instead of soda")
            try await run(
                fixture, at: "2026-11-28 10:00:00", "reject", "Not picked for the team", "--type", "social", "--impact",
                "5")
            try await run(fixture, at: "2026-11-28 20:00:00", "swap", "Fruit for dessert")
            try await run(fixture, at: "2026-11-28 21:00:00", "habit", "done", "Read 10 pages")
            let lastWin = try await run(fixture, at: "2026-11-29 11:00:00", "win", "Took a long walk", "--json")
            let lastID = try #require((try json(lastWin) as? [String: Any])?["id"] as? String)
            try await run(fixture, at: "2026-11-29 11:05:00", "moments", "fav", String(lastID.prefix(8)))
            try await run(fixture, at: "2026-11-29 20:00:00", "swap", "Tea instead of wine")

            let sunday = "2026-11-29 21:30:00"
            let output = try await run(fixture, at: sunday, "review", "--json")
            let review = try #require(try json(output) as? [String: Any])
            #expect(review["week"] as? String == "2026-W48")
            #expect(review["from"] as? String == "2026-11-23" && review["through"] as? String == "2026-11-29")

            // Wins: the moments `hooray moments` lists for the week, and the week before.
            let moments = try #require(
                try json(
                    try await run(
                        fixture, at: sunday, "moments", "--json", "--since", "2026-11-23", "--until", "2026-11-29"))
                    as? [[String: Any]])
            let before = try #require(
                try json(
                    try await run(
                        fixture, at: sunday, "moments", "--json", "--since", "2026-11-16", "--until", "2026-11-22"))
                    as? [[String: Any]])
            #expect(figure(review, "Wins", "logged") == (Double(moments.count), Double(before.count), nil))
            #expect(moments.count == 3)
            let wins = (review["areas"] as? [[String: Any]])?.first { $0["area"] as? String == "Wins" }
            #expect((wins?["highlights"] as? [String])?.first == "Took a long walk", "the starred one first")
            #expect(figure(review, "Wins", "starred").0 == 1)

            // Habits: the days `hooray habit show` marks done, of those due, and the streak of `habit list`.
            let show = try #require(
                try json(try await run(fixture, at: sunday, "habit", "show", "Read 10 pages", "--json"))
                    as? [String: Any])
            let days = (show["days"] as? [[String: String]] ?? []).filter {
                ($0["date"] ?? "") >= "2026-11-23" && ($0["date"] ?? "") <= "2026-11-29"
            }
            let done = days.filter { $0["state"] == "done" }.count
            let due = days.filter { ["done", "open", "missed"].contains($0["state"] ?? "") }.count
            #expect(figure(review, "Habits", "done").0 == Double(done))
            #expect(figure(review, "Habits", "done").2 == Double(due))
            #expect(done == 4 && due == 7, "\(days)")
            let list = try #require(
                try json(try await run(fixture, at: sunday, "habit", "list", "--json")) as? [[String: Any]])
            #expect(figure(review, "Habits", "streaks").0 == ((list.first?["streak"] as? Int ?? 0) > 0 ? 1 : 0))

            // Recovery: this week's reality and the score of `hooray recovery`, on that Sunday.
            let dashboard = try #require(
                try json(try await run(fixture, at: sunday, "recovery", "--json")) as? [String: Any])
            let thisWeek = try #require(dashboard["thisWeek"] as? [String: Any])
            #expect(figure(review, "Rejection recovery", "logged").0 == thisWeek["total"] as? Double)
            #expect(figure(review, "Rejection recovery", "recovered").0 == thisWeek["recovered"] as? Double)
            #expect(
                figure(review, "Rejection recovery", "score").0 == (dashboard["score"] as? [String: Any])?["total"]
                    as? Double)
            #expect(figure(review, "Challenges", "done").0 == 1)
            #expect(thisWeek["total"] as? Double == 2 && thisWeek["recovered"] as? Double == 1)

            // Swaps: `hooray swap history` of the seven days.
            let history = try #require(
                try json(try await run(fixture, at: sunday, "swap", "history", "--days", "7", "--json"))
                    as? [String: Any])
            #expect(figure(review, "Swaps", "swaps").0 == history["swaps"] as? Double)
            #expect(figure(review, "Swaps", "days").0 == Double((history["swapDays"] as? [String])?.count ?? -1))
            #expect(figure(review, "Swaps", "streak").0 == history["currentStreak"] as? Double)

            // The text: warm lines and the table, the same figures.
            let text = try await run(fixture, at: sunday, "review")
            #expect(text.standardOutput.hasPrefix("Your week, Mon 23 Nov – Sun 29 Nov (2026-W48), so far\n"))
            #expect(text.standardOutput.contains("Starred and recent: “Took a long walk”"))
            #expect(text.standardOutput.contains("Habit days done"))
            #expect(text.standardOutput.contains("4 of 7"))
            // The same week asked for by name a week later is the same review, and complete.
            // The second rejection is marked okay only on Wednesday of the next week.
            try await run(fixture, at: "2026-12-02 10:00:00", "recovery", "okay")
            let later = try await run(fixture, at: "2026-12-06 10:00:00", "review", "--week", "2026-W48", "--json")
            let again = try #require(try json(later) as? [String: Any])
            #expect(again["complete"] as? Bool == true)
            #expect(figure(again, "Swaps", "swaps") == figure(review, "Swaps", "swaps"))
            #expect(figure(again, "Wins", "logged") == figure(review, "Wins", "logged"))
            // As it stood when the week ended: the later okay does not count, and the score is Sunday's.
            #expect(figure(again, "Rejection recovery", "logged").0 == 2)
            #expect(figure(again, "Rejection recovery", "recovered").0 == 1)
            #expect(figure(again, "Rejection recovery", "score").0 == figure(review, "Rejection recovery", "score").0)
            // Sunday was due and not done: when the week is over, the habit's streak did not outlast it;
            // the swaps, made every day to Sunday, keep theirs.
            #expect(figure(review, "Habits", "streaks").0 == 1)
            #expect(figure(again, "Habits", "streaks").0 == 0)
            #expect(figure(again, "Swaps", "streak").0 == 3)

            // A web page to keep, with the figures and a chart.
            let page = fixture.home.appending("week.html")
            let html = try await run(fixture, at: sunday, "review", "--week", "2026-W48", "--html", page)
            #expect(html.standardOutput.contains("Wrote your week 2026-W48"))
            let written = try String(contentsOfFile: page, encoding: .utf8)
            #expect(written.contains("<svg"))
            #expect(written.contains("Took a long walk"))
            #expect(written.contains("<td>4 of 7</td>"))

            // The PDF: one page that pdftotext (poppler, nobody's code here) reads the figures from.
            let pdf = fixture.home.appending("week.pdf")
            #expect(
                try await run(fixture, at: sunday, "review", "--week", "2026-W48", "--pdf", pdf).standardOutput
                    .contains("Wrote your week 2026-W48"))
            let info = try await ProcessRunner.run("/usr/bin/pdfinfo", arguments: [pdf])
            #expect(info.standardOutput.contains("Pages:           1"), "\(info.standardOutput)")
            #expect(info.standardOutput.contains("Title:           Your week 2026-W48"))
            let read = try await ProcessRunner.run("/usr/bin/pdftotext", arguments: ["-layout", pdf, "-"])
            #expect(read.status == .exited(0), "\(read.standardError)")
            for words in [
                "Your week", "Took a long walk", "Habit days done", "4 of 7", "Resilience score at the week's end",
                "Swap streak at the week's end",
            ] {
                #expect(read.standardOutput.contains(words), "\(words): \(read.standardOutput)")
            }
        }
    }

    @Test func badWeeksAndAnUnwritableFileAreRefusedAndAnEmptyWeekIsCalm() async throws {
        try await HoorayFixture.with { fixture in
            let now = "2026-12-01 10:00:00"
            for (week, message) in [
                ("2026-W60", "2026 has no week 60; its weeks are W01 to W53"),
                ("2026-49", "is not a week; write it as YYYY-Www, such as 2026-W49"),
                ("next week", "is not a week"),
                ("2027-W02", "2027-W02 has not begun yet"),
            ] {
                let output = try await fixture.hooray(arguments: ["review", "--week", week], fakeTime: now)
                #expect(output.status == .exited(64), "\(week)")
                #expect(output.standardError.contains(message), "\(week): \(output.standardError)")
            }
            let empty = try await run(fixture, at: now, "review")
            #expect(empty.standardOutput.contains("Your week, Mon 30 Nov – Sun 6 Dec (2026-W49), so far"))
            #expect(empty.standardOutput.contains("A quiet week: nothing logged in it, and that's okay."))
            try await run(fixture, at: now, "win", "Something small")
            let unwritable = try await fixture.hooray(
                arguments: ["review", "--html", fixture.home.appending("no/such/folder/week.html")], fakeTime: now)
            #expect(unwritable.status == .exited(1))
            #expect(unwritable.standardError.contains("cannot write"))
            #expect(unwritable.standardError.contains("no such file or directory"))
            let unwritablePDF = try await fixture.hooray(
                arguments: ["review", "--pdf", "/proc/week.pdf"], fakeTime: now)
            #expect(unwritablePDF.status == .exited(1))
            #expect(
                unwritablePDF.standardError.contains("cannot write /proc/week.pdf"), "\(unwritablePDF.standardError)")
            #expect(!FileManager.default.fileExists(atPath: "/proc/week.pdf"))
            #expect(try await run(fixture, at: now, "moments", "--json").standardOutput.contains("Something small"))
        }
    }

    @Test func theWeeklyNoticeComesOnceAtItsTimeOnAFakedClock() async throws {
        try await HoorayFixture.with { fixture in
            let clock = fixture.home.appending("fake-time")
            let time = HoorayFixture.fakeTimeVariables(file: clock)
            let title = "Your week in review"
            // Sunday 29 November 2026, twenty seconds before 18:00.
            try HoorayFixture.setFakeTime("2026-11-29 17:59:40", in: clock)
            let on = try await fixture.hooray(arguments: ["review", "--weekly", "on"], environment: time)
            #expect(on.status == .exited(0), "\(on.standardError)")
            #expect(on.standardOutput.contains("The weekly review notice is on: Sundays at 18:00"))
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon(environment: time)
            let shown = await pollUntil(timeout: .seconds(60)) { () -> RecordedNotification? in
                try? server.notifications().first { $0.summary == title }
            }
            let notice = try #require(shown, "\(daemon.standardError)")
            #expect(notice.body.contains("A calm look back at Mon 23 Nov – Sun 29 Nov"), "\(notice.body)")
            #expect(notice.body.contains("hooray review"))
            // Once: the next one is planned a week on, and no second one came meanwhile.
            let planned = await pollUntil(timeout: .seconds(20)) { () -> Bool? in
                guard let next = try? await fixture.hooray(arguments: ["next", "--json"], environment: time),
                    next.standardOutput.contains("\"weekly-review\""),
                    next.standardOutput.contains("2026-12-06T18:00:00Z")
                else { return nil }
                return true
            }
            #expect(planned == true)
            #expect(try server.notifications().filter { $0.summary == title }.count == 1)

            // Off: hoorayd reloads and plans it no more.
            let off = try await fixture.hooray(arguments: ["review", "--weekly", "off"], environment: time)
            #expect(off.status == .exited(0), "\(off.standardError)")
            let gone = await pollUntil(timeout: .seconds(20)) { () -> Bool? in
                guard let next = try? await fixture.hooray(arguments: ["next", "--json"], environment: time),
                    next.status == .exited(0), !next.standardOutput.contains("weekly-review")
                else { return nil }
                return true
            }
            #expect(gone == true)
            #expect(daemon.isRunning)
            await daemon.stop()
        }
    }

    @Test func withAIAParagraphOfReflectionIsWrittenFromTheFiguresAloneUnlessWordsAreShared() async throws {
        try await HoorayFixture.with { fixture in
            try await withAIServer { ai in
                func config(_ mode: String, share: Bool) -> String {
                    """
                    [ai]
                    provider = "openai"
                    endpoint = "\(ai.endpoint(mode).absoluteString)"
                    model = "test-model"
                    timeout = "3s"

                    [plugins.review]
                    share_notes = \(share)
                    """
                }
                let now = "2026-12-01 10:00:00"
                try fixture.writeConfig(config("good", share: false))
                try await run(fixture, at: now, "win", "Told my manager about the secret plan")
                try await run(fixture, at: now, "swap", "Sparkling water instead of soda")
                let asked = try ai.requests().count
                let output = try await run(fixture, at: now, "review", "--json")
                let review = try #require(try json(output) as? [String: Any])
                let reflection = review["reflection"] as? String
                #expect(
                    reflection?.hasPrefix("You don't have to eat perfectly.") == true,
                    "\(String(describing: reflection))")
                let request = try #require(try ai.requests().last)
                #expect(try ai.requests().count == asked + 1)
                #expect(request.body.contains("Wins logged: 1, last week 0"), "\(request.body)")
                #expect(request.body.contains("Swaps: 1, last week 0"))
                #expect(!request.body.contains("secret plan"), "the words of a win stay here")
                #expect(!request.body.contains("Sparkling water"), "the words of a swap stay here")

                try fixture.writeConfig(config("good", share: true))
                let shared = try await run(fixture, at: now, "review")
                #expect(shared.standardOutput.contains("✨ You don't have to eat perfectly."))
                #expect(try ai.requests().last?.body.contains("Told my manager about the secret plan") == true)

                try fixture.writeConfig(config("status-500", share: false))
                let failed = try await run(fixture, at: now, "review")
                #expect(failed.standardError.contains("no reflection from the AI service"))
                #expect(!failed.standardOutput.contains("✨"))
                #expect(failed.standardOutput.contains("Wins logged"))
                let count = try ai.requests().count
                let offline = try await run(fixture, at: now, "review", "--offline")
                #expect(!offline.standardOutput.contains("✨"))
                #expect(try ai.requests().count == count, "--offline asks nothing")
            }
        }
    }
}
