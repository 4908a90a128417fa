import Foundation

/// The fonts shipped in the repository's fonts/ folder, used by default and by the tests.
public enum BundledFonts {
    /// Latin, Greek, Cyrillic, Arabic and Hebrew (DejaVu Sans, Bitstream Vera license).
    public static let sans = "DejaVuSans.ttf"
    /// Bold companion of `sans`.
    public static let sansBold = "DejaVuSans-Bold.ttf"
    /// Simplified Chinese: GB 2312 hanzi, kana and CJK punctuation (Noto Sans CJK SC subset, OFL).
    public static let cjk = "NotoSansSC-Subset.otf"
    /// Emoji (Noto Color Emoji, OFL), drawn in gray.
    public static let emoji = "NotoColorEmoji.ttf"

    /// Environment variable naming the fonts folder, overriding the default location.
    public static let environmentVariable = "TEXTKITLITE_FONTS"

    /// The fonts folder: `$TEXTKITLITE_FONTS`, else the first of `shippedRoots` holding a
    /// fonts/ folder.
    public static var directory: String { shippedPath("fonts", unless: environmentVariable) }

    /// Where files shipped with the library are looked for, in order: `share/textkitlite`
    /// beside the running executable's folder (the layout `scripts/install.sh` makes:
    /// PREFIX/bin/textrender, PREFIX/share/textkitlite/fonts), then the root of the source
    /// tree this library was built from.
    public static let shippedRoots: [String] = {
        var roots: [String] = []
        // /proc/self/exe: the executable itself, wherever it was moved or linked from.
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let bin = URL(fileURLWithPath: executable).deletingLastPathComponent()
            roots.append(bin.deletingLastPathComponent().appendingPathComponent("share/textkitlite").path)
        }
        // #filePath = <root>/Sources/TextKitLite/Font/BundledFonts.swift
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        roots.append(url.path)
        return roots
    }()

    /// A file or folder shipped with the library: the path in environment variable
    /// `variable` when set, else `relativePath` under the first of `shippedRoots` that has
    /// it (under the last when none has: the path an error then names).
    package static func shippedPath(_ relativePath: String, unless variable: String) -> String {
        if let override = ProcessInfo.processInfo.environment[variable], !override.isEmpty {
            return override
        }
        let candidates = shippedRoots.map { ($0 as NSString).appendingPathComponent(relativePath) }
        return candidates.first { FileManager.default.fileExists(atPath: $0) } ?? candidates[candidates.count - 1]
    }

    /// The path of a bundled font file.
    public static func path(_ file: String) -> String { (directory as NSString).appendingPathComponent(file) }

    /// The bundled fonts' specifications, in chain order.
    public static var specs: [String] { [path(sans), path(sansBold), path(cjk), path(emoji)] }

    /// The default fallback chain: sans (with Arabic and Hebrew, and its bold face for bold
    /// runs), CJK, emoji; after the fonts of `specs` ("PATH" or "PATH#INDEX") when given.
    ///
    /// - Throws: `FontError` naming the missing or broken file; a missing bundled one with
    ///   `.bundledFontNotFound`, whose message names `TEXTKITLITE_FONTS`.
    public static func chain(after specs: [String] = []) throws(FontError) -> FontFallbackChain {
        let bundled = Self.specs
        do {
            return try FontFallbackChain.load(specs: specs + bundled)
        } catch where error.reason == .notFound && bundled.contains(error.path) {
            throw FontError(path: error.path, reason: .bundledFontNotFound)
        }
    }
}
