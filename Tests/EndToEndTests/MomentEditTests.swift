import Foundation
import HooraySystemTesting
import Testing

/// `hooray moments edit ID` and `hooray moments delete ID` end to end, with `hoorayd` running and
/// without it (then `hooray` hosts the wins plugin itself).
@Suite(.timeLimit(.minutes(5)))
struct MomentEditTests {
    struct PrintedMoment: Decodable, Equatable {
        let id: String
        let text: String
        let mood: String?
        let note: String?
        let favorite: Bool
        let offlinePraise: String
    }

    func moments(_ fixture: HoorayFixture) async throws -> [PrintedMoment] {
        let output = try await fixture.hooray("moments", "--json")
        #expect(output.status == .exited(0), "\(output.standardError)")
        return try JSONDecoder().decode([PrintedMoment].self, from: Data(output.standardOutput.utf8))
    }

    /// The short id `hooray moments` shows for the only moment: `[3f2a9c1b]`.
    func shownID(_ fixture: HoorayFixture) async throws -> String {
        let list = try await fixture.hooray("moments").standardOutput
        let match = try #require(list.firstMatch(of: /\[([0-9a-f]{8})\]/), "no id in:\n\(list)")
        return String(match.1)
    }

    @Test(arguments: [false, true])
    func editFixesATypoAndKeepsEverythingElse(daemonRunning: Bool) async throws {
        try await HoorayFixture.with { fixture in
            let daemon = daemonRunning ? try await fixture.startDaemon() : nil
            let win = try await fixture.hooray("win", "Took a wlak", "--mood", "calm")
            #expect(win.status == .exited(0), "\(win.standardError)")
            let before = try #require(try await moments(fixture).first)
            let id = try await shownID(fixture)
            #expect(before.id.hasPrefix(id))

            let edit = try await fixture.hooray(
                "moments", "edit", id, "--text", "Took a walk", "--mood", "proud", "--note", "Round the park")
            #expect(edit.status == .exited(0), "\(edit.standardError)")
            #expect(
                edit.standardOutput.hasPrefix("Moment updated\n• Took a walk 💪  [\(id)]\n"), "\(edit.standardOutput)")
            #expect(edit.standardOutput.contains("Note: Round the park"))

            let after = try #require(try await moments(fixture).first)
            #expect(after.id == before.id)
            #expect(after.text == "Took a walk")
            #expect(after.mood == "proud")
            #expect(after.note == "Round the park")
            #expect(after.offlinePraise == before.offlinePraise)
            #expect(try await fixture.hooray("moments").standardOutput.contains("• Took a walk 💪  [\(id)]"))

            // Only what is given changes; "" removes the note, none the mood.
            let json = try await fixture.hooray("moments", "edit", id, "--note", "", "--mood", "none", "--json")
            #expect(json.status == .exited(0), "\(json.standardError)")
            let printed = try JSONDecoder().decode(PrintedMoment.self, from: Data(json.standardOutput.utf8))
            #expect(printed == (try await moments(fixture).first))
            #expect(printed.text == "Took a walk" && printed.note == nil && printed.mood == nil)
            await daemon?.stop()
        }
    }

    @Test(arguments: [false, true])
    func deleteAsksForYesWithoutATerminalThenDeletes(daemonRunning: Bool) async throws {
        try await HoorayFixture.with { fixture in
            let daemon = daemonRunning ? try await fixture.startDaemon() : nil
            #expect(try await fixture.hooray("win", "Logged by mistake").status == .exited(0))
            #expect(try await fixture.hooray("win", "Kept").status == .exited(0))
            let mistake = try #require(try await moments(fixture).first { $0.text == "Logged by mistake" })
            let id = String(mistake.id.prefix(8))

            let unasked = try await fixture.hooray("moments", "delete", id)
            #expect(unasked.status == .exited(64))
            #expect(unasked.standardError.contains("add --yes"), "\(unasked.standardError)")
            #expect(try await moments(fixture).count == 2)

            let deleted = try await fixture.hooray("moments", "delete", id, "--yes")
            #expect(deleted.status == .exited(0), "\(deleted.standardError)")
            #expect(deleted.standardOutput.contains("Deleted the moment “Logged by mistake” [\(id)]."))
            #expect(try await moments(fixture).map(\.text) == ["Kept"])
            await daemon?.stop()
        }
    }

    @Test func deleteHelpShowsTheQuestionAndYes() async throws {
        try await HoorayFixture.with { fixture in
            let help = try await fixture.hooray("moments", "delete", "--help")
            #expect(help.status == .exited(0))
            #expect(help.standardOutput.contains("--yes"))
        }
    }

    @Test(arguments: [false, true])
    func anUnknownIdOrNothingToChangeIsAClearRefusal(daemonRunning: Bool) async throws {
        try await HoorayFixture.with { fixture in
            let daemon = daemonRunning ? try await fixture.startDaemon() : nil
            #expect(try await fixture.hooray("win", "Took a walk").status == .exited(0))
            let id = try await shownID(fixture)

            let unknown = try await fixture.hooray("moments", "edit", "deadbeef", "--text", "x")
            #expect(unknown.status == .exited(1))
            #expect(
                unknown.standardError.contains("no moment has an id starting with deadbeef"), "\(unknown.standardError)"
            )
            let gone = try await fixture.hooray("moments", "delete", "deadbeef", "--yes")
            #expect(gone.status == .exited(1))
            #expect(gone.standardError.contains("no moment has an id starting with deadbeef"))

            let nothing = try await fixture.hooray("moments", "edit", id)
            #expect(nothing.status == .exited(64))
            #expect(nothing.standardError.contains("nothing to change; give --text, --mood or --note"))
            let blank = try await fixture.hooray("moments", "edit", id, "--text", "  ")
            #expect(blank.status == .exited(64))
            #expect(blank.standardError.contains("--text is empty"))
            #expect(try await moments(fixture).map(\.text) == ["Took a walk"])
            await daemon?.stop()
        }
    }
}
