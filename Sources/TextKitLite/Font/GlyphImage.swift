/// A rasterized glyph: an 8-bit coverage mask placed relative to the pen position.
///
/// Color glyphs (emoji) also carry a premultiplied luminance plane, so they composite as
/// gray images (`dst = dst × (1 − α) + luminance`) instead of taking the ink level.
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

    /// An image with nothing to draw (a space, or a glyph FreeType could not load).
    static let empty = GlyphImage(width: 0, height: 0, left: 0, top: 0, coverage: [], luminance: nil)

    /// Memory held by the pixel planes, used to bound the glyph cache.
    var byteCount: Int { coverage.count + (luminance?.count ?? 0) + 48 }
}
