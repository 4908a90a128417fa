import Foundation

extension Bitmap {
    /// How a `Bitmap` stores its pixels.
    public enum PixelFormat: String, Sendable, Hashable, CaseIterable, Codable {
        /// One byte a pixel: a gray level, 0 black to 255 white, opaque.
        case gray8
        /// Four bytes a pixel, in memory order red, green, blue, alpha: sRGB, 8 bits a channel,
        /// alpha premultiplied (each color channel already multiplied by alpha / 255).
        ///
        /// Premultiplied, as cairo's ARGB32, FreeType's `FT_PIXEL_MODE_BGRA` and Skia's N32 are:
        /// "over" is then one multiply-add per channel, the same for every channel, and color
        /// glyphs come from FreeType premultiplied already. The byte order is R, G, B, A rather
        /// than those libraries' B, G, R, A because this order is what the consumers of a bitmap
        /// read without swizzling: PNG's RGBA samples, PPM's RGB, OpenGL's `GL_RGBA` and SDL's
        /// `SDL_PIXELFORMAT_RGBA32` textures. FreeType's BGRA glyphs are swizzled once, when
        /// rasterized and cached.
        case rgba8

        /// Bytes a pixel.
        public var bytesPerPixel: Int {
            switch self {
            case .gray8: 1
            case .rgba8: 4
            }
        }
    }
}

/// An image to draw into: 8-bit gray (`PixelFormat.gray8`, one byte a pixel, 0 black to 255
/// white) or premultiplied RGBA (`.rgba8`, four bytes a pixel), row-major, rows packed
/// (`width × bytesPerPixel` bytes each).
///
/// Everything drawn blends with one "over" rule, whatever the format (see `Blend`): ink at
/// a coverage moves each channel of the destination toward the ink's channel (255 for
/// alpha), and a premultiplied image adds its channels to the destination's scaled by its
/// transparency. A gray bitmap draws a color as its gray level (`Color.grayLevel`).
public struct Bitmap: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// How `pixels` holds each pixel.
    public let format: PixelFormat
    /// `width × height × format.bytesPerPixel` bytes, row by row.
    public var pixels: [UInt8]

    /// A gray bitmap filled with one gray level.
    ///
    /// - Throws: `RenderError.bitmapTooLarge` when `width × height` exceeds `maxPixels`
    ///   (instead of allocating it), `.cannotAllocate` when a size under a raised limit
    ///   exceeds half this machine's memory or the system refuses that much memory (Swift
    ///   would trap),
    ///   `.invalidSize` for a negative size.
    public init(width: Int, height: Int, fill: UInt8 = 255, maxPixels: Int = RenderOptions.defaultMaxPixels) throws(RenderError) {
        try self.init(width: width, height: height, format: .gray8, background: Color(gray: fill), maxPixels: maxPixels)
    }

    /// A bitmap of a format filled with a color (on a gray bitmap, its gray level over white).
    ///
    /// - Throws: as `init(width:height:fill:maxPixels:)`.
    public init(width: Int, height: Int, format: PixelFormat, background: Color,
                maxPixels: Int = RenderOptions.defaultMaxPixels) throws(RenderError) {
        guard width >= 0, height >= 0 else { throw .invalidSize(width: width, height: height) }
        try Self.checkSize(width: width, height: height, maxPixels: maxPixels)
        let count = width * height, bytes = count * format.bytesPerPixel
        if count > RenderOptions.defaultMaxPixels {
            guard UInt64(bytes) <= ProcessInfo.processInfo.physicalMemory / 2, Self.canMap(bytes) else {
                throw .cannotAllocate(width: width, height: height, bytes: bytes)
            }
        }
        self.width = width
        self.height = height
        self.format = format
        switch format {
        case .gray8:
            pixels = [UInt8](repeating: background.opaqueGrayLevel, count: count)
        case .rgba8:
            let p = background.premultiplied
            if p.red == p.green, p.green == p.blue, p.blue == p.alpha {  // white, transparent: one byte repeated
                pixels = [UInt8](repeating: p.red, count: bytes)
                return
            }
            let pixel = Self.packed(background)
            pixels = [UInt8](unsafeUninitializedCapacity: bytes) { buffer, initialized in
                if let base = buffer.baseAddress {
                    UnsafeMutableRawPointer(base).initializeMemory(as: UInt32.self, repeating: pixel, count: count)
                }
                initialized = bytes
            }
        }
    }

    /// A color's premultiplied RGBA pixel as one word whose bytes in memory are R, G, B, A.
    private static func packed(_ color: Color) -> UInt32 {
        let p = color.premultiplied
        return unsafeBitCast(SIMD4<UInt8>(p.red, p.green, p.blue, p.alpha), to: UInt32.self)
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

    init(width: Int, height: Int, format: PixelFormat = .gray8, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.format = format
        self.pixels = pixels
    }

    /// The gray level at (x, y) of a gray bitmap.
    ///
    /// - Precondition: the bitmap is `.gray8`.
    public subscript(x: Int, y: Int) -> UInt8 {
        get {
            precondition(format == .gray8, "a gray level of an \(format) bitmap: use pixel(x:y:)")
            return pixels[y * width + x]
        }
        set {
            precondition(format == .gray8, "a gray level of an \(format) bitmap: use pixel(x:y:)")
            pixels[y * width + x] = newValue
        }
    }

    /// The premultiplied channels at (x, y): a gray bitmap's level in each color channel,
    /// opaque.
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        switch format {
        case .gray8:
            let level = pixels[y * width + x]
            return (level, level, level, 255)
        case .rgba8:
            let i = (y * width + x) * 4
            return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
        }
    }

    /// True when every pixel is opaque (a gray bitmap always is).
    ///
    /// - Complexity: O(pixels) for an RGBA bitmap.
    public var isOpaque: Bool {
        format == .gray8 || ColorEncoding.isOpaque(premultipliedRGBA: pixels)
    }

    /// Draws an image scaled to a rectangle of `width × height` pixels at (x, y) (clipped to
    /// the bitmap), with its alpha over what is there: its colors on an RGBA bitmap, its gray
    /// levels on a gray one. Each pixel averages the image pixels it covers (a box filter:
    /// emoticons are drawn smaller than they are stored).
    ///
    /// An image of exactly `width × height` pixels (a picture scaled and cropped ahead,
    /// `PictureCache`) is copied pixel for pixel: the same pixels as the box filter over one
    /// pixel each, without its spans and sums.
    ///
    /// - Complexity: O(visible pixels × image pixels per pixel).
    public mutating func draw(_ image: GrayImage, x: Int, y: Int, width w: Int, height h: Int) {
        guard w > 0, h > 0, image.width > 0, image.height > 0 else { return }
        if w == image.width, h == image.height { return drawUnscaled(image, x: x, y: y) }
        drawScaled(image, x: x, y: y, width: w, height: h)
    }

    /// `draw` of an image at its own size: each pixel premultiplied and blended over what is
    /// there, an opaque one copied, a transparent one skipped.
    mutating func drawUnscaled(_ image: GrayImage, x: Int, y: Int) {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + image.width), y1 = min(height, y + image.height)
        guard x0 < x1, y0 < y1 else { return }
        let color = format == .rgba8, bitmapWidth = width
        // c × a / 255 rounded, as the box filter's mean of one pixel.
        @inline(__always) func premultiplied(_ c: UInt8, _ a: UInt32) -> UInt32 { (UInt32(c) * a + 127) / 255 }
        image.alpha.withUnsafeBufferPointer { alpha in
            image.gray.withUnsafeBufferPointer { gray in
                (image.rgb ?? []).withUnsafeBufferPointer { rgb in
                    pixels.withUnsafeMutableBufferPointer { out in
                        for row in y0..<y1 {
                            var source = (row - y) * image.width + (x0 - x)
                            var target = row * bitmapWidth + x0
                            for _ in x0..<x1 {
                                defer { source += 1; target += 1 }
                                let a = UInt32(alpha[source])
                                guard a > 0 else { continue }
                                guard color else {
                                    out[target] = a == 255 ? gray[source]
                                        : UInt8(Blend.over(UInt32(out[target]), premultiplied: premultiplied(gray[source], a), alpha: a))
                                    continue
                                }
                                let (r, g, b) = rgb.isEmpty ? (gray[source], gray[source], gray[source])
                                    : (rgb[3 * source], rgb[3 * source + 1], rgb[3 * source + 2])
                                let i = 4 * target
                                if a == 255 {
                                    (out[i], out[i + 1], out[i + 2], out[i + 3]) = (r, g, b, 255)
                                    continue
                                }
                                let over = Blend.over(SIMD4<UInt32>(UInt32(out[i]), UInt32(out[i + 1]), UInt32(out[i + 2]), UInt32(out[i + 3])),
                                                      premultiplied: SIMD4<UInt32>(premultiplied(r, a), premultiplied(g, a), premultiplied(b, a), a))
                                (out[i], out[i + 1], out[i + 2], out[i + 3]) = (UInt8(over[0]), UInt8(over[1]), UInt8(over[2]), UInt8(over[3]))
                            }
                        }
                    }
                }
            }
        }
    }

    /// `draw` with a box filter: each pixel averages the image pixels it covers.
    mutating func drawScaled(_ image: GrayImage, x: Int, y: Int, width w: Int, height h: Int) {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + w), y1 = min(height, y + h)
        guard x0 < x1, y0 < y1 else { return }
        let sx = Double(image.width) / Double(w), sy = Double(image.height) / Double(h)
        func span(_ d: Int, _ scale: Double, _ limit: Int) -> Range<Int> {
            let low = min(limit - 1, Int(Double(d) * scale))
            return low..<max(low + 1, min(limit, Int(Double(d + 1) * scale)))
        }
        let color = format == .rgba8
        for row in y0..<y1 {
            let rows = span(row - y, sy, image.height)
            for column in x0..<x1 {
                let columns = span(column - x, sx, image.width)
                // Sums of alpha and of each channel × alpha (a gray bitmap's one channel: gray).
                var alpha = 0, red = 0, green = 0, blue = 0
                for r in rows {
                    for c in columns {
                        let i = r * image.width + c, a = Int(image.alpha[i])
                        alpha += a
                        if color, let rgb = image.rgb {
                            red += Int(rgb[3 * i]) * a
                            green += Int(rgb[3 * i + 1]) * a
                            blue += Int(rgb[3 * i + 2]) * a
                        } else {
                            red += Int(image.gray[i]) * a
                        }
                    }
                }
                let count = rows.count * columns.count
                let a = UInt32((alpha + count / 2) / count)  // mean alpha, 0...255
                // Mean channel × alpha / 255: premultiplied.
                func mean(_ sum: Int) -> UInt32 { UInt32((sum + count * 127) / (count * 255)) }
                if color {
                    if image.rgb == nil { (green, blue) = (red, red) }
                    let i = (row * width + column) * 4
                    let source = SIMD4<UInt32>(mean(red), mean(green), mean(blue), a)
                    let destination = SIMD4<UInt32>(UInt32(pixels[i]), UInt32(pixels[i + 1]), UInt32(pixels[i + 2]), UInt32(pixels[i + 3]))
                    let result = Blend.over(destination, premultiplied: source)
                    (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]) =
                        (UInt8(result[0]), UInt8(result[1]), UInt8(result[2]), UInt8(result[3]))
                } else {
                    let i = row * width + column
                    pixels[i] = UInt8(Blend.over(UInt32(pixels[i]), premultiplied: mean(red), alpha: a))
                }
            }
        }
    }

    /// Fills a rectangle (clipped to the bitmap) with a gray level.
    public mutating func fill(x: Int, y: Int, width w: Int, height h: Int, level: UInt8) {
        fill(x: x, y: y, width: w, height: h, color: Color(gray: level))
    }

    /// Fills a rectangle (clipped to the bitmap) with a color: its pixels replaced when the
    /// color is opaque, the color blended over them when not (see `Blend`).
    public mutating func fill(x: Int, y: Int, width w: Int, height h: Int, color: Color) {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + w), y1 = min(height, y + h)
        guard x0 < x1, y0 < y1, color.alpha > 0 else { return }
        let width = width, opaque = color.alpha == 255
        pixels.withUnsafeMutableBufferPointer { p in
            switch format {
            case .gray8:
                let level = color.grayLevel
                for row in y0..<y1 {
                    let start = p.baseAddress! + row * width + x0
                    if opaque {
                        start.update(repeating: level, count: x1 - x0)
                    } else {
                        for k in 0..<(x1 - x0) {
                            start[k] = UInt8(Blend.toward(UInt32(start[k]), UInt32(level), by: UInt32(color.alpha)))
                        }
                    }
                }
            case .rgba8:
                let source = Blend.rgbaSource(color), packed = Self.packed(color)
                let base = UnsafeMutableRawPointer(p.baseAddress!)
                for row in y0..<y1 {
                    let start = base + (row * width + x0) * 4
                    if opaque {
                        start.withMemoryRebound(to: UInt32.self, capacity: x1 - x0) { $0.update(repeating: packed, count: x1 - x0) }
                        continue
                    }
                    for column in 0..<(x1 - x0) {
                        let address = start + column * 4
                        address.storePixel(Blend.toward(address.loadPixel(), source, by: UInt32(color.alpha)))
                    }
                }
            }
        }
    }

    /// Strokes a rectangle's one-pixel outline (clipped) with a gray level.
    public mutating func strokeRectangle(x: Int, y: Int, width w: Int, height h: Int, level: UInt8) {
        strokeRectangle(x: x, y: y, width: w, height: h, color: Color(gray: level))
    }

    /// Strokes a rectangle's one-pixel outline (clipped) with a color.
    public mutating func strokeRectangle(x: Int, y: Int, width w: Int, height h: Int, color: Color) {
        guard w > 0, h > 0 else { return }
        fill(x: x, y: y, width: w, height: 1, color: color)
        fill(x: x, y: y + h - 1, width: w, height: 1, color: color)
        fill(x: x, y: y + 1, width: 1, height: h - 2, color: color)
        fill(x: x + w - 1, y: y + 1, width: 1, height: h - 2, color: color)
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
        }
    }
}
