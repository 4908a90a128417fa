import Synchronization

/// Rasterized glyphs keyed by font, pixel size, glyph and subpixel phase: no glyph is
/// rasterized twice at the same size and phase while it stays cached. Thread-safe and
/// bounded by bytes.
public final class GlyphCache: Sendable {
    /// A glyph's key. Its hash (`WideFold`, seeded per cache) is made once, when the key is
    /// made, and serves both the shard choice and the shard's table: a cell looks up every
    /// glyph it draws.
    struct Key: Hashable, Sendable {
        let font: Int
        /// Pixel size in 1/64 pixel.
        let size: Int32
        let glyph: UInt32
        let phase: UInt8
        private let hash: Int

        @inline(__always)
        init(font: Int, size: Int32, glyph: UInt32, phase: UInt8, seed: (UInt64, UInt64)) {
            (self.font, self.size, self.glyph, self.phase) = (font, size, glyph, phase)
            let face = UInt64(UInt(bitPattern: font)) &* 4 | UInt64(phase)
            let raster = UInt64(UInt32(bitPattern: size)) << 32 | UInt64(glyph)
            hash = Int(truncatingIfNeeded: WideFold.fold(face ^ seed.0, raster ^ seed.1))
        }

        static func == (a: Key, b: Key) -> Bool {
            a.hash == b.hash && a.glyph == b.glyph && a.font == b.font && a.size == b.size && a.phase == b.phase
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
        var hashValue: Int { hash }
    }

    /// The seed of the keys' hash, random per cache.
    private let seed: (UInt64, UInt64) = {
        var generator = SystemRandomNumberGenerator()
        return (generator.next(), generator.next())
    }()

    /// Horizontal subpixel phases per pixel.
    static let phases = 4

    private let cache: BoundedCache<Key, CachedGlyph>
    private let rasterizations = Atomic<Int>(0)

    /// The cache used by default by every renderer of the process.
    public static let shared = GlyphCache()

    /// - Parameters:
    ///   - maxBytes: most memory held by glyph masks.
    ///   - maxEntries: most glyph masks held.
    public init(maxBytes: Int = 64 << 20, maxEntries: Int = 100_000) {
        cache = BoundedCache(maxCount: maxEntries, maxCost: maxBytes, shards: 8)
    }

    /// What the keys of one run's glyphs share: made once a run, so that a glyph's lookup
    /// does not convert its size or test its font again.
    struct Strike {
        let font: Font
        /// Pixel size in 1/64 pixel.
        let size: Int32
        /// A bitmap color glyph kept with its color plane, for an RGBA bitmap.
        let color: Bool
        /// An upright glyph of a vertical layout.
        let upright: Bool

        init(font: Font, pixelSize: Double, format: Bitmap.PixelFormat, upright: Bool) {
            self.font = font
            size = Int32(saturating: (pixelSize * 64).rounded())
            color = font.isColor && format == .rgba8
            self.upright = upright
        }
    }

    /// The key's phase bit of an upright glyph of a vertical layout (kept turned, at phase 0).
    private static let uprightPhase: UInt8 = 0x80

    /// A glyph's mask and its padded rows, rasterized on first use, for drawing into a
    /// bitmap of the strike's format: a bitmap color glyph has no subpixel phases, and is
    /// kept once with the luminance a gray bitmap draws and once with the color plane an
    /// RGBA one does (its key's phase tells which), each made only when asked for.
    /// An upright glyph of a vertical layout is kept apart, turned into line coordinates
    /// (`GlyphImage.uprightInLine`), at phase 0.
    func glyph(_ glyph: UInt32, phase: Int, in strike: Strike) -> CachedGlyph {
        let font = strike.font
        let plain = font.isColor ? (strike.color ? 1 : 0) : UInt8(strike.upright ? 0 : phase)
        let key = Key(font: font.id, size: strike.size, glyph: glyph,
                      phase: strike.upright ? plain | Self.uprightPhase : plain, seed: seed)
        if let cached = cache.value(for: key) { return cached }
        // Under the font's FreeType lock, look again: another thread may have just made it.
        return font.withRasterizer { face in
            if let cached = cache.value(for: key, record: false) { return cached }
            rasterizations.add(1, ordering: .relaxed)
            var image = face.rasterize(glyph: glyph, pixelSize: Double(key.size) / 64, phase: font.isColor ? 0 : Int(plain),
                                       synthesis: font.synthesis, color: strike.color)
            if strike.upright {
                let origin = font.verticalOrigin(glyph: glyph, size: Double(key.size) / 64)
                image = image.uprightInLine(origin: (Int(origin.x.rounded()), Int(origin.y.rounded())))
            }
            let cached = CachedGlyph.make(image)
            cache.insert(cached, for: key, cost: cached.byteCount)
            return cached
        }
    }

    /// Hits, misses, evictions and size.
    public var statistics: CacheStatistics { cache.statistics }

    /// Number of glyphs FreeType rasterized for this cache.
    public var rasterizationCount: Int { rasterizations.load(ordering: .relaxed) }

    public func removeAll() { cache.removeAll() }
}

/// A glyph as the cache holds it: its mask, and for an outline glyph the same coverage in
/// rows padded with zeros to whole chunks of `chunk` pixels, which `TextRenderer` blends a
/// chunk at a time with no per-pixel tail (a zero leaves its pixel as it is).
///
/// One object, the padded rows stored inline after the header: drawing a glyph at 1× is
/// mostly waiting for memory (a feed's working set is thousands of CJK glyphs), and with the
/// rows in an array of their own, their address was known only once the object had been
/// read. Inline, a lookup's reference count and the first row are found at once.
// @unchecked Sendable: the storage's header and rows are written only in `make`, before the
// value is returned to anyone, and never after; every later access reads.
struct CachedGlyph: @unchecked Sendable {
    /// Pixels blended at once: eight 16-bit lanes, one SSE2 register.
    static let chunk = 8

    struct Header {
        let image: GlyphImage
        let stride: Int
    }

    private let storage: ManagedBuffer<Header, UInt8>

    /// A cached glyph of `image`, its padded rows made from its coverage (none for a color
    /// glyph or an empty one).
    static func make(_ image: GlyphImage) -> CachedGlyph {
        let outline = image.luminance == nil && image.color == nil && image.width > 0
        let stride = outline ? (image.width + chunk - 1) / chunk * chunk : 0
        let count = stride * image.height
        let storage = ManagedBuffer<Header, UInt8>.create(minimumCapacity: count) { _ in Header(image: image, stride: stride) }
        storage.withUnsafeMutablePointerToElements { rows in
            rows.initialize(repeating: 0, count: count)
            image.coverage.withUnsafeBufferPointer { coverage in
                for row in 0..<(stride > 0 ? image.height : 0) {
                    (rows + row * stride).update(from: coverage.baseAddress! + row * image.width, count: image.width)
                }
            }
        }
        return CachedGlyph(storage: storage)
    }

    // Read through the header's pointer: `ManagedBuffer.header` is a class's stored
    // property, whose every access is checked for exclusivity at run time.
    var image: GlyphImage { storage.withUnsafeMutablePointerToHeader { $0.pointee.image } }
    /// The mask's size and its offset from the pen (left, and top above the baseline), in
    /// pixels: `image`'s, without copying its planes.
    var width: Int { storage.withUnsafeMutablePointerToHeader { $0.pointee.image.width } }
    var height: Int { storage.withUnsafeMutablePointerToHeader { $0.pointee.image.height } }
    var left: Int { storage.withUnsafeMutablePointerToHeader { $0.pointee.image.left } }
    var top: Int { storage.withUnsafeMutablePointerToHeader { $0.pointee.image.top } }
    /// Bytes per padded row (a multiple of `chunk`); 0 for a color glyph, which has none.
    var stride: Int { storage.withUnsafeMutablePointerToHeader { $0.pointee.stride } }

    /// The padded rows: `image.height` rows of `stride` bytes, the coverage then zeros.
    @inline(__always)
    func withPaddedRows<R>(_ body: (UnsafePointer<UInt8>) -> R) -> R {
        storage.withUnsafeMutablePointerToElements { body(UnsafePointer($0)) }
    }

    /// A copy of the padded rows.
    var padded: [UInt8] { withPaddedRows { Array(UnsafeBufferPointer(start: $0, count: stride * image.height)) } }

    /// Memory held, used to bound the cache.
    var byteCount: Int { image.byteCount + stride * image.height + 32 }
}
