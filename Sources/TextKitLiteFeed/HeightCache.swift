import TextKitLite

/// Cell layouts and measurements by post identity (id and content hash) and everything
/// that affects the layout (width, cell style, scale): a hit is a hash lookup, never a
/// layout.
/// Thread-safe, bounded by entries and bytes, with hit/miss/eviction counters.
public final class HeightCache: Sendable {
    struct Key: Hashable, Sendable {
        let postID: String
        let contentHash: UInt64
        let width: Double
        let scale: Double
        let style: FeedCellStyle
        /// `style.hashValue`, computed once per precomputer: equal styles still compare
        /// equal, but a lookup does not hash every field of the style again.
        let styleHash: Int
        /// Measure-only cells (no glyph runs) never stand in for drawable ones, nor
        /// measurements for cells.
        let kind: Kind
        /// The hash of all the above, computed once: a miss looks the key up, then inserts it.
        private let hash: Int

        init(postID: String, contentHash: UInt64, width: Double, scale: Double, style: FeedCellStyle, styleHash: Int, kind: Kind) {
            self.postID = postID
            self.contentHash = contentHash
            self.width = width
            self.scale = scale
            self.style = style
            self.styleHash = styleHash
            self.kind = kind
            var hasher = Hasher()
            hasher.combine(postID)
            hasher.combine(contentHash)
            hasher.combine(width)
            hasher.combine(scale)
            hasher.combine(styleHash)
            hasher.combine(kind)
            hash = hasher.finalize()
        }

        static func == (a: Key, b: Key) -> Bool {
            a.hash == b.hash && a.contentHash == b.contentHash && a.width == b.width && a.scale == b.scale
                && a.postID == b.postID && a.kind == b.kind && a.styleHash == b.styleHash && a.style == b.style
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
        var hashValue: Int { hash }
    }

    enum Kind: Hashable, Sendable { case drawable, measureOnly, measurement }

    private enum Entry: Sendable {
        case layout(CellLayout)
        case measurement(CellMeasurement)
    }

    private let cache: BoundedCache<Key, Entry>

    public init(maxEntries: Int = 100_000, maxBytes: Int = 128 << 20) {
        cache = BoundedCache(maxCount: maxEntries, maxCost: maxBytes, shards: 16)
    }

    func layout(for key: Key) -> CellLayout? {
        guard case .layout(let layout)? = cache.value(for: key) else { return nil }
        return layout
    }

    func insert(_ layout: CellLayout, for key: Key) { cache.insert(.layout(layout), for: key, cost: layout.estimatedBytes) }

    func measurement(for key: Key) -> CellMeasurement? {
        guard case .measurement(let measurement)? = cache.value(for: key) else { return nil }
        return measurement
    }

    func insert(_ measurement: CellMeasurement, for key: Key) {
        let cost = measurement.texts.reduce(128 + measurement.postID.utf8.count) { $0 + 64 + $1.measurement.lineStarts.count * 8 }
        cache.insert(.measurement(measurement), for: key, cost: cost)
    }

    public var statistics: CacheStatistics { cache.statistics }

    public func removeAll() { cache.removeAll() }
}

extension CellLayout {
    /// Approximate memory held by the layout: per text element its text (the string, its
    /// UTF-16 copy and style runs: what a measure-only cell holds most of), its lines and
    /// their glyph arrays.
    var estimatedBytes: Int {
        elements.reduce(256) { total, element in
            guard let text = element.text else { return total + 128 }
            let characters = text.text.utf16Count * 2 + text.text.string.utf8.count + text.text.runs.count * 96
            return total + 128 + characters
                + text.lines.reduce(0) { $0 + 160 + $1.runs.reduce(0) { $0 + 200 + $1.glyphs.count * 16 } }
        }
    }
}
