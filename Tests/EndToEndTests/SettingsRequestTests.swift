import Foundation
import HooraySystemTesting
import Testing

/// The `settings` and `set_setting` requests (docs/protocol.md) against a real hoorayd and a real
/// hooray.toml: what the desktop app's Settings asks.
@Suite(.timeLimit(.minutes(3)))
struct SettingsRequestTests {
    /// Sends one request line and reads hoorayd's answer as JSON.
    static func ask(_ fixture: HoorayFixture, _ line: String) throws -> [String: Any] {
        let connection = try RawControlConnection(path: fixture.home.appending("runtime/hooray/control.sock"))
        #expect(connection.send(Data(line.utf8 + [0x0A])))
        guard case .answered(let data) = connection.receive(timeout: .seconds(15)) else {
            Issue.record("no answer to \(line)")
            return [:]
        }
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(data)")
    }

    @Test("Settings are read with their defaults; a setting set is one line of the user's file, applied at once")
    func aSettingIsReadAndSet() async throws {
        try await HoorayFixture.with { fixture in
            let original = "# Mine.\n[celebrations]\nstyle = \"playful\"   # fun\n\n[plugins.water]\nenabled = false\n"
            let config = try fixture.writeConfig(original)
            _ = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let read = try Self.ask(
                fixture,
                #"{"api_version":1,"method":"settings","keys":["celebrations.style","celebrations.window","plugins.water.enabled"]}"#
            )
            #expect(read["ok"] as? Bool == true, "\(read)")
            let settings = try #require(read["settings"] as? [[String: Any]], "\(read)")
            #expect(
                settings.map { $0["key"] as? String } == [
                    "celebrations.style", "celebrations.window", "plugins.water.enabled",
                ])
            #expect(settings[0]["value"] as? String == "playful" && settings[0]["default"] as? String == "calm")
            #expect(
                settings[0]["line"] as? Int == 3 && (settings[0]["file"] as? String)?.hasSuffix("hooray.toml") == true)
            #expect(settings[1]["value"] == nil && settings[1]["default"] as? Bool == true, "\(settings[1])")
            #expect(settings[2]["value"] as? Bool == false && settings[2]["default"] as? Bool == false)

            let off = try await fixture.hooray("water", "today")
            #expect(off.status != .exited(0), "off at first: \(off.standardOutput)")
            let set = try Self.ask(
                fixture, #"{"api_version":1,"method":"set_setting","key":"plugins.water.enabled","value":"true"}"#)
            #expect(set["ok"] as? Bool == true, "\(set) \(daemon.standardError)")
            #expect((set["settings"] as? [[String: Any]])?.first?["value"] as? Bool == true, "\(set)")
            #expect(
                try String(contentsOfFile: config, encoding: .utf8)
                    == original.replacingOccurrences(of: "enabled = false", with: "enabled = true"))
            // Applied at once: the running hoorayd has the plugin on.
            let on = try await fixture.hooray("water", "today")
            #expect(on.status == .exited(0), "\(on.standardError)")
            await daemon.stop()
        }
    }

    @Test("Two changes at once are both written, one after the other, and both applied")
    func twoChangesAtOnceAreBothWritten() async throws {
        try await HoorayFixture.with { fixture in
            let config = try fixture.writeConfig(
                "# Mine.\n[plugins.water]\nenabled = false\n\n[celebrations]\nwindow = true\n")
            _ = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let lines = [
                #"{"api_version":1,"method":"set_setting","key":"plugins.water.enabled","value":"true"}"#,
                #"{"api_version":1,"method":"set_setting","key":"celebrations.window","value":"false"}"#,
                #"{"api_version":1,"method":"set_setting","key":"celebrations.style","value":"playful"}"#,
            ]
            let answers = try await withThrowingTaskGroup(of: Bool.self) { group in
                for line in lines {
                    group.addTask { try Self.ask(fixture, line)["ok"] as? Bool == true }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(answers == [true, true, true], "\(daemon.standardError)")
            let text = try String(contentsOfFile: config, encoding: .utf8)
            #expect(
                text.hasPrefix("# Mine.\n[plugins.water]\nenabled = true\n\n[celebrations]\nwindow = false\n"),
                "\(text)")
            #expect(text.contains("style = \"playful\""), "\(text)")
            let on = try await fixture.hooray("water", "today")
            #expect(on.status == .exited(0), "\(on.standardError)")
            await daemon.stop()
        }
    }

    @Test(
        "A value the configuration refuses, a key the file has twice and a file broken by hand are refused, naming the key and the line, the file untouched"
    )
    func aBadChangeIsRefusedAndTheFileUntouched() async throws {
        try await HoorayFixture.with { fixture in
            let config = try fixture.writeConfig("[celebrations]\nstyle = \"calm\"\n")
            _ = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let loud = try Self.ask(
                fixture, #"{"api_version":1,"method":"set_setting","key":"celebrations.style","value":"loud"}"#)
            #expect(loud["ok"] as? Bool == false, "\(loud)")
            #expect(loud["invalid_value"] as? String == "celebrations.style", "\(loud)")
            let problems = (loud["problems"] as? [[String: Any]]) ?? []
            #expect(problems.contains { ($0["message"] as? String)?.contains("loud") == true }, "\(loud)")
            #expect(try String(contentsOfFile: config, encoding: .utf8) == "[celebrations]\nstyle = \"calm\"\n")

            for broken in [
                "[celebrations]\nstyle = \"calm\"\nstyle = \"off\"\n", "[celebrations]\nstyle = \"calm\"\n[plugins\n",
            ] {
                try broken.write(toFile: config, atomically: true, encoding: .utf8)
                let answer = try Self.ask(
                    fixture, #"{"api_version":1,"method":"set_setting","key":"celebrations.window","value":"false"}"#)
                #expect(answer["ok"] as? Bool == false, "\(answer)")
                #expect(answer["invalid_value"] == nil, "the file is the problem, not the value: \(answer)")
                let place = (answer["problems"] as? [[String: Any]])?.first
                #expect(place?["line"] as? Int == 3 && (place?["file"] as? String) == config, "the line: \(answer)")
                #expect(try String(contentsOfFile: config, encoding: .utf8) == broken, "untouched")
            }
            // Read, the broken file says where too, and what can be read is.
            let read = try Self.ask(
                fixture, #"{"api_version":1,"method":"settings","keys":["celebrations.style","celebrations.window"]}"#)
            #expect(read["ok"] as? Bool == true, "\(read)")
            #expect((read["problems"] as? [[String: Any]])?.first?["line"] as? Int == 3, "\(read)")
            #expect((read["settings"] as? [[String: Any]])?.count == 2, "every key answered: \(read)")
            await daemon.stop()
        }
    }
}
