import TextKitLite
import TextKitLiteFeed

/// Measuring the feed: the work a list does ahead of scrolling. Each function returns a
/// checksum (the sum of cell heights) so that the optimizer cannot drop the work.
public enum LayoutWorkloads {
    /// Lays out every post once through `precomputer` at `width`, 2×.
    ///
    /// - Returns: the sum of the cell heights.
    public static func layoutAll(_ posts: [FeedPost], with precomputer: FeedPrecomputer,
                                 width: Double = Feed.width) -> Double {
        sumOfHeights(posts, "layout") { try precomputer.layout($0, width: width, scale: Feed.scale).height }
    }

    /// Measures every post once through `precomputer` at `width` (`FeedPrecomputer.measure`:
    /// what `textrender measure` does per post).
    ///
    /// - Returns: the sum of the cell heights.
    public static func measureAll(_ posts: [FeedPost], with precomputer: FeedPrecomputer,
                                  width: Double = Feed.width) -> Double {
        sumOfHeights(posts, "measure") { try precomputer.measure($0, width: width).height }
    }

    /// The sum of `height` over the posts; a benchmark's feed is valid, so an error stops it.
    private static func sumOfHeights(_ posts: [FeedPost], _ what: String, _ height: (FeedPost) throws -> Double) -> Double {
        var total = 0.0
        for post in posts {
            do {
                total += try height(post)
            } catch {
                fatalError("\(what) of \(post.id): \(error)")
            }
        }
        return total
    }

    /// measureCold: a new engine (new shaped-word cache over the loaded fonts), a new
    /// precomputer, every post measured once (as `textrender measure`).
    public static func measureCold(_ posts: [FeedPost] = Feed.posts) -> Double {
        measureAll(posts, with: Feed.precomputer(Feed.coldEngine()))
    }

    /// measureWarmWords: the engine (and so its shaped-word cache) is reused, but the
    /// precomputer is new: every post is measured again; words are looked up in the
    /// engine's cache instead of shaped.
    public static func measureWarmWords(_ posts: [FeedPost] = Feed.posts, engine: TextEngine) -> Double {
        measureAll(posts, with: Feed.precomputer(engine))
    }

    /// cellLayoutCold: as measureCold, but every post laid out as a cell layout (frames,
    /// lines and glyph runs, ready to draw).
    public static func cellLayoutCold(_ posts: [FeedPost] = Feed.posts) -> Double {
        layoutAll(posts, with: Feed.precomputer(Feed.coldEngine()))
    }

    /// cellLayoutWarmWords: as measureWarmWords, with cell layouts.
    public static func cellLayoutWarmWords(_ posts: [FeedPost] = Feed.posts, engine: TextEngine) -> Double {
        layoutAll(posts, with: Feed.precomputer(engine))
    }

    /// An engine whose shaped-word cache holds every word of `posts`.
    public static func warmEngine(_ posts: [FeedPost] = Feed.posts) -> TextEngine {
        let engine = Feed.coldEngine()
        _ = layoutAll(posts, with: Feed.precomputer(engine))
        return engine
    }

    /// A precomputer that has laid out every post at `Feed.width` (its height cache is full).
    public static func laidOutPrecomputer(_ posts: [FeedPost] = Feed.posts, engine: TextEngine) -> FeedPrecomputer {
        let precomputer = Feed.precomputer(engine)
        _ = layoutAll(posts, with: precomputer)
        return precomputer
    }

    /// heightCacheHit: every post looked up again at the width it was laid out at. Each
    /// lookup hashes the post (id and content) and the key, and hits.
    public static func heightCacheHits(_ posts: [FeedPost] = Feed.posts, precomputer: FeedPrecomputer) -> Double {
        layoutAll(posts, with: precomputer)
    }

    /// relayoutNewWidth, the part that is measured: `precomputer` has laid the posts out at
    /// 375 pt; this lays them out at 320 pt (height-cache misses, shaped-text cache hits:
    /// lines are broken again, nothing is shaped).
    public static func relayoutNarrow(_ posts: [FeedPost] = Feed.posts, precomputer: FeedPrecomputer) -> Double {
        layoutAll(posts, with: precomputer, width: Feed.narrowWidth)
    }

    /// The widths of the several-widths benchmark (phones and a tablet, in points).
    public static let deviceWidths: [Double] = [320, Feed.width, 414, 768]

    /// measureWidths4: as measureWarmWords, every post measured at the four `deviceWidths`
    /// at once (`FeedPrecomputer.measure(_:widths:)`: each text block shaped once).
    ///
    /// - Returns: the sum of the cell heights.
    public static func measureDeviceWidths(_ posts: [FeedPost] = Feed.posts, engine: TextEngine) -> Double {
        let precomputer = Feed.precomputer(engine)
        return sumOfHeights(posts, "measure at \(deviceWidths)") {
            try precomputer.measure($0, widths: deviceWidths).reduce(0) { $0 + $1.height }
        }
    }

    /// Each post's body as a prepared text (`TextEngine.shape`), 16 pt.
    public static func preparedBodies(_ posts: [FeedPost] = Feed.posts, engine: TextEngine) -> [ShapedText] {
        posts.map { post in
            do {
                return try engine.shape(AttributedText(post.text, style: TextStyle(size: 16)))
            } catch {
                fatalError("shaping \(post.id): \(error)")
            }
        }
    }

    /// relayoutPrepared: every prepared text measured again at `width`
    /// (`TextEngine.measure(_:options:)` of a `ShapedText`: what a client does on rotation).
    ///
    /// - Returns: the sum of the heights.
    public static func relayoutPrepared(_ texts: [ShapedText], engine: TextEngine, width: Double = Feed.narrowWidth) -> Double {
        let options = LayoutOptions(width: width)
        var total = 0.0
        for text in texts {
            do {
                total += try engine.measure(text, options: options).height
            } catch {
                fatalError("relayout at \(width): \(error)")
            }
        }
        return total
    }

    /// Layout of the 140-character mixed post at 375 pt with `engine` (warm when reused,
    /// cold when new).
    ///
    /// - Returns: the layout's height.
    public static func layoutMixedPost(engine: TextEngine) -> Double {
        do {
            let text = AttributedText(Feed.mixedPost, style: Feed.mixedPostStyle)
            return try engine.layout(text, options: LayoutOptions(width: Feed.width)).size.height
        } catch {
            fatalError("layout of the mixed post: \(error)")
        }
    }
}
