import TextKitLite
import TextKitLiteFeed

/// Drawing precomputed cells, as a client does with layouts computed ahead of time.
public enum RenderWorkloads {
    /// The cell layouts of `posts` at `Feed.width`, 2×.
    public static func cells(_ posts: [FeedPost] = Feed.posts, engine: TextEngine) -> [CellLayout] {
        let precomputer = Feed.precomputer(engine)
        return posts.map { post in
            do { return try precomputer.layout(post, width: Feed.width, scale: Feed.scale) } catch {
                fatalError("layout of \(post.id): \(error)")
            }
        }
    }

    /// renderCell2x: draws every cell at 2× with `renderer`.
    ///
    /// - Returns: a checksum of the bitmaps (sum of one pixel per bitmap and the sizes).
    public static func renderAll(_ cells: [CellLayout], with renderer: CellRenderer) -> Int {
        var checksum = 0
        let options = RenderOptions(scale: Feed.scale)
        for cell in cells {
            do {
                guard let bitmap = try renderer.render(cell, options: options) else { fatalError("cancelled") }
                checksum &+= bitmap.width &+ bitmap.height &+ Int(bitmap.pixels[bitmap.pixels.count / 2])
            } catch {
                fatalError("render of \(cell.postID): \(error)")
            }
        }
        return checksum
    }

    /// A renderer over its own glyph cache, warmed by drawing `cells` once.
    public static func warmRenderer(_ cells: [CellLayout]) -> CellRenderer {
        let renderer = CellRenderer(textRenderer: TextRenderer(glyphCache: GlyphCache()))
        _ = renderAll(cells, with: renderer)
        return renderer
    }

    /// What a new glyph cache holds after drawing the feed once at 2×.
    public struct GlyphCacheFigures: Sendable {
        public var hitRate: Double
        public var lookups: Int
        public var rasterizations: Int
    }

    /// Draws `cells` once with a new glyph cache and reads its counters.
    public static func glyphCacheAfterFeed(_ cells: [CellLayout]) -> GlyphCacheFigures {
        let cache = GlyphCache()
        _ = renderAll(cells, with: CellRenderer(textRenderer: TextRenderer(glyphCache: cache)))
        let statistics = cache.statistics
        return GlyphCacheFigures(hitRate: statistics.hitRate, lookups: statistics.hits + statistics.misses,
                                 rasterizations: cache.rasterizationCount)
    }
}
