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

    /// The fonts folder: `$TEXTKITLITE_FONTS`, else fonts/ at the root of the source tree
    /// this library was built from.
    public static var directory: String { sourceTreePath("fonts", unless: environmentVariable) }

    /// A file shipped with the repository: the path in environment variable `variable` when
    /// set, else `relativePath` under the root of the source tree this library was built from.
    package static func sourceTreePath(_ relativePath: String, unless variable: String) -> String {
        if let override = ProcessInfo.processInfo.environment[variable], !override.isEmpty {
            return override
        }
        // #filePath = <root>/Sources/TextKitLite/Font/BundledFonts.swift
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.appendingPathComponent(relativePath).path
    }

    /// The path of a bundled font file.
    public static func path(_ file: String) -> String { (directory as NSString).appendingPathComponent(file) }

    /// The default fallback chain: sans (with Arabic and Hebrew, and its bold face for bold
    /// runs), CJK, emoji.
    ///
    /// - Throws: `FontError` naming the missing or broken file.
    public static func chain() throws(FontError) -> FontFallbackChain {
        try FontFallbackChain.load(specs: [path(sans), path(sansBold), path(cjk), path(emoji)])
    }
}
