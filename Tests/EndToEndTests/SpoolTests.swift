import Foundation
import HooraySystemTesting
import Testing

/// The spool beside a running hoorayd (docs/protocol.md, "One writer"): what waits there runs once
/// without waiting for a restart, and a request id that names nothing kept runs nothing.
extension FrontDoorTests {
    /// A `command` request line for `hooray win TEXT`, as hooray-cli sends it, under `id`.
    func winRequest(_ fixture: HoorayFixture, _ text: String, id: String?) async throws -> String {
        let version =
            try await fixture.hooray("--version").standardOutput
            .split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        let environment =
            #"{"color":false,"data_directory":"\#(fixture.home.appending("data/hooray"))","host_version":"\#(version)","time_zone":"UTC"}"#
        let invocation =
            #"{"command":"log","environment":\#(environment),"flags":[],"json":false,"values":{"text":["\#(text)"]}}"#
        let request = id.map { #","request_id":"\#($0)""# } ?? ""
        return #"{"api_version":1,"invocation":\#(invocation),"method":"command","plugin":"wins"\#(request)}"#
    }

    /// Sends one request line and returns the answer line.
    func exchange(_ fixture: HoorayFixture, _ line: String) throws -> String {
        let connection = try RawControlConnection(path: fixture.home.appending("runtime/hooray/control.sock"))
        #expect(connection.send(Data((line + "\n").utf8)))
        let (text, enough) = connection.receive(timeout: .seconds(30)) { $0.hasSuffix("\n") }
        #expect(enough, "no answer to \(line)")
        return text
    }

    @Test func aRequestLeftInTheSpoolWhileHoorayDRunsRunsOnceAfterTheNextConnection() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            #expect(await fixture.waitUntilSettled(daemon))
            // Kept by a client that never got to send it (turned away, or gone), a minute ago.
            let id = UUID().uuidString.lowercased()
            let folder = fixture.home.appending("data/hooray/spool")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let file = folder + "/\(id).json"
            try (try await winRequest(fixture, "Left in the spool", id: id) + "\n").write(
                toFile: file, atomically: true, encoding: .utf8)
            let minuteAgo = Date().addingTimeInterval(-60)
            try FileManager.default.setAttributes([.modificationDate: minuteAgo], ofItemAtPath: file)

            // Any connection is the nudge: here `hooray status`.
            #expect(try await fixture.hooray("status").status == .exited(0))
            #expect(
                await daemon.waitForOutput(
                    containing: "ran request \(id), left in the spool", in: .standardError, timeout: .seconds(30)),
                "\(daemon.standardError)")
            #expect(await shownOnceThere(server, "Left in the spool") == 1)
            #expect(try fixture.spoolFiles().isEmpty)
            #expect(try await moments(fixture).filter { $0.text == "Left in the spool" }.count == 1)
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test func aRequestIdThatNamesNothingKeptRunsNothingAndSaysWhy() async throws {
        try await HoorayFixture.with { fixture in
            let daemon = try await fixture.startDaemon()
            #expect(await fixture.waitUntilSettled(daemon))
            let id = UUID().uuidString.lowercased()
            let refused = try exchange(fixture, try await winRequest(fixture, "Never kept", id: id))
            #expect(refused.contains(#""ok":false"#), "\(refused)")
            #expect(refused.contains("hoorayd has no record of this request, so it did not run it now"), "\(refused)")
            // The same request without an id is one that only needs to run once as it comes.
            let plain = try exchange(fixture, try await winRequest(fixture, "Sent plainly", id: nil))
            #expect(plain.contains(#""ok":true"#), "\(plain)")
            #expect(try await moments(fixture).map(\.text) == ["Sent plainly"])
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
