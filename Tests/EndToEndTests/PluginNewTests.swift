import Foundation
import HooraySystemTesting
import Testing

/// `hooray plugin new`: the scaffold a plugin author starts from, written by the real `hooray`,
/// and its program answering frames through pipes.
@Suite(.timeLimit(.minutes(2)))
struct PluginNewTests {
    static let sdk = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("sdk/python/hooray_plugin.py")

    /// A JSON-RPC message as a frame.
    static func frame(_ json: String) -> String {
        "Content-Length: \(json.utf8.count)\r\n\r\n\(json)"
    }

    static let initialize = frame(
        #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"api_version":{"min":1,"max":1},"host_version":"0.3.0","plugin":"greeter","config":{},"data_directory":"/tmp","time_zone":"UTC","now":"2026-11-24T09:00:00Z"}}"#
    )
    static let hello = frame(
        #"{"jsonrpc":"2.0","id":2,"method":"command","params":{"command":"hello","values":{},"flags":[],"json":false,"environment":{"time_zone":"UTC","color":false},"now":"2026-11-24T09:00:00Z"}}"#
    )
    static let shutdown = frame(#"{"jsonrpc":"2.0","id":3,"method":"shutdown","params":{}}"#)

    /// The frames a program wrote, parsed; fails the test when its output holds anything else.
    static func frames(_ output: String) -> [[String: Any]] {
        var bytes = Array(output.utf8)[...]
        var messages: [[String: Any]] = []
        while !bytes.isEmpty {
            let header = Array("Content-Length: ".utf8)
            guard bytes.starts(with: header), let end = bytes.firstRange(of: Array("\r\n\r\n".utf8)),
                let length = Int(
                    String(decoding: bytes[(bytes.startIndex + header.count)..<end.lowerBound], as: UTF8.self))
            else {
                Issue.record("not a frame: \(String(decoding: bytes.prefix(80), as: UTF8.self))")
                return messages
            }
            let body = bytes[end.upperBound..<min(end.upperBound + length, bytes.endIndex)]
            bytes = bytes[body.endIndex...]
            guard let message = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
                Issue.record("a frame's body is not a JSON object: \(String(decoding: body, as: UTF8.self))")
                return messages
            }
            messages.append(message)
        }
        return messages
    }

    static func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    /// Runs a scaffold's program and talks to it through its pipes as hoorayd would: `initialize`
    /// settles version 1; `hello` posts a notice with a button (answered like the host would) and
    /// answers a line; `shutdown` is answered and the program exits when its input closes.
    static func checkAnswers(
        of program: String, in folder: String, fixture: HoorayFixture, arguments: [String] = []
    ) async throws {
        let child = try ChildProcess(
            program, arguments: arguments, environment: fixture.environment(), workingDirectory: folder,
            keepsStandardInputOpen: true)
        try child.write(toStandardInput: initialize + hello)
        #expect(await child.waitForOutput(containing: "postNotice", timeout: .seconds(10)), "\(child.standardError)")
        let request = frames(child.standardOutput).first { $0["method"] as? String == "postNotice" }
        let id = try JSONSerialization.data(withJSONObject: request?["id"] ?? NSNull(), options: .fragmentsAllowed)
        try child.write(
            toStandardInput: frame(#"{"jsonrpc":"2.0","id":\#(String(decoding: id, as: UTF8.self)),"result":{"id":7}}"#)
                + shutdown)
        child.closeStandardInput()
        #expect(await child.waitForExit(timeout: .seconds(10)) == .exited(0), "\(child.standardError)")
        await child.waitForOutputToEnd(timeout: .seconds(5))
        let messages = frames(child.standardOutput)
        let answers = messages.filter { $0["method"] == nil }
        let requests = messages.filter { $0["method"] != nil }
        let initialized = answers.first { $0["id"] as? Int == 1 }?["result"] as? [String: Any]
        #expect(initialized?["api_version"] as? Int == 1)
        #expect(initialized?["name"] as? String == "greeter")
        let post = requests.first { $0["method"] as? String == "postNotice" }
        let notice = (post?["params"] as? [String: Any])?["notice"] as? [String: Any]
        #expect((notice?["title"] as? String)?.hasPrefix("Hello") == true)
        #expect((notice?["actions"] as? [[String: Any]])?.count == 1)
        let reply = answers.first { $0["id"] as? Int == 2 }?["result"] as? [String: Any]
        #expect(reply?["exit_code"] as? Int == 0)
        #expect((reply?["text"] as? String)?.contains("Hello") == true)
        #expect(answers.contains { $0["id"] as? Int == 3 && $0["result"] != nil })
    }

    @Test func aPythonScaffoldIsWrittenWithItsSDKAndAnswersFrames() async throws {
        try await HoorayFixture.with { fixture in
            let made = try await fixture.hooray(
                "plugin", "new", "greeter", "--lang", "python", "--dir", fixture.home.appending("src"))
            #expect(made.status == .exited(0), "\(made.standardError)")
            let folder = fixture.home.appending("src/greeter")
            #expect(made.standardOutput.contains("hooray plugin test \(folder)"))
            // The fixture's XDG_DATA_HOME is ~/data: the steps name the real plugin folder.
            #expect(made.standardOutput.contains("~/data/hooray/plugins/"))
            #expect(made.standardOutput.contains("hooray reload"))
            for (file, mode) in [
                ("plugin.toml", 0o644), ("greeter.py", 0o755), ("hooray_plugin.py", 0o644), ("README.md", 0o644),
            ] {
                #expect(try Self.mode(folder + "/" + file) == mode, "\(file)")
            }
            #expect(
                FileManager.default.contents(atPath: folder + "/hooray_plugin.py") == (try Data(contentsOf: Self.sdk)))
            let manifest = try String(contentsOfFile: folder + "/plugin.toml", encoding: .utf8)
            #expect(manifest.contains(#"name = "greeter""#))
            #expect(manifest.contains(#"exec = ["greeter.py"]"#))
            #expect(manifest.contains(#"name = "hello""#))
            try await Self.checkAnswers(of: folder + "/greeter.py", in: folder, fixture: fixture)
        }
    }

    @Test func anShScaffoldAnswersFramesUnderDash() async throws {
        try await HoorayFixture.with { fixture in
            let made = try await fixture.hooray("plugin", "new", "greeter", "--lang", "sh", "--dir", fixture.home.path)
            #expect(made.status == .exited(0), "\(made.standardError)")
            let folder = fixture.home.appending("greeter")
            let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            #expect(files == ["README.md", "greeter.sh", "plugin.toml"])
            #expect(try Self.mode(folder + "/greeter.sh") == 0o755)
            #expect(
                try String(contentsOfFile: folder + "/plugin.toml", encoding: .utf8).contains(#"exec = ["greeter.sh"]"#)
            )
            try await Self.checkAnswers(of: "dash", in: folder, fixture: fixture, arguments: ["greeter.sh"])
        }
    }

    @Test func withoutDirItIsMadeInTheCurrentFolder() async throws {
        try await HoorayFixture.with { fixture in
            let made = try await ProcessRunner.run(
                HoorayFixture.binDirectory + "/hooray", arguments: ["plugin", "new", "greeter"],
                environment: fixture.environment(), workingDirectory: fixture.home.path)
            #expect(made.status == .exited(0), "\(made.standardError)")
            #expect(made.standardOutput.contains("Made a python plugin in ./greeter"))
            #expect(made.standardOutput.contains("hooray plugin test ./greeter"))
            #expect(FileManager.default.isExecutableFile(atPath: fixture.home.appending("greeter/greeter.py")))
        }
    }

    @Test func anExistingFolderIsLeftAloneAndNamed() async throws {
        try await HoorayFixture.with { fixture in
            let folder = fixture.home.appending("greeter")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try "mine".write(toFile: folder + "/plugin.toml", atomically: true, encoding: .utf8)
            let made = try await fixture.hooray("plugin", "new", "greeter", "--dir", fixture.home.path)
            #expect(made.status == .exited(1))
            #expect(made.standardError.contains("\(folder) exists already"))
            #expect(made.standardError.contains("--dir"))
            #expect(try String(contentsOfFile: folder + "/plugin.toml", encoding: .utf8) == "mine")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["plugin.toml"])
        }
    }

    @Test(arguments: ["Greeter", "my_plugin", "1up", "-x", "wins", "next", "plugins"])
    func aBadNameIsAUsageError(_ name: String) async throws {
        try await HoorayFixture.with { fixture in
            let made = try await fixture.hooray(
                arguments: ["plugin", "new", "--dir", fixture.home.appending("src"), "--", name])
            #expect(made.status == .exited(64), "\(made.standardError)")
            #expect(made.standardError.contains("choose another") || made.standardError.contains("such as focus-timer"))
            #expect(!FileManager.default.fileExists(atPath: fixture.home.appending("src")))
        }
    }
}
