import Foundation
import HooraySystemTesting
import Testing

/// The documentation a newcomer reads leads somewhere, and the commands it shows are ones `hooray`
/// understands. `MarkdownDocument` states the rules: which links, anchors and command lines are checked.
@Suite struct DocumentationLinkTests {
    @Test func everyLinkInTheDocumentationLeadsToAFileAndHeadingThatExist() throws {
        let files = Documentation.markdownFiles()
        // The files a reader starts from are among those checked.
        #expect(files.contains("README.md"))
        #expect(files.contains("docs/README.md"))
        #expect(files.contains("Sources/HoorayKit/Docs.docc/WritingAPlugin.md"))
        for problem in try Documentation.brokenLinks(in: files) {
            Issue.record(Comment(rawValue: problem))
        }
    }

    @Test func aMissingFileAWrongAnchorAndABadAddressAreEachFound() throws {
        try withDocumentationFolder([
            "README.md": """
            # Start here
            [fine](docs/page.md#the-second-part), [also fine](#start-here), [folder](docs)
            [gone](docs/missing.md) and [wrong anchor](docs/page.md#the-third-part)
            `[in code](nowhere.md)` is not a link.
            [web](https:/example) [mail](mailto:someone@example.org)

            ```sh
            [in a code block](nowhere.md)
            ```
            """,
            "docs/page.md": "# Page\n\n## The second part\n\n## Calm by default: `hooray next`\n[up](../README.md)\n",
        ]) { root in
            let problems = try Documentation.brokenLinks(in: ["README.md", "docs/page.md"], under: root)
            #expect(
                problems == [
                    "README.md:3: docs/missing.md leads to docs/missing.md, which does not exist",
                    "README.md:3: docs/page.md#the-third-part: docs/page.md has no heading with the anchor "
                        + "#the-third-part; headings there include #the-second-part",
                    "README.md:5: https:/example is not a well-formed web address",
                ])
        }
    }

    @Test(arguments: [
        ("Calm by default", "calm-by-default"),
        ("`request_id`: one writer, each request runs once", "request_id-one-writer-each-request-runs-once"),
        ("Night Prep and Morning Focus", "night-prep-and-morning-focus"),
        ("🎉 Milestones, 7/30/100", "-milestones-730100"),
        ("See [the protocol](protocol.md) — twice", "see-the-protocol--twice"),
    ])
    func anchorsAreMadeAsGitHubMakesThem(heading: String, anchor: String) {
        #expect(MarkdownDocument.slug(heading) == anchor)
    }
}

@Suite(.timeLimit(.minutes(5))) struct DocumentationCommandTests {
    @Test func everyHoorayCommandShownInTheDocumentationParses() async throws {
        var commands: [(place: String, command: MarkdownDocument.Command)] = []
        for file in Documentation.markdownFiles() {
            commands += try Documentation.document(file).commands.map { ("\(file):\($0.line)", $0) }
        }
        // The docs show many (about 60 in November 2026), and what a newcomer tries first is among them.
        #expect(commands.count > 40)
        #expect(commands.contains { $0.command.words.starts(with: ["hooray", "win"]) })
        #expect(commands.contains { $0.command.words.starts(with: ["hooray", "habit", "add"]) })
        #expect(commands.contains { $0.command.words.starts(with: ["hooray", "remind"]) })
        let refusals = try await CommandLineCheck.refusals(of: commands.map(\.command.words))
        for ((place, command), refusal) in zip(commands, refusals) {
            if let refusal {
                Issue.record(Comment(rawValue: "\(place): `\(command.text)` does not parse: \(refusal)"))
            }
        }
    }

    @Test func aCommandTheParserRefusesIsFound() async throws {
        let document = MarkdownDocument(
            path: "example.md",
            text: """
                ```text
                $ hooray habit add "Read" --remind 20:00
                Added “Read”.
                $ hooray habit add "Read" --remnid 20:00
                $ hooray nxet
                $ hooray remind list --at 18:00
                hooray remind list: unknown option --at
                Usage: hooray remind list [--ids] [--json]
                $ hooray act first snooze
                ```

                ```sh
                hooray export [--format json|csv]     # a syntax summary
                hooray habit done "Read 10 pages" --date yesterday && hooray next
                ```
                """)
        let commands = document.commands
        #expect(commands.map(\.line) == [2, 4, 5, 9, 14])
        let refusals = try await CommandLineCheck.refusals(of: commands.map(\.words))
        #expect(refusals[0] == nil)
        #expect(refusals[1]?.contains("unknown option --remnid; did you mean --remind?") == true)
        #expect(refusals[2]?.contains("there is no command \"nxet\"") == true)
        #expect(refusals[3] != nil)  // `hooray act` takes a number
        #expect(refusals[4] == nil)
    }

    @Test func commandLinesAreSplitAsAShellSplitsThem() {
        #expect(
            MarkdownDocument.shellWords(#"hooray swap "Tea instead of wine" --note 'it''s \"fine\"' # soon"#)
                == ["hooray", "swap", "Tea instead of wine", "--note", #"its \"fine\""#])
        #expect(MarkdownDocument.shellWords("hooray ai set-key < FILE") == ["hooray", "ai", "set-key"])
        #expect(MarkdownDocument.shellWords("hooray habit pause NAME [--for 5d]") == nil)
    }
}

/// Runs `hooray-cli` with `HOORAY_CHECK_COMMAND_LINE=1`, which parses a command line with the real
/// parsers and runs nothing (`Sources/hooray/CommandLineCheck.swift`), in a home of its own whose
/// plugin folder holds the plugins the documentation shows: the scaffold `hooray plugin new
/// focus-timer` makes, and the examples in `examples/plugins`.
enum CommandLineCheck {
    /// For each command line (the words after `hooray`), `nil` when it parses, else the parser's message.
    static func refusals(of commandLines: [[String]]) async throws -> [String?] {
        let program = try BuiltProducts.executable(named: "hooray-cli")
        return try await withTemporaryDirectory(prefix: "hooray-docs") { home in
            let data = home.appending("data")
            let plugins = (data as NSString).appendingPathComponent("hooray/plugins")
            try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
            let environment = ProcessEnvironment.inherited(
                overriding: [
                    "HOME": home.path, "XDG_DATA_HOME": data, "XDG_CONFIG_HOME": home.appending("config"),
                    "HOORAY_SYSCONFDIR": home.appending("etc"), "HOORAY_SYSTEM_PLUGIN_DIR": home.appending("system"),
                ], removing: ["DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "HOORAY_CHECK_COMMAND_LINE"])
            let scaffold = try await ProcessRunner.run(
                program, arguments: ["plugin", "new", "focus-timer", "--dir", plugins], environment: environment)
            guard scaffold.status.isSuccess else {
                throw CommandLineCheckError(message: "hooray plugin new focus-timer failed: \(scaffold.standardError)")
            }
            let examples = (Documentation.root as NSString).appendingPathComponent("examples/plugins")
            for example in try FileManager.default.contentsOfDirectory(atPath: examples) {
                try FileManager.default.createSymbolicLink(
                    atPath: (plugins as NSString).appendingPathComponent(example),
                    withDestinationPath: (examples as NSString).appendingPathComponent(example))
            }
            var checking = environment.resolved()
            checking["HOORAY_CHECK_COMMAND_LINE"] = "1"
            let checked = ProcessEnvironment.exactly(checking)
            // A few at a time: each is a process of its own, and the machine runs other tests meanwhile.
            return try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                var results = [String?](repeating: nil, count: commandLines.count)
                var next = 0
                func start() {
                    guard next < commandLines.count else { return }
                    let index = next
                    next += 1
                    group.addTask {
                        let words = commandLines[index]
                        let result = try await ProcessRunner.run(
                            program, arguments: Array(words.dropFirst()), environment: checked,
                            workingDirectory: home.path)
                        if result.status.isSuccess { return (index, nil) }
                        let message = result.standardError.trimmingCharacters(in: .whitespacesAndNewlines)
                        return (index, "\(message) (\(result.status))")
                    }
                }
                for _ in 0..<4 { start() }
                while let (index, refusal) = try await group.next() {
                    results[index] = refusal
                    start()
                }
                return results
            }
        }
    }
}

struct CommandLineCheckError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Runs `body` with a folder holding these files (path relative to the folder: text).
func withDocumentationFolder(_ files: [String: String], _ body: (String) throws -> Void) throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("hooray-docs-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: root) }
    for (path, text) in files {
        let full = (root as NSString).appendingPathComponent(path)
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: true, encoding: .utf8)
    }
    try body(root)
}
