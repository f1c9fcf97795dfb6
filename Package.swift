// swift-tools-version: 6.1
import Foundation
import PackageDescription

/// The built-in plugins: every folder under `Plugins/` (but `BuiltIn`, the registration list) is a
/// target named after it, `Plugins/Water` → `WaterPlugin`, which may use HoorayKit and the message
/// pools. Its tests, if any, are `Tests/WaterPluginTests`. Adding a plugin is adding its folder and
/// its line in `Plugins/BuiltIn/BuiltInPlugins.swift` (and, for commands `hooray` runs on the
/// terminal, its `Terminal` folder and its line in `Plugins/BuiltIn/Terminal/BuiltInTerminal.swift`).
let pluginFolders =
    ((try? FileManager.default.contentsOfDirectory(atPath: Context.packageDirectory + "/Plugins")) ?? [])
    .filter { name in
        var isFolder: ObjCBool = false
        return name != "BuiltIn" && !name.hasPrefix(".")
            && FileManager.default.fileExists(
                atPath: Context.packageDirectory + "/Plugins/" + name, isDirectory: &isFolder)
            && isFolder.boolValue
    }
    .sorted()
/// The plugins with commands that `hooray` runs itself on the terminal (a conversation streamed as it
/// comes, a page drawn from every plugin's figures): `Plugins/Swaps/Terminal` is the `SwapsTerminal`
/// target, which only `hooray` links, listed in `Plugins/BuiltIn/Terminal/BuiltInTerminal.swift`.
let terminalFolders = pluginFolders.filter { folder in
    FileManager.default.fileExists(atPath: Context.packageDirectory + "/Plugins/\(folder)/Terminal")
}
let pluginTargets: [Target] = pluginFolders.map { folder in
    .target(
        name: folder + "Plugin",
        dependencies: ["HoorayCalendar", "HoorayCommandLine", "HoorayKit", "HoorayText", "HoorayMessages"],
        path: "Plugins/" + folder,
        exclude: terminalFolders.contains(folder) ? ["Terminal"] : [])
}
/// What a plugin's terminal commands may use: what `hooray`'s own commands do, and Cairo and Pango
/// (CPDF) for a page to keep.
let terminalTargets: [Target] = terminalFolders.map { folder in
    .target(
        name: folder + "Terminal",
        dependencies: [
            .target(name: folder + "Plugin"), "HoorayTerminal", "HoorayCalendar", "HoorayCommandLine", "HoorayKit",
            "HoorayText", "HoorayMessages", "HoorayClient", "HoorayCLIHost", "HoorayCommands", "HoorayConfig",
            "HoorayEngine", "HoorayAI", "HoorayIdentity", "CPDF",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ],
        path: "Plugins/\(folder)/Terminal")
}
let pluginTestTargets: [Target] = pluginFolders.filter { folder in
    FileManager.default.fileExists(atPath: Context.packageDirectory + "/Tests/\(folder)PluginTests")
}.map { folder in
    .testTarget(
        name: folder + "PluginTests",
        dependencies: [
            .target(name: folder + "Plugin"), "HoorayCalendar", "HoorayCommandLine", "HoorayKit", "HoorayText",
            "HoorayMessages",
            "HoorayTesting",
            "HoorayKitTesting",
        ])
}

/// Python's bytecode cache, when running the SDK's tests by hand left one beside them.
let sdkBytecode = ["python/__pycache__", "python/.pytest_cache"].filter {
    FileManager.default.fileExists(atPath: Context.packageDirectory + "/sdk/" + $0)
}

let package = Package(
    name: "hooray",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "HoorayKit", targets: ["HoorayKit"]),
        .library(name: "HoorayKitTesting", targets: ["HoorayKitTesting"]),
        .library(name: "HoorayCalendar", targets: ["HoorayCalendar"]),
        .library(name: "HoorayCommandLine", targets: ["HoorayCommandLine"]),
        .library(name: "HoorayTesting", targets: ["HoorayTesting"]),
        .executable(name: "hoorayd", targets: ["hoorayd"]),
        .executable(name: "hooray", targets: ["hooray"]),
        .executable(name: "hooray-cli", targets: ["hooray-cli"]),
        .executable(name: "hooray-sandbox", targets: ["hooray-sandbox"]),
        .executable(name: "hooray-app", targets: ["hooray-app"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The scheduler's rules at rest: each plugin's ids in an ordered set (its places are the rules' numbers).
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Sync's encryption (ChaCha20-Poly1305, HKDF): only the user's computers can read the sync folder.
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        // The zip of `hooray export --format csv -o FILE.zip`.
        .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
        // `swift package generate-documentation --target HoorayKit` (`make docs`); no target uses it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // C libraries of the system.
        .systemLibrary(
            name: "CLibNotify",
            pkgConfig: "libnotify",
            providers: [.apt(["libnotify-dev"])]
        ),
        // libcurl, loaded with dlopen at the first AI request (its header is libcurl4-openssl-dev's).
        .target(name: "CCurl", cSettings: [.define("_FORTIFY_SOURCE", to: "2", .when(configuration: .release))]),
        // Cairo's PDF surface and Pango's text, loaded with dlopen when `hooray review --pdf` writes one.
        .target(name: "CPDF", cSettings: [.define("_FORTIFY_SOURCE", to: "2", .when(configuration: .release))]),

        // GLib, GObject and GIO, which the keyring's C calls (libnotify's pull them in as well).
        .systemLibrary(
            name: "CGio",
            pkgConfig: "gio-2.0",
            providers: [.apt(["libglib2.0-dev"])]
        ),
        // libsecret, loaded with dlopen at the first keyring operation: compiled against its header,
        // never linked. A systemLibrary target would have pkg-config link it, and an -I flag is an unsafe
        // flag, which no package depending on HoorayTesting by version could build; so Sources/CLibSecret/
        // libsecret is a symbolic link to where libsecret-1-dev (a Build-Depends) puts the header on
        // Debian, /usr/include/libsecret-1/libsecret, found through the target's own folder.
        .target(
            name: "CLibSecret",
            dependencies: ["CGio"],
            cSettings: [
                .headerSearchPath("."),
                .define("_FORTIFY_SOURCE", to: "2", .when(configuration: .release)),
            ]
        ),

        // GTK 4 and libadwaita, for the desktop app.
        .systemLibrary(
            name: "CGtk",
            pkgConfig: "libadwaita-1",
            providers: [.apt(["libadwaita-1-dev", "libgtk-4-dev"])]
        ),

        // zlib, which deflates the configuration files hoorayd keeps as loaded (ZIPFoundation links it too).
        .systemLibrary(name: "CDeflate", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),

        // Linux interfaces Glibc's module leaves out (timerfd, eventfd).
        .systemLibrary(name: "CLinux"),

        // The plugin author API, in three modules: HoorayKit, its core; HoorayCalendar, the days and streaks
        // it counts in; HoorayCommandLine, the opt-in parts a plugin adds to `hooray`'s command line.
        // Nothing of the engine: only the wire's types (HoorayClient), which they name.
        .target(
            name: "HoorayKit",
            dependencies: ["HoorayCalendar", "HoorayClient", .product(name: "Logging", package: "swift-log")]
        ),
        // What a plugin adds to `hooray`'s command line, opt-in: its commands and what they answer, what
        // people type (days, times, listings), the status-bar line and importers of other programs' exports.
        .target(name: "HoorayCommandLine", dependencies: ["HoorayCalendar", "HoorayKit", "HoorayClient"]),

        // Hooray's version, hooray's own command words and shell quoting, in a module of their own that
        // needs nothing but the standard library: the `hooray` front door links it and the client only.
        .target(name: "HoorayBasics"),
        // Text a terminal or a person reads, for the host and for plugins: text made safe to print,
        // widths in display cells, the limits of names and texts, name suggestions, the crisis note.
        // Standard library only.
        .target(name: "HoorayText"),
        // Days without a clock, times of day, weekdays and streaks: Foundation alone.
        .target(name: "HoorayCalendar"),

        // The client of hoorayd's control socket, for the `hooray` front door, `hooray-cli`, the tests
        // and the desktop app: the wire's types and its one JSON path, connecting with deadlines and
        // the peer's check, following answers and waiting for a daemon (inotify, through CLinux), the
        // path rules. No Foundation (FoundationEssentials only, no ICU).
        .target(name: "HoorayClient", dependencies: ["HoorayBasics", "CLinux"]),

        // The host's own threads, named for system tools; no plugin's business. Its C half is
        // hoorayd's executor for Swift concurrency and the signal relay, which keep hoorayd off
        // Dispatch's worker pool (and its 1 Hz monitor) while it waits.
        .target(name: "CHoorayThreads"),
        .target(name: "HoorayThreads", dependencies: ["CHoorayThreads"]),

        // The engine, split by concern.
        .target(
            name: "HoorayScheduling",
            dependencies: [
                "HoorayCalendar", "HoorayKit", .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        .target(
            name: "HoorayStorage",
            dependencies: [
                "HoorayCalendar",
                "HoorayKit", "HoorayBasics", "HoorayClient", "HooraySync",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's own calls, for binding many rows without a copy of each value.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "HoorayDelivery",
            dependencies: [
                "HoorayText",
                "HoorayKit", "HoorayClient", "HoorayThreads", "CLibNotify",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "HoorayConfig",
            dependencies: ["HoorayCalendar", "HoorayText", "HoorayKit", "HoorayTOML", "CDeflate", "CLinux"]
        ),
        // Hooray's own TOML reader: a lossless syntax tree, every mistake with its place, edits that
        // keep the file. Needs nothing but the standard library.
        .target(name: "HoorayTOML"),
        // Plugins' command lines: the tree of their words, parsing and help, and the free-text guard.
        .target(
            name: "HoorayCommands",
            dependencies: [
                "HoorayCommandLine", "HoorayText", "HoorayKit", "HoorayConfig", "HoorayBasics", "HoorayClient",
            ]),
        // The anonymous identity (a file or the keyring) and the AI praise that asks for it when needed.
        .target(
            name: "HoorayIdentity",
            dependencies: [
                "HoorayKit", "HoorayConfig", "HoorayKeyring", "HoorayStorage", "HoorayAI", "HoorayClient",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What the desktop's launchers offer for the words typed (GNOME Shell, KRunner, `hooray menu`)
        // and the command each offer runs: one reading of the words for every launcher.
        .target(name: "HoorayLauncher", dependencies: ["HoorayClient"]),
        // hoorayd on the session bus for the launchers: GNOME Shell's search provider and KRunner's
        // runner, through GDBus (GLib's, which libnotify brings).
        // Sync between a user's computers through a folder: the hybrid clock, the changes and how
        // they merge, the same on every device whatever order they come in (docs/sync.md). No
        // cryptography: the database records changes with it.
        .target(name: "HooraySync", dependencies: ["HoorayCalendar", "HoorayClient"]),
        // The sync folder: sealed segments, the key and its pairing phrase (docs/sync.md). Only the
        // sync's own work links it, and with it swift-crypto.
        .target(
            name: "HooraySyncFolder",
            dependencies: ["HooraySync", "HoorayClient", .product(name: "Crypto", package: "swift-crypto")]),
        .target(
            name: "HoorayDesktopBus",
            dependencies: [
                "HoorayClient", "HoorayLauncher", "HoorayThreads", "CLibNotify",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // hoorayd's wiring: the daemon's run, its control server, lock, log and status bar feed.
        // Linked by hoorayd only.
        .target(
            name: "HoorayDaemon",
            dependencies: [
                "HoorayCommandLine",
                "HoorayText",
                "HoorayEngine", "HoorayAI", "HoorayClient", "HoorayCommands", "HoorayConfig", "HoorayExternalPlugins",
                "HoorayIdentity", "HoorayKeyring", "HoorayKit", "HoorayStorage", "HoorayThreads", "CLinux",
                "HoorayDelivery", "HoorayDesktopBus", "HoorayLauncher", "HooraySync", "HooraySyncFolder", "HoorayTOML",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The command line's side: a session reading the configuration and the database, and plugin
        // commands run in `hooray` itself while hoorayd is stopped. Linked by hooray-cli only.
        .target(
            name: "HoorayCLIHost",
            dependencies: [
                "HoorayCommandLine",
                "HoorayText",
                "HoorayEngine", "HoorayAI", "HoorayClient", "HoorayConfig", "HoorayDelivery", "HoorayExternalPlugins",
                "HoorayIdentity", "HoorayKit", "HoorayStorage", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `hooray plugins test`: a plugin in another language put through its paces on a real engine.
        .target(
            name: "HoorayConformance",
            dependencies: [
                "HoorayCommandLine",
                "HoorayEngine", "HoorayClient", "HoorayDelivery", "HoorayExternalPlugins", "HoorayKit",
                "HoorayScheduling", "HoorayStorage", "HoorayThreads", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `hooray export` and `hooray import`: the export document, its CSV files, and import errors.
        .target(
            name: "HoorayTransfer",
            dependencies: ["HoorayCalendar", "HoorayText", "HoorayKit", "HoorayStorage", "HoorayBasics"]),
        // Plugins in another language: finding them, reading plugin.toml, their permissions, the
        // sandbox, and the supervisor that runs each program and speaks JSON-RPC with it.
        .target(
            name: "HoorayExternalPlugins",
            dependencies: [
                "HoorayCommandLine",
                "HoorayCalendar",
                "HoorayText",
                "HoorayKit", "HoorayConfig", "HoorayStorage", "HoorayThreads", "HoorayCommands", "HoorayClient",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "HoorayEngine",
            dependencies: [
                "HoorayCommandLine",
                "HoorayCalendar",
                "HoorayExternalPlugins", "HoorayIdentity", "HoorayCommands", "HoorayKit", "HoorayScheduling",
                "HoorayStorage", "HooraySync",
                "HoorayDelivery", "HoorayConfig",
                "HoorayAI",
                "HoorayMessages", "HoorayKeyring", "HoorayThreads", "CLinux", "HoorayBasics",
                "HoorayClient",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),

        // Message pools (praise, phrases) from Config/pools, compiled in.
        .target(
            name: "HoorayMessages",
            path: "Config",
            exclude: ["hooray.toml"],
            sources: ["MessagePools.swift"],
            resources: [
                .embedInCode("pools/wins-praise.txt"),
                .embedInCode("pools/home-phrases.txt"),
                .embedInCode("pools/journey-summaries.txt"),
                .embedInCode("pools/celebrations.txt"),
                .embedInCode("pools/swaps-inspiration.txt"),
                .embedInCode("pools/coach-replies.txt"),
                .embedInCode("coach-prompt.txt"),
            ]
        ),

        // The Python SDK and the scaffolds of `hooray plugin new`, compiled in from sdk/.
        .target(
            name: "HooraySDK",
            path: "sdk",
            exclude: ["python/test_hooray_plugin.py", "python/test_examples.py"] + sdkBytecode,
            sources: ["swift"],
            resources: [
                .embedInCode("python/hooray_plugin.py"),
                .embedInCode("templates/python-plugin.toml"),
                .embedInCode("templates/python-program.py"),
                .embedInCode("templates/python-README.md"),
                .embedInCode("templates/sh-plugin.toml"),
                .embedInCode("templates/sh-program.sh"),
                .embedInCode("templates/sh-README.md"),
            ]
        ),

        // The list of built-in plugins the executables load.
        .target(
            name: "BuiltInPlugins",
            dependencies: ["HoorayKit"] + pluginFolders.map { .target(name: $0 + "Plugin") },
            path: "Plugins/BuiltIn",
            exclude: ["Terminal"]),
        // The list of built-in plugins' commands that `hooray` runs on the terminal.
        .target(
            name: "BuiltInTerminal",
            dependencies: terminalFolders.map { .target(name: $0 + "Terminal") }
                + [.product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Plugins/BuiltIn/Terminal"),
        // What `hooray`'s commands share with the plugins' terminal commands: the global options,
        // warnings, the user's paths, the plugin catalog, the guides' player, configuration edits.
        .target(
            name: "HoorayTerminal",
            dependencies: [
                "BuiltInPlugins", "HoorayAI", "HoorayBasics", "HoorayCLIHost", "HoorayClient", "HoorayCommandLine",
                "HoorayCommands", "HoorayConfig", "HoorayEngine", "HoorayExternalPlugins", "HoorayKit", "HoorayText",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // AI praise over libcurl: providers, configuration, retry timing.
        .target(
            name: "HoorayAI",
            dependencies: [
                "HoorayCalendar",
                "HoorayKit", "HoorayKeyring", "HoorayThreads", "CCurl", .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // Secrets in the desktop's keyring (Secret Service, libsecret), off the caller's thread.
        .target(name: "HoorayKeyring", dependencies: ["HoorayKit", "CLibSecret", "CGio"]),

        // The desktop app's Swift layer over GTK 4: objects, signals as closures, GTK's main loop
        // serving the main actor.
        .target(name: "HoorayGtk", dependencies: ["CGtk"]),

        // Plugin authors' fakes, on HoorayKit alone, as swift-log's InMemoryLogging is on Logging: a
        // manual clock, in-memory reminders, notices and storage, and a harness that wires them.
        .target(
            name: "HoorayKitTesting",
            dependencies: ["HoorayKit", .product(name: "Logging", package: "swift-log")]),
        // `PluginWorld` beside them: a plugin on the real engine with a manual clock; and the fuzzing
        // inputs of our own tests.
        .target(
            name: "HoorayTesting",
            dependencies: [
                "HoorayCommandLine",
                "HoorayKit", "HoorayKitTesting", "HoorayEngine", "HoorayStorage", "HoorayDelivery", "HoorayCommands",
                "HoorayClient", .product(name: "Logging", package: "swift-log"),
            ]),

        // The executables, kept thin. `hooray` is the front door users run: no Foundation, no library
        // of ours but the version and the client; it hands a command line to the running hoorayd, or
        // runs the full program, `hooray-cli` (installed beside it or in ../libexec/hooray/), with the
        // same words.
        .executableTarget(
            name: "hoorayd",
            dependencies: [
                "HoorayDaemon", "HoorayEngine", "HoorayKit", "HoorayThreads", "BuiltInPlugins", "HoorayClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "hooray", dependencies: ["HoorayBasics", "HoorayClient"], path: "Sources/HoorayFrontDoor"),
        .executableTarget(
            name: "hooray-cli",
            dependencies: [
                "HoorayCommandLine",
                "HoorayCalendar", "HoorayText",
                "HoorayEngine", "HoorayKit", "HoorayStorage", "HoorayDelivery", "BuiltInPlugins", "HoorayConfig",
                "HoorayTOML", "HoorayAI", "HoorayKeyring", "HooraySDK", "CLinux", "HoorayCommands", "HoorayTransfer",
                "HoorayClient", "HoorayExternalPlugins", "HoorayConformance", "HoorayIdentity", "HoorayCLIHost",
                "HoorayLauncher", "HoorayMessages", "HoorayTerminal", "BuiltInTerminal",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            path: "Sources/hooray"
        ),

        // The sandbox's own small program, in C: hoorayd starts it around each plugin in another
        // language, outside bubblewrap (to die with hoorayd) and inside (limits, Landlock).
        // It needs nothing of Swift's, but SwiftPM links every executable with the Swift runtime: linked
        // in statically, it runs inside the sandbox, where only /usr is, from any build folder.
        .executableTarget(
            name: "hooray-sandbox", path: "Sources/hooray-sandbox", linkerSettings: [.unsafeFlags(["-static-stdlib"])]),

        // The desktop app: GTK through HoorayGtk, hoorayd through DaemonLink alone.
        .executableTarget(
            name: "hooray-app",
            dependencies: [
                "HoorayCommandLine",
                "HoorayCalendar", "HoorayText", "HoorayGtk", "HoorayClient", "HoorayKit", "HoorayBasics",
                "HoorayMessages",
            ],
            path: "Sources/hooray-app"
        ),

        // Real session bus and notification server for tests that drive libnotify and the binaries.
        .target(
            name: "HooraySystemTesting",
            dependencies: ["HoorayKit"],
            path: "Tests/SystemTesting",
            exclude: ["notification_server.py", "ai_server.py"]
        ),

        .testTarget(
            name: "HoorayKitTests",
            dependencies: [
                "HoorayCommandLine", "HoorayCalendar", "HoorayText", "HoorayKit", "HoorayKitTesting", "HoorayTesting",
            ]),
        .testTarget(
            name: "HoorayClientTests",
            dependencies: ["HoorayCommandLine", "HoorayClient", "HoorayBasics", "HooraySystemTesting"]),
        .testTarget(name: "HoorayCalendarTests", dependencies: ["HoorayCalendar"]),
        .testTarget(name: "HoorayLauncherTests", dependencies: ["HoorayLauncher", "HoorayClient"]),
        .testTarget(
            name: "HooraySyncTests",
            dependencies: ["HoorayTesting", "HooraySync", "HooraySyncFolder", "HoorayCalendar", "HoorayClient"]),
        .testTarget(
            name: "HooraySchedulingTests",
            dependencies: ["HoorayTesting", "HoorayCalendar", "HoorayScheduling", "HoorayKit"]),
        .testTarget(name: "HoorayThreadsTests", dependencies: ["HoorayThreads"]),
        .testTarget(
            name: "HoorayCelebrationsTests", dependencies: ["HoorayKit", "HoorayKitTesting"]),
        .testTarget(
            name: "HoorayConfigTests",
            dependencies: [
                "HoorayCalendar",
                "HoorayText",
                "HoorayConfig", "HoorayKit", "HoorayAI", "RemindersPlugin", "WinsPlugin", "RecoveryPlugin",
                "SwapsPlugin", "HoorayTesting",
            ]),
        .testTarget(name: "HoorayTOMLTests", dependencies: ["HoorayTOML", "HoorayTesting"]),
        .testTarget(
            name: "HoorayStorageTests",
            dependencies: [
                "HoorayCalendar", "HoorayStorage", "HoorayKit", "HoorayClient", "HooraySync",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(
            name: "HoorayDeliveryTests",
            dependencies: [
                "HoorayDelivery", "HoorayKit", "HooraySystemTesting", .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "HoorayEngineTests",
            dependencies: [
                "HoorayCommandLine",
                "HoorayCalendar",
                "HoorayEngine", "HoorayKit", "HoorayScheduling", "HoorayStorage", "HoorayDelivery", "HoorayTesting",
                "HoorayKitTesting",
                "HoorayClient",
                "HoorayMessages", "HoorayConfig", "HooraySDK", "HooraySystemTesting", "RemindersPlugin", "WinsPlugin",
                "HabitsPlugin", "HoorayCommands", "HoorayExternalPlugins", "HoorayConformance", "HoorayIdentity",
                "HoorayDaemon", "HoorayCLIHost",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "HoorayCommandsTests", dependencies: ["HoorayCommandLine", "HoorayCommands", "HoorayKit"]),
        .testTarget(
            name: "HoorayTransferTests",
            dependencies: [
                "HoorayTesting",
                "HoorayCalendar", "HoorayTransfer", "HoorayKit", "HoorayStorage", "HooraySync", "HoorayClient",
                "WinsPlugin",
            ]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["HoorayCalendar", "HoorayText", "HooraySystemTesting", "HoorayKit", "HoorayTesting"]),
        .testTarget(
            name: "HoorayAITests",
            dependencies: [
                "HoorayTesting",
                "HoorayAI", "HoorayKit", "HoorayConfig", "HoorayKeyring", "HooraySystemTesting",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(name: "HoorayKeyringTests", dependencies: ["HoorayKeyring", "CGio", "HooraySystemTesting"]),
        // The GTK layer's checks, each run in a process of its own by HoorayGtkTests under Xvfb.
        .executableTarget(name: "hooray-gtk-check", dependencies: ["HoorayGtk", "CGtk"], path: "Tests/GtkCheck"),
        .testTarget(name: "HoorayGtkTests", dependencies: ["HooraySystemTesting"]),
        // Every link in the Markdown files resolves, and every `hooray` command they show parses.
        .testTarget(name: "DocsTests", dependencies: ["HooraySystemTesting"]),
    ] + pluginTargets + terminalTargets + pluginTestTargets
)
