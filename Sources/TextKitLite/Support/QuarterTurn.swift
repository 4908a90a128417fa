/// Turns a raster a quarter turn: what drawing a vertical layout needs, whose lines are
/// drawn as horizontal lines and then turned (`TextLayout`'s line coordinates).
enum QuarterTurn {
    /// The pixels of a `width × height` raster of `channels` elements a pixel, turned
    /// clockwise (its left column becomes the top row) or counter-clockwise: a
    /// `height × width` raster.
    static func turned<Element>(_ pixels: [Element], width: Int, height: Int, channels: Int = 1, clockwise: Bool) -> [Element] {
        guard let first = pixels.first else { return pixels }
        var result = [Element](repeating: first, count: pixels.count)
        result.withUnsafeMutableBufferPointer { out in
            pixels.withUnsafeBufferPointer { source in
                for y in 0..<height {
                    for x in 0..<width {
                        // Clockwise: (x, y) goes to column height − 1 − y of row x; else to column y of row width − 1 − x.
                        let target = clockwise ? x * height + (height - 1 - y) : (width - 1 - x) * height + y
                        let from = (y * width + x) * channels, to = target * channels
                        for c in 0..<channels { out[to + c] = source[from + c] }
                    }
                }
            }
        }
        return result
    }
}

extension Bitmap {
    /// The bitmap turned a quarter, clockwise or counter-clockwise.
    func turned(clockwise: Bool) -> Bitmap {
        Bitmap(width: height, height: width, format: format,
               pixels: QuarterTurn.turned(pixels, width: width, height: height, channels: format.bytesPerPixel, clockwise: clockwise))
    }
}

extension GrayImage {
    /// The image turned a quarter counter-clockwise: an upright attachment of a vertical
    /// layout, drawn in its line coordinates before they are turned back.
    func turnedCounterClockwise() -> GrayImage {
        GrayImage(width: height, height: width, gray: QuarterTurn.turned(gray, width: width, height: height, clockwise: false),
                  alpha: QuarterTurn.turned(alpha, width: width, height: height, clockwise: false),
                  rgb: rgb.map { QuarterTurn.turned($0, width: width, height: height, channels: 3, clockwise: false) })
    }
}

extension GlyphImage {
    /// An upright glyph of a vertical layout in line coordinates: the glyph turned a quarter
    /// counter-clockwise, placed from its vertical origin, which lies `origin` whole pixels
    /// (right, up) from its horizontal origin. Turned back with the line, it stands upright
    /// with its vertical origin at the pen.
    func uprightInLine(origin: (x: Int, y: Int)) -> GlyphImage {
        guard width > 0, height > 0 else { return self }
        // Pixel (u, v) lies at (left + u − origin.x, origin.y − top + v) from the vertical origin
        // (right, down); in line coordinates that is x = its down, y = minus its right.
        return GlyphImage(width: height, height: width, left: origin.y - top, top: width + left - origin.x,
                          coverage: QuarterTurn.turned(coverage, width: width, height: height, clockwise: false),
                          luminance: luminance.map { QuarterTurn.turned($0, width: width, height: height, clockwise: false) },
                          color: color.map { QuarterTurn.turned($0, width: width, height: height, channels: 4, clockwise: false) })
    }
}
