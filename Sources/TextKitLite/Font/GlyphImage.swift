/// A rasterized glyph: an 8-bit coverage mask placed relative to the pen position.
///
/// Color glyphs (emoji) also carry a premultiplied luminance plane, so they composite as
/// gray images (`dst = dst × (1 − α) + luminance`) instead of taking the ink level, and a
/// premultiplied RGBA plane for color rendering.
struct GlyphImage: Sendable {
    /// Width and height of the mask in pixels.
    var width: Int
    var height: Int
    /// Offset from the pen x to the mask's left column, in pixels.
    var left: Int
    /// Distance from the baseline up to the mask's top row, in pixels.
    var top: Int
    /// Row-major coverage (alpha), `width × height` bytes.
    var coverage: [UInt8]
    /// Premultiplied luminance for color glyphs; nil for ordinary outline glyphs.
    var luminance: [UInt8]?
    /// Premultiplied sRGB color for bitmap color glyphs, row-major, bytes R, G, B, A in
    /// memory (`width × height × 4`), every color channel at most its alpha; nil for
    /// ordinary outline glyphs. Its alpha is `coverage` for a shrunk strike and the smoother
    /// bilinear alpha for an enlarged one (`BGRAImage.scaled(by:left:top:)`).
    var color: [UInt8]? = nil

    /// An image with nothing to draw (a space, or a glyph FreeType could not load).
    static let empty = GlyphImage(width: 0, height: 0, left: 0, top: 0, coverage: [], luminance: nil)

    /// The image grown `strength` pixels right and up (a square maximum filter), as
    /// `FT_Outline_EmboldenXY` grows an outline: synthetic bold for bitmap (color) glyphs.
    /// Each pixel takes the most opaque pixel of its window (by coverage), with that pixel's
    /// luminance and color.
    ///
    /// Of several equally opaque pixels, the topmost, then the rightmost. Two passes of a
    /// one-dimensional sliding maximum (along rows, then down columns, each with a queue of
    /// candidates in decreasing opacity) find the same pixel as a scan of the whole window:
    /// the rightmost most opaque pixel of each row of the window, then the topmost of those.
    ///
    /// - Complexity: O(width × height), whatever the strength: a color glyph drawn very
    ///   large grows by a strength proportional to its size.
    func emboldened(by strength: Int) -> GlyphImage {
        guard strength > 0, width > 0, height > 0 else { return self }
        let r = strength, newWidth = width + r, newHeight = height + r
        var queue = [Int](repeating: 0, count: max(newWidth, newHeight))
        // Pass 1, along each source row: for column x of the grown width, the source column
        // of the most opaque pixel among x − r...x (the rightmost of equals: an equal newcomer
        // replaces the candidates before it).
        var rowBest = [Int32](repeating: 0, count: newWidth * height)
        for y in 0..<height {
            let row = y * width
            var head = 0, tail = 0
            for x in 0..<newWidth {
                if x < width {
                    while tail > head, coverage[row + queue[tail - 1]] <= coverage[row + x] { tail -= 1 }
                    queue[tail] = x
                    tail += 1
                }
                while queue[head] < x - r { head += 1 }
                rowBest[y * newWidth + x] = Int32(queue[head])
            }
        }
        // Pass 2, down each grown column: the most opaque of rows y − r...y (the topmost of
        // equals: an equal newcomer waits behind them).
        var newCoverage = [UInt8](repeating: 0, count: newWidth * newHeight)
        var newLuminance = luminance.map { _ in [UInt8](repeating: 0, count: newWidth * newHeight) }
        var newColor = color.map { _ in [UInt8](repeating: 0, count: newWidth * newHeight * 4) }
        for x in 0..<newWidth {
            /// The source pixel row `oy` offers for this column.
            func pixel(_ oy: Int) -> Int { oy * width + Int(rowBest[oy * newWidth + x]) }
            var head = 0, tail = 0
            for y in 0..<newHeight {
                if y < height {
                    while tail > head, coverage[pixel(queue[tail - 1])] < coverage[pixel(y)] { tail -= 1 }
                    queue[tail] = y
                    tail += 1
                }
                while queue[head] < y - r { head += 1 }
                let best = pixel(queue[head])
                newCoverage[y * newWidth + x] = coverage[best]
                if let luminance { newLuminance![y * newWidth + x] = luminance[best] }
                if let color {
                    let o = (y * newWidth + x) * 4
                    newColor![o..<o + 4] = color[best * 4..<best * 4 + 4]
                }
            }
        }
        return GlyphImage(width: newWidth, height: newHeight, left: left, top: top + r, coverage: newCoverage,
                          luminance: newLuminance, color: newColor)
    }

    /// The smallest rectangle of the mask holding every pixel of non-zero coverage, in the
    /// mask's pixels (FreeType's masks may have blank rows and columns at their edges); nil
    /// when nothing is covered.
    ///
    /// - Complexity: O(width × height).
    func coveredRect() -> (x: Int, y: Int, width: Int, height: Int)? {
        var minX = width, minY = height, maxX = -1, maxY = -1
        for row in 0..<height {
            let start = row * width
            guard let first = coverage[start..<start + width].firstIndex(where: { $0 != 0 }),
                  let last = coverage[start..<start + width].lastIndex(where: { $0 != 0 }) else { continue }
            minX = min(minX, first - start)
            maxX = max(maxX, last - start)
            if maxY < 0 { minY = row }
            maxY = row
        }
        return maxY < 0 ? nil : (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }

    /// Memory held by the pixel planes, used to bound the glyph cache.
    var byteCount: Int { coverage.count + (luminance?.count ?? 0) + (color?.count ?? 0) + 48 }
}
