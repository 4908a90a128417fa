internal import CPNG

// Every call into libpng lives in CPNG.c (under its own setjmp, so that libpng's longjmp
// never crosses a Swift frame); every call into CPNG lives in this file.

extension GrayImage {
    /// Decodes a PNG file: any color type (gray, gray and alpha, RGB, RGBA, palette), bit
    /// depth (1 to 16) and interlacing, with tRNS transparency, to 8-bit gray and alpha, and
    /// a color PNG (RGB, RGBA, palette) also to 8-bit `rgb`.
    ///
    /// The gray of a color pixel is the Rec. 601 luma of its 8-bit R, G, B,
    /// `(0.299 R + 0.587 G + 0.114 B)` rounded (as color emoji glyphs are drawn); 16-bit
    /// samples are scaled to 8 bits, rounded; gamma chunks are ignored. Decoding takes 2 bytes
    /// a pixel for a gray PNG and 5 for a color one (and as much again while it is copied).
    ///
    /// - Parameters:
    ///   - path: the file, a regular file (a device, FIFO or socket is refused before
    ///     reading, without waiting); it is read whole (at most `maximumFileSize` bytes).
    ///   - maxPixels: the largest `width × height` accepted, checked from the header before
    ///     any pixel is allocated.
    /// - Throws: `ImageError` naming `path`: `.cannotRead` with the system's reason,
    ///   `.fileTooLarge`, `.notPNG`, `.truncated`, `.chunkPastEnd`, `.corrupt` with
    ///   libpng's message, `.tooLarge`, `.outOfMemory`.
    /// - Complexity: O(file size + pixels).
    public init(pngFile path: String, maxPixels: Int = GrayImage.defaultMaxPixels) throws(ImageError) {
        let data: [UInt8]
        do {
            data = try FileBytes.contents(of: path, limit: Self.maximumFileSize)
        } catch {
            throw ImageError(path: path, failure: error)
        }
        try self.init(pngData: data, name: path, maxPixels: maxPixels)
    }

    /// The largest PNG file read: 64 MB (4096 × 4096 RGBA pixels stored without compression).
    public static let maximumFileSize = 64 << 20

    /// Decodes PNG bytes, as `init(pngFile:maxPixels:)` does a file.
    ///
    /// - Parameters:
    ///   - data: the whole PNG file.
    ///   - name: what errors call the data (a path, a URL).
    ///   - maxPixels: the largest `width × height` accepted, checked from the header before
    ///     any pixel is allocated.
    /// - Throws: `ImageError` naming `name`: `.notPNG`, `.truncated`, `.chunkPastEnd` (every
    ///   chunk's length is checked against the data before libpng reads it), `.corrupt` with
    ///   libpng's message, `.tooLarge`, `.outOfMemory`.
    /// - Complexity: O(data + pixels).
    public init(pngData data: [UInt8], name: String = "PNG data", maxPixels: Int = GrayImage.defaultMaxPixels) throws(ImageError) {
        var image = tkl_png_image()
        let code = data.withUnsafeBufferPointer {
            tkl_png_decode($0.baseAddress, $0.count, UInt64(max(0, maxPixels)), &image)
        }
        defer { tkl_png_free(image.pixels) }
        guard code == TKL_PNG_OK, let pixels = image.pixels else {
            let reason: ImageError.Reason = switch code {
            case TKL_PNG_NOT_PNG: .notPNG
            case TKL_PNG_TRUNCATED: .truncated
            case TKL_PNG_TOO_LARGE: .tooLarge(width: Int(image.width), height: Int(image.height), limit: maxPixels)
            case TKL_PNG_NO_MEMORY: .outOfMemory
            case TKL_PNG_CHUNK_PAST_END:
                .chunkPastEnd(chunk: message(image.chunk), length: Int(image.chunk_length), following: Int(image.chunk_follow))
            default: .corrupt(message(image.message))
            }
            throw ImageError(path: name, reason: reason)
        }
        let count = Int(image.width) * Int(image.height)
        self.init(
            width: Int(image.width), height: Int(image.height),
            gray: Array(UnsafeBufferPointer(start: pixels, count: count)),
            alpha: Array(UnsafeBufferPointer(start: pixels + count, count: count)),
            rgb: image.has_rgb == 0 ? nil : Array(UnsafeBufferPointer(start: pixels + 2 * count, count: 3 * count)))
    }

    /// The image as an 8-bit PNG. A gray image: gray (color type 0) when it is opaque, gray
    /// and alpha (color type 4) otherwise. A color image: its `rgb` as RGB (color type 2) when
    /// it is opaque, RGB and alpha (color type 6) otherwise. No ancillary chunks, so equal
    /// images give equal bytes.
    ///
    /// - Throws: `ImageError` naming the image by its size: `.cannotEncode` for an empty
    ///   image (PNG has no 0-pixel images) or one wider or taller than 2³¹ − 1 pixels,
    ///   `.outOfMemory`.
    /// - Complexity: O(pixels).
    public func pngData() throws(ImageError) -> [UInt8] {
        let opaque = isOpaque
        return try encodePNG(width: width, height: height) { width, height, output in
            alpha.withUnsafeBufferPointer { alpha in
                let alpha = opaque ? nil : alpha.baseAddress
                guard let rgb else {
                    return gray.withUnsafeBufferPointer { tkl_png_encode($0.baseAddress, alpha, width, height, &output) }
                }
                return rgb.withUnsafeBufferPointer { tkl_png_encode_rgb($0.baseAddress, alpha, width, height, &output) }
            }
        }
    }
}

extension ColorEncoding {
    /// Premultiplied RGBA as an 8-bit PNG: RGB (color type 2) when every alpha is 255, else
    /// RGBA (color type 6) with the color unpremultiplied, `c × 255 / a` rounded (0, 0, 0, 0
    /// where `a` is 0). No ancillary chunks, so equal pixels give equal bytes.
    ///
    /// - Parameters:
    ///   - premultipliedRGBA: `width × height × 4` bytes, R, G, B, A of each pixel, row by
    ///     row, each color component already multiplied by A / 255.
    ///   - width: width in pixels.
    ///   - height: height in pixels.
    /// - Throws: `ImageError` naming the image by its size: `.cannotEncode` for an empty
    ///   image or one wider or taller than 2³¹ − 1 pixels, `.outOfMemory`.
    /// - Precondition: `premultipliedRGBA` holds `width × height × 4` bytes.
    /// - Complexity: O(pixels).
    static func pngData(premultipliedRGBA: [UInt8], width: Int, height: Int) throws(ImageError) -> [UInt8] {
        precondition(width >= 0 && height >= 0 && premultipliedRGBA.count == 4 * width * height,
                     "\(premultipliedRGBA.count) bytes of RGBA for \(width)×\(height) pixels")
        let opaque = ColorEncoding.isOpaque(premultipliedRGBA: premultipliedRGBA)
        return try encodePNG(width: width, height: height) { width, height, output in
            premultipliedRGBA.withUnsafeBufferPointer {
                tkl_png_encode_premultiplied($0.baseAddress, width, height, opaque ? 0 : 1, &output)
            }
        }
    }
}

/// Runs one of CPNG's encoders on an image of `width × height` pixels and returns the bytes
/// it wrote: the one path of every PNG encoding, which names the image by its size in errors.
///
/// - Parameters:
///   - width: width in pixels.
///   - height: height in pixels.
///   - encode: calls the encoder with the size and the output to fill, and returns its code.
/// - Throws: `ImageError`: `.cannotEncode` for an empty image or one wider or taller than
///   2³¹ − 1 pixels (before `encode` is called) or with the encoder's message, `.outOfMemory`.
private func encodePNG(
    width: Int, height: Int, _ encode: (UInt32, UInt32, inout tkl_png_output) -> tkl_png_code
) throws(ImageError) -> [UInt8] {
    let name = "\(width)×\(height) image"
    guard width > 0, height > 0 else { throw ImageError(path: name, reason: .cannotEncode("a PNG has at least one pixel")) }
    guard width <= Int(Int32.max), height <= Int(Int32.max) else {
        throw ImageError(path: name, reason: .cannotEncode("a PNG is at most 2147483647 pixels wide and high"))
    }
    var output = tkl_png_output()
    let code = encode(UInt32(width), UInt32(height), &output)
    defer { tkl_png_free(output.bytes) }
    guard code == TKL_PNG_OK, let bytes = output.bytes else {
        throw ImageError(path: name, reason: code == TKL_PNG_NO_MEMORY ? .outOfMemory : .cannotEncode(message(output.message)))
    }
    return Array(UnsafeBufferPointer(start: bytes, count: output.size))
}

/// The text of a NUL-terminated C message held in a fixed-size array.
private func message<Storage>(_ storage: Storage) -> String {
    withUnsafeBytes(of: storage) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
}
