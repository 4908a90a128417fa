// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "TextKitLite",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TextKitLite", targets: ["TextKitLite"]),
        .executable(name: "textrender", targets: ["textrender"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CHarfBuzz", pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(
            name: "CFreetype", pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"])]),
        .target(
            name: "CUnicode",
            linkerSettings: [.linkedLibrary("icuuc")]),
        .target(
            name: "TextKitLite",
            dependencies: ["CHarfBuzz", "CFreetype", "CUnicode"],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .executableTarget(
            name: "textrender",
            dependencies: [
                "TextKitLite",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(
            name: "TextKitLiteTests",
            dependencies: ["TextKitLite"],
            resources: [.copy("Snapshots"), .copy("Fixtures")],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
