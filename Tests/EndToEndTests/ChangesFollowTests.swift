import Foundation
import HooraySystemTesting
import Testing

/// `changes` end to end (docs/protocol.md): what the desktop window follows so that a win typed in
/// a terminal appears in it at once, pushed by the real `hoorayd`, not polled.
@Suite struct ChangesFollowTests {
    /// The `change` counts of the answer lines received so far (each one JSON object).
    static func changes(_ text: String) -> [Int] {
        text.split(separator: "\n").compactMap { line in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            guard object?["ok"] as? Bool == true else { return nil }
            return object?["change"] as? Int
        }
    }

    @Test("A client following changes is told at once, then again when a win is typed in a terminal")
    func aWinTypedInATerminalIsTold() async throws {
        try await HoorayFixture.with { fixture in
            _ = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let socket = fixture.home.appending("runtime/hooray/control.sock")
            let connection = try RawControlConnection(path: socket)
            #expect(connection.send(Data(#"{"api_version":1,"method":"changes"}"#.utf8 + [0x0A])))
            // The first answer comes at once: the client knows it is heard.
            let first = connection.receive(timeout: .seconds(15)) { Self.changes($0).first == 0 }
            #expect(first.enough, "no first answer: \(first.text) \(daemon.standardError)")

            let started = ContinuousClock.now
            let win = try await fixture.hooray("win", "Took a short walk")
            #expect(win.status == .exited(0), "\(win.standardError)")
            let answered = ContinuousClock.now
            let told = connection.receive(timeout: .seconds(15)) { !Self.changes($0).isEmpty }
            print(
                "changes: told \(ContinuousClock.now - started) after `hooray win` started, \(ContinuousClock.now - answered) after it returned"
            )
            #expect(told.enough, "no answer after hooray win: \(first.text + told.text)")
            // Each answer counts higher than the one before (changes close together come as one):
            // no two lines are the same.
            let all = Self.changes(first.text + told.text)
            #expect(zip(all, all.dropFirst()).allSatisfy { $0 < $1 }, "\(all)")

            // A follower that goes away leaves hoorayd answering.
            connection.finishSending()
            let status = try await fixture.hooray("status")
            #expect(status.status == .exited(0), "\(status.standardError)")
        }
    }

    @Test("An unknown method is refused naming changes among the methods")
    func theMethodIsListed() async throws {
        try await HoorayFixture.with { fixture in
            _ = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            let socket = fixture.home.appending("runtime/hooray/control.sock")
            let connection = try RawControlConnection(path: socket)
            connection.send(Data(#"{"api_version":1,"method":"change"}"#.utf8 + [0x0A]))
            guard case .answered(let data) = connection.receive(timeout: .seconds(15)) else {
                Issue.record("no answer: \(daemon.standardError)")
                return
            }
            let text = String(decoding: data, as: UTF8.self)
            #expect(text.contains("changes") && text.contains("\"ok\":false"), "\(text)")
        }
    }
}
