// swift-tools-version: 6.1
// Fuzzing and memory tools for TextKitLite, in their own package so that users of the
// library never build them. See ../scripts/fuzz.sh and ../scripts/memory.sh.
//
//   swift build -c release --scratch-path .build/fuzzer --product LayoutFuzzer \
//       -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing -Xswiftc -use-ld=lld
//   (what scripts/fuzz.sh does, or --product FontFuzzer for `scripts/fuzz.sh --fonts`;
//   lld because gold warns about an ASan symbol)
//   swift build -c release --product FeedGenerator
import PackageDescription

// A path dependency's identity is its folder's name: whatever the clone is called.
let library = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "main")

let package = Package(
    name: "TextKitLiteFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../"),
    ],
    targets: [
        // The declaration of libFuzzer's driver (LLVMFuzzerRunDriver).
        .target(name: "CLibFuzzer"),
        // What the libFuzzer targets share: the driver glue and the invariants of a layout
        // and its rendering that hold for any text, options and fonts.
        .target(
            name: "FuzzSupport",
            dependencies: ["CLibFuzzer", .product(name: "TextKitLite", package: library)],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // libFuzzer target: random bytes as text and options through layout and rendering,
        // with invariants checked on every result (see LayoutFuzzer.swift).
        .executableTarget(
            name: "LayoutFuzzer",
            dependencies: [
                "FuzzSupport",
                .product(name: "TextKitLite", package: library),
                .product(name: "TextKitLiteFeed", package: library),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // libFuzzer target: bundled fonts damaged table by table (cut, zeroed, flipped,
        // moved), loaded and used to shape, lay out, measure and draw (see FontFuzzer.swift).
        .executableTarget(
            name: "FontFuzzer",
            dependencies: ["FuzzSupport", .product(name: "TextKitLite", package: library)],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // Writes SampleFeed posts as JSON Lines, for scripts/memory.sh.
        .executableTarget(
            name: "FeedGenerator",
            dependencies: [.product(name: "SampleFeed", package: library)],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
