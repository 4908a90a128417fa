// swift-tools-version: 6.1
import PackageDescription

// The HTTP service: a package of its own, so that the library (the package at "..") pulls in
// no server dependency.
let package = Package(
    name: "TextKitLiteService",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "textrender-server", targets: ["textrender-server"]),
    ],
    dependencies: [
        .package(name: "TextKitLite", path: ".."),
        // No traits: swift-configuration support is not used.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.20.0"),
    ],
    targets: [
        // glibc's malloc_trim, to hand memory back after a large request.
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        // The service's routes, limits and settings, as a library for the tests.
        .target(
            name: "TextRenderService",
            dependencies: [
                "CMalloc",
                .product(name: "TextKitLite", package: "TextKitLite"),
                .product(name: "TextKitLiteFeed", package: "TextKitLite"),
                .product(name: "TextKitLiteFrontEnd", package: "TextKitLite"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .executableTarget(
            name: "textrender-server",
            dependencies: [
                "TextRenderService",
                .product(name: "TextKitLite", package: "TextKitLite"),
                .product(name: "TextKitLiteFrontEnd", package: "TextKitLite"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(
            name: "TextRenderServiceTests",
            dependencies: [
                "TextRenderService",
                .product(name: "TextKitLite", package: "TextKitLite"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
