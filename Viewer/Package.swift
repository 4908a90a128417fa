// swift-tools-version: 6.1
import PackageDescription

// The feed viewer: a package of its own, so that the library (the package at "..") pulls in
// no windowing dependency. SDL2 comes from Debian's libsdl2-dev (scripts/setup.sh --viewer).
let package = Package(
    name: "TextKitLiteViewer",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "feedview", targets: ["feedview"]),
    ],
    dependencies: [
        .package(name: "TextKitLite", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // Not through pkg-config: its "-D_REENTRANT" is a flag SwiftPM refuses (with a
        // warning); the shim includes <SDL2/SDL.h> from the system include path instead.
        .systemLibrary(name: "CSDL2"),
        // The engine on screen: scroll model, ranges, scheduler, texture store, frame
        // statistics, and the one file that calls SDL.
        .target(
            name: "FeedViewer",
            dependencies: [
                "CSDL2",
                .product(name: "TextKitLite", package: "TextKitLite"),
                .product(name: "TextKitLiteFeed", package: "TextKitLite"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .executableTarget(
            name: "feedview",
            dependencies: [
                "FeedViewer",
                .product(name: "TextKitLite", package: "TextKitLite"),
                .product(name: "TextKitLiteFeed", package: "TextKitLite"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(
            name: "FeedViewerTests",
            dependencies: [
                "FeedViewer",
                .product(name: "TextKitLite", package: "TextKitLite"),
                .product(name: "TextKitLiteFeed", package: "TextKitLite"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
