import ArgumentParser
import Foundation
import HoorayCLIHost
import HoorayCommandLine
import HoorayCommands
import HoorayEngine
import HoorayKit
import HoorayStorage
import HoorayTerminal
import HoorayText

struct Missed: AsyncParsableCommand, OffersJSON {
    static let configuration = CommandConfiguration(
        abstract: "Show the reminders that passed while the computer was off or asleep.",
        discussion: """
            When hoorayd comes back after the computer was off or asleep, a reminder due meanwhile is \
            shown late only while it is recent (`[scheduler] catch_up_within`); the older ones are told \
            in one "While you were away" notice and listed here.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(
        help:
            "Show what was missed in the last N days (a stretch of missed times is listed whole, from its first to its last, when its last is)."
    )
    var days: Int = 7

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    func validate() throws {
        guard TimeInput.daysBack.contains(days) else {
            throw ValidationError(TimeInput.daysBackProblem(String(days)))
        }
    }

    func run() async throws {
        let session = try CLISession(configFile: GlobalArguments.current.config)
        // Reading creates no data folder: without a database nothing was missed.
        let since = Date().addingTimeInterval(-Double(days) * 86400)
        let missed = try await session.existingDatabase()?.missedReminders(since: since) ?? []
        if json {
            print(try Output.json(missed.map(MissedItem.init)))
            return
        }
        if missed.isEmpty {
            print("Nothing was missed in the last \(days == 1 ? "day" : "\(days) days").")
            return
        }
        var table = Output.Table(headers: ["MISSED", "REMINDER", "TIMES", "PLUGIN"])
        for entry in missed {
            let when =
                entry.firstDueAt == entry.lastDueAt
                ? Output.when(entry.lastDueAt)
                : "\(Output.when(entry.firstDueAt)) – \(Output.when(entry.lastDueAt))"
            table.add([when, TerminalText.safe(entry.title), "\(entry.count)", entry.plugin])
        }
        print(table.render())
        let total = missed.reduce(0) { $0 + $1.count }
        print(
            "\n\(total == 1 ? "1 reminder" : "\(total) reminders") passed while the computer was off or asleep. "
                + "A reminder due less than `[scheduler] catch_up_within` ago is still shown when hoorayd comes back."
        )
    }
}

/// A missed reminder as `hooray missed --json` prints it: the `missed` type of docs/json.md.
struct MissedItem: Encodable {
    let plugin: String
    let reminder: String
    let title: String
    let count: Int
    let firstDueAt: Date
    let lastDueAt: Date
    let noticedAt: Date

    init(_ entry: MissedReminder) {
        plugin = entry.plugin
        reminder = entry.reminderID
        title = entry.title
        count = entry.count
        firstDueAt = entry.firstDueAt
        lastDueAt = entry.lastDueAt
        noticedAt = entry.recordedAt
    }
}
