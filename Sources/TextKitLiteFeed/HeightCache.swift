import TextKitLite

/// Cell layouts and measurements by post (its id and everything it draws) and everything
/// else that affects the layout (width, scale, cell style, the engine's font chain): a hit is
/// a hash lookup, never a layout, and only ever returns what a fresh layout would (a hit
/// compares the whole post; the hash is seeded per process, so no post can be made to
/// collide with another on purpose).
/// Thread-safe, bounded by entries and bytes, with hit/miss/eviction counters.
public final class HeightCache: Sendable {
    struct Key: Hashable, Sendable {
        let post: FeedPost
        /// The cell width; 0 for measurements, which keep a post's widths in one entry.
        let width: Double
        let scale: Double
        /// The cell style (and its hash with `fonts`), shared by the keys of a precomputer.
        /// With the post, the style decides the cell's direction (the style's, or for `auto`
        /// the body's first strong character): a mirrored cell never answers for a plain one.
        let settings: Settings
        /// The fonts the cell is laid out with: caches shared by precomputers over other
        /// fonts never answer for them.
        let fonts: FontFallbackChain
        /// The emoticons drawn in place of codes (compared by identity first: a precomputer
        /// passes the same table every time).
        let emoticons: EmoticonTable
        /// Measurements never stand in for cells.
        let kind: Kind
        /// The hash of all the above, computed once: a miss looks the key up, then inserts it.
        private let hash: Int

        init(post: FeedPost, width: Double, scale: Double, settings: Settings, fonts: FontFallbackChain,
             emoticons: EmoticonTable, kind: Kind) {
            self.emoticons = emoticons
            self.post = post
            self.width = width
            self.scale = scale
            self.settings = settings
            self.fonts = fonts
            self.kind = kind
            var hasher = Hasher()
            post.id.hashUTF8(into: &hasher)
            hasher.combine(post.contentHash)
            hasher.combine(width)
            hasher.combine(scale)
            hasher.combine(settings.hash)
            hasher.combine(emoticons.emoticons.count)
            hasher.combine(kind)
            if kind == .drawable { hasher.combine(settings.style.theme) }
            hash = hasher.finalize()
        }

        static func == (a: Key, b: Key) -> Bool {
            a.hash == b.hash && a.post.contentHash == b.post.contentHash && a.width == b.width && a.scale == b.scale
                && a.kind == b.kind && a.settings.hash == b.settings.hash && a.post.id.hasSameUTF8(as: b.post.id) && a.post.hasSameContent(as: b.post) && a.fonts == b.fonts
                && (a.settings === b.settings || a.settings.sameCells(as: b.settings, kind: a.kind)) && a.emoticons == b.emoticons
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
        var hashValue: Int { hash }

        /// A cell style and its hash with the engine's fonts, made once per precomputer: a
        /// key copies a reference, not the style's fields, and hashing a key does not hash
        /// every field of the style and every font of the chain again. The hash leaves the
        /// theme out: a measurement holds no color, and answers for
        /// every theme; a drawable cell's key adds its theme.
        final class Settings: Sendable {
            let style: FeedCellStyle
            /// `style` with the default theme.
            private let layoutStyle: FeedCellStyle
            let hash: Int

            init(style: FeedCellStyle, fonts: FontFallbackChain) {
                self.style = style
                layoutStyle = style.withoutTheme
                var hasher = Hasher()
                hasher.combine(layoutStyle)
                hasher.combine(fonts)
                hash = hasher.finalize()
            }

            /// Whether cells of `kind` made with these settings are those made with `other`'s.
            func sameCells(as other: Settings, kind: Kind) -> Bool {
                layoutStyle == other.layoutStyle && (kind != .drawable || style.theme == other.style.theme)
            }
        }
    }

    enum Kind: Hashable, Sendable { case drawable, measurement }

    private enum Entry: Sendable {
        case layout(CellLayout)
        /// A post's measurements at the widths measured lately, the newest last.
        case measurements([CellMeasurement])
    }

    /// Most widths a post's measurements are kept at (its newest).
    static let widthsPerPost = 8

    private let cache: BoundedCache<Key, Entry>

    /// - Parameters:
    ///   - maxEntries: most cell layouts and measured posts held (a post's measurements at
    ///     all its widths are one entry).
    ///   - maxBytes: most memory they hold, estimated.
    public init(maxEntries: Int = 100_000, maxBytes: Int = 128 << 20) {
        cache = BoundedCache(maxCount: maxEntries, maxCost: maxBytes, shards: 16)
    }

    func layout(for key: Key) -> CellLayout? {
        cache.value(for: key) { entry in
            guard case .layout(let layout) = entry else { return nil }
            return layout
        }
    }

    func insert(_ layout: CellLayout, for key: Key) { cache.insert(.layout(layout), for: key, cost: layout.estimatedBytes) }

    /// The post's measurements at `widths`, in order, when all are cached (a hit), else nil
    /// (a miss).
    func measurements(for key: Key, widths: [Double]) -> [CellMeasurement]? {
        cache.value(for: key) { entry -> [CellMeasurement]? in
            guard case .measurements(let kept) = entry else { return nil }
            // The widths asked as they were measured (a feed measured again): kept as it is.
            if kept.count == widths.count, zip(kept, widths).allSatisfy({ $0.width == $1 }) { return kept }
            var found: [CellMeasurement] = []
            found.reserveCapacity(widths.count)
            for width in widths {
                guard let measurement = kept.last(where: { $0.width == width }) else { return nil }
                found.append(measurement)
            }
            return found
        }
    }

    /// Adds a post's measurements to those kept of it at other widths.
    func insert(_ measurements: [CellMeasurement], for key: Key) {
        cache.merge(for: key) { entry in
            var kept = measurements
            if case .measurements(let old) = entry {
                kept = old.filter { old in !measurements.contains { $0.width == old.width } } + measurements
            }
            if kept.count > Self.widthsPerPost { kept.removeFirst(kept.count - Self.widthsPerPost) }
            return (.measurements(kept), kept.reduce(0) { $0 + $1.estimatedBytes })
        }
    }

    public var statistics: CacheStatistics { cache.statistics }

    public func removeAll() { cache.removeAll() }
}

extension CellMeasurement {
    /// Approximate memory held by the measurement.
    var estimatedBytes: Int {
        texts.reduce(128 + postID.utf8.count) { $0 + 64 + $1.measurement.lineStarts.count * 8 }
    }
}

extension CellLayout {
    /// Approximate memory held by the layout: per text element its text (the string, its
    /// UTF-16 copy and style runs), its lines and their glyph arrays.
    var estimatedBytes: Int {
        elements.reduce(256) { total, element in
            guard let text = element.text else { return total + 128 }
            let characters = text.text.utf16Count * 2 + text.text.string.utf8.count + text.text.runs.count * 96
            return total + 128 + characters
                + text.lines.reduce(0) { $0 + 160 + $1.runs.reduce(0) { $0 + 200 + $1.glyphs.count * 16 } }
        }
    }
}
