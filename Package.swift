// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "TextKitLite",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TextKitLite", targets: ["TextKitLite"]),
        .library(name: "TextKitLiteFeed", targets: ["TextKitLiteFeed"]),
        .library(name: "TextKitLiteMedia", targets: ["TextKitLiteMedia"]),
        .library(name: "SampleFeed", targets: ["SampleFeed"]),
        .library(name: "TextKitLiteFrontEnd", targets: ["TextKitLiteFrontEnd"]),
        .executable(name: "textrender", targets: ["textrender"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        // Documentation only: `swift package generate-documentation` (scripts/docs.sh).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CHarfBuzz", pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(
            name: "CFreetype", pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(
            name: "CFontconfig", pkgConfig: "fontconfig",
            providers: [.apt(["libfontconfig-dev"])]),
        // libhyphen: Debian's libhyphen-dev has no pkg-config file, so no `pkgConfig:`; the
        // module map links `hyphen` itself.
        .systemLibrary(
            name: "CHyphen",
            providers: [.apt(["libhyphen-dev"])]),
        .target(
            name: "CUnicode",
            linkerSettings: [.linkedLibrary("icuuc")]),
        // Blending kernels compiled per instruction set (see Sources/CBlend/include/CBlend.h).
        .target(name: "CBlend"),
        // ICU's formatters (libicui18n) for the feed layer's labels: relative times and dates.
        .target(
            name: "CFeedFormat",
            linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc")]),
        // libpng through pkg-config, and a C target that makes every libpng call: libpng
        // reports errors by longjmp, which must not cross Swift frames, and a system-library
        // target cannot hold the C code that catches it.
        .systemLibrary(
            name: "CLibPNG", path: "Sources/CPNG/libpng", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]),
        .target(
            name: "CPNG",
            dependencies: ["CLibPNG"],
            exclude: ["libpng"]),
        // libjpeg (libjpeg-turbo) the same way, for TextKitLiteMedia only: the core library
        // does not link it.
        .systemLibrary(
            name: "CLibJPEG", path: "Sources/CJPEG/libjpeg", pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"])]),
        .target(
            name: "CJPEG",
            dependencies: ["CLibJPEG"],
            exclude: ["libjpeg"]),
        .target(
            name: "TextKitLite",
            dependencies: ["CHarfBuzz", "CFreetype", "CFontconfig", "CUnicode", "CPNG", "CBlend", "CHyphen", .product(name: "DequeModule", package: "swift-collections")],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // The feed layer, built on the core (which never imports it): posts, cell spec,
        // precomputer, height cache, cell renderer.
        .target(
            name: "TextKitLiteFeed",
            dependencies: ["TextKitLite", "TextKitLiteMedia", "CFeedFormat"],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // Pictures for feed cells: PNG and JPEG files decoded with their color and EXIF
        // orientation, scaled, aspect-filled, masked and cached. Its own target so that the
        // core does not link libjpeg.
        .target(
            name: "TextKitLiteMedia",
            dependencies: ["TextKitLite", "CJPEG"],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // Synthetic feed posts for tests, benchmarks and the memory check; not for apps.
        .target(
            name: "SampleFeed",
            dependencies: ["TextKitLiteFeed"],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // What the front ends (`textrender`, the HTTP service in Service/) share and an app
        // does not need: the rules and settings of their options, the fonts they select, and
        // atomic file output. The library modules never import it.
        .target(
            name: "TextKitLiteFrontEnd",
            dependencies: ["TextKitLite", "TextKitLiteFeed"],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .executableTarget(
            name: "textrender",
            dependencies: [
                "TextKitLite",
                "TextKitLiteFeed",
                "TextKitLiteMedia",
                "TextKitLiteFrontEnd",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(
            name: "TextKitLiteTests",
            dependencies: ["TextKitLite", "TextKitLiteFeed", "TextKitLiteMedia", "TextKitLiteFrontEnd", "SampleFeed", "CBlend"],
            resources: [.copy("Snapshots"), .copy("Fixtures")],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // The documentation articles' code (the .docc catalogs), run against the public API
        // only: every Swift block of an article must appear in these tests as it is shown.
        .testTarget(
            name: "DocumentationTests",
            dependencies: ["TextKitLite", "TextKitLiteFeed"],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
