import Foundation
import HoorayClient
import Testing

@testable import HoorayLauncher

@Suite struct TrayMenuTests {
    static let bar = BarSnapshot(
        next: .init(title: "Stretch\nnow", plugin: "reminders", due: Date(), when: "15:00"),
        items: [
            .init(plugin: "habits", item: BarItem(text: "✅ 1/3", tooltip: "Habits: 1 of 3 done today")),
            .init(plugin: "wins", item: BarItem(text: "🏆 2", tooltip: "2 wins today")),
        ])

    /// The labels of the entries, separators as `—`.
    static func labels(_ menu: TrayMenu) -> [String] {
        menu.entries.map { $0.isSeparator ? "—" : $0.label }
    }

    @Test func theMenuHasTheQuickLogTheDueHabitsTheNextReminderPausingAndTheApp() {
        let menu = TrayMenu(bar: Self.bar, habits: LauncherTests.habits, appInstalled: true)
        #expect(
            Self.labels(menu) == [
                "Log a win…", "—", "Read 10 pages", "Run", "—", "Next: Stretch now at 15:00", "—",
                "Pause notifications for 1 hour", "Pause notifications until tomorrow", "—", "Open Hooray",
                "Quit the tray",
            ])
        #expect(menu.entries[0].action == .open(.logMoment))
        #expect(menu.entries[2].action == .tickHabit("Read 10 pages") && menu.entries[2].isCheckbox)
        // The next reminder only tells.
        #expect(menu.entries[5].action == nil)
        #expect(menu.entries.last?.action == .quitTray)
        #expect(menu.tooltip == "Habits: 1 of 3 done today\n2 wins today\nNext: Stretch now at 15:00")
    }

    @Test func withoutTheAppNothingOpensIt() {
        let menu = TrayMenu(bar: nil, habits: [], appInstalled: false)
        #expect(
            Self.labels(menu) == [
                "Pause notifications for 1 hour", "Pause notifications until tomorrow", "—", "Quit the tray",
            ])
        #expect(!menu.entries.contains { if case .open = $0.action { true } else { false } })
        #expect(menu.tooltip == "Nothing logged yet today")
    }

    @Test func whilePausedItSaysUntilWhenAndOffersToResume() {
        var bar = Self.bar
        bar.paused = .init(until: Date(), when: "tomorrow 08:00")
        let menu = TrayMenu(bar: bar, habits: [], appInstalled: true)
        #expect(Self.labels(menu).contains("Notifications paused until tomorrow 08:00"))
        #expect(menu.entries.contains { $0.action == .resume })
        #expect(!menu.entries.contains { $0.action == .pause(.hour) })
        #expect(menu.tooltip.hasSuffix("\nNotifications paused until tomorrow 08:00"))
    }

    @Test func longNamesAreCutAndManyHabitsStopAtTen() {
        let long = String(repeating: "a", count: 200)
        let habits =
            [ChecklistItem(name: long, streak: 0, today: "due")]
            + (1...20).map { ChecklistItem(name: "Habit \($0)", streak: 0, today: "due") }
        let menu = TrayMenu(bar: nil, habits: habits, appInstalled: false)
        let ticks = menu.entries.filter { if case .tickHabit = $0.action { true } else { false } }
        #expect(ticks.count == TrayMenu.maxHabits)
        #expect(ticks.first?.label.count == TrayMenu.maxLabel)
        // The whole name is ticked, not the shortened label.
        #expect(ticks.first?.action == .tickHabit(long))
    }

    @Test func actionKeysStayTheSameForTheSameAction() {
        #expect(TrayAction.tickHabit("Run").key == "habit:Run")
        #expect(TrayAction.pause(.tomorrow).key == "pause:tomorrow")
        #expect(TrayAction.open(.logMoment).key == "open:log")
    }
}
