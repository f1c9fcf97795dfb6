import Foundation
import HooraySystemTesting
import Testing

/// A button's question for a plugin in another language: the notice it posts names the question
/// (`prompt`), `hooray act` asks it or takes `--answer`, and `actionInvoked` hands the answer over.
@Suite(.timeLimit(.minutes(3)))
struct ExternalActQuestionTests {
    static let sdk = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("sdk/python/hooray_plugin.py").path

    /// Writes a plugin, with the Python SDK beside it, whose notice's button asks what was read and
    /// posts what it was answered.
    static func writeReadingPlugin(into fixture: HoorayFixture) throws {
        let folder = fixture.home.appending("data/hooray/plugins/reading")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try """
        name = "reading"
        version = "1.0.0"
        api_version = 1
        description = "Asks what you read."
        exec = ["reading.py"]
        permissions = ["notify"]

        [[commands]]
        name = "ask"
        summary = "Post a notice whose button asks what you read."
        """.write(toFile: folder + "/plugin.toml", atomically: true, encoding: .utf8)
        try writeProgram(
            """
            #!/usr/bin/env python3
            from hooray_plugin import Notice, Plugin

            plugin = Plugin()

            @plugin.command("ask")
            def ask(command, host):
                buttons = [("log", "Log it", "What did you read?"), ("skip", "Skip")]
                return "notice %s" % host.post_notice(Notice("Reading time", actions=buttons))

            @plugin.action("log")
            def log(action, host):
                host.post_notice({"title": "Logged: %s" % (action.answer if action.answer is not None else "-",)})

            plugin.run()

            """, to: folder + "/reading.py")
        try FileManager.default.copyItem(atPath: sdk, toPath: folder + "/hooray_plugin.py")
    }

    @Test func theAnswerReachesThePluginAndNoAnswerIsNone() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try Self.writeReadingPlugin(into: fixture)
            let daemon = try await fixture.startDaemon()
            let asked = try await fixture.hooray("reading", "ask")
            #expect(asked.status == .exited(0), "\(asked.standardError)")
            let id = try #require(
                asked.standardOutput.split(separator: " ").last.map { String($0.prefix { $0.isNumber }) })
            let listed = try await fixture.hooray("inbox", "--all")
            #expect(
                listed.standardOutput.contains("Log it (`hooray act \(id) log`, asks a question)"),
                "\(listed.standardOutput)")
            #expect(listed.standardOutput.contains("Skip (`hooray act \(id) skip`)"), "\(listed.standardOutput)")

            let answered = try await fixture.hooray("act", id, "log", "--answer", "Chapter 3")
            #expect(answered.status == .exited(0), "\(answered.standardError)")
            let plain = try await fixture.hooray("act", id, "log")
            #expect(plain.status == .exited(0), "\(plain.standardError)")
            let shown = try await server.waitForNotifications(count: 3, timeout: .seconds(20))
            #expect(shown.map(\.summary) == ["Reading time", "Logged: Chapter 3", "Logged: -"])
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test func anAnswerWithAControlCharacterSentOnTheProtocolNeverReachesThePlugin() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try Self.writeReadingPlugin(into: fixture)
            let daemon = try await fixture.startDaemon()
            let asked = try await fixture.hooray("reading", "ask")
            #expect(asked.status == .exited(0), "\(asked.standardError)")
            let id = try #require(
                asked.standardOutput.split(separator: " ").last.map { String($0.prefix { $0.isNumber }) })
            // A client other than `hooray act` sends the escape sequence an arrow key types.
            let connection = try RawControlConnection(path: fixture.home.appending("runtime/hooray/control.sock"))
            connection.send(
                Data(#"{"api_version":1,"method":"act","notice":\#(id),"action":"log","answer":"Tea\u001b[D"}"#.utf8))
            connection.send(Data("\n".utf8))
            guard case .answered(let bytes) = connection.receive(timeout: .seconds(10)) else {
                Issue.record("hoorayd did not answer the act request")
                return
            }
            let answer = String(decoding: bytes, as: UTF8.self)
            #expect(answer.contains(#""ok":false"#), "\(answer)")
            #expect(answer.contains(#""invalid_value":"--answer""#), "\(answer)")
            #expect(answer.contains("the answer holds a control character"), "\(answer)")
            // The next press, with a plain answer, is the first the plugin sees.
            let plain = try await fixture.hooray("act", id, "log", "--answer", "Chapter 3")
            #expect(plain.status == .exited(0), "\(plain.standardError)")
            let shown = try await server.waitForNotifications(count: 2, timeout: .seconds(20))
            #expect(shown.map(\.summary) == ["Reading time", "Logged: Chapter 3"])
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
