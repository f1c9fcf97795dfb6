import Foundation
import HoorayClient
import Testing

@testable import HoorayLauncher

@Suite struct LauncherTests {
    static let habits = [
        ChecklistItem(name: "Read 10 pages", streak: 3, today: "due"),
        ChecklistItem(name: "Run", streak: 0, today: "due"),
        ChecklistItem(name: "Read the news", streak: 5, today: "done"),
        ChecklistItem(name: "Reading aloud", streak: 1, today: "paused"),
    ]

    @Test func winAndItsWordsOfferToLogThem() {
        let results = Launcher.results(for: "win took a walk")
        #expect(results.map(\.title) == ["Log a win: took a walk"])
        #expect(results.first?.action == .logWin("took a walk"))
        #expect(results.first?.id == "win:took a walk")
    }

    @Test(arguments: ["WIN   took\ta\nwalk", "  win took a walk ", "hooray win took a walk", "Won took a walk"])
    func caseSpacesAndControlCharactersDoNotChangeTheWin(query: String) {
        #expect(Launcher.results(for: query).map(\.action) == [.logWin("took a walk")])
    }

    @Test func winAloneOffersToOpenTheAppRatherThanLogNothing() {
        let results = Launcher.results(for: "win")
        #expect(results.map(\.action) == [.open(.home)])
        #expect(results.first?.title == "Log a win…")
    }

    @Test func habitOffersOnlyTheDueHabitsWithEveryWord() {
        let read = Launcher.results(for: "habit read", habits: Self.habits)
        #expect(read.map(\.title) == ["Done today: Read 10 pages"])
        #expect(read.first?.detail == "Keeps your 3-day streak going")
        #expect(read.first?.action.arguments == ["habit", "done", "--", "Read 10 pages"])

        let all = Launcher.results(for: "habits", habits: Self.habits)
        #expect(all.map(\.title) == ["Done today: Read 10 pages", "Done today: Run"])
        #expect(all.last?.detail == "Marks it done for today")

        #expect(Launcher.results(for: "habit read pages", habits: Self.habits).count == 1)
        #expect(Launcher.results(for: "habit swim", habits: Self.habits).isEmpty)
    }

    @Test func hoorayAloneTellsTheNextReminderAndTodaysCounts() {
        let bar = BarSnapshot(
            next: .init(title: "Stretch", plugin: "reminders", due: Date(), when: "15:00"),
            items: [
                .init(plugin: "habits", item: BarItem(text: "✅ 1/2", tooltip: "Habits: 1 of 2 done today")),
                .init(plugin: "wins", item: BarItem(text: "🏆 2", tooltip: "2 wins today")),
            ], doNotDisturb: false)
        let results = Launcher.results(for: "hooray", bar: bar)
        #expect(results.map(\.title) == ["Next: Stretch", "Today"])
        #expect(results.map(\.detail) == ["15:00", "Habits: 1 of 2 done today · 2 wins today"])
        #expect(results.allSatisfy { $0.action == .open(.home) })
        #expect(results.map(\.id) == ["open:home:next", "open:home:today"])
        #expect(LauncherAction(id: "open:home:today") == .open(.home))
    }

    @Test func hoorayAloneWithoutTheDaemonSaysHowToStartIt() {
        let results = Launcher.results(for: "Hooray")
        #expect(results.count == 1)
        #expect(results.first?.detail.contains("systemctl --user start hooray") == true)
    }

    @Test(arguments: ["", "   ", "walk", "windows", "habitual", "hooray now"])
    func otherWordsOfferNothing(query: String) {
        #expect(Launcher.results(for: query, habits: Self.habits).isEmpty)
    }

    @Test func anOverlongQueryOffersNothing() {
        // Short once its spaces are one, but launchers send every keystroke: it is not looked at.
        #expect(Launcher.results(for: "win x" + String(repeating: " ", count: 4001)).isEmpty)
        #expect(Launcher.results(for: "win x" + String(repeating: " ", count: 3990)).count == 1)
        #expect(Launcher.results(for: "win " + String(repeating: "a", count: 10_000)).isEmpty)
        #expect(Launcher.results(for: "win " + String(repeating: "a", count: 2001)).isEmpty)
        #expect(Launcher.results(for: "win " + String(repeating: "a", count: 2000)).count == 1)
    }

    @Test(arguments: [
        LauncherAction.logWin("took a walk: 2 km"), .tickHabit("Read: 10 pages"), .open(.home), .logWin("ünïcödé 🎉"),
    ])
    func anOffersIdNamesItsActionWhole(action: LauncherAction) {
        #expect(LauncherAction(id: action.id) == action)
    }

    @Test(arguments: ["", "win:", "habit:", "open:nowhere", "delete:everything", "no colon"])
    func anIdNoLauncherWasGivenNamesNothing(id: String) {
        #expect(LauncherAction(id: id) == nil)
    }

    /// A host that records what it was asked to run.
    final class RecordingHost: LauncherHost, @unchecked Sendable {
        let lock = NSLock()
        var ran: [LauncherAction] = []
        var habitsRead = 0
        let answer: LauncherOutcome

        init(answer: LauncherOutcome = .done) { self.answer = answer }

        func checklist() async -> [ChecklistItem]? {
            lock.withLock { habitsRead += 1 }
            return LauncherTests.habits
        }
        func bar() async -> BarSnapshot? { nil }
        func run(_ action: LauncherAction) async -> LauncherOutcome {
            lock.withLock { ran.append(action) }
            return answer
        }
    }

    @Test func aWinIsOfferedWithoutReadingTheHabits() async {
        let host = RecordingHost()
        let offers = await Launcher.offers(for: "win took a walk", from: host)
        #expect(offers.count == 1)
        #expect(host.habitsRead == 0)
        _ = await Launcher.offers(for: "habit run", from: host)
        #expect(host.habitsRead == 1)
    }

    @Test func choosingAnOfferRunsItsCommandAndAMadeUpWinIsHeldToTheLimits() async {
        let host = RecordingHost()
        #expect(await Launcher.perform(id: "win:took  a\u{7}walk", on: host) == .done)
        #expect(await Launcher.perform(id: "habit:Run", on: host) == .done)
        #expect(await Launcher.perform(id: "open:home", on: host) == .done)
        #expect(
            await Launcher.perform(id: "win:   ", on: host) == .failed("there is nothing to log: the win has no words"))
        #expect(await Launcher.perform(id: "rm:-rf", on: host) == .unknown)
        let long = await Launcher.perform(id: "win:" + String(repeating: "b", count: 2001), on: host)
        #expect(long == .failed("the win is 2001 characters long; the most is 2000"))
        #expect(host.ran == [.logWin("took a walk"), .tickHabit("Run")])
    }
}
