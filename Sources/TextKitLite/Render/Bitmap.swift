import Foundation

/// An 8-bit grayscale image, row-major, 0 black to 255 white.
public struct Bitmap: Sendable, Hashable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    /// A bitmap filled with one gray level.
    ///
    /// - Throws: `RenderError.bitmapTooLarge` when `width × height` exceeds `maxPixels`
    ///   (instead of allocating it), `.cannotAllocate` when a size under a raised limit
    ///   exceeds half this machine's memory or the system refuses that much memory (Swift
    ///   would trap),
    ///   `.invalidSize` for a negative size.
    public init(width: Int, height: Int, fill: UInt8 = 255, maxPixels: Int = RenderOptions.defaultMaxPixels) throws(RenderError) {
        guard width >= 0, height >= 0 else { throw .invalidSize(width: width, height: height) }
        try Self.checkSize(width: width, height: height, maxPixels: maxPixels)
        let count = width * height
        if count > RenderOptions.defaultMaxPixels {
            guard UInt64(count) <= ProcessInfo.processInfo.physicalMemory / 2, Self.canMap(count) else {
                throw .cannotAllocate(width: width, height: height, bytes: count)
            }
        }
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: fill, count: count)
    }

    /// Refuses a size of more than `maxPixels` pixels.
    static func checkSize(width: Int, height: Int, maxPixels: Int) throws(RenderError) {
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, count <= maxPixels else { throw .bitmapTooLarge(width: width, height: height, limit: maxPixels) }
    }

    /// Whether the system would give `bytes` of memory now (an address-space limit,
    /// overcommit refusing it): an anonymous mapping of that size, made and dropped. A large
    /// array is such a mapping. `malloc` and `free` would not do: the optimizer removes a pair
    /// whose memory is never used, and the probe would always succeed.
    private static func canMap(_ bytes: Int) -> Bool {
        let mapping = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let mapping, mapping != MAP_FAILED else { return false }
        munmap(mapping, bytes)
        return true
    }

    init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The gray level at (x, y).
    public subscript(x: Int, y: Int) -> UInt8 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    /// Draws an image scaled to a rectangle of `width × height` pixels at (x, y) (clipped to
    /// the bitmap), with its alpha over what is there. Each pixel averages the image pixels it
    /// covers (a box filter: emoticons are drawn smaller than they are stored).
    ///
    /// - Complexity: O(visible pixels × image pixels per pixel).
    public mutating func draw(_ image: GrayImage, x: Int, y: Int, width w: Int, height h: Int) {
        guard w > 0, h > 0, image.width > 0, image.height > 0 else { return }
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + w), y1 = min(height, y + h)
        guard x0 < x1, y0 < y1 else { return }
        let sx = Double(image.width) / Double(w), sy = Double(image.height) / Double(h)
        func span(_ d: Int, _ scale: Double, _ limit: Int) -> Range<Int> {
            let low = min(limit - 1, Int(Double(d) * scale))
            return low..<max(low + 1, min(limit, Int(Double(d + 1) * scale)))
        }
        for row in y0..<y1 {
            let rows = span(row - y, sy, image.height)
            for column in x0..<x1 {
                let columns = span(column - x, sx, image.width)
                var alpha = 0, ink = 0
                for r in rows {
                    for c in columns {
                        let (gray, a) = image[c, r]
                        alpha += Int(a)
                        ink += Int(gray) * Int(a)
                    }
                }
                let count = rows.count * columns.count
                let a = (alpha + count / 2) / count  // mean alpha, 0...255
                let premultiplied = (ink + count * 127) / (count * 255)  // mean gray × alpha / 255
                let index = row * width + column
                pixels[index] = UInt8(min(255, premultiplied + (Int(pixels[index]) * (255 - a) + 127) / 255))
            }
        }
    }

    /// Fills a rectangle (clipped to the bitmap) with a gray level.
    public mutating func fill(x: Int, y: Int, width w: Int, height h: Int, level: UInt8) {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + w), y1 = min(height, y + h)
        guard x0 < x1, y0 < y1 else { return }
        let width = width
        pixels.withUnsafeMutableBufferPointer { p in
            for row in y0..<y1 { (p.baseAddress! + row * width + x0).update(repeating: level, count: x1 - x0) }
        }
    }

    /// Strokes a rectangle's one-pixel outline (clipped) with a gray level.
    public mutating func strokeRectangle(x: Int, y: Int, width w: Int, height h: Int, level: UInt8) {
        guard w > 0, h > 0 else { return }
        fill(x: x, y: y, width: w, height: 1, level: level)
        fill(x: x, y: y + h - 1, width: w, height: 1, level: level)
        fill(x: x, y: y, width: 1, height: h, level: level)
        fill(x: x + w - 1, y: y, width: 1, height: h, level: level)
    }
}

/// Why a bitmap could not be made or written.
public enum RenderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bitmap would exceed the configured pixel limit.
    case bitmapTooLarge(width: Int, height: Int, limit: Int)
    case invalidSize(width: Int, height: Int)
    /// Memory for a bitmap within the pixel limit cannot be had (a raised `maxPixels`).
    case cannotAllocate(width: Int, height: Int, bytes: Int)
    /// A render option is out of range.
    case invalidOption(name: String, value: String, reason: String)
    /// The output file could not be written.
    case cannotWrite(path: String, reason: String)
    /// The image cannot be encoded in the file's format (a PNG of zero pixels).
    case cannotEncode(path: String, reason: String)
    /// The data is not a binary PGM (P5) image.
    case invalidPGM(String)
    /// The layout was made with `LayoutOptions.measureOnly`: it has no glyphs to draw.
    case measureOnlyLayout

    public var description: String {
        switch self {
        case .bitmapTooLarge(let w, let h, let limit):
            "bitmap of \(w)×\(h) pixels exceeds the limit of \(limit) pixels (raise it with maxPixels / --max-pixels)"
        case .invalidSize(let w, let h): "invalid bitmap size \(w)×\(h)"
        case .cannotAllocate(let w, let h, let bytes):
            "cannot allocate a bitmap of \(w)×\(h) pixels (\(bytes) bytes): not enough memory"
        case .invalidOption(let name, let value, let reason): "invalid \(name) \(value): \(reason)"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        case .cannotEncode(let path, let reason): "cannot write \(path): \(reason)"
        case .invalidPGM(let reason): "not a binary PGM image: \(reason)"
        case .measureOnlyLayout: "a measure-only layout (LayoutOptions.measureOnly) has no glyphs to draw; lay the text out without measureOnly"
        }
    }
}
