import Synchronization

/// Rasterized glyphs keyed by font, pixel size, glyph and subpixel phase: no glyph is
/// rasterized twice at the same size and phase while it stays cached. Thread-safe and
/// bounded by bytes.
public final class GlyphCache: Sendable {
    struct Key: Hashable, Sendable {
        var font: Int
        /// Pixel size in 1/64 pixel.
        var size: Int32
        var glyph: UInt32
        var phase: UInt8
    }

    /// Horizontal subpixel phases per pixel.
    static let phases = 4

    private let cache: BoundedCache<Key, GlyphImage>
    private let rasterizations = Atomic<Int>(0)

    /// The cache used by default by every renderer of the process.
    public static let shared = GlyphCache()

    /// - Parameters:
    ///   - maxBytes: most memory held by glyph masks.
    ///   - maxEntries: most glyph masks held.
    public init(maxBytes: Int = 64 << 20, maxEntries: Int = 100_000) {
        cache = BoundedCache(maxCount: maxEntries, maxCost: maxBytes, shards: 8)
    }

    /// The mask of a glyph, rasterized on first use.
    func image(font: Font, glyph: UInt32, pixelSize: Double, phase: Int) -> GlyphImage {
        let key = Key(font: font.id, size: Int32(clamping: Int((pixelSize * 64).rounded())), glyph: glyph,
                      phase: font.isColor ? 0 : UInt8(phase))
        if let image = cache.value(for: key) { return image }
        // Under the font's FreeType lock, look again: another thread may have just made it.
        return font.withRasterizer { face in
            if let image = cache.value(for: key, record: false) { return image }
            rasterizations.add(1, ordering: .relaxed)
            let image = face.rasterize(glyph: glyph, pixelSize: Double(key.size) / 64, phase: Int(key.phase),
                                       synthesis: font.synthesis)
            cache.insert(image, for: key, cost: image.byteCount)
            return image
        }
    }

    /// Hits, misses, evictions and size.
    public var statistics: CacheStatistics { cache.statistics }

    /// Number of glyphs FreeType rasterized for this cache.
    public var rasterizationCount: Int { rasterizations.load(ordering: .relaxed) }

    public func removeAll() { cache.removeAll() }
}
