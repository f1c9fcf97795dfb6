import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit
import HoorayTesting
import Testing

@testable import RemindersPlugin

/// `hooray remind`: reminders added from the command line, on the real engine with a manual clock.
@Suite struct RemindCommandPluginTests {
    /// Tue 24 Nov 2026 10:00 UTC.
    static let tuesday = Date(timeIntervalSince1970: 1_795_514_400)

    func world(_ entries: [[String: String]] = []) async throws -> PluginWorld<RemindersPlugin> {
        try await PluginWorld(
            plugin: RemindersPlugin(), configuration: .init(reminder: try entries.map(entry)), now: Self.tuesday)
    }

    func refusal(_ world: PluginWorld<RemindersPlugin>, _ words: [String]) async -> PluginCommandError? {
        do {
            let invocation = try parse(words)
            _ = try await world.run(invocation)
            return nil
        } catch let error as PluginCommandError {
            return error
        } catch {
            Issue.record("\(words) failed with \(error)")
            return nil
        }
    }

    /// Parses words after `hooray reminders` as `hooray` does.
    func parse(_ words: [String]) throws -> CommandInvocation {
        let spec = try #require(RemindersPlugin().commands.first { $0.name == words[0] })
        var invocation = CommandInvocation(command: spec.name)
        var rest = Array(words.dropFirst())
        while let word = rest.first {
            rest.removeFirst()
            if word.hasPrefix("--") {
                let name = String(word.dropFirst(2))
                if spec.flags.contains(where: { $0.name == name }) {
                    invocation.flags.insert(name)
                } else {
                    invocation.values[name, default: []].append(rest.removeFirst())
                }
            } else {
                let argument = try #require(spec.arguments.first).name
                invocation.values[argument, default: []].append(word)
            }
        }
        invocation.environment = CommandEnvironment(timeZoneIdentifier: "UTC")
        return invocation
    }

    func run(_ world: PluginWorld<RemindersPlugin>, _ words: String...) async throws -> CommandReply {
        try await world.run(try parse(words))
    }

    func listed(_ world: PluginWorld<RemindersPlugin>) async throws -> [[String: JSONValue]] {
        var invocation = try parse(["list"])
        invocation.json = true
        guard case .array(let items) = try await world.run(invocation).json else { return [] }
        return items.compactMap { if case .object(let object) = $0 { object } else { nil } }
    }

    // MARK: Refused, and nothing saved

    @Test(arguments: [
        (["add", "Tea", "--at", "25:00"], "--at \"25:00\" is not a time of day; write it as HH:MM, e.g. \"15:00\""),
        (["add", "Tea", "--at", "10:00", "--days", "mon-funday"], "--days \"mon-funday\" is not a list of weekdays"),
        (["add", "Tea", "--at", "10:00", "--every", "0d"], "--every \"0d\" is not an interval of days"),
        (
            ["add", "Tea", "--at", "10:00", "--zone", "Mars/Olympus"],
            "--zone \"Mars/Olympus\" is not a known time zone"
        ),
        (["add", "Tea", "--on", "26-12-24"], "--on \"26-12-24\" is not a date; write it as YYYY-MM-DD"),
        (["add", "Tea", "--at", "10:00", "--days", "mon", "--every", "2d"], "use either --days or --every"),
        (["add", "Tea", "--at", "10:00", "--in", "20m"], "leave out --at"),
        (["add", "Tea", "--in", "20m", "--on", "2026-12-24"], "either --in"),
        (["add", "Tea", "--on", "2026-12-24", "--days", "mon"], "--on makes a one-off"),
        (["add", "Tea", "--on", "2026-11-20"], "--on \"2026-11-20\" is in the past; give today or a later day"),
        (["add", "Tea", "--on", "today", "--at", "08:00"], "08:00 on 2026-11-24 has already passed"),
        (["add", "Tea", "--in", "0m"], "--in \"0m\" is too short; give at least 1 minute"),
        (["add", "Tea", "--in", "soon"], "--in \"soon\" is not a length"),
        (["add", " ", "--at", "10:00"], "a reminder needs a title that is not empty"),
        (["add", "Tea"], "say when it should come: --at 18:00"),
        (["add", "Tea", "--days", "mon-fri"], "--days needs a time of day too; add --at"),
    ])
    func badInputIsRefusedWithTheFixAndSavesNothing(words: [String], message: String) async throws {
        let world = try await world()
        let error = try #require(await refusal(world, words), "accepted \(words)")
        #expect(error.message.contains(message), "\(error.message)")
        #expect(error.exitCode == 64)
        #expect(try await world.reminders().isEmpty)
        #expect(try await listed(world).isEmpty)
        // The id the refused one would have had is still the first.
        let added = try await run(world, "add", "Tea", "--at", "10:00")
        #expect(added.text.hasPrefix("Added r1: Tea"))
    }

    // MARK: Ids

    @Test func idsAreShortNeverReusedAndStepAroundTheFilesIDs() async throws {
        let world = try await world([["title": "R3", "at": "07:00"]])
        for title in ["A", "B"] { _ = try await run(world, "add", title, "--at", "10:00") }
        _ = try await run(world, "remove", "r2")
        let third = try await run(world, "add", "C", "--at", "10:00")
        // r2 was removed and is not given again; r3 is the file's.
        #expect(third.text.hasPrefix("Added r4: C, every day at 10:00 — next: tomorrow 10:00."))
        #expect(third.text.hasSuffix("`hooray remind remove r4` removes it."))
        let ids = try await listed(world).map { $0["id"] }
        #expect(ids == [.string("r3"), .string("r1"), .string("r4")])
    }

    @Test func aReminderLaterWrittenInTheFileWithTheSameSlugLeavesTheAddedOneAlone() async throws {
        let world = try await world()
        _ = try await run(world, "add", "Tea", "--at", "16:00")
        try await world.reload(configuration: .init(reminder: [try entry(["title": "R1", "at": "07:00"])]))
        let ids = try await world.reminders().map(\.reminder.id).sorted()
        #expect(ids == ["r1", "r1-2"])
        #expect(try await run(world, "edit", "r1", "--at", "17:00").text.hasPrefix("Changed r1: Tea"))
    }

    // MARK: Scheduling

    @Test func anAddedReminderIsPlannedAtOnceAndSurvivesReloadAndRestart() async throws {
        let world = try await world([["title": "Stretch", "at": "15:00", "days": "mon-fri"]])
        let added = try await run(world, "add", "Call", "mom", "--at", "18:00", "--body", "Just to say hi.")
        #expect(
            added.text
                == "Added r1: Call mom, every day at 18:00 — next: today 18:00. `hooray remind remove r1` removes it.")
        let today18 = Self.tuesday.addingTimeInterval(8 * 3600)
        #expect(try await world.reminders().first { $0.reminder.id == "r1" }?.nextDue == today18)

        try await world.reload(configuration: await world.configuration)
        try await world.restart()
        let entries = try await listed(world)
        #expect(entries.map { $0["id"] } == [.string("stretch"), .string("r1")])
        #expect(entries.map { $0["source"] } == [.string("hooray.toml"), .string("hooray remind")])
        #expect(entries.map { $0["editable"] } == [.bool(false), .bool(true)])

        await world.advance(to: today18.addingTimeInterval(1))
        let shown = await world.shown.map(\.title)
        #expect(shown == ["Stretch", "Call mom"])
        #expect(await world.shown.last?.body == "Just to say hi.")
        #expect(await world.shown.last?.notice.actions == [RemindersPlugin.snooze])
    }

    @Test func aOneOffIsShownOnceAndIsThenGoneForGood() async throws {
        let world = try await world()
        let added = try await run(world, "add", "Tea", "--in", "20m")
        #expect(added.text.hasPrefix("Added r1: Tea, once, today 10:20."))
        await world.advance(by: .seconds(21 * 60))
        #expect(await world.shown.map(\.title) == ["Tea"])
        #expect(try await listed(world).isEmpty)
        #expect(try await world.reminders().allSatisfy { $0.nextDue == nil })

        try await world.reload(configuration: await world.configuration)
        try await world.restart(after: .seconds(3600))
        await world.advance(by: .seconds(86400))
        #expect(await world.shown.map(\.title) == ["Tea"])
        let error = try #require(await refusal(world, ["edit", "r1", "--in", "5m"]))
        #expect(error.message.contains("r1 (Tea) was a one-off and came due yesterday 10:20"))

        // A week later it is gone from the book too.
        await world.advance(by: .seconds(8 * 86400))
        try await world.reload(configuration: await world.configuration)
        #expect(try await world.reminders().isEmpty)
    }

    @Test func aOneOffOnADayComesAtNineUnlessToldATime() async throws {
        let world = try await world()
        let reply = try await run(world, "add", "Gift", "--on", "2026-12-24")
        #expect(reply.text.hasPrefix("Added r1: Gift, once, Thu 24 Dec 09:00."))
        _ = try await run(world, "add", "Cake", "--on", "tomorrow", "--at", "16:30", "--zone", "Europe/Berlin")
        let cake = try #require(try await world.reminders().first { $0.reminder.id == "r2" })
        #expect(cake.nextDue == Self.tuesday.addingTimeInterval(86400 + 5 * 3600 + 30 * 60))
    }

    // MARK: Edit and remove

    @Test func editChangesOnlyWhatIsGivenAndReplansOnlyItself() async throws {
        let world = try await world()
        _ = try await run(world, "add", "Stretch", "--at", "15:00", "--days", "mon-fri", "--body", "Shoulders.")
        _ = try await run(world, "add", "Plants", "--at", "09:30", "--every", "3d")
        let plantsBefore = try await world.reminders().first { $0.reminder.id == "r2" }

        let edited = try await run(world, "edit", "r1", "--at", "16:00")
        #expect(edited.text == "Changed r1: Stretch, mon-fri at 16:00 — next: today 16:00.")
        let stretch = try #require(try await world.reminders().first { $0.reminder.id == "r1" })
        #expect(stretch.reminder.notice.body == "Shoulders.")
        #expect(try await world.reminders().first { $0.reminder.id == "r2" } == plantsBefore)

        _ = try await run(world, "edit", "R1", "--days", "sat,sun", "--title", "Long stretch")
        let weekend = try #require(try await world.reminders().first { $0.reminder.id == "r1" })
        #expect(weekend.reminder.notice.title == "Long stretch")
        #expect(
            weekend.reminder.schedule
                == .weekly(on: [.saturday, .sunday], at: TimeOfDay(hour: 16)!, zone: TimeZone(identifier: "UTC")!))

        let nothing = try #require(await refusal(world, ["edit", "r1"]))
        #expect(nothing.message.contains("give what to change"))
        let bad = try #require(await refusal(world, ["edit", "r1", "--at", "24:00"]))
        #expect(bad.exitCode == 64)
        #expect(try await world.reminders().first { $0.reminder.id == "r1" } == weekend)
    }

    @Test func remindersOfTheFileAreRefusedWithTheFix() async throws {
        let world = try await world([["title": "Stretch", "at": "15:00"]])
        for words in [["edit", "stretch", "--at", "16:00"], ["remove", "stretch"]] {
            let error = try #require(await refusal(world, words))
            #expect(error.message.contains("stretch is written in hooray.toml"))
            // The world names no file of its own; hoorayd names the real one (RealPathsTests).
            #expect(error.message.contains("entry in your hooray.toml, then run `hooray reload`"))
            #expect(error.exitCode == 1)
        }
        #expect(try await world.reminders().map(\.reminder.id) == ["stretch"])
    }

    @Test func anUnknownIDIsAnsweredWithTheIDsThereAre() async throws {
        let world = try await world()
        let none = try #require(await refusal(world, ["remove", "r7"]))
        #expect(none.message.contains("you have none added with `hooray remind` yet"))
        _ = try await run(world, "add", "A", "--at", "10:00")
        _ = try await run(world, "add", "B", "--at", "11:00")
        let error = try #require(await refusal(world, ["remove", "r7"]))
        #expect(error.message == "there is no reminder r7; yours are r1, r2 (`hooray remind list` shows them)")

        let removed = try await run(world, "remove", "r1")
        #expect(removed.text == "Removed r1: A.")
        #expect(try await world.reminders().map(\.reminder.id) == ["r2"])
        try await world.restart()
        #expect(try await world.reminders().map(\.reminder.id) == ["r2"])
    }

    @Test func theListNamesWhereEachComesFrom() async throws {
        let world = try await world([["title": "Stretch", "at": "15:00"]])
        #expect(try await run(world, "list").text.contains("Stretch"))
        _ = try await run(world, "add", "Tea", "--in", "1h")
        let text = try await run(world, "list").text
        #expect(text.contains("Tea") && text.contains("hooray remind"))
        #expect(text.contains("hooray.toml"))
        #expect(text.contains("Those from hooray.toml are changed in your hooray.toml."))
        #expect(try await run(world, "list", "--ids").text == "r1")
    }
}
