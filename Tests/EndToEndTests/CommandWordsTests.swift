import Foundation
import HooraySystemTesting
import Testing

/// What a newcomer types by mistake, with the real `hooray` and `hoorayd` (issue 29, items 1, 10
/// and 11): a command word is never saved as a swap or a moment, what was saved by mistake can be
/// fixed or deleted, and every refusal of the command line reads the same.
@Suite(.timeLimit(.minutes(3)))
struct CommandWordsTests {
    /// The JSON array a command printed.
    func array(_ output: ProcessOutput) throws -> [[String: Any]] {
        let value = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8))
        return try #require(value as? [[String: Any]], "not a JSON array: \(output.standardOutput)")
    }

    func object(_ output: ProcessOutput) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8))
        return try #require(value as? [String: Any], "not a JSON object: \(output.standardOutput)")
    }

    @Test("Item 1: command words and near-typos where a swap, a moment or a title is expected save nothing")
    func commandWordsAreNeverSavedAsText() async throws {
        try await HoorayFixture.with { fixture in
            // hoorayd runs: the front door hands it what it can run, and must hand these back.
            let daemon = try await fixture.startDaemon()
            let cases: [([String], String)] = [
                (["swap", "histroy"], "did you mean `hooray swap history`?"),
                (["swap", "show"], "\"show\" is a command word"),
                (["swap", "undo", "Tea instead of wine"], "hooray swap -- undo \"Tea instead of wine\""),
                (["swap", "prep", "lsit"], "did you mean `hooray swap list`?"),
                (["win", "lsit"], "did you mean `hooray win list`?"),
                (["win", "delete", "Took a walk"], "did you mean `hooray moments delete`?"),
                (["remind", "lsit", "--at", "18:00"], "hooray remind --at 18:00 -- lsit"),
            ]
            for (words, message) in cases {
                let output = try await fixture.hooray(arguments: words)
                #expect(output.status == .exited(64), "\(words): \(output.standardError)")
                #expect(output.standardError.contains(message), "\(words): \(output.standardError)")
                #expect(output.standardError.contains("Nothing was saved."), "\(words)")
                #expect(output.standardOutput.isEmpty, "\(words): \(output.standardOutput)")
            }
            // Words that are no id, given to delete, are refused too, with the way to log them.
            let delete = try await fixture.hooray("swap", "delete", "Tea instead of wine", "--yes")
            #expect(delete.status == .exited(64))
            #expect(delete.standardError.contains("hooray swap -- delete \"Tea instead of wine\""))
            // `hooray win list` lists the moments.
            let winList = try await fixture.hooray("win", "list", "--json")
            #expect(winList.status == .exited(0), "\(winList.standardError)")
            #expect(try array(winList).isEmpty)

            // Nothing was saved: no swap, no moment, no reminder, no prep.
            #expect(try array(try await fixture.hooray("swap", "list", "--json")).isEmpty)
            #expect(try array(try await fixture.hooray("moments", "--json")).isEmpty)
            #expect(try array(try await fixture.hooray("remind", "list", "--json")).isEmpty)
            #expect(try object(try await fixture.hooray("swap", "prep", "--json"))["items"] as? [String] == [])

            // With -- before them, or quoted as one, the words are kept as they are.
            let kept = try await fixture.hooray("swap", "--json", "--", "list")
            #expect(kept.status == .exited(0), "\(kept.standardError)")
            #expect(try object(kept)["text"] as? String == "list")
            let quoted = try await fixture.hooray("win", "delete the old photos", "--json")
            #expect(quoted.status == .exited(0), "\(quoted.standardError)")
            #expect(try object(quoted)["text"] as? String == "delete the old photos")
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test("Item 1: a swap saved by mistake is edited or deleted, and a prep item removed, with hoorayd")
    func swapsAndPrepItemsAreFixedAndRemoved() async throws {
        try await HoorayFixture.with { fixture in
            let daemon = try await fixture.startDaemon()
            _ = try await fixture.hooray("swap", "Tea instead of wine", "--date", "yesterday")
            _ = try await fixture.hooray("swap", "--", "histroy")
            func streak() async throws -> Int? {
                try object(try await fixture.hooray("swap", "history", "--json"))["currentStreak"] as? Int
            }
            #expect(try await streak() == 2)
            let list = try await fixture.hooray("swap", "list")
            let swaps = try array(try await fixture.hooray("swap", "list", "--json"))
            let junk = try #require(swaps.first?["id"] as? String)
            let shortID = String(junk.prefix(8))
            #expect(list.standardOutput.contains("\(shortID)  today      histroy"), "\(list.standardOutput)")

            // Deleted: it no longer counts toward the streak.
            let deleted = try await fixture.hooray("swap", "delete", shortID, "--yes")
            #expect(deleted.status == .exited(0), "\(deleted.standardError)")
            #expect(deleted.standardOutput.contains("Deleted the swap “histroy”"))
            #expect(try await streak() == 1)
            // Edited: its words and its day.
            let kept = try #require(swaps.last?["id"] as? String)
            let edited = try await fixture.hooray("swap", "edit", String(kept.prefix(6)), "Herbal tea instead of wine")
            #expect(edited.status == .exited(0), "\(edited.standardError)")
            let remaining = try array(try await fixture.hooray("swap", "list", "--json"))
            #expect(remaining.map { $0["text"] as? String } == ["Herbal tea instead of wine"])

            // A prep item is removed by its number, as `hooray swap prep` numbers them.
            _ = try await fixture.hooray("swap", "prep", "Oatmeal instead of a pastry", "remov", "Walk after lunch")
            #expect(try await fixture.hooray("swap", "prep").standardOutput.contains("  2. remov"))
            let removed = try await fixture.hooray("swap", "prep", "remove", "2")
            #expect(removed.status == .exited(0), "\(removed.standardError)")
            let prep = try object(try await fixture.hooray("swap", "prep", "--json"))
            #expect(prep["items"] as? [String] == ["Oatmeal instead of a pastry", "Walk after lunch"])
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test("Item 10: every parser error says the command, the problem and the near match, exit 64")
    func parserErrorsSpeakOneStyle() async throws {
        try await HoorayFixture.with { fixture in
            let cases: [([String], String)] = [
                (["--verison"], "hooray: unknown option --verison; did you mean --version?"),
                (
                    ["bar", "--format", "xmobar"],
                    "hooray bar: --format \"xmobar\" is not one of text, waybar, i3blocks, polybar"
                ),
                (["bar", "--format", "waybr"], "did you mean --format waybar?"),
                (["export", "--format", "xml"], "hooray export: --format \"xml\" is not one of json, csv"),
                (
                    ["ai", "set-key", "--provider", "bogus"],
                    "hooray ai set-key: --provider \"bogus\" is not one of hooray, openai"
                ),
                (["ai", "set-key", "--provider", "opnai"], "did you mean --provider openai?"),
                (["next", "--days", "2"], "hooray next: unknown option --days; it takes"),
                (["next", "--limt", "2"], "hooray next: unknown option --limt; did you mean --limit?"),
                (["next", "--limit", "many"], "hooray next: --limit \"many\" is not a valid value"),
                (["inbox", "extra"], "hooray inbox: unexpected argument \"extra\""),
                (
                    ["swap", "history", "--dyas", "2"],
                    "hooray swap history: unknown option --dyas; did you mean --days?"
                ),
            ]
            for (words, message) in cases {
                let output = try await fixture.hooray(arguments: words, input: "")
                #expect(output.status == .exited(64), "\(words): \(output.standardError)")
                #expect(output.standardError.contains(message), "\(words): \(output.standardError)")
                #expect(!output.standardError.contains("Error:"), "\(words): \(output.standardError)")
                #expect(output.standardError.contains("See `hooray "), "\(words): \(output.standardError)")
                #expect(output.standardOutput.isEmpty, "\(words)")
            }
            // One range of days back, said alike by hooray's own command and a plugin's.
            let missed = try await fixture.hooray("missed", "--days", "0")
            let journey = try await fixture.hooray("journey", "--days", "0")
            let problem = ": --days must be a number of days from 1 to 3650; got 0. For example --days 30\n"
            #expect(missed.status == .exited(64))
            #expect(journey.status == .exited(64))
            #expect(missed.standardError.hasPrefix("hooray missed" + problem), "\(missed.standardError)")
            #expect(journey.standardError.hasPrefix("hooray journey" + problem), "\(journey.standardError)")
            #expect(try await fixture.hooray("journey", "--days", "3650").status == .exited(0))
            #expect(try await fixture.hooray("missed", "--days", "3650").status == .exited(0))
        }
    }

    @Test("Item 11: --favourites is taken as --favorites is, as the words say favourite")
    func favouritesIsTaken() async throws {
        try await HoorayFixture.with { fixture in
            let logged = try object(try await fixture.hooray("win", "Took a walk", "--json"))
            _ = try await fixture.hooray("win", "Read a page")
            let id = try #require(logged["id"] as? String)
            let fav = try await fixture.hooray("moments", "fav", String(id.prefix(8)))
            #expect(fav.standardOutput.contains("Marked as a favourite"))
            for flag in ["--favourites", "--favorites"] {
                let shown = try await fixture.hooray("moments", flag, "--json")
                #expect(shown.status == .exited(0), "\(flag): \(shown.standardError)")
                #expect(try array(shown).map { $0["text"] as? String } == ["Took a walk"], "\(flag)")
            }
        }
    }

    @Test("Item 11: the manual's entries for plugin commands are real, and --version is taken where it is listed")
    func theManualHasRealEntriesAndVersionWorks() async throws {
        try await HoorayFixture.with { fixture in
            // What the manual is made from (swift-argument-parser's generate-manual reads this).
            let dump = try await fixture.hooray("--experimental-dump-help")
            #expect(dump.status == .exited(0))
            #expect(!dump.standardOutput.contains("see above"))
            #expect(dump.standardOutput.contains("What you swapped, such as"))
            let version = try await fixture.hooray("--version")
            for words in [["swap", "--version"], ["habit", "add", "--version"], ["next", "--version"]] {
                let output = try await fixture.hooray(arguments: words)
                #expect(output.status == .exited(0), "\(words): \(output.standardError)")
                #expect(output.standardOutput == version.standardOutput, "\(words)")
            }
        }
    }

    @Test("Item 11: remind remove takes several ids, and removes none when one is unknown")
    func remindRemoveTakesSeveralIDs() async throws {
        try await HoorayFixture.with { fixture in
            for title in ["Tea", "Stretch", "Call mom"] {
                #expect(try await fixture.hooray("remind", title, "--at", "18:00").status == .exited(0))
            }
            let refused = try await fixture.hooray("remind", "remove", "r1", "r9")
            #expect(refused.status == .exited(1))
            #expect(!refused.standardError.contains("quotes"))
            let removed = try await fixture.hooray("remind", "remove", "r1", "r2")
            #expect(removed.status == .exited(0), "\(removed.standardError)")
            #expect(removed.standardOutput == "Removed r1: Tea.\nRemoved r2: Stretch.\n")
            let left = try await fixture.hooray("remind", "list", "--ids")
            #expect(left.standardOutput == "r3\n")
        }
    }

    @Test("Item 11: habit show and about print JSON with the keys docs/json.md lists")
    func habitShowAndAboutOfferJSON() async throws {
        try await HoorayFixture.with { fixture in
            let documented = try SafeTextTests.documentedKeys()
            _ = try await fixture.hooray("habit", "add", "Read", "--remind", "20:00")
            let habit = try await fixture.hooray("habit", "show", "Read", "--json")
            #expect(habit.status == .exited(0), "\(habit.standardError)")
            let record = try object(habit)
            #expect(Set(record.keys) == documented["habitMonth"])
            #expect(record["name"] as? String == "Read")
            #expect(record["remindAt"] as? String == "20:00")
            let about = try await fixture.hooray("about", "--json")
            #expect(about.status == .exited(0), "\(about.standardError)")
            #expect(Set(try object(about).keys) == documented["about"])
        }
    }
}
