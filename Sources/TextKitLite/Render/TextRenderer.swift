internal import CBlend

extension TextRenderer {
    /// What a render produced.
    public struct Outcome: Sendable {
        /// The finished bitmap; nil when the render was cancelled.
        public let bitmap: Bitmap?
        /// Lines drawn before finishing or stopping.
        public let linesDrawn: Int
        /// Where the layout's origin lies in the bitmap, in pixels from its left and top edges:
        /// 0 unless ink overflows the box to the left or above (`RenderOptions.inkOverflow`).
        public let originX: Int
        public let originY: Int

        public var isCancelled: Bool { bitmap == nil }

        init(bitmap: Bitmap?, linesDrawn: Int, originX: Int = 0, originY: Int = 0) {
            self.bitmap = bitmap
            self.linesDrawn = linesDrawn
            self.originX = originX
            self.originY = originY
        }
    }
}

/// A rectangle of whole pixels (from `minX`, `minY` up to, not including, `maxX`, `maxY`).
struct PixelFrame: Equatable, Sendable {
    var minX: Int, minY: Int, maxX: Int, maxY: Int

    var width: Int { maxX - minX }
    var height: Int { maxY - minY }

    /// Grows to hold a non-empty rectangle.
    mutating func include(x: Int, y: Int, width: Int, height: Int) {
        guard width > 0, height > 0 else { return }
        minX = min(minX, x)
        minY = min(minY, y)
        maxX = max(maxX, x + width)
        maxY = max(maxY, y + height)
    }
}

/// Draws text layouts into 8-bit gray or premultiplied RGBA bitmaps with FreeType glyphs: antialiased, at
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

    /// Renders a layout into a new bitmap of the layout's size at `options.scale`, grown to
    /// every pixel of ink outside it unless `options.inkOverflow` is `.clip`; the outcome
    /// tells where the layout's origin lies in the bitmap.
    ///
    /// - Parameters:
    ///   - layout: the text to draw.
    ///   - options: scale, background, debug overlay, size limit.
    ///   - isCancelled: asked before each line; true stops the render (no bitmap).
    ///   - lineDrawn: called after each line with its index (a test and progress hook).
    /// - Throws: `RenderError` for invalid options or a bitmap over the size limit.
    public func render(
        _ layout: TextLayout, options: RenderOptions = RenderOptions(),
        isCancelled: () -> Bool = { false }, lineDrawn: (Int) -> Void = { _ in }
    ) throws(RenderError) -> Outcome {
        try options.validate()
        if isCancelled() { return Outcome(bitmap: nil, linesDrawn: 0) }
        let frame = self.frame(of: layout, options: options)
        var bitmap = try Bitmap(width: frame.width, height: frame.height, format: options.format, background: options.background,
                                maxPixels: options.maxPixels)
        let drawn = draw(layout, into: &bitmap, x: 0, y: 0, shiftX: -frame.minX, shiftY: -frame.minY, options: options,
                         isCancelled: isCancelled, lineDrawn: lineDrawn)
        guard drawn == layout.lines.count else { return Outcome(bitmap: nil, linesDrawn: drawn) }
        return Outcome(bitmap: bitmap, linesDrawn: drawn, originX: -frame.minX, originY: -frame.minY)
    }

    /// The layout's box in pixels at `options.scale`, its origin at (0, 0).
    func box(of layout: TextLayout, options: RenderOptions) -> PixelFrame {
        PixelFrame(minX: 0, minY: 0, maxX: options.pixels(layout.size.width), maxY: options.pixels(layout.size.height))
    }

    /// The pixels `render` makes a bitmap of, in the box's pixel coordinates: the box, grown
    /// to every pixel `draw` inks outside it when `options.inkOverflow` is `.include`.
    ///
    /// Exact, not estimated: a glyph whose ink box (`Font.inkBox`, unhinted) lies more than
    /// `inkMargin` pixels inside the box is skipped; any other glyph's mask is taken from the
    /// glyph cache (rasterized now rather than a moment later, while drawing) and, when it
    /// reaches past the frame so far, its covered pixels are added; decorations and image
    /// attachments are placed as `draw` places them. A line's pen positions and baseline are
    /// rounded as in `draw` at the origin, so the frame holds exactly the pixels drawn.
    func frame(of layout: TextLayout, options: RenderOptions) -> PixelFrame {
        guard layout.isVertical else { return lineFrame(of: layout, options: options) }
        // Found on the lines, then turned clockwise with them.
        let lines = lineFrame(of: layout, options: options), width = options.pixels(layout.size.width)
        return PixelFrame(minX: width - lines.maxY, minY: lines.minX, maxX: width - lines.minY, maxY: lines.maxX)
    }

    /// `frame(of:options:)` in line coordinates (the layout's own for horizontal lines).
    private func lineFrame(of layout: TextLayout, options: RenderOptions) -> PixelFrame {
        let box = PixelFrame(minX: 0, minY: 0, maxX: options.pixels(layout.lineSize.width), maxY: options.pixels(layout.lineSize.height))
        guard options.inkOverflow == .include else { return box }
        var frame = box
        let scale = options.scale, margin = Double(Self.inkMargin)
        let inside = (minX: margin, minY: margin, maxX: Double(box.maxX) - margin, maxY: Double(box.maxY) - margin)
        for line in layout.lines {
            let baseline = (line.baseline * scale).rounded()
            for run in line.runs {
                let strike = GlyphCache.Strike(font: run.font, pixelSize: run.fontSize * scale, format: options.format, upright: run.isUpright)
                /// Grows the frame to a glyph's mask at `pen`, unless its ink lies well inside.
                func include(_ glyph: UInt32, at position: GlyphRun.Position, pen: (x: Int, phase: Int, y: Int)) {
                    // (An upright glyph's ink box is not in line coordinates: its mask is always looked at.)
                    if !run.isUpright, let ink = run.font.inkBox(glyph: glyph, size: run.fontSize) {
                        let left = (Double(position.x) + ink.x) * scale, right = left + ink.width * scale
                        let top = Double(pen.y) + ink.y * scale, bottom = top + ink.height * scale
                        if left >= inside.minX, top >= inside.minY, right <= inside.maxX, bottom <= inside.maxY { return }
                    }
                    let cached = glyphCache.glyph(glyph, phase: pen.phase, in: strike)
                    let x = pen.x + cached.left, y = pen.y - cached.top
                    // Only the covered pixels count: a mask may have blank edges.
                    guard x < frame.minX || y < frame.minY || x + cached.width > frame.maxX || y + cached.height > frame.maxY,
                          let covered = cached.image.coveredRect() else { return }
                    frame.include(x: x + covered.x, y: y + covered.y, width: covered.width, height: covered.height)
                }
                for glyph in run.glyphs {
                    let (glyph, position) = (glyph.id, glyph.position)
                    guard let pen = Self.pen(position, x: 0, baseline: baseline, scale: scale, upright: run.isUpright) else { continue }
                    if let layers = Self.colorLayers(run.font, glyph, format: options.format) {
                        for layer in layers { include(layer.glyph, at: position, pen: pen) }
                    } else {
                        include(glyph, at: position, pen: pen)
                    }
                }
            }
            for kind in [Decorations.Kind.underline, .strikethrough] {
                for stroke in Self.decorationPixels(kind, of: line, x: 0, baseline: baseline, scale: scale) {
                    frame.include(x: stroke.x, y: stroke.y, width: stroke.width, height: stroke.height)
                }
            }
            for placed in line.attachments {
                guard let rect = Self.attachmentPixels(placed, of: layout, x: 0, y: 0, scale: scale) else { continue }
                frame.include(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
            }
        }
        return frame
    }

    /// How far inside the box (pixels) a glyph's unhinted ink box must lie for `frame` to
    /// skip its mask: more than hinting (under a pixel), baseline and offset rounding (half a
    /// pixel each), subpixel phases and a color bitmap's scaling can move it.
    static let inkMargin = 4

    /// Draws a layout into an existing bitmap with its origin at (x, y) points, clipped
    /// to the bitmap. Checks `isCancelled` before each line.
    ///
    /// - Returns: the number of lines drawn (fewer than the layout's when cancelled).
    @discardableResult
    public func draw(
        _ layout: TextLayout, into bitmap: inout Bitmap, x originX: Double, y originY: Double,
        options: RenderOptions, isCancelled: () -> Bool = { false }, lineDrawn: (Int) -> Void = { _ in }
    ) -> Int {
        draw(layout, into: &bitmap, x: originX, y: originY, shiftX: 0, shiftY: 0, options: options,
             isCancelled: isCancelled, lineDrawn: lineDrawn)
    }

    /// `draw`, with every pixel position moved by whole pixels afterwards: the same pixels as
    /// drawing into a bitmap whose top-left lies at (-shiftX, -shiftY) of this one.
    ///
    /// A vertical layout's lines are drawn as the horizontal lines they were made as, into
    /// the bitmap turned a quarter counter-clockwise, which is then turned back: every
    /// rule of drawing lines holds for columns, and upright glyphs and images are drawn
    /// turned the other way (`GlyphImage.uprightInLine`) so that they stand upright.
    @discardableResult
    func draw(
        _ layout: TextLayout, into bitmap: inout Bitmap, x originX: Double, y originY: Double, shiftX: Int, shiftY: Int,
        options: RenderOptions, isCancelled: () -> Bool, lineDrawn: (Int) -> Void
    ) -> Int {
        guard layout.isVertical else {
            return drawLines(of: layout, into: &bitmap, x: originX, y: originY, shiftX: shiftX, shiftY: shiftY, options: options,
                             isCancelled: isCancelled, lineDrawn: lineDrawn)
        }
        // The layout's right edge (its box's whole pixels right of originX, moved by shiftX)
        // is its lines' top: in the turned bitmap, that far up from the bottom.
        var turned = bitmap.turned(clockwise: false)
        let top = Double(bitmap.width - shiftX - options.pixels(layout.size.width)) / options.scale - originX
        let drawn = drawLines(of: layout, into: &turned, x: originY, y: top, shiftX: shiftY, shiftY: 0, options: options,
                              isCancelled: isCancelled, lineDrawn: lineDrawn)
        bitmap = turned.turned(clockwise: true)
        return drawn
    }

    /// Draws the lines in line coordinates (`draw`'s work for a horizontal layout).
    private func drawLines(
        of layout: TextLayout, into bitmap: inout Bitmap, x originX: Double, y originY: Double, shiftX: Int, shiftY: Int,
        options: RenderOptions, isCancelled: () -> Bool, lineDrawn: (Int) -> Void
    ) -> Int {
        let scale = options.scale
        var drawn = 0
        if options.debug { drawExclusions(of: layout, into: &bitmap, x: originX, y: originY, shiftX: shiftX, shiftY: shiftY, scale: scale) }
        for (index, line) in layout.lines.enumerated() {
            if isCancelled() { return drawn }
            if options.debug { drawDebug(line, into: &bitmap, x: originX, y: originY, shiftX: shiftX, shiftY: shiftY, scale: scale) }
            let baseline = ((originY + line.baseline) * scale).rounded()
            drawBackgrounds(of: line, into: &bitmap, x: originX, y: originY, shiftX: shiftX, shiftY: shiftY, scale: scale)
            // Underlines under the glyphs, strikethroughs over them (as browsers paint them).
            drawDecorations(.underline, of: line, into: &bitmap, x: originX, baseline: baseline, shiftX: shiftX, shiftY: shiftY, scale: scale)
            drawGlyphs(line.runs, into: &bitmap, x: originX, baseline: baseline, shiftX: shiftX, shiftY: shiftY, scale: scale)
            for placed in line.attachments {
                drawAttachment(placed, of: layout, into: &bitmap, x: originX, y: originY, shiftX: shiftX, shiftY: shiftY, scale: scale)
            }
            drawDecorations(.strikethrough, of: line, into: &bitmap, x: originX, baseline: baseline, shiftX: shiftX, shiftY: shiftY, scale: scale)
            drawn += 1
            lineDrawn(index)
        }
        return drawn
    }

    /// Where a glyph's pen lands in pixels: the whole pixel x, the subpixel phase of the
    /// rest, and the y of its baseline (the line's, snapped, plus its snapped offset). nil
    /// for a position too far out to draw. An upright glyph's pen is snapped to a whole
    /// pixel (its subpixel phases would move it across its column).
    @inline(__always)
    private static func pen(_ position: GlyphRun.Position, x originX: Double, baseline: Double, scale: Double, upright: Bool = false)
        -> (x: Int, phase: Int, y: Int)? {
        let penX = (originX + Double(position.x)) * scale
        let penY = baseline + (Double(position.y) * scale).rounded()
        guard penX.magnitude < 1e9, penY.magnitude < 1e9 else { return nil }  // false for NaN and ±∞ too
        if upright { return (Int(penX.rounded()), 0, Int(penY)) }
        var whole = penX.rounded(.down)
        var phase = Int(((penX - whole) * Double(GlyphCache.phases)).rounded())
        if phase == GlyphCache.phases {
            whole += 1
            phase = 0
        }
        return (Int(whole), phase, Int(penY))
    }

    /// Draws a line's glyphs, run by run. The bitmap's storage is taken once for the line
    /// and each run read in place, not copied: a cell draws a hundred glyphs or more, and a
    /// glyph at 1× is a few dozen pixels, so what is paid per glyph (a uniqueness check of
    /// the bitmap, a run's references retained and released) is paid as often as blending.
    private func drawGlyphs(_ runs: [GlyphRun], into bitmap: inout Bitmap, x originX: Double, baseline: Double,
                            shiftX: Int, shiftY: Int, scale: Double) {
        let (width, height, format) = (bitmap.width, bitmap.height, bitmap.format)
        bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
            let canvas = Canvas(pixels: pixels, width: width, height: height, format: format)
            runs.withUnsafeBufferPointer { runs in
                for run in runs.indices {
                    let font = runs[run].font, ink = runs[run].style.ink, upright = runs[run].isUpright
                    let strike = GlyphCache.Strike(font: font, pixelSize: runs[run].fontSize * scale, format: format, upright: upright)
                    /// Draws one glyph (or one color layer) in `ink` at `pen`.
                    @inline(__always) func draw(_ glyph: UInt32, at pen: (x: Int, phase: Int, y: Int), ink: Color) {
                        let glyph = glyphCache.glyph(glyph, phase: pen.phase, in: strike)
                        guard glyph.width > 0 else { return }
                        Self.blit(glyph, into: canvas, x: pen.x + glyph.left + shiftX, y: pen.y - glyph.top + shiftY, ink: ink)
                    }
                    runs[run].glyphs.withUnsafeBufferPointer { glyphs in
                        for glyph in glyphs {
                            guard let pen = Self.pen(glyph.position, x: originX, baseline: baseline, scale: scale, upright: upright) else { continue }
                            if let layers = Self.colorLayers(font, glyph.id, format: format) {
                                for layer in layers { draw(layer.glyph, at: pen, ink: layer.color ?? ink) }
                            } else {
                                draw(glyph.id, at: pen, ink: ink)
                            }
                        }
                    }
                }
            }
        }
    }

    /// The COLRv0 layers a glyph is drawn as on a bitmap of `format`, bottom first (each an
    /// outline glyph in its palette color, or the run's ink), or nil: a gray bitmap draws the
    /// glyph itself in the ink, as before colors.
    @inline(__always)
    static func colorLayers(_ font: Font, _ glyph: UInt32, format: Bitmap.PixelFormat) -> [ColorLayer]? {
        format == .rgba8 && font.hasColorLayers ? font.colorLayers(of: glyph) : nil
    }

    /// A bitmap's pixels, taken for drawing glyphs into.
    struct Canvas {
        let pixels: UnsafeMutableBufferPointer<UInt8>
        let width: Int
        let height: Int
        let format: Bitmap.PixelFormat
    }

    /// Composites a glyph over a bitmap's pixels at (x, y), clipped: a color glyph as the
    /// premultiplied image it is (its gray conversion on a gray bitmap), a mask blending
    /// `ink` in (see `Blend`). A gray bitmap and opaque ink take padded chunks when the
    /// glyph's padded rows lie inside the bitmap's rows (`blitChunks`), else pixels
    /// (`blitPixels`); both give the same bytes.
    @inline(__always)
    static func blit(_ glyph: CachedGlyph, into canvas: Canvas, x: Int, y: Int, ink: Color) {
        switch canvas.format {
        case .gray8:
            if ink.alpha == 255, glyph.stride > 0, x >= 0, x + glyph.stride <= canvas.width {
                blitChunks(glyph, into: canvas.pixels, width: canvas.width, height: canvas.height, x: x, y: y, ink: ink.grayLevel)
            } else {
                blitPixels(glyph.image, into: canvas.pixels, width: canvas.width, height: canvas.height, x: x, y: y, ink: ink)
            }
        case .rgba8:
            if glyph.stride > 0, x >= 0, x + glyph.stride <= canvas.width {
                blitChunksRGBA(glyph, into: canvas, x: x, y: y, ink: ink)
            } else {
                blitRGBA(glyph.image, into: canvas, x: x, y: y, ink: ink)
            }
        }
    }

    /// `blitRGBA` for an outline glyph whose padded rows fit in the bitmap's width: eight
    /// pixels at a time, padding included, with `Blend.toward`'s rule and exact division by
    /// 255 channel by channel; eight pixels of zero coverage (much of a glyph's margins and
    /// padding) are skipped. The kernel is C (`tkl_blend_rgba`): one body compiled for AVX2
    /// and for the baseline SSE2, the processor choosing, which Swift cannot express; with
    /// AVX2 it takes half the instructions. Tests pass each `kernel`.
    @inline(__always)
    static func blitChunksRGBA(_ glyph: CachedGlyph, into canvas: Canvas, x: Int, y: Int, ink: Color,
                               kernel: tkl_blend_rgba_kernel = tkl_blend_rgba) {
        let y0 = max(0, y), y1 = min(canvas.height, y + glyph.height)
        guard y0 < y1, let pixelBase = canvas.pixels.baseAddress else { return }
        let stride = glyph.stride, width = canvas.width
        let inkBytes = (ink.red, ink.green, ink.blue, ink.alpha)
        glyph.withPaddedRows { coverageBase in
            withUnsafeBytes(of: inkBytes) { ink in
                kernel(pixelBase + (y0 * width + x) * 4, width * 4, coverageBase + (y0 - y) * stride, stride,
                               stride, y1 - y0, ink.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
        }
    }

    /// `blitPixels` for an outline glyph whose padded rows fit in the bitmap's width, eight
    /// pixels at a time in 16-bit lanes, padding included (zero coverage leaves a pixel as
    /// it is). A glyph at 1× is a few pixels wide, so the per-pixel tail the compiler
    /// leaves after its own vector loop was most of the work. The rounded division by 255
    /// is exact in 16 bits: for n ≤ 255 × 255 + 127, n / 255 = (n + 1 + n >> 8) >> 8,
    /// and no sum exceeds 65,407.
    @inline(__always)
    static func blitChunks(_ glyph: CachedGlyph, into pixels: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int,
                           x: Int, y: Int, ink: UInt8) {
        let y0 = max(0, y), y1 = min(height, y + glyph.height)
        guard y0 < y1, let pixelBase = pixels.baseAddress else { return }
        let stride = glyph.stride
        let inkLevel = SIMD8<UInt16>(repeating: UInt16(ink)), full = SIMD8<UInt16>(repeating: 255)
        let half = SIMD8<UInt16>(repeating: 127), one = SIMD8<UInt16>(repeating: 1)
        glyph.withPaddedRows { coverageBase in
            for row in y0..<y1 {
                let c = UnsafeRawPointer(coverageBase + (row - y) * stride)
                let d = UnsafeMutableRawPointer(pixelBase + (row * width + x))
                var k = 0  // a while loop: the optimizer may leave a stride's iterator uninlined in a large caller
                while k < stride {
                    let cover = SIMD8<UInt16>(truncatingIfNeeded: c.loadUnaligned(fromByteOffset: k, as: SIMD8<UInt8>.self))
                    let pixel = SIMD8<UInt16>(truncatingIfNeeded: d.loadUnaligned(fromByteOffset: k, as: SIMD8<UInt8>.self))
                    let n = pixel &* (full &- cover) &+ inkLevel &* cover &+ half
                    let blended = (n &+ one &+ (n &>> 8)) &>> 8
                    d.storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: blended), toByteOffset: k, as: SIMD8<UInt8>.self)
                    k += CachedGlyph.chunk
                }
            }
        }
    }

    /// Composites a glyph over a gray bitmap's pixels, clipped: a color glyph's
    /// premultiplied luminance over them, a mask's coverage (times the ink's alpha) moving
    /// them toward the ink's gray level. Branch-free per pixel (zero coverage leaves the
    /// pixel as it is: (p × 255 + 127) / 255 = p), in wrapping 32-bit arithmetic that
    /// cannot overflow (at most 255 × 255 + 127), so the compiler can vectorize the rows.
    static func blitPixels(_ image: GlyphImage, into pixels: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int,
                           x: Int, y: Int, ink: Color) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + image.width), y1 = min(height, y + image.height)
        guard x0 < x1, y0 < y1 else { return }
        let count = x1 - x0
        let inkLevel = UInt32(ink.grayLevel), inkAlpha = UInt32(ink.alpha)
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
                            d[k] = UInt8(truncatingIfNeeded: Blend.over(UInt32(d[k]), premultiplied: UInt32(l[k]), alpha: UInt32(a[k])))
                        }
                    }
                }
            } else {
                for row in y0..<y1 {
                    let c = coverageBase + ((row - y) * image.width + (x0 - x))
                    let d = pixelBase + (row * width + x0)
                    for k in 0..<count {
                        let cover = inkAlpha == 255 ? UInt32(c[k]) : Blend.coverage(UInt32(c[k]), alpha: inkAlpha)
                        d[k] = UInt8(truncatingIfNeeded: Blend.toward(UInt32(d[k]), inkLevel, by: cover))
                    }
                }
            }
        }
    }

    /// Composites a glyph over an RGBA bitmap's pixels, clipped: a color glyph's
    /// premultiplied pixels over them (the glyph cache gives an RGBA bitmap the color plane),
    /// a mask's coverage (times the ink's alpha) moving each channel toward the ink's.
    static func blitRGBA(_ image: GlyphImage, into canvas: Canvas, x: Int, y: Int, ink: Color) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(canvas.width, x + image.width), y1 = min(canvas.height, y + image.height)
        guard x0 < x1, y0 < y1, let base = canvas.pixels.baseAddress.map(UnsafeMutableRawPointer.init) else { return }
        let count = x1 - x0, width = canvas.width
        image.coverage.withUnsafeBufferPointer { coverage in
            guard let coverageBase = coverage.baseAddress else { return }
            if let color = image.color {
                color.withUnsafeBytes { color in
                    guard let colorBase = color.baseAddress else { return }
                    for row in y0..<y1 {
                        let source = colorBase + ((row - y) * image.width + (x0 - x)) * 4
                        let d = base + (row * width + x0) * 4
                        for k in 0..<count {
                            let pixel = SIMD4<UInt32>(truncatingIfNeeded: source.loadUnaligned(fromByteOffset: 4 * k, as: SIMD4<UInt8>.self))
                            guard pixel[3] != 0 else { continue }
                            let address = d + 4 * k
                            address.storePixel(Blend.over(address.loadPixel(), premultiplied: pixel))
                        }
                    }
                }
            } else {
                let source = Blend.rgbaSource(ink), inkAlpha = UInt32(ink.alpha)
                for row in y0..<y1 {
                    let c = coverageBase + ((row - y) * image.width + (x0 - x))
                    let d = base + (row * width + x0) * 4
                    for k in 0..<count where c[k] != 0 {
                        let cover = inkAlpha == 255 ? UInt32(c[k]) : Blend.coverage(UInt32(c[k]), alpha: inkAlpha)
                        let address = d + 4 * k
                        address.storePixel(Blend.toward(address.loadPixel(), source, by: cover))
                    }
                }
            }
        }
    }

    /// An image attachment's box in pixels (snapped), as it is drawn; nil for a box
    /// attachment (the caller's to draw) or one too far out.
    private static func attachmentPixels(_ placed: LayoutLine.Attachment, of layout: TextLayout,
                                         x originX: Double, y originY: Double, scale: Double)
        -> (image: GrayImage, x: Int, y: Int, width: Int, height: Int)? {
        let text = placed.isTruncationToken ? layout.options.truncationToken : layout.text
        guard case .image(let image)? = text?.attachment(at: placed.offset)?.content else { return nil }
        let rect = placed.rect.offsetBy(dx: originX, dy: originY)
        let left = (rect.x * scale).rounded(), top = (rect.y * scale).rounded()
        let right = (rect.maxX * scale).rounded(), bottom = (rect.maxY * scale).rounded()
        guard left.magnitude < 1e9, top.magnitude < 1e9, right.magnitude < 1e9, bottom.magnitude < 1e9 else { return nil }
        return (image, Int(left), Int(top), Int(right - left), Int(bottom - top))
    }

    /// Draws an image attachment in its box (snapped to pixels); a box attachment is the
    /// caller's to draw.
    private func drawAttachment(_ placed: LayoutLine.Attachment, of layout: TextLayout, into bitmap: inout Bitmap,
                                x originX: Double, y originY: Double, shiftX: Int, shiftY: Int, scale: Double) {
        guard let box = Self.attachmentPixels(placed, of: layout, x: originX, y: originY, scale: scale) else { return }
        // Turned only to draw (the frame needs its box alone): upright once the line is turned.
        let image = layout.isVertical ? box.image.turnedCounterClockwise() : box.image
        bitmap.draw(image, x: box.x + shiftX, y: box.y + shiftY, width: box.width, height: box.height)
    }

    /// A line's decoration strokes of one kind in pixels, snapped to whole pixels, at least
    /// one thick, with their ink.
    private static func decorationPixels(_ kind: Decorations.Kind, of line: LayoutLine, x originX: Double,
                                         baseline: Double, scale: Double) -> [(x: Int, y: Int, width: Int, height: Int, ink: Color)] {
        Decorations.strokes(line, kind).compactMap { stroke in
            let thickness = max(1, (stroke.thickness * scale).rounded())
            let top = (baseline + stroke.offset * scale - thickness / 2).rounded()
            let left = ((originX + stroke.x) * scale).rounded(), right = ((originX + stroke.x + stroke.width) * scale).rounded()
            guard top.magnitude < 1e9, left.magnitude < 1e9, right.magnitude < 1e9, thickness < 1e9, right > left else { return nil }
            return (Int(left), Int(top), Int(right - left), Int(thickness), stroke.ink)
        }
    }

    /// Strokes a line's decorations of one kind.
    private func drawDecorations(_ kind: Decorations.Kind, of line: LayoutLine, into bitmap: inout Bitmap,
                                 x originX: Double, baseline: Double, shiftX: Int, shiftY: Int, scale: Double) {
        for stroke in Self.decorationPixels(kind, of: line, x: originX, baseline: baseline, scale: scale) {
            bitmap.fill(x: stroke.x + shiftX, y: stroke.y + shiftY, width: stroke.width, height: stroke.height, color: stroke.ink)
        }
    }

    /// Fills the line-tall rectangles behind runs with a background, snapped to whole pixels
    /// (adjacent runs share their edge, so a span has no seam).
    private func drawBackgrounds(of line: LayoutLine, into bitmap: inout Bitmap, x originX: Double, y originY: Double,
                                 shiftX: Int, shiftY: Int, scale: Double) {
        func px(_ value: Double) -> Int { RenderOptions.wholePixel(value * scale) }
        let top = px(originY + line.frame.y), bottom = px(originY + line.frame.maxY)
        for span in Decorations.backgrounds(line) {
            let left = px(originX + span.x), right = px(originX + span.x + span.width)
            bitmap.fill(x: left + shiftX, y: top + shiftY, width: right - left, height: bottom - top, color: span.color)
        }
    }

    /// Line box outline (light gray) and baseline (mid gray).
    private func drawDebug(_ line: LayoutLine, into bitmap: inout Bitmap, x: Double, y: Double,
                           shiftX: Int, shiftY: Int, scale: Double) {
        func px(_ value: Double) -> Int { RenderOptions.wholePixel(value * scale) }
        let frame = line.frame.offsetBy(dx: x, dy: y)
        bitmap.strokeRectangle(x: px(frame.x) + shiftX, y: px(frame.y) + shiftY, width: max(1, px(frame.maxX) - px(frame.x)),
                               height: max(1, px(frame.maxY) - px(frame.y)), level: 170)
        bitmap.fill(x: px(frame.x) + shiftX, y: px(y + line.baseline) + shiftY, width: max(1, px(frame.maxX) - px(frame.x)),
                    height: 1, level: 110)
    }
}
