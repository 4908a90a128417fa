/// What a render produced.
public struct RenderOutcome: Sendable {
    /// The finished bitmap; nil when the render was cancelled.
    public let bitmap: Bitmap?
    /// Lines drawn before finishing or stopping.
    public let linesDrawn: Int

    public var isCancelled: Bool { bitmap == nil }
}

/// Draws text layouts into 8-bit grayscale bitmaps with FreeType glyphs: antialiased, at
/// subpixel x positions (4 phases), baselines snapped to whole pixels, every glyph
/// rasterized once per size and phase (see `GlyphCache`).
///
/// The drawing loop calls `isCancelled` before each line and stops there when it returns
/// true, as YYAsyncLayer's display block does.
public struct TextRenderer: Sendable {
    public let glyphCache: GlyphCache

    public init(glyphCache: GlyphCache = .shared) {
        self.glyphCache = glyphCache
    }

    /// Renders a layout into a new bitmap of the layout's size at `options.scale`.
    ///
    /// - Parameters:
    ///   - layout: the text to draw (not a measure-only layout).
    ///   - options: scale, background, debug overlay, size limit.
    ///   - isCancelled: asked before each line; true stops the render (no bitmap).
    ///   - lineDrawn: called after each line with its index (a test and progress hook).
    /// - Throws: `RenderError` for invalid options, a bitmap over the size limit or a
    ///   measure-only layout.
    public func render(
        _ layout: TextLayout, options: RenderOptions = RenderOptions(),
        isCancelled: () -> Bool = { false }, lineDrawn: (Int) -> Void = { _ in }
    ) throws(RenderError) -> RenderOutcome {
        try options.validate()
        guard !layout.options.measureOnly else { throw .measureOnlyLayout }
        if isCancelled() { return RenderOutcome(bitmap: nil, linesDrawn: 0) }
        var bitmap = try Bitmap(width: options.pixels(layout.size.width), height: options.pixels(layout.size.height),
                                fill: options.background, maxPixels: options.maxPixels)
        let drawn = draw(layout, into: &bitmap, x: 0, y: 0, options: options, isCancelled: isCancelled, lineDrawn: lineDrawn)
        guard drawn == layout.lines.count else { return RenderOutcome(bitmap: nil, linesDrawn: drawn) }
        return RenderOutcome(bitmap: bitmap, linesDrawn: drawn)
    }

    /// Draws a layout into an existing bitmap with its origin at (x, y) points, clipped
    /// to the bitmap. Checks `isCancelled` before each line.
    ///
    /// - Returns: the number of lines drawn (fewer than the layout's when cancelled).
    @discardableResult
    public func draw(
        _ layout: TextLayout, into bitmap: inout Bitmap, x originX: Double, y originY: Double,
        options: RenderOptions, isCancelled: () -> Bool = { false }, lineDrawn: (Int) -> Void = { _ in }
    ) -> Int {
        let scale = options.scale
        var drawn = 0
        for (index, line) in layout.lines.enumerated() {
            if isCancelled() { return drawn }
            if options.debug { drawDebug(line, into: &bitmap, x: originX, y: originY, scale: scale) }
            let baseline = ((originY + line.baseline) * scale).rounded()
            // Underlines under the glyphs, strikethroughs over them (as browsers paint them).
            drawDecorations(.underline, of: line, into: &bitmap, x: originX, baseline: baseline, scale: scale)
            for run in line.runs {
                let pixelSize = run.fontSize * scale
                for (glyph, position) in zip(run.glyphs, run.positions) {
                    let penX = (originX + Double(position.x)) * scale
                    var whole = penX.rounded(.down)
                    var phase = Int(((penX - whole) * Double(GlyphCache.phases)).rounded())
                    if phase == GlyphCache.phases {
                        whole += 1
                        phase = 0
                    }
                    guard whole.magnitude < 1e9 else { continue }
                    let image = glyphCache.image(font: run.font, glyph: glyph, pixelSize: pixelSize, phase: phase)
                    guard image.width > 0 else { continue }
                    let top = Int(baseline + (Double(position.y) * scale).rounded()) - image.top
                    blit(image, into: &bitmap, x: Int(whole) + image.left, y: top, ink: run.style.ink)
                }
            }
            for placed in line.attachments { drawAttachment(placed, of: layout, into: &bitmap, x: originX, y: originY, scale: scale) }
            drawDecorations(.strikethrough, of: line, into: &bitmap, x: originX, baseline: baseline, scale: scale)
            drawn += 1
            lineDrawn(index)
        }
        return drawn
    }

    /// Composites a glyph over the bitmap. Branch-free per pixel (zero coverage leaves the
    /// pixel as it is: (p × 255 + 127) / 255 = p), in wrapping 32-bit arithmetic that cannot
    /// overflow (at most 255 × 255 + 127), so the compiler can vectorize the rows.
    private func blit(_ image: GlyphImage, into bitmap: inout Bitmap, x: Int, y: Int, ink: UInt8) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(bitmap.width, x + image.width), y1 = min(bitmap.height, y + image.height)
        guard x0 < x1, y0 < y1 else { return }
        let width = bitmap.width, count = x1 - x0
        let inkLevel = UInt32(ink)
        bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
            image.coverage.withUnsafeBufferPointer { coverage in
                guard let pixelBase = pixels.baseAddress, let coverageBase = coverage.baseAddress else { return }
                if let luminance = image.luminance {
                    // Color glyph: premultiplied gray image over the background.
                    luminance.withUnsafeBufferPointer { lum in
                        guard let lumBase = lum.baseAddress else { return }
                        for row in y0..<y1 {
                            let source = (row - y) * image.width + (x0 - x)
                            let a = coverageBase + source, l = lumBase + source
                            let d = pixelBase + (row * width + x0)
                            for k in 0..<count {
                                let alpha = UInt32(a[k])
                                let value = (UInt32(d[k]) &* (255 &- alpha) &+ 127) / 255 &+ UInt32(l[k])
                                d[k] = UInt8(truncatingIfNeeded: Swift.min(255, value))
                            }
                        }
                    }
                } else {
                    for row in y0..<y1 {
                        let c = coverageBase + ((row - y) * image.width + (x0 - x))
                        let d = pixelBase + (row * width + x0)
                        for k in 0..<count {
                            let cover = UInt32(c[k])
                            d[k] = UInt8(truncatingIfNeeded: (UInt32(d[k]) &* (255 &- cover) &+ inkLevel &* cover &+ 127) / 255)
                        }
                    }
                }
            }
        }
    }

    /// Draws an image attachment in its box (snapped to pixels); a box attachment is the
    /// caller's to draw.
    private func drawAttachment(_ placed: LayoutAttachment, of layout: TextLayout, into bitmap: inout Bitmap,
                                x originX: Double, y originY: Double, scale: Double) {
        let text = placed.isTruncationToken ? layout.options.truncationToken : layout.text
        guard case .image(let image)? = text?.attachment(at: placed.offset)?.content else { return }
        let rect = placed.rect.offsetBy(dx: originX, dy: originY)
        let left = (rect.x * scale).rounded(), top = (rect.y * scale).rounded()
        let right = (rect.maxX * scale).rounded(), bottom = (rect.maxY * scale).rounded()
        guard left.magnitude < 1e9, top.magnitude < 1e9, right.magnitude < 1e9, bottom.magnitude < 1e9 else { return }
        bitmap.draw(image, x: Int(left), y: Int(top), width: Int(right - left), height: Int(bottom - top))
    }

    /// Strokes a line's decorations of one kind, snapped to whole pixels, at least one thick.
    private func drawDecorations(_ kind: Decorations.Kind, of line: LayoutLine, into bitmap: inout Bitmap,
                                 x originX: Double, baseline: Double, scale: Double) {
        for stroke in Decorations.strokes(line, kind) {
            let thickness = max(1, (stroke.thickness * scale).rounded())
            let top = (baseline + stroke.offset * scale - thickness / 2).rounded()
            let left = ((originX + stroke.x) * scale).rounded(), right = ((originX + stroke.x + stroke.width) * scale).rounded()
            guard top.magnitude < 1e9, left.magnitude < 1e9, right.magnitude < 1e9, right > left else { continue }
            bitmap.fill(x: Int(left), y: Int(top), width: Int(right - left), height: Int(thickness), level: stroke.ink)
        }
    }

    /// Line box outline (light gray) and baseline (mid gray).
    private func drawDebug(_ line: LayoutLine, into bitmap: inout Bitmap, x: Double, y: Double, scale: Double) {
        func px(_ value: Double) -> Int {
            let scaled = (value * scale).rounded()
            return scaled.isFinite ? Int(max(-1e9, min(1e9, scaled))) : 0
        }
        let frame = line.frame.offsetBy(dx: x, dy: y)
        bitmap.strokeRectangle(x: px(frame.x), y: px(frame.y), width: max(1, px(frame.maxX) - px(frame.x)),
                               height: max(1, px(frame.maxY) - px(frame.y)), level: 170)
        bitmap.fill(x: px(frame.x), y: px(y + line.baseline), width: max(1, px(frame.maxX) - px(frame.x)),
                    height: 1, level: 110)
    }
}
