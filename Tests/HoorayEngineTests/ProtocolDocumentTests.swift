import Foundation
import HoorayClient
import HoorayKit
import Testing

@testable import HoorayEngine
@testable import HoorayExternalPlugins

/// docs/protocol.md and the code agree: its examples decode, and every member the code writes is described.
@Suite struct ProtocolDocumentTests {
    static let document: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("docs/protocol.md"), encoding: .utf8)) ?? ""
    }()

    /// The JSON lines of the document's examples.
    static var examples: [String] {
        Self.document.split(separator: "\n").map(String.init).filter { $0.hasPrefix("{\"api_version\"") }
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    @Test func everyExampleRequestAndAnswerDecodes() throws {
        #expect(Self.examples.count >= 4)
        for line in Self.examples {
            if line.contains("\"method\"") {
                _ = try Self.decoder().decode(ControlRequest.self, from: Data(line.utf8))
            } else {
                _ = try Self.decoder().decode(ControlResponse.self, from: Data(line.utf8))
            }
        }
    }

    @Test func everyMethodAndEveryMemberTheCodeWritesIsDescribed() throws {
        for method in ControlRequest.methods {
            #expect(Self.document.contains("| `\(method)` |"), "method \(method) is not in docs/protocol.md")
        }
        let status = DaemonStatus(
            pid: 1, version: "1", startedAt: Date(), server: nil, serverProblem: "none", waitingNotices: 0,
            plugins: [], configFiles: [], nextDue: Date(), identity: "a file", takesAnswers: true)
        let reply = CommandReply(text: "", json: .null, warnings: [], clipboard: "text")
        let invocation = CommandInvocation(command: "x")
        for value in [
            try JSONValue(
                encoding: ControlResponse(
                    ok: true, message: "m", status: status, reply: reply, snoozedUntil: Date(), duplicate: true,
                    invalidValue: "--x", busy: true, exitCode: 3,
                    plugins: [
                        PluginReport(
                            name: "p", kind: "external", state: "running", summary: "s", version: "1", apiVersion: "1",
                            pid: 2, restarts: 0, lastError: "e", folder: "/f")
                    ],
                    bar: BarSnapshot(
                        next: .init(title: "t", plugin: "p", due: Date()),
                        items: [.init(plugin: "p", item: BarItem(text: "t"))]),
                    handOver: true, output: CommandOutput(writes: [.init(to: 1, text: "t")], status: 0))),
            try JSONValue(
                encoding: ControlRequest.run(
                    arguments: ["win", "x"],
                    caller: FrontDoorCaller(
                        timeZone: "UTC", localtime: "/l", color: false, interactive: false, dataDirectory: "/d",
                        workingDirectory: "/w", home: "/h", version: "1"),
                    requestID: "r")),
            try JSONValue(encoding: ControlRequest.bar(follow: true)),
            try JSONValue(encoding: ControlRequest.restart(plugin: "p")),
            try JSONValue(encoding: ControlRequest.command(plugin: "p", invocation: invocation, requestID: "r")),
            try JSONValue(encoding: ControlRequest.act(notice: 1, action: "a", answer: "x", requestID: "r")),
        ] {
            for member in Self.members(of: value) {
                #expect(Self.document.contains("`\(member)`"), "\(member) is not described in docs/protocol.md")
            }
        }
    }

    /// The method names in the first column of the table under a heading of the document.
    static func methods(under heading: String) -> [String] {
        guard let start = document.range(of: heading) else { return [] }
        var names: [String] = []
        for line in document[start.upperBound...].split(separator: "\n").dropFirst() {
            if line.hasPrefix("#") { break }
            guard line.hasPrefix("| `"), let end = line.dropFirst(3).firstIndex(of: "`") else { continue }
            names.append(String(line[line.index(line.startIndex, offsetBy: 3)..<end]))
        }
        return names
    }

    @Test func thePluginProtocolsMethodsAreTheOnesTheHostServesAndSends() {
        // The plugin's calls: the document's table and the host's dispatch list agree both ways.
        #expect(Set(Self.methods(under: "### The plugin calls the host")) == Set(PluginSupervisor.hostMethods.keys))
        for (method, permission) in PluginSupervisor.hostMethods {
            let row = Self.document.split(separator: "\n").first { $0.hasPrefix("| `\(method)` |") } ?? ""
            #expect(row.contains(permission.map { "| `\($0.rawValue)` |" } ?? "| — |"), "\(method)'s permission")
        }
        // The host's calls: each name in the table is sent by the supervisor.
        let sent = [
            "initialize", "reminderDue", "reminderSkipped", "actionInvoked", "command", "configChanged", "shutdown",
        ]
        #expect(Self.methods(under: "### The host calls the plugin") == sent)
        #expect(Self.document.contains("plugin `api_version` **\(PluginManifest.hostAPIVersions.upperBound)**"))
        #expect(Self.document.contains("at most \(ExternalPluginLimits().noticesPerMinute) a minute"))
        #expect(Self.document.contains("at most \(ExternalPluginLimits().maximumReminders) per plugin"))
        #expect(Self.document.contains("after \(ExternalPluginLimits().crashLimit) such exits in"))
        #expect(Self.document.contains("(\(FrameDecoder.maximumBody) bytes)"))
    }

    /// Every member name in a JSON value, nested ones included (as `environment.time_zone` or `time_zone`).
    static func members(of value: JSONValue) -> [String] {
        guard case .object(let object) = value else { return [] }
        return object.flatMap { key, nested in
            [key] + members(of: nested).map { key == "environment" ? "environment.\($0)" : $0 }
        }
    }
}
