import TextKitLite
import TextKitLiteMedia

/// Draws a precomputed `CellLayout` (boxes, pictures and text layouts) into a bitmap,
/// without shaping: what a client does with layouts a server computed. Draw a feed cell
/// with its theme's background (`FeedTheme.background` as `RenderOptions.background`).
public struct CellRenderer: Sendable {
    public let textRenderer: TextRenderer
    /// Gives the pictures (decoded, scaled and cropped to their frames' pixels); nil draws
    /// every picture as its placeholder box.
    public let pictures: (any PictureSource)?

    public init(textRenderer: TextRenderer = TextRenderer(), pictures: (any PictureSource)? = nil) {
        self.textRenderer = textRenderer
        self.pictures = pictures
    }

    /// Renders a cell at `options.scale`. Checks `isCancelled` before each element (a
    /// picture is decoded and scaled, or found in its source's cache, as its element is
    /// drawn) and before each text line. A picture its source cannot give is drawn as its
    /// placeholder: its box, filled and outlined.
    ///
    /// - Returns: the bitmap, or nil when cancelled.
    /// - Throws: `RenderError` for invalid options or a bitmap over the size limit.
    public func render(_ cell: CellLayout, options: RenderOptions = RenderOptions(scale: 2),
                       isCancelled: () -> Bool = { false }) throws(RenderError) -> Bitmap? {
        try options.validate()
        var bitmap = try Bitmap(width: options.pixels(cell.width), height: options.pixels(cell.height), format: options.format,
                                background: options.background, maxPixels: options.maxPixels)
        return draw(cell, into: &bitmap, options: options, isCancelled: isCancelled) ? bitmap : nil
    }

    /// Draws a cell into a bitmap at `options.scale`, its origin at the bitmap's (what
    /// `render` and `DisplayTask.cell` draw), checking `isCancelled` as `render` does.
    ///
    /// - Returns: false when cancelled.
    func draw(_ cell: CellLayout, into bitmap: inout Bitmap, options: RenderOptions, isCancelled: () -> Bool) -> Bool {
        let scale = options.scale
        func px(_ value: Double) -> Int { RenderOptions.wholePixel(value * scale) }
        for element in cell.elements {
            if isCancelled() { return false }
            let frame = element.frame
            switch element.kind {
            case .box, .picture:
                let (x, y) = (px(frame.x), px(frame.y))
                let (w, h) = (px(frame.maxX) - x, px(frame.maxY) - y)
                if let picture = element.picture, w > 0, h > 0, let image = pictures?.image(picture, width: w, height: h) {
                    bitmap.draw(image, x: x, y: y, width: w, height: h)
                    continue
                }
                if let fill = element.fill, element.picture?.shape == .circle, w > 0, h > 0 {
                    bitmap.draw(Self.disk(fill, width: w, height: h), x: x, y: y, width: w, height: h)
                    continue
                }
                if let fill = element.fill { bitmap.fill(x: x, y: y, width: w, height: h, color: fill) }
                if let stroke = element.stroke { bitmap.strokeRectangle(x: x, y: y, width: w, height: h, color: stroke) }
            case .text:
                guard let layout = element.text else { continue }
                let lines = textRenderer.draw(layout, into: &bitmap, x: frame.x, y: frame.y, options: options, isCancelled: isCancelled)
                if lines < layout.lineCount { return false }
            }
        }
        return true
    }

    /// A round picture's placeholder: its fill in the ellipse inscribed in `width × height`
    /// pixels, with the picture's anti-aliased edge.
    private static func disk(_ fill: Color, width: Int, height: Int) -> GrayImage {
        let count = width * height
        var rgb: [UInt8] = []
        rgb.reserveCapacity(3 * count)
        for _ in 0..<count { rgb += [fill.red, fill.green, fill.blue] }
        return GrayImage(width: width, height: height, gray: Array(repeating: fill.grayLevel, count: count),
                         alpha: Array(repeating: fill.alpha, count: count), rgb: rgb).masked(to: .circle)
    }
}
