// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "hooray",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "HoorayKit", targets: ["HoorayKit"]),
        .library(name: "HoorayTesting", targets: ["HoorayTesting"]),
        .executable(name: "hoorayd", targets: ["hoorayd"]),
        .executable(name: "hooray", targets: ["hooray"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // C libraries of the system.
        .systemLibrary(
            name: "CLibNotify",
            pkgConfig: "libnotify",
            providers: [.apt(["libnotify-dev"])]
        ),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),

        .systemLibrary(
            name: "CLibSecret",
            pkgConfig: "libsecret-1",
            providers: [.apt(["libsecret-1-dev"])]
        ),

        // Linux interfaces Glibc's module leaves out (timerfd, eventfd).
        .systemLibrary(name: "CLinux"),

        // The plugin author API. Depends on nothing of ours.
        .target(
            name: "HoorayKit",
            dependencies: [.product(name: "Logging", package: "swift-log")]
        ),

        // The engine, split by concern.
        .target(name: "HoorayScheduling", dependencies: ["HoorayKit"]),
        .target(
            name: "HoorayStorage",
            dependencies: ["HoorayKit", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .target(
            name: "HoorayDelivery",
            dependencies: ["HoorayKit", "CLibNotify", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "HoorayConfig",
            dependencies: ["HoorayKit", .product(name: "TOMLKit", package: "TOMLKit")]
        ),
        .target(
            name: "HoorayEngine",
            dependencies: [
                "HoorayKit", "HoorayScheduling", "HoorayStorage", "HoorayDelivery", "HoorayConfig", "HoorayAI",
                "HoorayMessages", "HoorayKeyring", "CLinux",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
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
            ]
        ),

        // Built-in plugins: HoorayKit (and the message pools) only.
        .target(name: "RemindersPlugin", dependencies: ["HoorayKit"], path: "Plugins/Reminders"),
        .target(name: "WinsPlugin", dependencies: ["HoorayKit", "HoorayMessages"], path: "Plugins/Wins"),
        .target(name: "HabitsPlugin", dependencies: ["HoorayKit"], path: "Plugins/Habits"),
        // The list of built-in plugins the executables load.
        .target(
            name: "BuiltInPlugins", dependencies: ["HoorayKit", "RemindersPlugin", "WinsPlugin", "HabitsPlugin"],
            path: "Plugins/BuiltIn"),

        // AI praise over libcurl: providers, configuration, retry timing.
        .target(
            name: "HoorayAI",
            dependencies: ["HoorayKit", "HoorayKeyring", "CCurl", .product(name: "Logging", package: "swift-log")]
        ),

        // Secrets in the desktop's keyring (Secret Service, libsecret), off the caller's thread.
        .target(name: "HoorayKeyring", dependencies: ["HoorayKit", "CLibSecret"]),

        // Fakes for tests, ours and plugin authors'.
        .target(name: "HoorayTesting", dependencies: ["HoorayKit"]),

        // The two executables, kept thin.
        .executableTarget(
            name: "hoorayd",
            dependencies: [
                "HoorayEngine", "BuiltInPlugins",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "hooray",
            dependencies: [
                "HoorayEngine", "HoorayDelivery", "BuiltInPlugins", "WinsPlugin", "HabitsPlugin", "HoorayMessages",
                "HoorayAI", "HoorayKeyring", "CLinux",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Real session bus and notification server for tests that drive libnotify and the binaries.
        .target(
            name: "HooraySystemTesting",
            dependencies: ["HoorayKit"],
            path: "Tests/SystemTesting",
            exclude: ["notification_server.py", "ai_server.py"]
        ),

        .testTarget(name: "HoorayKitTests", dependencies: ["HoorayKit", "HoorayTesting"]),
        .testTarget(name: "HooraySchedulingTests", dependencies: ["HoorayScheduling"]),
        .testTarget(
            name: "HoorayConfigTests",
            dependencies: ["HoorayConfig", "HoorayAI", "RemindersPlugin", "WinsPlugin", "HoorayTesting"]),
        .testTarget(name: "HoorayStorageTests", dependencies: ["HoorayStorage"]),
        .testTarget(name: "HoorayDeliveryTests", dependencies: ["HoorayDelivery", "HooraySystemTesting"]),
        .testTarget(
            name: "HoorayEngineTests",
            dependencies: [
                "HoorayEngine", "HoorayScheduling", "HoorayStorage", "HoorayDelivery", "HoorayTesting",
                "HoorayMessages", "HoorayConfig", "RemindersPlugin", "WinsPlugin", "HabitsPlugin",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "RemindersPluginTests", dependencies: ["RemindersPlugin", "HoorayTesting"]),
        .testTarget(name: "WinsPluginTests", dependencies: ["WinsPlugin", "HoorayMessages", "HoorayTesting"]),
        .testTarget(name: "HabitsPluginTests", dependencies: ["HabitsPlugin", "HoorayTesting"]),
        .testTarget(name: "EndToEndTests", dependencies: ["HooraySystemTesting", "HoorayTesting"]),
        .testTarget(name: "HoorayAITests", dependencies: ["HoorayAI", "HoorayKeyring", "HooraySystemTesting"]),
        .testTarget(name: "HoorayKeyringTests", dependencies: ["HoorayKeyring", "HooraySystemTesting"]),
    ]
)
