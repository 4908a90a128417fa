import TextKitLite

/// Decoded, aspect-filled, masked pictures, bounded by bytes, thread-safe (called from
/// several render threads at once), with hit/miss statistics. Failures are remembered too (a
/// broken file is read once, and the same ImageError is thrown again on the next request).
///
/// One `BoundedCache` shard holds the pictures, so that the byte bound is the whole cache's
/// (a sharded cache gives each shard an equal part of it, and a picture larger than a part
/// would never be kept); the lock is held only to look up or insert, never while decoding.
/// Two threads that miss the same picture at once may both decode it; the second insert
/// replaces the first. Headers have their own cache, bounded by count.
public final class PictureCache: Sendable {
    /// What a picture is made for.
    struct Key: Hashable, Sendable {
        let path: String
        let width: Int
        let height: Int
        let shape: PictureShape
    }

    private let pictures: BoundedCache<Key, Result<GrayImage, ImageError>>
    private let headers: BoundedCache<String, Result<ImageHeader, ImageError>>
    private let maxPixels: Int

    /// The most pictures (and headers) held, whatever their bytes.
    static let maximumCount = 1 << 16
    /// The cost of a remembered failure (its error, roughly), or a header.
    static let failureCost = 256

    /// - Parameters:
    ///   - maxBytes: most bytes of pixels held at once (a picture costs its planes: 2 bytes a
    ///     pixel for gray, 5 for color); a picture larger than this is made but not kept.
    ///   - maxPixels: the largest `width × height` of a file decoded, checked from its header
    ///     before any pixel is allocated.
    public init(maxBytes: Int = 64 << 20, maxPixels: Int = GrayImage.defaultMaxPixels) {
        pictures = BoundedCache(maxCount: Self.maximumCount, maxCost: maxBytes, shards: 1)
        headers = BoundedCache(maxCount: Self.maximumCount, maxCost: Self.maximumCount * Self.failureCost, shards: 8)
        self.maxPixels = maxPixels
    }

    /// The picture at `path` aspect-filled to width × height pixels and masked to `shape`:
    /// decoded (with `atLeast` so a JPEG decodes at a DCT scale) and scaled once per
    /// (path, width, height, shape), then served from the cache.
    ///
    /// The size asked of the decoder is the image's size as displayed scaled to cover the
    /// box (so the centre crop has at least width × height source pixels). A file that
    /// changes on disk is not read again while its picture (or failure) is cached.
    ///
    /// - Parameters:
    ///   - path: a PNG or JPEG file.
    ///   - width: the box's width in pixels (below 1: an empty picture).
    ///   - height: the box's height in pixels (below 1: an empty picture).
    ///   - shape: `.circle` for an avatar, `.rectangle` for a picture.
    /// - Throws: the `ImageError` of `ImageFiles.decode(file:maxPixels:atLeast:)`, the same
    ///   one again (from the cache) on later requests of the same key.
    /// - Complexity: a hash lookup on a hit; a decode and a resample on a miss.
    public func picture(path: String, width: Int, height: Int, shape: PictureShape) throws(ImageError) -> GrayImage {
        let key = Key(path: path, width: width, height: height, shape: shape)
        if let cached = pictures.value(for: key) { return try cached.get() }
        let made = Result { () throws(ImageError) in try Self.make(key, maxPixels: maxPixels) }
        pictures.insert(made, for: key, cost: Self.cost(of: made))
        return try made.get()
    }

    /// `ImageFiles.header(ofFile:)`, cached per path.
    ///
    /// - Throws: the `ImageError` of `ImageFiles.header(ofFile:)`, the same again from the
    ///   cache.
    /// - Complexity: a hash lookup on a hit.
    public func header(path: String) throws(ImageError) -> ImageHeader {
        if let cached = headers.value(for: path) { return try cached.get() }
        let read = Result { () throws(ImageError) in try ImageFiles.header(ofFile: path) }
        headers.insert(read, for: path, cost: Self.failureCost)
        return try read.get()
    }

    /// Counters of the pictures (hits, misses, evictions, entries, bytes as cost).
    public var statistics: CacheStatistics { pictures.statistics }

    /// The picture of `key`, decoded at the smallest DCT scale that covers the box.
    private static func make(_ key: Key, maxPixels: Int) throws(ImageError) -> GrayImage {
        guard key.width > 0, key.height > 0 else {
            return GrayImage(width: max(0, key.width), height: max(0, key.height), gray: [])
        }
        let image = try ImageFiles.decode(file: key.path, maxPixels: maxPixels) { header in
            Self.covering(width: key.width, height: key.height, image: header)
        }
        return image.aspectFilled(width: key.width, height: key.height).masked(to: key.shape)
    }

    /// The image's size scaled (keeping its aspect) just enough to cover width × height.
    static func covering(width: Int, height: Int, image: ImageHeader) -> (width: Int, height: Int)? {
        guard image.width > 0, image.height > 0 else { return nil }
        let scale = max(Double(width) / Double(image.width), Double(height) / Double(image.height))
        guard scale < 1 else { return nil }
        return (Int((Double(image.width) * scale).rounded(.up)), Int((Double(image.height) * scale).rounded(.up)))
    }

    /// The bytes a cached result holds.
    private static func cost(of result: Result<GrayImage, ImageError>) -> Int {
        guard case .success(let image) = result else { return failureCost }
        return image.gray.count + image.alpha.count + (image.rgb?.count ?? 0) + failureCost
    }
}
