import Foundation
@testable import TextKitLite

/// Invariants of a layout and its rendering that hold for any text, options and fonts
/// (fonts damaged or not), checked by every fuzz target. A broken one is `fail`.
public enum Invariants {
    static let epsilon = 1e-6

    /// Lays out with valid options, which must not throw, and checks the layout's lines
    /// (`checkCoverage`).
    public static func checkedLayout(_ text: AttributedText, options: LayoutOptions, engine: TextEngine) -> TextLayout {
        let layout: TextLayout
        do {
            layout = try engine.layout(text, options: options)
        } catch {
            fail("valid options rejected: \(error) for \(options) with \(engine.fonts.primary)")
        }
        checkCoverage(layout)
        return layout
    }

    /// Itemizing with runs that continue an item extended at once (`Itemizer.extendsRuns`)
    /// gives the pieces that itemizing cluster by cluster gives, for lines of either writing mode.
    public static func checkItemRuns(_ text: AttributedText, direction: ParagraphDirection,
                                     writingMode: LayoutOptions.WritingMode = .horizontal, engine: TextEngine) {
        func pieces(_ extendsRuns: Bool) -> [String] {
            let itemizer = Itemizer(text: text, direction: direction, writingMode: writingMode, fonts: engine.fonts, cache: engine.shapeCache,
                                    extendsRuns: extendsRuns)
            return itemizer.shapeParagraphs().sink.pieces.map(\.debugDescription)
        }
        let (fast, general) = (pieces(true), pieces(false))
        if fast != general {
            let index = (0..<min(fast.count, general.count)).first { fast[$0] != general[$0] } ?? min(fast.count, general.count)
            fail("extended runs itemize differently at piece \(index): \(index < fast.count ? fast[index] : "none") vs "
                 + "\(index < general.count ? general[index] : "none") cluster by cluster")
        }
    }

    /// Every UTF-16 unit of the text is in exactly one line, in order, unless the text was
    /// truncated (then the lines still cover a prefix, in order, within `maxLines`); glyph
    /// arrays agree in length and every glyph position is finite.
    public static func checkCoverage(_ layout: TextLayout) {
        let options = layout.options
        let count = layout.text.utf16Count
        let lines = layout.lines
        if options.maxLines > 0 {
            require(lines.count <= options.maxLines, "\(lines.count) lines for maxLines \(options.maxLines)")
        }
        // The token goes on the last line shown, or on the first when start truncation shows
        // the text's last lines.
        let showsLastLines = options.truncation == .start && options.maxLines > 1
        let tokenLine = showsLastLines ? lines.indices.first : lines.indices.last
        require(layout.isTruncated == (tokenLine.map { lines[$0].isTruncated } ?? false), "isTruncated disagrees with the token's line")
        require(lines.indices.allSatisfy { $0 == tokenLine || !lines[$0].isTruncated }, "a line other than the token's is truncated")
        for (index, line) in lines.enumerated() {
            require(line.range.lowerBound >= 0 && line.range.upperBound <= count, "line range \(line.range) outside 0..<\(count)")
            for run in line.runs {
                require(run.glyphs.allSatisfy { $0.position.x.isFinite && $0.position.y.isFinite }, "line \(index): a glyph position is not finite")
            }
        }
        require(layout.size.width.isFinite && layout.size.height.isFinite && layout.size.height >= 0, "layout size \(layout.size)")
        if !layout.isTruncated {
            var next = 0
            for line in lines {
                require(line.range.lowerBound == next, "line starts at \(line.range.lowerBound), expected \(next)")
                next = line.range.upperBound
            }
            require(next == count, "lines end at \(next) of \(count) units")
            require(count == 0 || !lines.isEmpty, "no lines for a text of \(count) units")
        } else if options.maxLines == 1, options.truncation != .end {
            require(lines.count == 1, "start/middle truncation gave \(lines.count) lines")
        } else {
            // End and middle truncation show a prefix (middle's last line holds the rest of its
            // paragraph, cut in the middle); start truncation shows the text's last lines.
            var next = showsLastLines ? lines.first?.range.lowerBound ?? 0 : 0
            for line in lines {
                require(line.range.lowerBound == next, "truncated layout: line starts at \(line.range.lowerBound), expected \(next)")
                next = line.range.upperBound
            }
            if showsLastLines { require(next == count, "start truncation: the lines end at \(next) of \(count) units") }
            require(lines.count == options.maxLines, "truncated with \(lines.count) of \(options.maxLines) lines")
        }
    }

    /// Shape once, break many times: the shaped text laid out again gives the direct
    /// layout's lines; measuring (`TextEngine.measure`, no lines made: streamed from the
    /// itemizer, and of the shaped text's kept units) gives the layout's height, line
    /// starts and truncation to the bit.
    ///
    /// - Returns: the shaped text, for further layouts.
    @discardableResult
    public static func checkRelayout(_ layout: TextLayout, text: AttributedText, engine: TextEngine) -> ShapedText {
        let options = layout.options
        let shaped: ShapedText
        let again: TextLayout
        do {
            shaped = try engine.shape(text, direction: options.direction, writingMode: options.writingMode)
            again = try engine.layout(shaped, options: options)
        } catch {
            fail("relayout of a shaped text failed: \(error)")
        }
        // With maxLines the direct layout may shape only a prefix: it must still agree.
        let (direct, whole) = (signature(layout), signature(again))
        if direct != whole {
            let index = (0..<min(direct.count, whole.count)).first { direct[$0] != whole[$0] } ?? min(direct.count, whole.count)
            fail("layout of the shaped text differs from the direct layout at line \(index): "
                 + "\(index < direct.count ? direct[index] : "none") vs \(index < whole.count ? whole[index] : "none")")
        }

        do {
            let measured = try engine.measure(text, options: options)
            require(measured == TextMeasurement(layout), "measurement \(measured) differs from the layout's \(TextMeasurement(layout))")
            let relaid = try engine.measure(shaped, options: options)
            require(relaid == TextMeasurement(again), "measurement of the shaped text \(relaid) differs from its layout's \(TextMeasurement(again))")
            // At several widths at once (one stream of pieces, a breaker per width): each
            // as measured alone.
            let widths = [options.width, options.width + 37.5, options.width.isFinite ? options.width * 3 : 200]
            let several = try engine.measure(text, options: options, widths: widths)
            for (index, width) in widths.enumerated() {
                var alone = options
                alone.width = width
                let single = index == 0 ? measured : try engine.measure(text, options: alone)
                require(several[index] == single, "measured at widths \(widths), width \(width) gives \(several[index]), alone \(single)")
            }
        } catch {
            fail("measuring failed: \(error)")
        }
        return shaped
    }

    /// With `inkOverflow: .clip`, the bitmap is ceil(size × scale) pixels, or the render
    /// refuses it with `bitmapTooLarge` exactly when that exceeds `maxPixels`; rendering is
    /// deterministic (the second render draws from the glyph cache); a text without glyphs
    /// leaves the background untouched. By default (`.include`) the bitmap is that box grown
    /// by the ink outside it: it holds the box with the layout's origin inside, and cut to
    /// the box it is the `.clip` bitmap, pixel for pixel (or it is refused as over the limit,
    /// no smaller than the box).
    ///
    /// - Returns: the `.clip` bitmap, nil when the render refused it.
    @discardableResult
    public static func checkRender(_ layout: TextLayout, renderer: TextRenderer, options: RenderOptions) -> Bitmap? {
        var exactBox = options
        exactBox.inkOverflow = .clip
        guard let bitmap = checkExactBoxRender(layout, renderer: renderer, options: exactBox) else { return nil }
        var grownOptions = options
        grownOptions.inkOverflow = .include
        let grown: TextRenderer.Outcome
        do {
            grown = try renderer.render(layout, options: grownOptions)
        } catch .bitmapTooLarge(let width, let height, let limit) {
            let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
            require(width >= bitmap.width && height >= bitmap.height && (overflow || pixels > limit),
                    "refused a \(width)×\(height) bitmap (box \(bitmap.width)×\(bitmap.height), limit \(limit))")
            return bitmap
        } catch {
            fail("render with ink overflow failed: \(error)")
        }
        guard let drawn = grown.bitmap else { fail("render without cancellation gave no bitmap") }
        let (x0, y0) = (grown.originX, grown.originY)
        require(x0 >= 0 && y0 >= 0 && drawn.width >= x0 + bitmap.width && drawn.height >= y0 + bitmap.height,
                "a \(drawn.width)×\(drawn.height) bitmap with its origin at (\(x0), \(y0)) does not hold the \(bitmap.width)×\(bitmap.height) box")
        require(drawn.width * drawn.height <= options.maxPixels, "grown bitmap over the pixel limit")
        let n = options.format.bytesPerPixel, rowBytes = bitmap.width * n
        for row in 0..<bitmap.height {
            let start = ((row + y0) * drawn.width + x0) * n
            require(same(Array(drawn.pixels[start..<start + rowBytes]), Array(bitmap.pixels[row * rowBytes..<(row + 1) * rowBytes])),
                    "row \(row) of the grown bitmap, cut to the box, differs from the exact box's")
        }
        return bitmap
    }

    private static func checkExactBoxRender(_ layout: TextLayout, renderer: TextRenderer, options: RenderOptions) -> Bitmap? {
        let exactWidth = layout.size.width * options.scale, exactHeight = layout.size.height * options.scale
        func matches(_ pixels: Int, _ exact: Double) -> Bool {
            Double(pixels) >= exact - epsilon && Double(pixels) < exact + 1
        }
        let bitmap: Bitmap
        do {
            let outcome = try renderer.render(layout, options: options)
            guard let drawn = outcome.bitmap else { fail("render without cancellation gave no bitmap") }
            require(outcome.linesDrawn == layout.lineCount, "drew \(outcome.linesDrawn) of \(layout.lineCount) lines")
            require(outcome.originX == 0 && outcome.originY == 0, "the exact box moved the origin")
            bitmap = drawn
        } catch .bitmapTooLarge(let width, let height, let limit) {
            require(matches(width, exactWidth) && matches(height, exactHeight),
                    "refused a \(width)×\(height) bitmap for \(layout.size) at scale \(options.scale)")
            let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
            require(overflow || pixels > limit, "refused \(width)×\(height) under the limit \(limit)")
            return nil
        } catch {
            fail("render failed: \(error)")
        }
        require(matches(bitmap.width, exactWidth) && matches(bitmap.height, exactHeight),
                "bitmap \(bitmap.width)×\(bitmap.height) for \(layout.size) at scale \(options.scale)")
        require(bitmap.format == options.format && bitmap.pixels.count == bitmap.width * bitmap.height * options.format.bytesPerPixel,
                "pixel count")
        require(bitmap.width * bitmap.height <= options.maxPixels, "bitmap over the pixel limit")
        if !options.debug, layout.lines.allSatisfy({ $0.runs.allSatisfy { $0.glyphs.isEmpty } }),
           let blank = try? Bitmap(width: bitmap.width, height: bitmap.height, format: options.format, background: options.background,
                                   maxPixels: options.maxPixels) {
            require(same(bitmap.pixels, blank.pixels), "ink without glyphs")
        }
        if options.format == .rgba8 {
            // Premultiplied: no color channel above its alpha.
            var valid = true
            for i in stride(from: 0, to: bitmap.pixels.count, by: 4) where valid {
                let a = bitmap.pixels[i + 3]
                valid = bitmap.pixels[i] <= a && bitmap.pixels[i + 1] <= a && bitmap.pixels[i + 2] <= a
            }
            require(valid, "an RGBA pixel with a color channel above its alpha")
        }
        guard let second = try? renderer.render(layout, options: options).bitmap else { fail("second render failed") }
        require(second.width == bitmap.width && second.height == bitmap.height && same(second.pixels, bitmap.pixels),
                "two renders of one layout differ")
        return bitmap
    }

    /// Byte equality through `memcmp` (an element loop would be traced by the fuzzer's
    /// instrumentation, pixel by pixel).
    public static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count && a.withUnsafeBytes { x in b.withUnsafeBytes { y in
            a.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, a.count) == 0
        } }
    }

    /// What must not change when the same text is laid out again with the same options.
    public static func signature(_ layout: TextLayout) -> [String] {
        layout.lines.map { "\($0.range) \($0.frame) \($0.baseline) \($0.isTruncated) \($0.runs.map { $0.glyphs.map(\.id) })" }
            + ["\(layout.size) \(layout.measuredWidth) \(layout.isTruncated)"]
    }
}
