import Foundation
import Testing

@testable import HoorayEngine
@testable import HoorayExternalPlugins

/// What a plugin's sandbox lets it see and use, checked on the argument list given to bubblewrap
/// and on the `[limits]` of its `plugin.toml`, without running anything.
@Suite struct PluginSandboxTests {
    static let manifest = PluginManifest(
        name: "pomodoro", version: "1.0.0", apiVersions: 1...1, description: "",
        exec: ["/plugins/pomodoro/main.py", "-q"],
        folder: "/plugins/pomodoro")

    /// A merged-/usr system with some of /etc's secrets, as `SandboxPolicy.look` would see it.
    @Sendable static func mergedUsr(_ path: String) -> SandboxPolicy.Kind {
        switch path {
        case "/bin": .symlink("usr/bin")
        case "/lib": .symlink("usr/lib")
        case "/lib64": .symlink("usr/lib64")
        case "/sbin": .symlink("usr/sbin")
        case "/etc/shadow", "/etc/gshadow": .file
        case "/etc/ssl/private": .folder
        default: .missing
        }
    }

    static func policy(network: Bool = false) -> SandboxPolicy {
        SandboxPolicy(
            pluginFolder: "/plugins/pomodoro", dataFolder: "/data/hooray/plugin-data/pomodoro",
            helper: "/usr/lib/hooray/hooray-sandbox", network: network, limits: .standard,
            exec: ["/plugins/pomodoro/main.py", "-q"],
            environment: PluginSupervisor.cleanEnvironment(
                ["PATH": "/home/me/bin", "LANG": "fr_FR.UTF-8", "OPENAI_API_KEY": "sk-secret", "HOME": "/home/me"],
                plugin: "pomodoro", data: "/data/hooray/plugin-data/pomodoro"))
    }

    /// The pairs of an option that takes two paths, such as `--ro-bind SOURCE DEST`.
    static func pairs(_ option: String, in arguments: [String]) -> [String] {
        arguments.indices.filter { arguments[$0] == option && $0 + 2 < arguments.count }.map { arguments[$0 + 2] }
    }

    @Test func thePluginSeesTheSystemReadOnlyItsFolderReadOnlyAndOnlyItsDataFolderWritable() {
        let arguments = Self.policy().arguments(look: Self.mergedUsr)
        let separator = arguments.firstIndex(of: "--")!
        let bwrap = Array(arguments[..<separator])
        #expect(Set(Self.pairs("--ro-bind", in: bwrap)).isSuperset(of: ["/usr", "/etc", "/plugins/pomodoro"]))
        #expect(Self.pairs("--bind", in: bwrap) == ["/data/hooray/plugin-data/pomodoro"])
        #expect(Set(Self.pairs("--symlink", in: bwrap)) == ["/bin", "/lib", "/lib64", "/sbin"])
        #expect(bwrap.contains("/usr/lib/hooray/hooray-sandbox"))
        // No home, no /run, no bus: nothing but what is named.
        #expect(!bwrap.contains { $0.hasPrefix("/home") || $0.hasPrefix("/run") || $0 == "/" })
        for (option, path) in [
            ("--tmpfs", "/tmp"), ("--proc", "/proc"), ("--dev", "/dev"), ("--chdir", "/plugins/pomodoro"),
        ] {
            #expect(bwrap.indices.contains { bwrap[$0] == option && bwrap[$0 + 1] == path }, "\(option) \(path)")
        }
        // The private /tmp comes before the plugin's folders, which may well be in /tmp.
        #expect(bwrap.firstIndex(of: "/tmp")! < bwrap.firstIndex(of: "/plugins/pomodoro")!)
    }

    @Test func etcSecretsAreHiddenWhereTheyExist() {
        let arguments = Self.policy().arguments(look: Self.mergedUsr)
        #expect(arguments.indices.contains { arguments[$0] == "/dev/null" && arguments[$0 + 1] == "/etc/shadow" })
        #expect(arguments.indices.contains { arguments[$0] == "/dev/null" && arguments[$0 + 1] == "/etc/gshadow" })
        #expect(arguments.indices.contains { arguments[$0] == "--tmpfs" && arguments[$0 + 1] == "/etc/ssl/private" })
        #expect(!arguments.contains("/etc/sudoers"), "only what exists is hidden")
        // After /etc is bound, or the mask would be covered.
        #expect(arguments.lastIndex(of: "/etc")! < arguments.firstIndex(of: "/etc/shadow")!)
    }

    @Test func everyNamespaceIsPrivateAndTheNetworkSharedOnlyWithThePermission() {
        let closed = Self.policy().arguments(look: Self.mergedUsr)
        for option in ["--unshare-all", "--die-with-parent", "--new-session", "--clearenv"] {
            #expect(closed.contains(option), "\(option)")
        }
        #expect(closed.indices.contains { closed[$0] == "--cap-drop" && closed[$0 + 1] == "ALL" })
        #expect(!closed.contains("--share-net"))
        #expect(Self.policy(network: true).arguments(look: Self.mergedUsr).contains("--share-net"))
    }

    @Test func theEnvironmentIsTheFixedListWithNothingInherited() {
        let arguments = Self.policy().arguments(look: Self.mergedUsr)
        let settings = arguments.indices.filter { arguments[$0] == "--setenv" }
        let variables = Dictionary(uniqueKeysWithValues: settings.map { (arguments[$0 + 1], arguments[$0 + 2]) })
        #expect(
            variables == [
                "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "fr_FR.UTF-8",
                "HOME": "/data/hooray/plugin-data/pomodoro",
                "HOORAY_PLUGIN": "pomodoro", "HOORAY_PLUGIN_DATA": "/data/hooray/plugin-data/pomodoro",
                "PYTHONUNBUFFERED": "1",
            ])
    }

    @Test func theProgramRunsLastThroughTheHelperWithItsLimits() {
        let arguments = Self.policy().arguments(look: Self.mergedUsr)
        let separator = arguments.firstIndex(of: "--")!
        #expect(
            Array(arguments[(separator + 1)...]) == [
                "/usr/lib/hooray/hooray-sandbox", "inner", "--memory", "\(256 << 20)", "--processes", "32", "--files",
                "256", "--", "/plugins/pomodoro/main.py", "-q",
            ])
    }

    @Test func withoutASandboxThePluginIsNotStartedUnlessAllowedAndTheReasonNamesTheFix() {
        let missing = SandboxAvailability.unavailable(
            reason: "bubblewrap is not installed (there is no /nonexistent)", fix: PluginSandbox.installFix)
        let refused = PluginLaunch.decide(
            manifest: Self.manifest, dataFolder: "/data", environment: [:], allowUnsandboxed: false,
            availability: missing, helper: "/usr/lib/hooray/hooray-sandbox")
        guard case .refused(let reason) = refused else {
            Issue.record("started without a sandbox: \(refused)")
            return
        }
        #expect(reason.contains("bubblewrap is not installed"), "\(reason)")
        #expect(reason.contains("sudo apt install bubblewrap"), "\(reason)")
        #expect(reason.contains("allow_unsandboxed = true"), "\(reason)")

        let allowed = PluginLaunch.decide(
            manifest: Self.manifest, dataFolder: "/data", environment: [:], allowUnsandboxed: true,
            availability: missing, helper: "/usr/lib/hooray/hooray-sandbox")
        guard case .unsandboxed(let launch, let warning) = allowed else {
            Issue.record("not started though allowed: \(allowed)")
            return
        }
        #expect(!launch.sandboxed)
        #expect(launch.arguments.first == "inner", "its limits still hold")
        #expect(warning.contains("WITHOUT a sandbox"), "\(warning)")
    }

    @Test func theSandboxedLaunchStartsTheHelperOutsideBubblewrapNamingThisProcess() {
        let decision = PluginLaunch.decide(
            manifest: Self.manifest, dataFolder: "/data", environment: [:], allowUnsandboxed: false,
            availability: .available, helper: "/usr/lib/hooray/hooray-sandbox")
        guard case .sandboxed(let launch) = decision else {
            Issue.record("\(decision)")
            return
        }
        #expect(launch.executable == "/usr/lib/hooray/hooray-sandbox")
        #expect(Array(launch.arguments.prefix(3)) == ["outer", "\(getpid())", PluginSandbox.bubblewrap])
        #expect(launch.environment.isEmpty)
    }

    // MARK: [limits]

    @Test func noLimitsTableGivesTheDefaults() throws {
        let scratch = try PluginScratch()
        defer { scratch.remove() }
        let folder = try scratch.plugin("pomodoro", toml: PluginScratch.manifest())
        let limits = try PluginManifest.read(folder: folder).limits
        #expect(limits == PluginLimits(memoryBytes: 256 << 20, processes: 32, openFiles: 256, cpuSecondsPerCall: 10))
    }

    @Test func aLimitsTableWithinTheCeilingIsRead() throws {
        let scratch = try PluginScratch()
        defer { scratch.remove() }
        let folder = try scratch.plugin(
            "pomodoro",
            toml: PluginScratch.manifest(
                "[limits]\nmemory = \"512M\"\nprocesses = 64\nopen_files = 512\ncpu_seconds = 20"))
        let limits = try PluginManifest.read(folder: folder).limits
        #expect(limits == PluginLimits(memoryBytes: 512 << 20, processes: 64, openFiles: 512, cpuSecondsPerCall: 20))
    }

    @Test(arguments: [("1G", 1 << 30), ("300MiB", 300 << 20), ("65536K", 64 << 20), ("1048576", 1 << 20)])
    func sizesAreReadInTheirUnits(_ text: String, _ bytes: Int) {
        #expect(PluginLimits.bytes(text) == bytes)
    }

    @Test(arguments: ["", "M", "12Q", "-5M", "1.5G", "ten"])
    func whatIsNotASizeIsNone(_ text: String) {
        #expect(PluginLimits.bytes(text) == nil)
    }

    static let badLimits: [BadManifest] = [
        BadManifest(
            label: "memory over the ceiling", toml: PluginScratch.manifest("[limits]\nmemory = \"8G\""),
            place: "plugin.toml:7:10: ", words: ["8 GiB", "more than the ceiling of 2 GiB", "memory = \"2G\""]),
        BadManifest(
            label: "memory not a size", toml: PluginScratch.manifest("[limits]\nmemory = \"lots\""),
            place: "plugin.toml:7:10: ", words: ["`memory` of [limits] must be a size", "memory = \"512M\""]),
        BadManifest(
            label: "processes over the ceiling", toml: PluginScratch.manifest("[limits]\nprocesses = 100000"),
            place: "plugin.toml:7:13: ", words: ["more than the ceiling of 256", "processes = 256"]),
        BadManifest(
            label: "open files not a number", toml: PluginScratch.manifest("[limits]\nopen_files = \"many\""),
            place: "plugin.toml:7:14: ", words: ["must be a whole number"]),
        BadManifest(
            label: "cpu over the ceiling", toml: PluginScratch.manifest("[limits]\ncpu_seconds = 3600"),
            place: "plugin.toml:7:15: ", words: ["more than the ceiling of 60", "cpu_seconds = 60"]),
        BadManifest(
            label: "too little memory", toml: PluginScratch.manifest("[limits]\nmemory = \"1M\""),
            place: "plugin.toml:7:10: ", words: ["too little", "memory = \"16M\""]),
        BadManifest(
            label: "a misspelt key", toml: PluginScratch.manifest("[limits]\nmemroy = \"1G\""),
            place: "plugin.toml:7:1: ", words: ["[limits] has no key `memroy`", "did you mean `memory`?"]),
        BadManifest(
            label: "limits not a table", toml: PluginScratch.manifest("limits = 5"),
            place: "plugin.toml:6:10: ", words: ["`limits` must be a table"]),
    ]

    @Test(arguments: badLimits)
    func aLimitOverTheCeilingOrNotALimitIsRefusedNamingTheCeiling(_ bad: BadManifest) throws {
        let scratch = try PluginScratch()
        defer { scratch.remove() }
        let folder = try scratch.plugin("pomodoro", toml: bad.toml)
        let error = try #require(throws: PluginManifestError.self) { try PluginManifest.read(folder: folder) }
        #expect(error.description.hasPrefix(bad.place), "\(error)")
        for word in bad.words { #expect(error.description.contains(word), "\(error)") }
    }
}
