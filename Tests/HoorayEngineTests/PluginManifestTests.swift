import Foundation
import HoorayClient
import HoorayCommandLine
import HoorayCommands
import HoorayEngine
import HoorayExternalPlugins
import HoorayKit
import Testing

/// A temporary folder for plugin folders, removed by ``remove()``.
struct PluginScratch {
    /// The temporary folder, with symbolic links resolved (as the manifest stores paths).
    let root: String

    init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hooray-plugins-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        root = URL(fileURLWithPath: base).resolvingSymlinksInPath().path
    }

    /// Writes a plugin folder: its `plugin.toml` (none when `nil`) and a program.
    ///
    /// - Returns: The folder's path.
    @discardableResult
    func plugin(
        _ folder: String, toml: String?, program: String? = "main.py", executable: Bool = true
    ) throws -> String {
        let path = root + "/" + folder
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        if let toml { try toml.write(toFile: path + "/plugin.toml", atomically: true, encoding: .utf8) }
        if let program { try file(folder + "/" + program, executable: executable) }
        return path
    }

    /// Writes a small script, executable or not; returns its path.
    @discardableResult
    func file(_ relative: String, executable: Bool = true) throws -> String {
        let path = root + "/" + relative
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try "#!/bin/sh\nexit 0\n".write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: executable ? 0o755 : 0o644], ofItemAtPath: path)
        return path
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// A minimal good `plugin.toml` with these lines added at the end.
    static func manifest(name: String = "pomodoro", _ extra: String = "") -> String {
        """
        name = "\(name)"
        version = "1.0.0"
        api_version = 1
        description = "Focus sessions."
        exec = ["main.py"]
        \(extra)
        """
    }
}

/// One bad `plugin.toml` and what its refusal must say.
struct BadManifest: Sendable, CustomStringConvertible {
    var label: String
    var toml: String
    /// Where the refusal points, as `plugin.toml:LINE:COL:` or `plugin.toml:`.
    var place: String
    /// Words the reason must hold: the problem, then the fix.
    var words: [String]

    var description: String { label }
}

@Suite struct PluginManifestTests {
    static let fullManifest = """
        name = "pomodoro"
        version = "1.2.0"
        api_version = [1, 2]
        description = "25-minute focus sessions with a break."
        exec = ["bin/pomodoro.py", "--quiet", "two words"]
        permissions = ["notify", "schedule", "storage", "ai", "notify"]

        [[commands]]
        name = "start"
        summary = "Start a 25-minute focus session."
        discussion = "A notice comes at the end."
        aliases = ["go", "begin"]
        examples = ["hooray pomodoro start \\"Write the report\\""]
        json = true
        writes = false
          [[commands.arguments]]
          name = "task"
          help = "What the session is for."
          optional = true
          repeating = true
          [[commands.options]]
          name = "minutes"
          value_name = "N"
          help = "How long the session lasts."
          choices = ["15", "25"]
          required = true
          repeating = true
          [[commands.options]]
          name = "label"
          help = "A label."
          [[commands.flags]]
          name = "quiet"
          help = "Start without a notice."

        [[commands]]
        name = "stop"
        summary = "Stop the session."
        """

    @Test func aManifestWithEveryKeyIsReadIntoCommandsHelpCanShow() throws {
        let scratch = try PluginScratch()
        defer { scratch.remove() }
        let folder = try scratch.plugin("pomodoro", toml: Self.fullManifest, program: "bin/pomodoro.py")

        let manifest = try PluginManifest.read(folder: folder + "/")

        #expect(manifest.name == "pomodoro")
        #expect(manifest.version == "1.2.0")
        #expect(manifest.apiVersions == 1...2)
        #expect(manifest.description == "25-minute focus sessions with a break.")
        #expect(manifest.folder == folder)
        #expect(manifest.exec == [folder + "/bin/pomodoro.py", "--quiet", "two words"])
        #expect(manifest.permissions == [.notify, .schedule, .storage, .ai])
        #expect(manifest.commands.map(\.name) == ["start", "stop"])

        let start = manifest.commands[0]
        #expect(start.summary == "Start a 25-minute focus session.")
        #expect(start.discussion == "A notice comes at the end.")
        // Aliases are within the plugin: `hooray pomodoro go`.
        #expect(start.aliases == ["pomodoro go", "pomodoro begin"])
        #expect(start.examples == ["hooray pomodoro start \"Write the report\""])
        #expect(start.offersJSON)
        #expect(!start.writes)
        #expect(
            start.arguments == [
                CommandSpec.Argument(
                    name: "task", help: "What the session is for.", isOptional: true, isRepeating: true)
            ])
        #expect(
            start.options == [
                CommandSpec.Option(
                    name: "minutes", valueName: "N", help: "How long the session lasts.", isRepeating: true,
                    choices: ["15", "25"], isRequired: true),
                CommandSpec.Option(name: "label", valueName: "label", help: "A label."),
            ])
        #expect(start.flags == [CommandSpec.Flag(name: "quiet", help: "Start without a notice.")])

        let stop = manifest.commands[1]
        #expect(stop.writes && !stop.offersJSON && stop.aliases.isEmpty && stop.arguments.isEmpty)

        // `hooray pomodoro go --help` works from the manifest alone.
        let tree = try CommandTree(plugins: [ManifestPlugin(manifest: manifest)])
        guard case .command(_, let target, let rest) = tree.route(["pomodoro", "go", "--minutes", "25"]) else {
            Issue.record("`hooray pomodoro go` does not reach the start command")
            return
        }
        #expect(target.spec.name == "start" && rest == ["--minutes", "25"])
        let help = CommandHelp.usage(path: ["pomodoro", "start"], spec: start)
        #expect(help.contains("--minutes <N>") && help.contains("--quiet"))
    }

    @Test func theLeastAManifestNeedsIsANameVersionAPIAndProgram() throws {
        let scratch = try PluginScratch()
        defer { scratch.remove() }
        let folder = try scratch.plugin(
            "timer", toml: "name = \"timer\"\nversion = \"0.1\"\napi_version = 1\nexec = \"main.py\"\n")

        let manifest = try PluginManifest.read(folder: folder)

        #expect(manifest.exec == [folder + "/main.py"])
        #expect(manifest.description.isEmpty && manifest.commands.isEmpty && manifest.permissions.isEmpty)
        #expect(manifest.apiVersions == 1...1)
    }

    @Test func theExampleInTheProtocolDocumentIsAGoodManifest() throws {
        let document = ProtocolDocumentTests.document
        let heading = try #require(document.range(of: "## `plugin.toml`"))
        let fence = try #require(document.range(of: "```toml\n", range: heading.upperBound..<document.endIndex))
        let end = try #require(document.range(of: "```", range: fence.upperBound..<document.endIndex))
        let scratch = try PluginScratch()
        defer { scratch.remove() }
        let folder = try scratch.plugin(
            "pomodoro", toml: String(document[fence.upperBound..<end.lowerBound]), program: "pomodoro.py")

        let manifest = try PluginManifest.read(folder: folder)

        #expect(manifest.name == "pomodoro")
        #expect(manifest.exec == [folder + "/pomodoro.py"])
        #expect(manifest.permissions == [.notify, .schedule, .storage])
        #expect(manifest.commands.first?.options.first?.valueName == "N")
        #expect(
            manifest.card
                == PluginCard(
                    title: "Focus", text: "25 minutes, then a break.",
                    buttons: [.init(label: "Start a session", command: "start", writes: true)]))
    }

    static let hostileCorpus: [BadManifest] = [
        BadManifest(
            label: "a half-typed string", toml: "name = \"pomo\nversion = \"1\"\n", place: "plugin.toml:1:13: ",
            words: ["the string is not closed", "end it with a double quote"]),
        BadManifest(
            label: "no exec",
            toml: "name = \"pomodoro\"\nversion = \"1.0.0\"\napi_version = 1\n", place: "plugin.toml: ",
            words: ["`exec` is missing; add the program to run, such as exec = [\"main.py\"]"]),
        BadManifest(
            label: "no version", toml: "name = \"pomodoro\"\napi_version = 1\nexec = \"main.py\"\n",
            place: "plugin.toml: ", words: ["`version` is missing", "such as version = \"1.0.0\""]),
        BadManifest(
            label: "no api_version", toml: "name = \"pomodoro\"\nversion = \"1.0.0\"\nexec = \"main.py\"\n",
            place: "plugin.toml: ", words: ["`api_version` is missing", "such as api_version = 1"]),
        BadManifest(
            label: "api_version 99",
            toml: "name = \"pomodoro\"\nversion = \"9.0\"\napi_version = 99\nexec = \"main.py\"\nfuture_key = 1\n",
            place: "plugin.toml:3:15: ",
            words: [
                "pomodoro speaks plugin API 99, and this Hooray speaks 1; install a version of the plugin made for API 1, or a newer Hooray"
            ]),
        BadManifest(
            label: "api_version [2, 1]",
            toml: minimalManifest.replacing("api_version = 1", with: "api_version = [2, 1]"),
            place: "plugin.toml:3:15: ", words: ["the lowest version must come first", "api_version = [1, 2]"]),
        BadManifest(
            label: "api_version as text",
            toml: minimalManifest.replacing("api_version = 1", with: "api_version = \"1\""),
            place: "plugin.toml:3:15: ", words: ["must be an integer or a list of two", "found string \"1\""]),
        BadManifest(
            label: "an unknown permission", toml: PluginScratch.manifest("permissions = [\"notify\", \"notfy\"]"),
            place: "plugin.toml:6:26: ", words: ["`notfy` is not a permission", "did you mean `notify`?"]),
        BadManifest(
            label: "a misspelt key", toml: PluginScratch.manifest("descripton = \"Focus.\""),
            place: "plugin.toml:6:1: ", words: ["has no key `descripton`", "did you mean `description`?"]),
        BadManifest(
            label: "an unknown key", toml: PluginScratch.manifest("[settings]\nlength = 25"),
            place: "plugin.toml:6:2: ", words: ["has no key `settings`", "remove it", "`commands`"]),
        BadManifest(
            label: "a name in capitals", toml: minimalManifest.replacing("\"pomodoro\"", with: "\"Pomodoro Timer\""),
            place: "plugin.toml:1:8: ",
            words: ["\"Pomodoro Timer\" is not a name", "lowercase letters", "such as name = \"pomodoro-timer\""]),
        BadManifest(
            label: "a long name", toml: PluginScratch.manifest(name: String(repeating: "a", count: 33)),
            place: "plugin.toml:1:8: ", words: ["longer than 32 characters", "at most 32 characters"]),
        BadManifest(
            label: "a version number", toml: minimalManifest.replacing("\"1.0.0\"", with: "1"),
            place: "plugin.toml:2:11: ", words: ["`version` must be a string", "found integer 1"]),
        BadManifest(
            label: "exec as a number", toml: minimalManifest.replacing("[\"main.py\"]", with: "5"),
            place: "plugin.toml:5:8: ", words: ["`exec` must be the program's path", "exec = [\"main.py\"]"]),
        BadManifest(
            label: "an empty exec", toml: minimalManifest.replacing("[\"main.py\"]", with: "[]"),
            place: "plugin.toml:5:8: ", words: ["`exec` is empty; add the program"]),
        BadManifest(
            label: "an interpreter as the program",
            toml: minimalManifest.replacing("[\"main.py\"]", with: "[\"python3\", \"main.py\"]"),
            place: "plugin.toml:5:9: ",
            words: ["no such file", "start it with #!/usr/bin/env python3", "exec = [\"main.py\"]"]),
        BadManifest(
            label: "a command named help",
            toml: PluginScratch.manifest("[[commands]]\nname = \"help\"\nsummary = \"Help.\""),
            place: "plugin.toml:7:8: ", words: ["cannot be named help", "rename the command"]),
        BadManifest(
            label: "a command without summary", toml: PluginScratch.manifest("[[commands]]\nname = \"start\""),
            place: "plugin.toml:6:1: ", words: ["the command start has no `summary`; add one"]),
        BadManifest(
            label: "a misspelt command key",
            toml: PluginScratch.manifest("[[commands]]\nname = \"start\"\nsumary = \"Start.\""),
            place: "plugin.toml:8:1: ", words: ["a command has no key `sumary`", "did you mean `summary`?"]),
        BadManifest(
            label: "an option named json",
            toml: PluginScratch.manifest(
                "[[commands]]\nname = \"start\"\nsummary = \"Start.\"\n[[commands.options]]\nname = \"json\"\nhelp = \"J.\""
            ),
            place: "plugin.toml:10:8: ", words: ["--json is hooray's own", "json = true"]),
        BadManifest(
            label: "an alias that is another command",
            toml: PluginScratch.manifest(
                "[[commands]]\nname = \"start\"\nsummary = \"Start.\"\n"
                    + "[[commands]]\nname = \"begin\"\nsummary = \"Begin.\"\naliases = [\"start\"]"),
            place: "plugin.toml:12:12: ",
            words: ["`hooray pomodoro start` is already the command start (line 7)", "a name of its own"]),
        BadManifest(
            label: "an optional argument before another",
            toml: PluginScratch.manifest(
                "[[commands]]\nname = \"start\"\nsummary = \"Start.\"\n"
                    + "[[commands.arguments]]\nname = \"task\"\nhelp = \"T.\"\noptional = true\n"
                    + "[[commands.arguments]]\nname = \"minutes\"\nhelp = \"M.\""),
            place: "plugin.toml:13:1: ", words: ["may be left out or repeated", "move task to the end"]),
        BadManifest(
            label: "an argument without help",
            toml: PluginScratch.manifest(
                "[[commands]]\nname = \"start\"\nsummary = \"Start.\"\n[[commands.arguments]]\nname = \"task\""),
            place: "plugin.toml:9:1: ", words: ["the argument task of start has no `help`; add one"]),
        BadManifest(
            label: "a flag with a bad name",
            toml: PluginScratch.manifest(
                "[[commands]]\nname = \"start\"\nsummary = \"Start.\"\n[[commands.flags]]\nname = \"Quiet\"\nhelp = \"Q.\""
            ),
            place: "plugin.toml:10:8: ", words: ["\"Quiet\" is not a name", "such as name = \"quiet\""]),
        BadManifest(
            label: "json as text",
            toml: PluginScratch.manifest("[[commands]]\nname = \"start\"\nsummary = \"Start.\"\njson = \"yes\""),
            place: "plugin.toml:9:8: ", words: ["`json` must be true or false", "found string \"yes\""]),
        BadManifest(
            label: "a card's button running no command",
            toml: PluginScratch.manifest(
                "[card]\ntitle = \"Focus\"\n[[card.buttons]]\nlabel = \"Go\"\ncommand = \"go\""),
            place: "plugin.toml:10:",
            words: ["the button Go runs `go`, which is no command of the plugin", "[[commands]]"]),
        BadManifest(
            label: "a card's button running a command that needs an argument",
            toml: PluginScratch.manifest(
                "[[commands]]\nname = \"start\"\nsummary = \"Start.\"\n[[commands.arguments]]\nname = \"task\"\nhelp = \"T.\"\n"
                    + "[card]\ntitle = \"Focus\"\n[[card.buttons]]\nlabel = \"Go\"\ncommand = \"start\""),
            place: "plugin.toml:16:", words: ["needs its <task>", "optional = true"]),
        BadManifest(
            label: "a card with four buttons",
            toml: PluginScratch.manifest(
                "[[commands]]\nname = \"start\"\nsummary = \"Start.\"\n[card]\ntitle = \"F\"\n"
                    + String(repeating: "[[card.buttons]]\nlabel = \"Go\"\ncommand = \"start\"\n", count: 4)),
            place: "plugin.toml:20:", words: ["4 buttons", "at most 3"]),
        BadManifest(
            label: "a card's title with a direction override",
            toml: PluginScratch.manifest("[card]\ntitle = \"Focus\\u202E\""),
            place: "plugin.toml:7:", words: ["`title` holds a line break or control character (U+202E)", "one line"]),
        BadManifest(
            label: "a card's text on two lines",
            toml: PluginScratch.manifest("[card]\ntitle = \"Focus\"\ntext = \"one\\ntwo\""),
            place: "plugin.toml:8:", words: ["`text` holds a line break", "(U+000A)"]),
    ]

    @Test(arguments: hostileCorpus)
    func aBadManifestIsRefusedWithWhereWhatAndTheFix(_ bad: BadManifest) throws {
        let scratch = try PluginScratch()
        defer { scratch.remove() }
        let folder = try scratch.plugin("pomodoro", toml: bad.toml)

        let error = try #require(throws: PluginManifestError.self) { try PluginManifest.read(folder: folder) }

        let reason = error.description
        #expect(reason.hasPrefix(bad.place), "\(reason)")
        for word in bad.words { #expect(reason.contains(word), "\(reason)") }
    }

    @Test func aFolderWithoutPluginTomlIsRefused() throws {
        let scratch = try PluginScratch()
        defer { scratch.remove() }
        let folder = try scratch.plugin("pomodoro", toml: nil)

        let error = try #require(throws: PluginManifestError.self) { try PluginManifest.read(folder: folder) }

        #expect(error.description.hasPrefix("plugin.toml: there is no plugin.toml in \(folder)"))
        #expect(error.description.contains("`hooray plugin new NAME` writes a working one"))
        let missing = try #require(throws: PluginManifestError.self) {
            try PluginManifest.read(folder: scratch.root + "/nowhere")
        }
        #expect(missing.description.contains("there is no plugin folder \(scratch.root)/nowhere"))
    }

    @Test func aPluginTomlThatIsAFolderTooLargeOrNotTextIsRefused() throws {
        let scratch = try PluginScratch()
        defer { scratch.remove() }
        let folder = try scratch.plugin("pomodoro", toml: nil)
        try FileManager.default.createDirectory(atPath: folder + "/plugin.toml", withIntermediateDirectories: false)
        let directory = try #require(throws: PluginManifestError.self) { try PluginManifest.read(folder: folder) }
        #expect(directory.description.contains("plugin.toml is a folder; plugin.toml must be a file"))

        try FileManager.default.removeItem(atPath: folder + "/plugin.toml")
        let padding = String(repeating: "# padding\n", count: 27_000)
        try (PluginScratch.manifest() + padding).write(
            toFile: folder + "/plugin.toml", atomically: true, encoding: .utf8)
        let large = try #require(throws: PluginManifestError.self) { try PluginManifest.read(folder: folder) }
        #expect(large.description.contains("more than the 256 KiB a plugin.toml may have"))

        var bytes = Array("name = \"pomodoro\"\ndescription = \"caf".utf8)
        bytes += [0xE9, 0x22, 0x0A]
        try Data(bytes).write(to: URL(fileURLWithPath: folder + "/plugin.toml"))
        let latin1 = try #require(throws: PluginManifestError.self) { try PluginManifest.read(folder: folder) }
        #expect(latin1.description == "plugin.toml:2:19: the file is not UTF-8 text; save it with UTF-8 encoding")
    }

    @Test func aProgramThatIsNotExecutableIsRefusedWithTheChmodToRun() throws {
        let scratch = try PluginScratch()
        defer { scratch.remove() }
        let folder = try scratch.plugin("pomodoro", toml: PluginScratch.manifest(), executable: false)

        let error = try #require(throws: PluginManifestError.self) { try PluginManifest.read(folder: folder) }

        #expect(
            error.description
                == "plugin.toml:5:9: main.py is not executable; make it so with chmod +x \(folder)/main.py")
        #expect(error.plugin == "pomodoro")
    }

    @Test func aProgramOutsideTheFolderIsRefused() throws {
        let scratch = try PluginScratch()
        defer { scratch.remove() }
        let outside = try scratch.file("outside.sh")

        let parent = try scratch.plugin(
            "up", toml: minimalManifest.replacing("[\"main.py\"]", with: "[\"../outside.sh\"]"), program: nil)
        let leaving = try #require(throws: PluginManifestError.self) { try PluginManifest.read(folder: parent) }
        #expect(
            leaving.description.hasPrefix(
                "plugin.toml:5:9: `exec` names ../outside.sh, which leaves the plugin's folder"))
        #expect(leaving.description.contains("put the program in the folder"))

        let absolute = try scratch.plugin(
            "absolute", toml: minimalManifest.replacing("[\"main.py\"]", with: "[\"\(outside)\"]"), program: nil)
        let fromRoot = try #require(throws: PluginManifestError.self) { try PluginManifest.read(folder: absolute) }
        #expect(fromRoot.description.hasPrefix("plugin.toml:5:9: `exec` names \(outside), outside the plugin's folder"))
        #expect(fromRoot.description.contains("relative to the folder"))

        let linked = try scratch.plugin("linked", toml: PluginScratch.manifest(), program: nil)
        try FileManager.default.createSymbolicLink(atPath: linked + "/main.py", withDestinationPath: outside)
        let throughLink = try #require(throws: PluginManifestError.self) { try PluginManifest.read(folder: linked) }
        #expect(
            throughLink.description.hasPrefix(
                "plugin.toml:5:9: `exec` names main.py, a symbolic link to \(outside), outside the plugin's folder"))
        #expect(throughLink.description.contains("copy the program into the folder instead"))
    }

    @Test func aProgramReachedThroughLinksInsideTheFolderIsStoredResolved() throws {
        let scratch = try PluginScratch()
        defer { scratch.remove() }
        // A plugin folder that is itself a link, as when an author links a working copy in.
        let checkout = try scratch.plugin(
            "checkout", toml: minimalManifest.replacing("[\"main.py\"]", with: "[\"./bin/../run\", \"-v\"]"),
            program: "bin/real.sh")
        try FileManager.default.createSymbolicLink(atPath: checkout + "/run", withDestinationPath: "bin/real.sh")
        try FileManager.default.createSymbolicLink(atPath: scratch.root + "/pomodoro", withDestinationPath: checkout)

        let manifest = try PluginManifest.read(folder: scratch.root + "/pomodoro")

        #expect(manifest.folder == checkout)
        #expect(manifest.exec == [checkout + "/bin/real.sh", "-v"])
    }

    @Test func aProgramThatIsAFolderOrMissingIsRefused() throws {
        let scratch = try PluginScratch()
        defer { scratch.remove() }
        let folder = try scratch.plugin("pomodoro", toml: PluginScratch.manifest(), program: nil)
        let missing = try #require(throws: PluginManifestError.self) { try PluginManifest.read(folder: folder) }
        #expect(
            missing.description
                == "plugin.toml:5:9: `exec` names main.py, and there is no such file in \(folder); put the program there, or correct its name"
        )

        try FileManager.default.createDirectory(atPath: folder + "/main.py", withIntermediateDirectories: false)
        let directory = try #require(throws: PluginManifestError.self) { try PluginManifest.read(folder: folder) }
        #expect(directory.description.contains("`exec` names main.py, a folder; name the program file in it instead"))
    }
}

/// The minimal manifest as text, for tables that change one line of it.
private let minimalManifest = PluginScratch.manifest()

/// A manifest's commands as a plugin, to route through a ``CommandTree``.
struct ManifestPlugin: CommandPlugin {
    let manifest: PluginManifest
    var name: String { manifest.name }
    var summary: String { manifest.description }
    var commands: [CommandSpec] { manifest.commands }

    func activate(context: PluginContext, configuration: NoConfiguration) async throws {}

    func run(_ command: CommandInvocation, context: PluginContext, configuration: NoConfiguration) async throws
        -> CommandReply
    {
        throw PluginCommandError("only its commands are declared here")
    }
}
