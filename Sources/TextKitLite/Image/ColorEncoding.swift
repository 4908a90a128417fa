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
            premultipliedRGBA.withUnsafeBufferPointer { rgba in
                var out = header.count
                for pixel in 0..<count {
                    bytes[out] = rgba[4 * pixel]
                    bytes[out + 1] = rgba[4 * pixel + 1]
                    bytes[out + 2] = rgba[4 * pixel + 2]
                    out += 3
                }
            }
            initialized = header.count + 3 * count
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
