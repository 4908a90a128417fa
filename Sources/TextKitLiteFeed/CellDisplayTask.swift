import TextKitLite

extension DisplayTask {
    /// A task that draws a cell layout, as `CellRenderer.render` does (same pixels, same
    /// bitmap size): `width` and `height` are the cell's size at `options.scale`
    /// (`RenderOptions.pixels(_:)`), from its layout. Run it on a `RenderTarget` through an
    /// `AsyncRenderer` (its `RenderQueuePool`) as a `text` task; a request superseded or
    /// cancelled while it draws stops before the next element or text line and delivers no
    /// bitmap.
    ///
    /// - Parameters:
    ///   - cell: the cell to draw (`CellLayout(spec:width:engine:id:)`, or a feed's).
    ///   - renderer: draws the cell: its text renderer (and glyph cache) and picture source.
    ///   - options: scale, pixel format, background, size limit.
    ///   - willDisplay: called on the caller's side before the work starts.
    ///   - didDisplay: called on the callback queue with the outcome.
    /// - Throws: `RenderError.invalidOption` for invalid render options. A cell over the
    ///   size limit fails on the worker (`DisplayTask.Outcome.error`).
    /// - Complexity: O(*n*) in the cell's elements to make; drawing is on the worker.
    public static func cell(
        _ cell: CellLayout, renderer: CellRenderer = CellRenderer(), options: RenderOptions = RenderOptions(),
        willDisplay: @escaping @Sendable (RenderTarget) -> Void = { _ in },
        didDisplay: @escaping @Sendable (RenderTarget, DisplayTask.Outcome) -> Void = { _, _ in }
    ) throws(RenderError) -> DisplayTask {
        try options.validate()
        return DisplayTask(
            width: options.pixels(cell.width), height: options.pixels(cell.height), format: options.format,
            background: options.background, maxPixels: options.maxPixels, willDisplay: willDisplay,
            display: { bitmap, isCancelled in
                // A cancelled drawing is reported by the task itself, which asks again after it.
                _ = renderer.draw(cell, into: &bitmap, options: options, isCancelled: isCancelled)
            },
            didDisplay: didDisplay)
    }
}
