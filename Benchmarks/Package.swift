// swift-tools-version: 6.1
// Benchmarks for TextKitLite, in their own package so that users of the library never
// resolve the benchmark framework (as swift-nio does). See ../BENCHMARKS.md.
import PackageDescription

// A path dependency's identity is its folder's name: whatever the clone is called.
let library = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "main")

let package = Package(
    name: "TextKitLiteBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // Raw HarfBuzz, for the shaping floor: the library keeps its CHarfBuzz module internal.
        .systemLibrary(
            name: "CHarfBuzzBench", path: "Sources/CHarfBuzzBench", pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev"])]),
        // Pango + cairo, the peer PangoReport measures against (`scripts/setup.sh --bench`
        // installs them); a C target keeps GLib's headers out of Swift.
        .systemLibrary(
            name: "CPangoCairo", path: "Sources/CPangoCairo", pkgConfig: "pangocairo",
            providers: [.apt(["libpango1.0-dev", "libcairo2-dev"])]),
        .target(name: "PangoPeer", dependencies: ["CPangoCairo"],
                linkerSettings: [.linkedLibrary("pangoft2-1.0"), .linkedLibrary("fontconfig")]),
        // The workloads, shared by the benchmark suite and the one-shot report.
        .target(
            name: "FeedWorkloads",
            dependencies: [
                .product(name: "TextKitLite", package: library),
                .product(name: "TextKitLiteFeed", package: library),
                .product(name: "SampleFeed", package: library),
                "CHarfBuzzBench",
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // `swift package benchmark` (package-benchmark): regression tracking, baselines.
        .executableTarget(
            name: "FeedBenchmarks",
            dependencies: [
                "FeedWorkloads",
                .product(name: "TextKitLite", package: library),
                .product(name: "TextKitLiteFeed", package: library),
                .product(name: "SampleFeed", package: library),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/FeedBenchmarks",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        // One process, every figure and ratio of BENCHMARKS.md.
        .executableTarget(
            name: "FeedReport",
            dependencies: ["FeedWorkloads"],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // TextKitLite against Pango + cairo on the same posts and fonts (Benchmarks/pango.sh).
        .executableTarget(
            name: "PangoReport",
            dependencies: ["FeedWorkloads", "PangoPeer"],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // Cancellation latency of AsyncRenderer / DisplayTask (median and worst over trials).
        .executableTarget(
            name: "CancelLatency",
            dependencies: ["FeedWorkloads"],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
