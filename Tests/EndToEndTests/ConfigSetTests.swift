import Foundation
import HooraySystemTesting
import Testing

/// `hooray config set`, `get` and `unset` on a user's own commented hooray.toml, with the real
/// binaries: only the line concerned changes, a running hoorayd applies it, and a refused change
/// leaves the file exactly as it was.
@Suite(.timeLimit(.minutes(3)))
struct ConfigSetTests {
    /// A hooray.toml as a user keeps it: comments, blank lines, a key commented out.
    static let commented = """
        # Hooray: my settings. The comments and blank lines are mine.

        [delivery]
        quiet_hours = "22:00-07:30"   # sleep

        # Swaps: prep at night, focus in the morning.
        [plugins.swaps]
        # night_prep = "21:00"           # "Prep tonight: what's your swap for tomorrow?"; "off" for none
        morning_focus = "off"            # not for me

        """

    /// The lines of `after` that differ from `before`'s, as `diff` would show them: removed ones with
    /// `-`, added ones with `+` (a longest common subsequence of lines).
    static func lineDiff(_ before: String, _ after: String) -> [String] {
        let old = before.components(separatedBy: "\n")
        let new = after.components(separatedBy: "\n")
        var common = [[Int]](repeating: [Int](repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                common[i][j] = old[i] == new[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var (i, j) = (0, 0)
        var lines: [String] = []
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                i += 1
                j += 1
            } else if j < new.count, i == old.count || common[i][j + 1] > common[i + 1][j] {
                lines.append("+" + new[j])
                j += 1
            } else {
                lines.append("-" + old[i])
                i += 1
            }
        }
        return lines
    }

    func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// When `hooray next --all --json` says Night Prep is due next; `nil` when it is not planned.
    func nightPrepDue(_ fixture: HoorayFixture, at time: String) async throws -> Date? {
        struct Entry: Decodable {
            let plugin: String
            let id: String
            let due: Date
        }
        let next = try await fixture.hooray("next", "--all", "--json", fakeTime: time)
        #expect(next.status == .exited(0), "\(next.standardError)")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode([Entry].self, from: Data(next.standardOutput.utf8))
            .first { $0.plugin == "swaps" && $0.id == "night-prep" }?.due
    }

    @Test func setChangesOneLineOfACommentedFileARunningHoorayDAppliesItAndUnsetGivesTheFileBack() async throws {
        try await HoorayFixture.with { fixture in
            let file = try fixture.writeConfig(Self.commented)
            let original = try bytes(file)
            let time = "2026-06-15 12:00:00"
            let daemon = try await fixture.startDaemon(fakeTime: time)

            // The words: `set … off` on a commented file shows as one line in a diff, and unset undoes it.
            let off = try await fixture.hooray("config", "set", "plugins.swaps.night_prep", "off")
            #expect(off.status == .exited(0), "\(off.standardError)")
            #expect(
                off.standardOutput.contains("Set plugins.swaps.night_prep = \"off\" in ~/config/hooray/hooray.toml."))
            #expect(off.standardOutput.contains("hoorayd reloaded its configuration."))
            let withOff = try String(contentsOfFile: file, encoding: .utf8)
            #expect(Self.lineDiff(Self.commented, withOff) == ["+night_prep = \"off\""])
            let unset = try await fixture.hooray("config", "unset", "plugins.swaps.night_prep")
            #expect(unset.status == .exited(0), "\(unset.standardError)")
            #expect(try bytes(file) == original)

            // A time starts Night Prep at once in the running hoorayd: it plans it for 21:30.
            let at = try await fixture.hooray("config", "set", "plugins.swaps.night_prep", "21:30")
            #expect(at.status == .exited(0), "\(at.standardError)")
            #expect(at.standardOutput.contains("hoorayd reloaded its configuration."))
            let afterTime = try String(contentsOfFile: file, encoding: .utf8)
            #expect(Self.lineDiff(Self.commented, afterTime) == ["+night_prep = \"21:30\""])
            #expect(try await nightPrepDue(fixture, at: time) == HoorayFixture.utc("2026-06-15 21:30:00"))

            // `off` then changes that one line, the comments around it kept, and hoorayd drops Night Prep.
            let reloads = daemon.standardError.components(separatedBy: "configuration reloaded").count
            let offAgain = try await fixture.hooray("config", "set", "plugins.swaps.night_prep", "off")
            #expect(offAgain.status == .exited(0), "\(offAgain.standardError)")
            let afterOff = try String(contentsOfFile: file, encoding: .utf8)
            #expect(Self.lineDiff(afterTime, afterOff) == ["-night_prep = \"21:30\"", "+night_prep = \"off\""])
            let reloaded = await pollUntil(timeout: .seconds(15)) { () -> Bool? in
                daemon.standardError.components(separatedBy: "configuration reloaded").count > reloads ? true : nil
            }
            #expect(reloaded == true, "\(daemon.standardError)")
            #expect(try await nightPrepDue(fixture, at: time) == nil)

            let get = try await fixture.hooray("config", "get", "plugins.swaps.night_prep")
            #expect(get.status == .exited(0), "\(get.standardError)")
            #expect(get.standardOutput == "plugins.swaps.night_prep = \"off\"  # ~/config/hooray/hooray.toml:10\n")

            let back = try await fixture.hooray("config", "unset", "plugins.swaps.night_prep")
            #expect(back.status == .exited(0), "\(back.standardError)")
            #expect(try bytes(file) == original)
            // The system drop-in's value is in force again, and `get` says where it comes from.
            let system = try await fixture.hooray("config", "get", "plugins.swaps.night_prep")
            #expect(
                system.standardOutput.contains("= \"off\"  # ~/etc/conf.d/10-tests.toml:"))
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test func aRefusedChangeSaysWhatIsWrongAndTheFixAndLeavesTheFileByteForByte() async throws {
        try await HoorayFixture.with { fixture in
            let file = try fixture.writeConfig(Self.commented)
            let original = try bytes(file)
            let system = fixture.home.appending("etc/hooray.toml")
            try "[log]\nlevel = \"info\"\n".write(toFile: system, atomically: true, encoding: .utf8)
            let cases: [(arguments: [String], status: Int32, says: [String])] = [
                (
                    ["config", "set", "plugins.swaps.nigth_prep", "off"], 78,
                    ["unknown key `nigth_prep`", "did you mean `night_prep`?", "hooray.toml is unchanged"]
                ),
                (["config", "set", "plugins.swaps.night_prep", "42"], 78, ["night_prep", "HH:MM"]),
                (["config", "set", "delivery.burst_limit", "many"], 78, ["burst_limit", "many"]),
                (
                    ["config", "set", "plugins.nosuch.enabled", "false"], 78,
                    ["unknown plugin `nosuch`", "installed plugins are"]
                ),
                (["config", "set", "plugins..enabled", "false"], 64, ["not a key path"]),
                (["config", "unset", "plugins.swaps.night_prep"], 64, ["does not set plugins.swaps.night_prep"]),
                (
                    ["--config", system, "config", "set", "log.level", "debug"], 64,
                    ["system configuration file"]
                ),
            ]
            for (arguments, status, says) in cases {
                let output = try await fixture.hooray(arguments: arguments)
                #expect(output.status == .exited(status), "\(arguments): \(output.standardError)")
                for words in says {
                    #expect(output.standardError.contains(words), "\(arguments): \(output.standardError)")
                }
                #expect(try bytes(file) == original, "\(arguments)")
            }
            #expect(try String(contentsOfFile: system, encoding: .utf8) == "[log]\nlevel = \"info\"\n")
        }
    }

    @Test func aFileChangedMeanwhileOrHalfTypedIsNeverWrittenOver() async throws {
        try await HoorayFixture.with { fixture in
            // Another program saves the file between hooray's reading it and writing it.
            let file = try fixture.writeConfig(Self.commented)
            let changed = try await fixture.hooray(
                arguments: ["config", "set", "plugins.swaps.night_prep", "off"],
                environment: ["HOORAY_TEST_BEFORE_CONFIG_WRITE": "printf '# saved meanwhile\\n' >> '\(file)'"])
            #expect(changed.status == .exited(75), "\(changed.standardError)")
            #expect(changed.standardError.contains("was changed by another program while hooray was changing it"))
            #expect(changed.standardError.contains("run the command again"))
            #expect(try String(contentsOfFile: file, encoding: .utf8) == Self.commented + "# saved meanwhile\n")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.home.appending("config/hooray"))
            #expect(leftovers == ["hooray.toml"])

            // A file saved mid-edit: the mistake is named with its place, and nothing is written.
            let halfTyped = Self.commented + "[plugins.wins\n"
            try fixture.writeConfig(halfTyped)
            let refused = try await fixture.hooray("config", "set", "plugins.swaps.night_prep", "off")
            #expect(refused.status == .exited(78), "\(refused.standardError)")
            #expect(refused.standardError.contains("hooray.toml:10:"), "\(refused.standardError)")
            #expect(refused.standardError.contains("hooray config check"))
            #expect(try String(contentsOfFile: file, encoding: .utf8) == halfTyped)
        }
    }

    @Test func aMissingFileIsCreatedWithItsModeAndAKeptFileKeepsItsMode() async throws {
        try await HoorayFixture.with { fixture in
            let file = fixture.home.appending("config/hooray/hooray.toml")
            let created = try await fixture.hooray("config", "set", "plugins.habits.enabled", "false")
            #expect(created.status == .exited(0), "\(created.standardError)")
            #expect(try String(contentsOfFile: file, encoding: .utf8) == "[plugins.habits]\nenabled = false\n")
            #expect(created.standardOutput.contains("hoorayd is not running"))

            try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: file)
            let set = try await fixture.hooray("config", "set", "plugins.habits.enabled", "true")
            #expect(set.status == .exited(0), "\(set.standardError)")
            let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
            #expect(mode == 0o640)
            let json = try await fixture.hooray("config", "get", "plugins.habits.enabled", "--json")
            let value = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
            #expect(value?["value"] as? Bool == true)
            #expect(value?["file"] as? String == file)
            #expect(value?["line"] as? Int == 2)
        }
    }

    @Test func remindAddToFileWritesAnEntryTheUserCanEditByHand() async throws {
        try await HoorayFixture.with { fixture in
            let file = try fixture.writeConfig(Self.commented)
            let added = try await fixture.hooray(
                "remind", "Stretch", "--at", "15:00", "--days", "mon-fri", "--to-file")
            #expect(added.status == .exited(0), "\(added.standardError)")
            #expect(
                added.standardOutput.contains("Added a [[plugins.reminders.reminder]] to ~/config/hooray/hooray.toml"))
            let text = try String(contentsOfFile: file, encoding: .utf8)
            #expect(
                text == Self.commented
                    + "\n[[plugins.reminders.reminder]]\ntitle = \"Stretch\"\nat = \"15:00\"\ndays = \"mon-fri\"\n")
            let list = try await fixture.hooray("remind", "list")
            #expect(list.standardOutput.contains("Stretch"), "\(list.standardOutput)")
            #expect(list.standardOutput.contains("hooray.toml"))

            // A one-off cannot live in the file: refused, and the file is as it was.
            let oneOff = try await fixture.hooray("reminders", "add", "Tea", "--in", "20m", "--to-file")
            #expect(oneOff.status == .exited(64), "\(oneOff.standardError)")
            #expect(oneOff.standardError.contains("--in makes a one-off"))
            #expect(try String(contentsOfFile: file, encoding: .utf8) == text)
        }
    }
}
