import Foundation
import HoorayClient
import HoorayCommandLine
import Testing

/// Every wire type and the two documents agree both ways: each JSON example of docs/protocol.md,
/// and the `plugin` example of docs/json.md, reads into its type and is written back with the same
/// members and values; each type written with every optional member set writes only members the
/// document names.
@Suite struct WireTypeDocumentTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func read(_ path: String) -> String {
        (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)) ?? ""
    }

    /// docs/protocol.md's part on the control protocol (the plugin protocol follows it).
    static let protocolDocument: String = {
        let whole = read("docs/protocol.md")
        return whole.components(separatedBy: "\n# The plugin protocol").first ?? whole
    }()

    static let jsonDocument = read("docs/json.md")

    /// The one-line JSON examples of the control protocol.
    static var examples: [String] {
        protocolDocument.split(separator: "\n").map(String.init).filter { $0.hasPrefix("{\"api_version\"") }
    }

    /// The JSON value of a text, to compare whatever the order of members.
    static func object(_ data: Data) throws -> NSObject? {
        try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? NSObject
    }

    @Test func everyRequestTheProtocolShowsReadsAndIsWrittenBackTheSame() throws {
        let requests = Self.examples.filter { $0.contains("\"method\"") }
        #expect(requests.count >= 6, "docs/protocol.md shows \(requests.count) requests")
        for line in requests {
            let request = try ControlCoding.decode(ControlRequest.self, from: Data(line.utf8))
            let written = try ControlCoding.encode(request)
            #expect(try Self.object(written) == Self.object(Data(line.utf8)), "\(line) is written back as \(written)")
        }
    }

    @Test func everyAnswerTheProtocolShowsReadsAndIsWrittenBackTheSame() throws {
        let answers = Self.examples.filter { !$0.contains("\"method\"") }
        #expect(answers.count >= 4, "docs/protocol.md shows \(answers.count) answers")
        for line in answers {
            let answer = try ControlCoding.decode(ControlResponse.self, from: Data(line.utf8))
            let written = try ControlCoding.encode(answer)
            #expect(try Self.object(written) == Self.object(Data(line.utf8)), "\(line) is written back as \(written)")
        }
    }

    @Test func thePluginListOfJSONOutputReadsAsTheProtocolsReportsAndIsPrintedBackTheSame() throws {
        let printed = try #require(Self.example(under: "## plugin\n", in: Self.jsonDocument))
        let list = try #require(JSONSerialization.jsonObject(with: Data(printed.utf8)) as? [Any])
        #expect(list.count >= 2)
        let onTheWire = try JSONSerialization.data(withJSONObject: Self.renamed(list, Self.snakeCase))
        let reports = try ControlCoding.decode([PluginReport].self, from: onTheWire)
        #expect(reports.map(\.name) == ["reminders", "pomodoro"])
        let again = try JSONSerialization.jsonObject(with: try ControlCoding.encode(reports))
        #expect(Self.renamed(again, Self.camelCase) as? NSArray == list as NSArray)
    }

    /// Every member a request writes, each method's with every optional member set.
    static let requests: [ControlRequest] = [
        .status, .reload, .refresh, .plugins, .restart(plugin: "p"), .allow(plugin: "p"), .bar(follow: true), .changes,
        .deleteData,
        .act(notice: 1, action: "a", answer: "x", requestID: "r"),
        .command(plugin: "p", invocation: fullInvocation, requestID: "r"),
        .run(
            arguments: ["win"],
            caller: FrontDoorCaller(
                timeZone: "UTC", localtime: "/l", color: true, interactive: true, dataDirectory: "/d",
                workingDirectory: "/w", home: "/h", version: "1"),
            requestID: "r"),
    ]

    static let fullInvocation = CommandInvocation(
        command: "c", values: ["v": ["1"]], flags: ["f"], json: true,
        environment: CommandEnvironment(timeZoneIdentifier: "UTC", color: true, dataDirectory: "/d", hostVersion: "1"))

    /// An answer with every optional member set, and every member of what it carries.
    static let fullAnswer = ControlResponse(
        ok: true, message: "m",
        status: DaemonStatus(
            pid: 1, version: "1", startedAt: Date(timeIntervalSince1970: 0),
            server: ServerInfo(name: "n", vendor: "v", version: "1", specVersion: "1.2", capabilities: ["body"]),
            serverProblem: "p", waitingNotices: 0, plugins: ["p"], configFiles: ["/c"],
            nextDue: Date(timeIntervalSince1970: 0), identity: "a file",
            doNotDisturb: DoNotDisturb(isOn: true, source: "dunst"), takesAnswers: true),
        reply: CommandReply(
            text: "t", json: .string("plugin's own"), warnings: ["w"], followUp: fullInvocation, clipboard: "c",
            guide: TerminalGuide(title: "t", steps: [.init(cue: "in", seconds: 4)], closing: "c"),
            configurationEntry: ConfigurationEntry(table: "reminder", keys: [.init("title", .string("t"))])),
        snoozedUntil: Date(timeIntervalSince1970: 0), duplicate: true, invalidValue: "--x", busy: true, exitCode: 3,
        plugins: [fullReport],
        bar: BarSnapshot(
            next: .init(
                title: "t", plugin: "p", due: Date(timeIntervalSince1970: 0), when: "15:00", dueSoon: true,
                waiting: "w"),
            items: [
                .init(
                    plugin: "p",
                    item: BarItem(
                        text: "t", tooltip: "t", streak: BarStreak(days: 1, name: "n"),
                        progress: BarProgress(done: 1, due: 2)))
            ],
            doNotDisturb: true, quietHours: .init(until: Date(timeIntervalSince1970: 0), when: "07:30")),
        handOver: true, output: CommandOutput(writes: [.init(to: 1, text: "t")], status: 0), change: 3,
        deleted: DeletedData(notices: 1, plugins: ["p"], occurrences: 2, wipedFromFiles: false))

    static let fullReport = PluginReport(
        name: "p", kind: "external", state: "running", summary: "s", version: "1", apiVersion: "1", pid: 2,
        restarts: 0, lastError: "e", folder: "/f", permissions: ["w"], notAllowed: ["w"],
        card: PluginCard(title: "t", text: "x", buttons: [.init(label: "l", command: "c")]),
        settings: [PluginSetting(key: "k", title: "t", hint: "h", kind: "entry", defaultValue: "d")])

    @Test func everyMemberTheClientAndTheDaemonWriteIsInTheProtocol() throws {
        var written: [String] = []
        for value in Self.requests.map({ $0 as any Encodable }) + [Self.fullAnswer as any Encodable] {
            written += Self.members(of: try JSONSerialization.jsonObject(with: try ControlCoding.encode(value)))
        }
        #expect(written.count > 60, "members written: \(written)")
        for method in ControlRequest.methods {
            let documented = Self.protocolDocument.contains("| `\(method)` |")
            #expect(documented, "method \(method) is not in docs/protocol.md's table of requests")
        }
        for member in Set(written).sorted() {
            let documented = Self.protocolDocument.contains("`\(member)`")
            #expect(documented, "`\(member)` is written but not in docs/protocol.md")
        }
    }

    @Test func everyMemberOfAPrintedPluginIsInJSONOutput() throws {
        let printed = Self.renamed(
            try JSONSerialization.jsonObject(with: try ControlCoding.encode(Self.fullReport)), Self.camelCase)
        let members = try #require(printed as? [String: Any]).keys.sorted()
        #expect(members.count == 14)
        let table = Self.section("## plugin\n", in: Self.jsonDocument)
        for member in members {
            let documented = table.contains("| `\(member)` |")
            #expect(documented, "`\(member)` is printed but not in docs/json.md's plugin")
        }
    }

    /// Every member name in a JSON value, nested ones included, as the document names them
    /// (`environment.time_zone`); a plugin's own JSON (`json`, a key's `value`) and the names of an
    /// invocation's `values` are the plugin's, not the protocol's.
    static func members(of value: Any) -> [String] {
        if let array = value as? [Any] { return array.flatMap(members) }
        guard let object = value as? [String: Any] else { return [] }
        return object.flatMap { key, nested in
            let inside = ["json", "value", "values"].contains(key) ? [] : members(of: nested)
            return [key] + inside.map { key == "environment" ? "environment.\($0)" : $0 }
        }
    }

    /// The text of a document from a heading to the next heading of the same level.
    static func section(_ heading: String, in document: String) -> String {
        guard let start = document.range(of: heading) else { return "" }
        let rest = document[start.upperBound...]
        let end = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    /// The first ```json block of a section.
    static func example(under heading: String, in document: String) -> String? {
        let text = section(heading, in: document)
        guard let open = text.range(of: "```json\n"), let close = text[open.upperBound...].range(of: "```") else {
            return nil
        }
        return String(text[open.upperBound..<close.lowerBound])
    }

    /// A JSON value with each member renamed, nested ones included.
    static func renamed(_ value: Any, _ rename: (String) -> String) -> Any {
        if let array = value as? [Any] { return array.map { renamed($0, rename) } }
        guard let object = value as? [String: Any] else { return value }
        return Dictionary(uniqueKeysWithValues: object.map { (rename($0.key), renamed($0.value, rename)) })
    }

    /// `lastError` → `last_error`.
    static func snakeCase(_ name: String) -> String {
        name.map { $0.isUppercase ? "_" + $0.lowercased() : String($0) }.joined()
    }

    /// `last_error` → `lastError`.
    static func camelCase(_ name: String) -> String {
        let words = name.split(separator: "_")
        return (words.first.map(String.init) ?? "")
            + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }
            .joined()
    }
}
