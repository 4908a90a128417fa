import SampleFeed
import TextKitLite
import TextKitLiteFeed

/// The benchmark feed and the engines that lay it out.
///
/// Every workload uses the same deterministic feed: the first 2,000 posts of
/// `SampleFeed` with seed 1 (Chinese, English, mixed with emoji, Arabic, Hebrew, long
/// multi-paragraph posts, quotes and image grids), laid out as feed cells at 375 pt, 2×.
public enum Feed {
    public static let count = 2_000
    public static let seed: UInt64 = 1
    /// Cell width in points (an iPhone's portrait width).
    public static let width = 375.0
    /// The width of the relayout benchmark (a narrower phone).
    public static let narrowWidth = 320.0
    /// Pixels per point.
    public static let scale = 2.0

    /// The posts, generated once per process.
    public static let posts: [FeedPost] = Array(SampleFeed.posts(count: count, seed: seed))

    /// The bundled fallback chain (DejaVu Sans, Noto Sans SC subset, Noto Color Emoji),
    /// loaded once: font loading is not part of any figure.
    public static let fonts: FontFallbackChain = {
        do { return try BundledFonts.chain() } catch { fatalError("bundled fonts: \(error)") }
    }()

    /// The paths of the bundled font files, in chain order.
    public static var fontPaths: [String] { fonts.fonts.map(\.path) }

    /// An engine over the bundled fonts with an empty shaped-word cache.
    public static func coldEngine() -> TextEngine { TextEngine(fonts: fonts, shapeCache: ShapeCache()) }

    /// A precomputer with empty caches of its own (shaped texts, heights) over `engine`.
    public static func precomputer(_ engine: TextEngine) -> FeedPrecomputer {
        FeedPrecomputer(engine: engine, heightCache: HeightCache())
    }

    /// A 140-character post (grapheme clusters) mixing Chinese, English and emoji
    /// (a ZWJ sequence, a skin tone, a flag), as one text at 16 pt.
    public static let mixedPost: String = {
        let source = "今天和朋友去了 Swift meetup 🎉，学到很多关于 async/await 的新东西！"
            + "Layout engines are fun 😄 明天继续写代码 👩‍💻👍🏽 周末去上海 🇨🇳 看展览，"
            + "then coffee ☕️ with the team. 大家晚安 🌙 #swift #textkit"
        var text = ""
        var count = 0
        while count < 140 {
            for character in source where count < 140 {
                text.append(character)
                count += 1
            }
        }
        precondition(text.count == 140)
        return text
    }()

    /// Style of the single mixed post (the feed body size).
    public static let mixedPostStyle = TextStyle(size: 16)
}
