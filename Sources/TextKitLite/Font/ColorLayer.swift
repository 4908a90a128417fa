/// One layer of a COLRv0 color glyph (OpenType `COLR` version 0): an ordinary glyph of the
/// same font, filled with one color. A color glyph paints its layers bottom first
/// (`Font.colorLayers(of:)`).
package struct ColorLayer: Sendable, Hashable {
    /// The glyph whose outline the layer fills, in the same font.
    package let glyph: UInt32
    /// The fill, from the font's palette 0 (sRGB, straight alpha); nil for the text's own
    /// foreground ink (`COLR`'s palette index 0xFFFF).
    package let color: Color?

    /// The palette index `COLR` uses for "the text's foreground color".
    static let foregroundIndex = 0xFFFF
}
