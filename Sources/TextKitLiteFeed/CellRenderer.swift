import TextKitLite

/// Draws a precomputed `CellLayout` (boxes and text layouts) into a bitmap, without
/// shaping: what a client does with layouts a server computed. Draw a feed cell with its
/// theme's background (`FeedTheme.background` as `RenderOptions.background`).
public struct CellRenderer: Sendable {
    public let textRenderer: TextRenderer

    public init(textRenderer: TextRenderer = TextRenderer()) {
        self.textRenderer = textRenderer
    }

    /// Renders a cell at `options.scale`. Checks `isCancelled` before each element and
    /// before each text line.
    ///
    /// - Returns: the bitmap, or nil when cancelled.
    /// - Throws: `RenderError` for invalid options, a bitmap over the size limit or a cell
    ///   laid out by a measure-only precomputer.
    public func render(_ cell: CellLayout, options: RenderOptions = RenderOptions(scale: 2),
                       isCancelled: () -> Bool = { false }) throws(RenderError) -> Bitmap? {
        try options.validate()
        guard !cell.elements.contains(where: { $0.text?.options.measureOnly == true }) else { throw .measureOnlyLayout }
        var bitmap = try Bitmap(width: options.pixels(cell.width), height: options.pixels(cell.height), format: options.format,
                                background: options.background, maxPixels: options.maxPixels)
        let scale = options.scale
        func px(_ value: Double) -> Int { RenderOptions.wholePixel(value * scale) }
        for element in cell.elements {
            if isCancelled() { return nil }
            let frame = element.frame
            switch element.kind {
            case .box:
                let (x, y) = (px(frame.x), px(frame.y))
                let (w, h) = (px(frame.maxX) - x, px(frame.maxY) - y)
                if let fill = element.fill { bitmap.fill(x: x, y: y, width: w, height: h, color: fill) }
                if let stroke = element.stroke { bitmap.strokeRectangle(x: x, y: y, width: w, height: h, color: stroke) }
            case .text:
                guard let layout = element.text else { continue }
                let lines = textRenderer.draw(layout, into: &bitmap, x: frame.x, y: frame.y, options: options, isCancelled: isCancelled)
                if lines < layout.lineCount { return nil }
            }
        }
        return bitmap
    }
}
