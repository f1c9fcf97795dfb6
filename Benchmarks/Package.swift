// swift-tools-version: 6.1
// Micro-benchmarks and reference programs for `make bench` (see BENCHMARKS.md and scripts/bench/README.md).
// A package of its own, so that package-benchmark and its dependencies stay out of the product's build.
import PackageDescription

let package = Package(
    name: "hooray-benchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "hooray", path: ".."),
        // The malloc interposer backs the malloc metrics on Swift 6.3 and needs no system library;
        // naming the trait leaves out the Swift 6.3 runtime interposer, which is not mirrored here.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    ],
    targets: [
        // HoorayScheduling is not a product of the hooray package, so its sources (a symbolic link to
        // ../Sources/HoorayScheduling) are compiled here as a module of their own, unchanged.
        .target(
            name: "SchedulingUnderTest",
            dependencies: [
                .product(name: "HoorayCalendar", package: "hooray"), .product(name: "HoorayKit", package: "hooray"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ],
            path: "Sources/SchedulingUnderTest"
        ),
        // package-benchmark finds benchmark targets in the Benchmarks/ folder of this package.
        .executableTarget(
            name: "NextDueBenchmarks",
            dependencies: [
                "SchedulingUnderTest",
                .product(name: "HoorayCalendar", package: "hooray"), .product(name: "HoorayKit", package: "hooray"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/NextDueBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Reference processes for the idle and memory figures: a static Swift program that does
        // (almost) nothing, built the way hoorayd is.
        .executableTarget(name: "IdleReference", path: "Sources/IdleReference"),
        // The memory figure's floor, beside IdleReference's `foundation` mode: the same kind of
        // program with FoundationEssentials alone (no ICU), and with no Foundation at all.
        .executableTarget(name: "EssentialsReference", path: "Sources/EssentialsReference"),
        .executableTarget(name: "PlainReference", path: "Sources/PlainReference"),
    ]
)
