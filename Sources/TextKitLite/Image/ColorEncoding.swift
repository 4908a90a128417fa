/// The file formats of color bitmaps: premultiplied RGBA8 in, PNG (`pngData(premultipliedRGBA:width:height:)`,
/// beside the other calls into CPNG in PNG.swift) or binary PPM out, and PPM read back.
///
/// Premultiplied RGBA8 is `width × height × 4` bytes, row by row, R, G, B, A of each pixel
/// (the byte order of Skia's RGBA_8888 and of cairo's ARGB32 on a big-endian machine), sRGB
/// as drawn, each color component already multiplied by A / 255.
enum ColorEncoding {
    /// Premultiplied RGBA as binary PPM (Netpbm P6, maxval 255): the header, then the R, G, B
    /// of each pixel as they are. PPM has no alpha: an opaque pixel is written exactly; a
    /// translucent one is written as its premultiplied color, which is that pixel drawn over
    /// black.
    ///
    /// - Parameters:
    ///   - premultipliedRGBA: `width × height × 4` bytes, R, G, B, A of each pixel, row by row.
    ///   - width: width in pixels.
    ///   - height: height in pixels.
    /// - Precondition: `premultipliedRGBA` holds `width × height × 4` bytes.
    /// - Complexity: O(pixels).
    static func ppmData(premultipliedRGBA: [UInt8], width: Int, height: Int) -> [UInt8] {
        precondition(width >= 0 && height >= 0 && premultipliedRGBA.count == 4 * width * height,
                     "\(premultipliedRGBA.count) bytes of RGBA for \(width)×\(height) pixels")
        let header = Array("P6\n\(width) \(height)\n255\n".utf8), count = width * height
        return [UInt8](unsafeUninitializedCapacity: header.count + 3 * count) { bytes, initialized in
            _ = bytes.initialize(from: header)
            premultipliedRGBA.withUnsafeBytes { rgba in
                let source = rgba.baseAddress!, out = UnsafeMutableRawPointer(bytes.baseAddress! + header.count)
                // Four pixels (16 bytes, little-endian words) become three words of R, G, B.
                var pixel = 0
                while pixel + 4 <= count {
                    let p = source.loadUnaligned(fromByteOffset: 4 * pixel, as: SIMD4<UInt32>.self)
                    let words = SIMD4<UInt32>(p[0] & 0xFF_FFFF | p[1] << 24, p[1] >> 8 & 0xFFFF | p[2] << 16, p[2] >> 16 & 0xFF | p[3] << 8, 0)
                    out.storeBytes(of: UInt32(littleEndian: words[0]), toByteOffset: 3 * pixel, as: UInt32.self)
                    out.storeBytes(of: UInt32(littleEndian: words[1]), toByteOffset: 3 * pixel + 4, as: UInt32.self)
                    out.storeBytes(of: UInt32(littleEndian: words[2]), toByteOffset: 3 * pixel + 8, as: UInt32.self)
                    pixel += 4
                }
                while pixel < count {
                    (out + 3 * pixel).copyMemory(from: source + 4 * pixel, byteCount: 3)
                    pixel += 1
                }
            }
            initialized = header.count + 3 * count
        }
    }

    /// Whether every alpha of premultiplied RGBA is 255: the AND of every pixel, four bytes
    /// at a time (the compiler vectorizes it).
    ///
    /// - Complexity: O(pixels).
    static func isOpaque(premultipliedRGBA: [UInt8]) -> Bool {
        premultipliedRGBA.withUnsafeBytes { bytes in
            var all: UInt32 = 0xFFFF_FFFF, offset = 0
            while offset + 4 <= bytes.count {
                all &= bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                offset += 4
            }
            return UInt32(littleEndian: all) >> 24 == 0xFF  // alpha is the fourth byte
        }
    }

    /// Reads a binary PPM (Netpbm P6, maxval 255): its size and its R, G, B bytes, row by row.
    ///
    /// - Parameter data: the whole file: "P6", width, height and "255" separated by white
    ///   space (and `#` comments to the end of a line), one white-space byte, the raster.
    /// - Returns: nil when the data is not such a file or its raster is shorter than
    ///   `width × height × 3` bytes (checked before anything is allocated for it); bytes
    ///   after the raster are ignored.
    /// - Complexity: O(data).
    static func rgb(ppm data: [UInt8]) -> (width: Int, height: Int, rgb: [UInt8])? {
        var index = 0
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        func token() -> String? {
            while index < data.count {
                if data[index] == UInt8(ascii: "#") {
                    while index < data.count, data[index] != 0x0A { index += 1 }
                } else if isSpace(data[index]) {
                    index += 1
                } else { break }
            }
            let start = index
            while index < data.count, !isSpace(data[index]) { index += 1 }
            return start < index ? String(decoding: data[start..<index], as: UTF8.self) : nil
        }
        guard token() == "P6", let width = token().flatMap(Int.init), let height = token().flatMap(Int.init),
              width >= 0, height >= 0, token() == "255", index < data.count else { return nil }
        index += 1  // the single white-space byte before the raster
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, count <= (data.count - index) / 3 else { return nil }
        return (width, height, Array(data[index..<(index + 3 * count)]))
    }
}
