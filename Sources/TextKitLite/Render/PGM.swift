import Foundation

extension Bitmap {
    /// The image as binary PGM (P5, maxval 255): a gray bitmap's pixels, an RGBA bitmap's
    /// gray levels (`grayPixels`).
    public func pgmData() -> [UInt8] {
        pgmHeader + grayPixels
    }

    /// A binary PGM's header: "P5", the width and height, and maxval 255.
    private var pgmHeader: [UInt8] { Array("P5\n\(width) \(height)\n255\n".utf8) }

    /// The gray level of each pixel, row by row: a gray bitmap's pixels as they are; an RGBA
    /// bitmap's Rec. 601 luma over white (`Color.grayLevel`, as a gray bitmap draws colors).
    ///
    /// - Complexity: O(pixels).
    public var grayPixels: [UInt8] {
        guard format == .rgba8 else { return pixels }
        return stride(from: 0, to: pixels.count, by: 4).map { i in
            // Premultiplied over white: c + (255 − a), then luma.
            let white = 255 - pixels[i + 3]
            return Color(red: pixels[i] &+ white, green: pixels[i + 1] &+ white, blue: pixels[i + 2] &+ white).grayLevel
        }
    }

    /// The premultiplied R, G, B, A of each pixel, row by row: an RGBA bitmap's pixels as
    /// they are, a gray bitmap's level in each color channel, opaque.
    ///
    /// - Complexity: O(pixels).
    public var premultipliedRGBA: [UInt8] {
        guard format == .gray8 else { return pixels }
        return [UInt8](unsafeUninitializedCapacity: 4 * pixels.count) { rgba, initialized in
            for (i, level) in pixels.enumerated() { (rgba[4 * i], rgba[4 * i + 1], rgba[4 * i + 2], rgba[4 * i + 3]) = (level, level, level, 255) }
            initialized = 4 * pixels.count
        }
    }

    /// Reads a binary PGM (P5, maxval 255) image.
    ///
    /// - Throws: `RenderError.invalidPGM` naming what is wrong.
    public init(pgm data: [UInt8]) throws(RenderError) {
        var index = 0
        func token() -> String? {
            // Skip white space and comments.
            while index < data.count {
                if data[index] == UInt8(ascii: "#") {
                    while index < data.count, data[index] != 0x0A { index += 1 }
                } else if [0x20, 0x09, 0x0A, 0x0D].contains(data[index]) {
                    index += 1
                } else { break }
            }
            let start = index
            while index < data.count, ![0x20, 0x09, 0x0A, 0x0D].contains(data[index]) { index += 1 }
            return start < index ? String(decoding: data[start..<index], as: UTF8.self) : nil
        }
        guard token() == "P5" else { throw .invalidPGM("missing P5 magic number") }
        guard let w = token().flatMap(Int.init), let h = token().flatMap(Int.init), w >= 0, h >= 0 else {
            throw .invalidPGM("bad width or height")
        }
        guard token() == "255" else { throw .invalidPGM("maxval must be 255") }
        index += 1  // the single white-space byte before the raster
        let (count, overflow) = w.multipliedReportingOverflow(by: h)
        guard !overflow, count <= RenderOptions.defaultMaxPixels * 16 else { throw .invalidPGM("image of \(w)×\(h) pixels is too large") }
        guard data.count - index >= count else { throw .invalidPGM("raster has \(max(0, data.count - index)) bytes, expected \(count)") }
        self.init(width: w, height: h, pixels: Array(data[index..<(index + w * h)]))
    }

    /// Writes the image as a binary PGM file, atomically (as `write(to:format:)`).
    ///
    /// - Throws: `RenderError.cannotWrite` naming the path and the system's reason ("No
    ///   such file or directory").
    public func writePGM(to path: String) throws(RenderError) {
        try write(to: path, format: .pgm)
    }

    /// Writes the image as a PGM, PPM or PNG file, atomically: to a temporary file that is
    /// then renamed over `path` (Foundation's atomic write), so that an interrupted write
    /// never leaves a partial file under the final name.
    ///
    /// - Throws: `RenderError.cannotWrite` naming the path and the system's reason, or
    ///   `.cannotEncode` (a PNG of zero pixels).
    public func write(to path: String, format: FileFormat) throws(RenderError) {
        let parts = try fileParts(format, path: path)
        do {
            try Data(parts.count == 1 ? parts[0] : Array(parts.joined())).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            // The system's reason ("No such file or directory"), under Foundation's error.
            let reason = ((error as? CocoaError)?.underlying as? POSIXError).map { String(cString: strerror($0.code.rawValue)) }
            throw .cannotWrite(path: path, reason: reason ?? error.localizedDescription)
        }
    }

    /// The bytes of the image's file in a format, in pieces to write one after another: a
    /// PGM's header, then its gray levels as they are (a gray bitmap's raster, not copied);
    /// a PPM or a PNG whole.
    ///
    /// - Parameters:
    ///   - format: PGM (gray levels), PPM or PNG.
    ///   - path: names the file in errors.
    /// - Throws: `RenderError.cannotEncode` (a PNG of zero pixels).
    package func fileParts(_ format: FileFormat, path: String) throws(RenderError) -> [[UInt8]] {
        switch format {
        case .pgm: return [pgmHeader, grayPixels]
        case .ppm: return [ppmData()]
        case .png:
            do {
                return [try pngData()]
            } catch {
                throw .cannotEncode(path: path, reason: error.description)
            }
        }
    }

    /// The image as a PNG file's bytes: 8-bit gray for a gray bitmap; for an RGBA bitmap,
    /// RGB when every pixel is opaque, else RGBA (straight alpha, as PNG stores it).
    ///
    /// - Throws: `ImageError` from the encoder (a PNG of zero pixels).
    public func pngData() throws(ImageError) -> [UInt8] {
        switch format {
        case .gray8: try GrayImage(width: width, height: height, gray: pixels).pngData()
        case .rgba8: try ColorEncoding.pngData(premultipliedRGBA: pixels, width: width, height: height)
        }
    }

    /// The image as binary PPM (P6, maxval 255): each pixel's R, G, B as they are (a gray
    /// level in each for a gray bitmap). PPM has no alpha: an opaque bitmap is written
    /// exactly, a translucent pixel as if drawn over black.
    public func ppmData() -> [UInt8] {
        ColorEncoding.ppmData(premultipliedRGBA: premultipliedRGBA, width: width, height: height)
    }
}
