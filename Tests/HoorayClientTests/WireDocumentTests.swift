import Foundation
import HoorayBasics
import HoorayClient
import HooraySystemTesting
import Testing

/// The client's wire types and docs/protocol.md agree: each `run` example the document shows reads
/// and writes back as the same JSON, and each answer example reads.
@Suite struct WireDocumentTests {
    static let document: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("docs/protocol.md"), encoding: .utf8)) ?? ""
    }()

    /// The JSON lines of the document's examples.
    static var examples: [String] {
        document.split(separator: "\n").map(String.init).filter { $0.hasPrefix("{\"api_version\"") }
    }

    /// Two JSON texts hold the same values, whatever the order of their members.
    static func sameJSON(_ one: Data, _ other: Data) throws -> Bool {
        let first = try JSONSerialization.jsonObject(with: one) as? NSDictionary
        let second = try JSONSerialization.jsonObject(with: other) as? NSDictionary
        return first != nil && first == second
    }

    @Test func theFrontDoorsRequestExampleReadsAndIsWrittenBackTheSame() throws {
        let runs = Self.examples.filter { $0.contains("\"method\":\"run\"") }
        #expect(!runs.isEmpty, "docs/protocol.md shows no run request")
        for line in runs {
            let request = try ControlCoding.decode(RunRequest.self, from: Data(line.utf8))
            #expect(!request.arguments.isEmpty)
            let written = try ControlCoding.encode(request)
            #expect(written.last == UInt8(ascii: "\n"), "a request is one line with its newline")
            #expect(try Self.sameJSON(written, Data(line.utf8)), "\(line) is written back as \(written)")
        }
    }

    @Test func everyAnswerExampleReadsAndTheOneWithOutputSaysWhatToPrint() throws {
        let answers = Self.examples.filter { !$0.contains("\"method\"") }
        #expect(answers.count >= 3)
        var outputs: [CommandOutput] = []
        for line in answers {
            let answer = try ControlCoding.decode(RunAnswer.self, from: Data(line.utf8))
            #expect(answer.apiVersion == controlAPIVersion)
            if let output = answer.output { outputs.append(output) }
        }
        let output = try #require(outputs.first, "docs/protocol.md shows no answer with output")
        #expect(output.status == 0)
        #expect(output.writes.first?.to == 1)
        #expect(output.writes.first?.text.hasSuffix("\n") == true)
        // Every member of the output is one the document describes.
        let written = try JSONSerialization.jsonObject(with: try ControlCoding.encode(output)) as? [String: Any]
        for member in written?.keys.sorted() ?? [] {
            #expect(Self.document.contains("`\(member)`"), "\(member) is not described in docs/protocol.md")
        }
    }

    @Test func everyMemberOfTheRunRequestTheClientWritesIsDescribed() throws {
        let request = RunRequest(
            arguments: ["win"],
            caller: FrontDoorCaller(
                timeZone: "UTC", localtime: "/l", color: true, interactive: true, dataDirectory: "/d",
                workingDirectory: "/w", home: "/h", version: HoorayVersion.current),
            requestID: "r")
        let written = try JSONSerialization.jsonObject(with: try ControlCoding.encode(request)) as? [String: Any]
        let caller = written?["caller"] as? [String: Any]
        #expect(caller?.count == 8, "every member of the caller is written")
        for member in (written?.keys.sorted() ?? []) + (caller?.keys.sorted() ?? []) {
            #expect(Self.document.contains("`\(member)`"), "\(member) is not described in docs/protocol.md")
        }
    }

    @Test func anAnswerOfAnotherVersionIsRefusedSayingHowToPutItRight() throws {
        #expect(throws: Never.self) {
            try ControlCoding.checkVersion(ofAnswer: Data(#"{"api_version":1,"ok":true}"#.utf8))
        }
        do {
            try ControlCoding.checkVersion(ofAnswer: Data(#"{"api_version":2,"ok":true}"#.utf8))
            Issue.record("an answer of protocol 2 was taken")
        } catch {
            #expect(error.requestWasRefused)
            #expect(error.message.contains("speaks control protocol 2"))
            #expect(error.message.contains("systemctl --user restart hooray"))
        }
    }
}

/// The front door, which speaks to hoorayd through HoorayClient, stays free of Foundation.
@Suite struct FrontDoorLinkTests {
    @Test func theFrontDoorLoadsNoFoundationButItsEssentials() async throws {
        let frontDoor = try BuiltProducts.executable(named: "hooray")
        let dynamic = try await ProcessRunner.run("/usr/bin/readelf", arguments: ["-d", frontDoor])
        #expect(dynamic.status == .exited(0), "\(dynamic.standardError)")
        let needed = dynamic.standardOutput.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(!needed.isEmpty, "readelf -d lists no library the front door needs: \(dynamic.standardOutput)")
        // A build with the Swift runtime linked in (as released) needs no Swift library at all.
        for line in needed {
            #expect(!line.contains("libFoundation.so"), "the front door loads Foundation: \(line)")
            #expect(!line.contains("libFoundationInternationalization"), "the front door loads ICU's part: \(line)")
            #expect(!line.contains("lib_FoundationICU"), "the front door loads ICU: \(line)")
        }
    }
}

/// The desktop app speaks to hoorayd through HoorayClient alone: it links no engine, so none of
/// the engine's libraries.
@Suite struct DesktopAppLinkTests {
    @Test func theDesktopAppLoadsNoDatabaseKeyringNotificationOrHTTPLibrary() async throws {
        let app = try BuiltProducts.executable(named: "hooray-app")
        let dynamic = try await ProcessRunner.run("/usr/bin/readelf", arguments: ["-d", app])
        #expect(dynamic.status == .exited(0), "\(dynamic.standardError)")
        let needed = dynamic.standardOutput.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(needed.contains { $0.contains("libgtk-4") }, "readelf -d lists no GTK: \(dynamic.standardOutput)")
        for library in ["libsqlite3", "libsecret-1", "libnotify", "libcurl"] {
            #expect(!needed.contains { $0.contains(library) }, "the app loads \(library), the engine's")
        }
    }
}
