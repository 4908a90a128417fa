/// How a layout is drawn.
public struct RenderOptions: Sendable, Hashable {
    /// The default bitmap size limit: 64 Mpx (64 MiB of gray pixels).
    public static let defaultMaxPixels = 64 << 20

    /// Pixels per point (1×, 2×, 3×).
    public var scale: Double
    /// The bitmap's pixel format: 8-bit gray (the default) or premultiplied RGBA.
    public var format: Bitmap.PixelFormat
    /// The background the bitmap is filled with (white); a gray bitmap takes its gray level
    /// over white.
    public var background: Color
    /// Draw line boxes and baselines over the text, and the layout's exclusion shapes under it.
    public var debug: Bool
    /// A bitmap with more pixels than this is refused with `RenderError.bitmapTooLarge`.
    public var maxPixels: Int
    /// What `TextRenderer.render` does with ink outside the layout's box (stacked marks
    /// above the first line, an italic overhang left of x = 0): by default the bitmap grows
    /// to hold it; `.clip` keeps the bitmap to the box.
    public var inkOverflow: InkOverflow

    public init(scale: Double = 1, format: Bitmap.PixelFormat = .gray8, background: Color = .white, debug: Bool = false,
                maxPixels: Int = RenderOptions.defaultMaxPixels, inkOverflow: InkOverflow = .include) {
        self.scale = scale
        self.format = format
        self.background = background
        self.debug = debug
        self.maxPixels = maxPixels
        self.inkOverflow = inkOverflow
    }

    /// Checks the scale and the pixel limit.
    public func validate() throws(RenderError) {
        guard scale.isFinite, scale > 0, scale <= 100 else {
            throw .invalidOption(name: "scale", value: "\(scale)", reason: "must be in (0, 100]")
        }
        guard maxPixels > 0 else { throw .invalidOption(name: "maxPixels", value: "\(maxPixels)", reason: "must be positive") }
    }

    /// Refuses a box (in points) whose bitmap at this scale would hold more than `maxPixels`
    /// pixels, as drawing it would: a caller that measured a text can refuse it before
    /// laying it out. Ink outside the box can only add pixels.
    ///
    /// - Throws: `RenderError.bitmapTooLarge`.
    public func checkPixels(width: Double, height: Double) throws(RenderError) {
        try Bitmap.checkSize(width: pixels(width), height: pixels(height), maxPixels: maxPixels)
    }

    /// A position already scaled to pixels, rounded to a whole pixel and clamped to ±10⁹:
    /// far outside any bitmap, and far from overflowing when a size is added to it.
    package static func wholePixel(_ scaled: Double) -> Int {
        Int(saturating: max(-1e9, min(1e9, scaled.rounded())))
    }

    /// The pixel size of a length in points at this scale, rounded up: the size of the
    /// bitmap a layout or a cell of that size is drawn into (`TextRenderer.render` with
    /// `.clip`, `CellRenderer.render`), so a view can be sized before its bitmap comes.
    /// A length within a millionth of a pixel below a whole pixel is that pixel.
    ///
    /// - Parameter points: a length in points.
    /// - Returns: pixels, from 0 (a negative length) to `Int32.max` (an infinite or NaN one,
    ///   which any size limit refuses).
    /// - Complexity: O(1).
    public func pixels(_ points: Double) -> Int {
        let value = (points * scale - 1e-6).rounded(.up)
        return value.isNaN ? Int(Int32.max) : max(0, Int(Int32(saturating: value)))  // NaN: as large as can be, refused
    }
}

extension RenderOptions {
    /// Ink outside a layout's box, in a rendered bitmap.
    public enum InkOverflow: String, Sendable, Hashable, CaseIterable {
        /// The bitmap is the box grown to every inked pixel (the union of the box and the drawn
        /// ink, whole pixels), with the layout's origin offset inside it
        /// (`TextRenderer.Outcome.originX`, `originY`); a bitmap whose ink fits the box is the box.
        case include
        /// The bitmap is exactly the box (its size × scale, rounded up); ink outside is cut.
        case clip
    }
}
