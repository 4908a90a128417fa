import Foundation
import FuzzSupport
@testable import TextKitLite
import TextKitLiteFeed

/// The process entry point: libFuzzer's driver over `LayoutFuzzer.run`.
@main
struct LayoutFuzzerMain {
    static func main() {
        FuzzDriver.run(name: "LayoutFuzzer", LayoutFuzzer.run)
    }
}

/// Feeds random bytes through `TextEngine.layout` and `TextRenderer.render`.
///
/// The first `FuzzCase.headerSize` bytes choose the width, font size, line limit,
/// truncation, alignment, direction, line height, insets, scale, pixel limit, balance,
/// whether there are exclusion shapes and whether the lines are vertical columns; the rest
/// is the text (UTF-8, invalid sequences
/// replaced by U+FFFD), after the shapes' own bytes (`FuzzCase.exclusions`). Invariants,
/// each sound for any input (* marks those checked by `FuzzSupport.Invariants`, shared by
/// the fuzz targets):
///
/// 1. * Valid options never throw; the same shaped text laid out again gives the same lines
///    (shape once, break many times).
/// 2. * Every UTF-16 unit of the text is in exactly one line, in order, unless the text was
///    truncated (then the lines still cover a prefix, in order, within `maxLines`).
/// 3. A line is no wider than the content width, except a line that cannot be cut (no
///    grapheme boundary that starts a glyph cluster inside it) or a truncated line no
///    wider than the token; no line but the first of a paragraph starts with white space
///    (UAX #14 allows no break before a space or tab, and an emergency break must leave
///    white space hanging at the end of the line before).
/// 4. Laying out again at the layout's own measured width gives the same lines; * measuring
///    (`TextEngine.measure`, no lines made) gives the layout's height, line starts and
///    truncation to the bit.
/// 5. * The exact box's bitmap (`inkOverflow: .clip`) is ceil(size × scale) pixels, or the
///    render refuses it with `bitmapTooLarge` exactly when that exceeds `maxPixels`;
///    rendering is deterministic; a text without glyphs leaves the background untouched;
///    the default bitmap holds the box and, cut to it, is the exact box's; cancelling after
///    k lines draws k lines and gives no bitmap.
/// 6. With the feed flag, the text is parsed as a JSON Lines post (which may fail with a
///    `FeedLineError`, never crash) and laid out as a feed cell, whose measurement
///    (`FeedPrecomputer.measure`) agrees with the layout to the bit; with the PGM flag, it is
///    read as a PGM image (an error or a bitmap of width × height pixels, never a trap).
/// 7. * Itemizing with runs that continue an item extended at once gives the pieces that
///    itemizing cluster by cluster gives (`Itemizer.extendsRuns`).
/// 8. With balanced lines (`lineBalance`), the layout has as many lines as greedy breaking
///    at the width gives, no wider; a truncated text is laid out as greedy breaking lays it out.
/// 9. Exclusion shapes the library refuses (a radius or size not above 0, a polygon under 3
///    vertices; with balance, with vertical text, or with start truncation over several
///    lines) are refused by layout and measuring alike, naming the option, never a trap;
///    around the others, no line that fits its interval overlaps a shape over its line box,
///    or leaves the content box.
/// 10. The box across the lines (`lineSize.height`: `size.height`, or a vertical layout's
///    `size.width`) is the lines' stacked height with the insets, and along them
///    (`lineSize.width`) the width laid out at, or the measured width when unwrapped; a
///    vertical layout's `lineSize` is its `size` turned. Vertical layouts go through every
///    invariant above that holds for lines (1 to 5, 7, 8) and hit testing: `characterIndex(at:)`
///    at points inside the box gives offsets within the text.
enum LayoutFuzzer {
    static let fonts: FontFallbackChain = {
        do { return try BundledFonts.chain() } catch { fatalError("bundled fonts: \(error)") }
    }()
    static let renderer = TextRenderer(glyphCache: GlyphCache(maxBytes: 16 << 20))
    static let epsilon = 1e-6

    static func run(_ bytes: [UInt8]) {
        let fuzzCase = FuzzCase(bytes)
        // A fresh shaped-word cache per input: a crash reproduces from its input alone.
        let engine = TextEngine(fonts: fonts, shapeCache: ShapeCache(maxEntries: 4096, maxBytes: 4 << 20))
        switch fuzzCase.mode {
        case .feedLine:
            checkFeedLine(fuzzCase.body, engine: engine, width: fuzzCase.options.width)
            return
        case .pgm:
            checkPGM(fuzzCase.body)
            return
        case .text:
            break
        }
        let text = fuzzCase.attributedText()
        let options = acceptedOptions(fuzzCase.options, text: text, engine: engine)
        let layout = Invariants.checkedLayout(text, options: options, engine: engine)
        checkWidths(layout)
        checkLineStarts(layout)
        let shaped = Invariants.checkRelayout(layout, text: text, engine: engine)
        Invariants.checkItemRuns(text, direction: options.direction, writingMode: options.writingMode, engine: engine)
        if options.lineBalance { checkBalance(layout, shaped: shaped, engine: engine) }
        if options.exclusions.isEmpty {
            // Around shapes a narrower box moves the free intervals: the lines may change.
            checkNarrowerRelayout(layout, shaped: shaped, engine: engine)
        } else {
            checkExclusions(layout)
        }
        checkBox(layout)
        if layout.isVertical { checkHitTesting(layout) }
        checkRender(layout, fuzzCase: fuzzCase)
    }

    /// Invariant 9, refusals: the options without what the library refuses, each refusal
    /// checked first (layout and measuring throw `invalidOption` naming it).
    static func acceptedOptions(_ asked: LayoutOptions, text: AttributedText, engine: TextEngine) -> LayoutOptions {
        var options = asked
        func requireRefusal(_ property: String) {
            func check(_ what: String, _ attempt: () throws(LayoutError) -> Void) {
                do {
                    try attempt()
                    fail("\(what) accepted \(property) it must refuse: \(options)")
                } catch {
                    guard case .invalidOption(let name, _, let reason) = error, name == property, !reason.isEmpty else {
                        fail("\(what) refused \(error), expected a refusal of \(property)")
                    }
                }
            }
            check("layout") { () throws(LayoutError) in _ = try engine.layout(text, options: options) }
            check("measuring") { () throws(LayoutError) in _ = try engine.measure(text, options: options) }
        }
        // Options that take no shapes are refused before the shapes themselves.
        if !options.exclusions.isEmpty, options.writingMode == .vertical {
            requireRefusal("exclusions")
            options.exclusions = []
        }
        if !options.exclusions.isEmpty, options.lineBalance {
            requireRefusal("lineBalance")
            options.lineBalance = false
        }
        if !options.exclusions.isEmpty, options.keepsLastLines {
            requireRefusal("truncation")
            options.truncation = .end
        }
        if options.exclusions.contains(where: { $0.problem != nil }) {
            requireRefusal("exclusions")
            options.exclusions.removeAll { $0.problem != nil }
        }
        return options
    }

    /// Invariant 8: balanced lines are as many as greedy breaking gives at the width (none
    /// wider), or, when the text is truncated, the greedy ones.
    static func checkBalance(_ layout: TextLayout, shaped: ShapedText, engine: TextEngine) {
        var greedyOptions = layout.options
        greedyOptions.lineBalance = false
        let greedy: TextLayout
        do { greedy = try engine.layout(shaped, options: greedyOptions) } catch { fail("greedy layout failed: \(error)") }
        if greedy.isTruncated {
            require(Invariants.signature(layout) == Invariants.signature(greedy), "balance changed a truncated layout")
            return
        }
        require(layout.lineCount == greedy.lineCount, "balanced into \(layout.lineCount) lines, greedy breaking gives \(greedy.lineCount)")
        require(layout.measuredWidth <= greedy.measuredWidth + epsilon,
                "balanced lines \(layout.measuredWidth) wide, wider than greedy ones (\(greedy.measuredWidth))")
    }

    /// Invariant 9, flow: a line that fits its interval (not truncated, no wider than the
    /// content width) lies in the content box and beside every shape over its line box.
    static func checkExclusions(_ layout: TextLayout) {
        let options = layout.options
        let left = options.insets.left, contentWidth = options.contentWidth
        // A line fits a width up to the breaker's tolerance (`LineCuts.epsilon`), plus rounding.
        func margin(_ values: Double...) -> Double { 2 * LineCuts.epsilon + 1e-9 * values.reduce(1) { max($0, abs($1)) } }
        for (index, line) in layout.lines.enumerated() where !line.isTruncated {
            let frame = line.frame
            guard frame.width <= contentWidth + epsilon, frame.height > 0 else { continue }
            if contentWidth.isFinite {
                let m = margin(left, contentWidth)
                require(frame.x >= left - m && frame.maxX <= left + contentWidth + m,
                        "line \(index) \(frame) leaves the content box (\(left), \(contentWidth) wide)")
            }
            guard frame.width > epsilon else { continue }
            // The line box less rounding: a line moved down to where a circle ends touches
            // it, and an ulp off in y is a chord of a micrometre there, across the circle.
            let inside = 1e-7 * max(1, abs(frame.y), abs(frame.maxY))
            guard frame.height > 2 * inside else { continue }
            for shape in options.exclusions {
                guard let extent = shape.extent(top: frame.y + inside, bottom: frame.maxY - inside) else { continue }
                let m = margin(extent.left, extent.right, frame.x, frame.maxX)
                require(frame.maxX <= extent.left + m || frame.x >= extent.right - m,
                        "line \(index) \(frame) overlaps \(shape) (\(extent.left)...\(extent.right) over its box)")
            }
        }
    }

    /// Invariant 10, the box: across the lines, their stacked height; along them, the width
    /// (or the measured width); turned for vertical lines.
    static func checkBox(_ layout: TextLayout) {
        let options = layout.options, insets = options.lineInsets
        let (size, lineSize) = (layout.size, layout.lineSize)
        require(lineSize == (layout.isVertical ? Size(width: size.height, height: size.width) : size),
                "lineSize \(lineSize) is not the size \(size) \(layout.isVertical ? "turned" : "")")
        let stacked = max(insets.vertical, (layout.lines.last?.frame.maxY ?? insets.top) + insets.bottom)
        require(abs(lineSize.height - stacked) <= epsilon * max(1, stacked),
                "the box is \(lineSize.height) across the lines, they stack \(stacked) high (size \(size), vertical: \(layout.isVertical))")
        let length = options.width.isFinite ? options.width : layout.measuredWidth
        require(lineSize.width == length, "the box is \(lineSize.width) along the lines for a width of \(options.width) (measured \(layout.measuredWidth))")
    }

    /// Invariant 10, hit testing of a vertical layout: points over the box (a grid, and
    /// each column's middle) map to offsets within the text.
    static func checkHitTesting(_ layout: TextLayout) {
        let count = layout.text.utf16Count
        let size = layout.size
        var points = (0..<25).map { Point(x: size.width * (Double($0 % 5) + 0.5) / 5, y: size.height * (Double($0 / 5) + 0.5) / 5) }
        points += layout.lines.prefix(64).map { line in
            let rect = layout.layoutRect(line.frame)
            return Point(x: rect.x + rect.width / 2, y: rect.y + rect.height / 2)
        }
        for point in points {
            let index = layout.characterIndex(at: point)
            require((0...count).contains(index), "characterIndex(at: \(point)) is \(index), outside the text's 0...\(count) (size \(size))")
        }
    }

    /// Invariant 3.
    static func checkWidths(_ layout: TextLayout) {
        let options = layout.options
        let contentWidth = options.width.isFinite ? options.width - options.insets.horizontal : .infinity
        guard contentWidth.isFinite else { return }
        let units = layout.text.utf16
        var boundaries: Set<Int>?
        for (index, line) in layout.lines.enumerated() {
            guard line.frame.width > contentWidth + epsilon else { continue }
            if line.isTruncated {
                let tokenWidth = line.runs.filter(\.isTruncationToken).reduce(0) { $0 + $1.width }
                require(line.frame.width <= max(contentWidth, tokenWidth) + epsilon,
                        "truncated line \(index) is \(line.frame.width) wide: content width \(contentWidth), token \(tokenWidth)")
                continue
            }
            // An over-wide line must be one unbreakable unit: no grapheme boundary that
            // starts a glyph cluster inside it, apart from hanging spaces at its end.
            if boundaries == nil { boundaries = graphemeBoundaries(units) }
            let starts = Set(line.runs.filter { !$0.isTruncationToken }.flatMap { $0.glyphs.map { Int($0.cluster) } })
            for offset in starts.sorted() where offset > line.range.lowerBound && offset < line.range.upperBound {
                guard boundaries!.contains(offset) else { continue }
                let rest = units[offset..<line.range.upperBound]
                if rest.allSatisfy({ UnicodeProperties.isHangingSpace($0) || isTerminator($0) }) { continue }
                fail("line \(index) (\(line.range)) is \(line.frame.width) wide for \(contentWidth) but could be cut at \(offset)")
            }
        }
    }

    /// Invariant 3, white space: a line after the first of its paragraph never starts with
    /// white space.
    static func checkLineStarts(_ layout: TextLayout) {
        guard let index = lineStartingWithWhiteSpace(layout) else { return }
        fail("line \(index) (\(layout.lines[index].range)) starts with white space")
    }

    /// Invariant 4: laid out again at its own measured width, a layout keeps its lines.
    static func checkNarrowerRelayout(_ layout: TextLayout, shaped: ShapedText, engine: TextEngine) {
        let options = layout.options
        guard options.width.isFinite, !layout.isTruncated else { return }
        let contentWidth = options.width - options.insets.horizontal
        let widest = layout.measuredWidth - options.insets.horizontal
        guard widest > epsilon, widest <= contentWidth else { return }
        var narrower = options
        narrower.width = layout.measuredWidth
        do {
            let relaid = try engine.layout(shaped, options: narrower)
            require(relaid.lines.map(\.range) == layout.lines.map(\.range),
                    "relayout at the measured width \(layout.measuredWidth) (from \(options.width)) changed the lines: \(relaid.lines.map(\.range)) vs \(layout.lines.map(\.range))")
        } catch {
            fail("relayout at the measured width \(layout.measuredWidth) failed: \(error)")
        }
    }

    /// Invariant 5.
    static func checkRender(_ layout: TextLayout, fuzzCase: FuzzCase) {
        var options = fuzzCase.renderOptions
        guard Invariants.checkRender(layout, renderer: renderer, options: options) != nil else { return }
        // The exact box fits the pixel limit (checked above); the box grown by ink may not.
        options.inkOverflow = .clip
        if let cancelAt = fuzzCase.cancelAfterLines, cancelAt < layout.lineCount {
            var asked = 0
            let outcome = try? renderer.render(layout, options: options, isCancelled: {
                asked += 1
                return asked > cancelAt + 1  // once before allocating, then before each line
            })
            require(outcome?.bitmap == nil && outcome?.linesDrawn == cancelAt,
                    "cancelled after \(cancelAt) lines: drew \(String(describing: outcome?.linesDrawn))")
        }
    }

    /// Invariant 6.
    static func checkFeedLine(_ bytes: ArraySlice<UInt8>, engine: TextEngine, width: Double) {
        let post: FeedPost?
        do {
            post = try FeedLineParser.parse(bytes, line: 7)
        } catch {
            require(error.line == 7 && !error.reason.isEmpty, "feed error without line or reason: \(error)")
            return
        }
        guard let post else {
            require(bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }, "a non-blank line parsed as blank")
            return
        }
        let precomputer = FeedPrecomputer(engine: engine)
        let cellWidth = width.isFinite ? max(width, 100) : 375
        do {
            let cell = try precomputer.layout(post, width: cellWidth, scale: 1)
            require(cell.height.isFinite && cell.height > 0, "cell height \(cell.height)")
            let measured = try precomputer.measure(post, width: cellWidth)
            let texts = cell.elements.compactMap { e in e.text.map { MeasuredText(id: e.id, measurement: TextMeasurement($0)) } }
            require(measured.height == cell.height && measured.texts == texts && measured.isTruncated == cell.isTruncated,
                    "cell measurement \(measured) differs from the cell layout's (height \(cell.height), texts \(texts))")
            let widths = [cellWidth, min(2 * cellWidth, 1e6), 101]
            let several = try FeedPrecomputer(engine: engine).measure(post, widths: widths)
            require(several[0] == measured, "cell measured at widths \(widths) differs from alone at \(cellWidth): \(several[0]) vs \(measured)")
            for (width, cell) in zip(widths, several).dropFirst() {
                let alone = try FeedPrecomputer(engine: engine).measure(post, width: width)
                require(cell == alone, "cell measured at widths \(widths) differs from alone at \(width): \(cell) vs \(alone)")
            }
        } catch {
            fail("cell layout or measurement of a parsed post failed: \(error)")
        }
    }

    /// Invariant 6, PGM images.
    static func checkPGM(_ bytes: ArraySlice<UInt8>) {
        guard let bitmap = try? Bitmap(pgm: Array(bytes)) else { return }
        require(bitmap.width >= 0 && bitmap.height >= 0 && bitmap.pixels.count == bitmap.width * bitmap.height,
                "PGM read as \(bitmap.width)×\(bitmap.height) with \(bitmap.pixels.count) pixels")
        require(bitmap.pixels.count <= bytes.count, "more pixels than bytes")
    }

    // MARK: Helpers

    /// UAX #29 grapheme boundaries (ICU, as the line breaker sees them) of every paragraph.
    static func graphemeBoundaries(_ units: [UInt16]) -> Set<Int> {
        var result: Set<Int> = []
        for paragraph in Paragraphs.split(units) where !paragraph.content.isEmpty {
            let content = Array(units[paragraph.content])
            let offsets = content.withUnsafeBufferPointer { UnicodeProperties.graphemeBoundaries($0) }
            for offset in offsets { result.insert(paragraph.content.lowerBound + Int(offset)) }
        }
        return result
    }

    /// The first line that is not the first of its paragraph and starts with a cut unit (a
    /// grapheme cluster and glyph cluster at once) of white space alone. (White space and a
    /// mark, such as tab + U+0353 or U+2000 + ZWNJ, is visible or cannot be cut: it may
    /// start a line.)
    static func lineStartingWithWhiteSpace(_ layout: TextLayout) -> Int? {
        let units = layout.text.utf16
        var graphemes: Set<Int>?
        return layout.lines.indices.first { index in
            let line = layout.lines[index]
            let start = line.range.lowerBound
            guard !line.range.isEmpty, start > 0, !isTerminator(units[start - 1]) else { return false }
            // The line's first cut unit: up to where a glyph cluster and a grapheme cluster
            // both start, as the line breaker cuts (U+2000 + ZWNJ is one grapheme cluster in
            // two glyph clusters, and like white space with a mark on it, does not hang).
            if graphemes == nil { graphemes = graphemeBoundaries(units) }
            let clusterEnd = line.runs.lazy.filter { !$0.isTruncationToken }
                .flatMap { $0.glyphs.map { Int($0.cluster) } }.filter { $0 > start && graphemes!.contains($0) }.min() ?? line.range.upperBound
            return units[start..<min(clusterEnd, line.range.upperBound)].allSatisfy(UnicodeProperties.isHangingSpace)
        }
    }

    static func isTerminator(_ unit: UInt16) -> Bool {
        [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029].contains(unit)
    }
}

/// Options and text decoded from a fuzzer input.
struct FuzzCase {
    static let headerSize = 8

    var options: LayoutOptions
    let renderOptions: RenderOptions
    let style: TextStyle
    /// A second style for the second half of the text, when the input asks for two runs.
    let secondStyle: TextStyle?
    let cancelAfterLines: Int?
    /// What the body is: a text to lay out (almost always), a feed line or a PGM image.
    enum Mode { case text, feedLine, pgm }
    let mode: Mode
    let body: ArraySlice<UInt8>

    init(_ bytes: [UInt8]) {
        var header = Array(bytes.prefix(Self.headerSize))
        header += [UInt8](repeating: 0, count: Self.headerSize - header.count)
        var body = bytes.dropFirst(Self.headerSize)

        // Mostly text sizes (1–35 points), sometimes display sizes (40–133).
        let size = header[1] < 224 ? 1 + Double(header[1]) * 0.15 : 40 + Double(header[1] - 224) * 3
        let languages: [String?] = [nil, nil, "zh", "ja", "ar", "en", "ko", "he"]
        style = TextStyle(size: size, language: languages[Int(header[6] >> 5)])
        let hasSecondStyle = header[3] >= 0xC0
        // The second style's rich attributes: weight, slant, letter spacing, features, decorations.
        let rich = Int(header[7] >> 2) & 7
        secondStyle = hasSecondStyle
            ? TextStyle(size: size * 1.7 + 1, ink: header[6] & 8 != 0 ? Color(red: 200, green: 30, blue: 60, alpha: 180) : 90, language: languages[Int(header[6] >> 5) ^ 2],
                        weight: rich & 1 != 0 ? .bold : .regular, isItalic: rich == 2 || rich == 7, underline: rich == 3,
                        letterSpacing: [0, 0, 0, 0, 1.5, -0.75, 3, 0.5][rich], features: rich == 6 ? [FontFeature("-liga")!, FontFeature("tnum")!] : [])
            : nil
        attachmentsOnFFFC = header[7] & 0x80 != 0 && header[7] < 0xFD

        let inset = Double(header[6] & 3) * 3
        let insets = EdgeInsets(all: inset)
        var width = header[0] == 0xFF ? Double.infinity : 1 + Double(header[0]) * 2
        if width <= insets.horizontal { width = insets.horizontal + 1 }
        let lineLimit = Int(header[2] & 0x0F)
        let tokens: [AttributedText?] = [
            nil, nil, nil, nil, nil, nil, nil, nil,
            AttributedText("…全文", style: TextStyle(size: size, ink: 60)), AttributedText("…全文", style: style),
            AttributedText("... more", style: TextStyle(size: size * 0.8)), AttributedText("... more", style: style),
            AttributedText("…", style: TextStyle(size: size * 3)), AttributedText(""),
            AttributedText("…المزيد", style: style), AttributedText("👀", style: style),
        ]
        let lineHeightModes: [LineHeightMode] = [.natural, .natural, .uniform, .fixed(size * 1.2 + 1)]
        let multiples = [1.0, 1.0, 0.5, 2.5]
        let spacings = [0.0, 0.0, 0.0, 2.0, -3.0, 10.0, 0.0, 0.5]
        options = LayoutOptions(
            width: width,
            maxLines: lineLimit < 6 ? 0 : lineLimit - 5,
            truncation: TruncationMode.allCases[Int(header[3]) % 3],
            truncationToken: tokens[Int(header[2] >> 4)],
            alignment: TextAlignment.allCases[Int(header[3] / 3) % 5],
            lineHeightMultiple: multiples[Int(header[4] / 12) % 4],
            lineSpacing: spacings[Int(header[6] >> 2) & 7],
            lineHeightMode: lineHeightModes[Int(header[4] / 3) % 4],
            insets: insets,
            direction: ParagraphDirection.allCases[Int(header[4]) % 3],
            // Automatic hyphenation with an odd size byte (soft hyphens always).
            hyphenation: header[1] & 1 == 1 ? .auto : .none)

        mode = header[7] == 0xFE ? .feedLine : header[7] == 0xFD ? .pgm : .text
        // Byte 4 over 47 (its other uses wrap at 48): 1 balance, 2 shapes and balance (a
        // pair the library refuses), 3 to 5 shapes.
        let flow = header[4] / 48
        options.lineBalance = flow == 1 || flow == 2
        // Byte 7's bits 5 and 6 as 2 (0x40 without 0x20; no other use, and no input of the
        // corpus made before vertical text has them so): vertical columns, shapes and all
        // (which the library refuses).
        if header[7] & 0x60 == 0x40 { options.writingMode = .vertical }
        if flow >= 2, mode == .text {
            options.exclusions = Self.exclusions(from: &body, width: width, size: size)
        }
        self.body = body

        let scales = [0.25, 0.5, 1, 1, 1.5, 2, 0.75, 3]
        let limits = [1 << 20, 1 << 18, 1 << 16, 4 << 20]
        // Gray or RGBA (bit 2 of byte 6); the second background is mid gray on gray bitmaps,
        // a translucent blue on RGBA ones.
        let rgba = header[6] & 4 != 0
        let background: Color = header[5] & 0x10 == 0 ? .white : rgba ? Color(red: 20, green: 40, blue: 200, alpha: 160) : 128
        renderOptions = RenderOptions(
            scale: scales[Int(header[5] & 7)], format: rgba ? .rgba8 : .gray8, background: background,
            debug: header[5] & 8 != 0, maxPixels: limits[Int(header[7] & 3)])
        let cancel = Int(header[5] >> 5)
        cancelAfterLines = cancel < 5 ? nil : cancel - 5
    }

    /// Exclusion shapes read from the start of the body, which is left holding the text: a
    /// byte whose low two bits are the number of shapes less one, then per shape a kind byte
    /// and its coordinate bytes. Kind % 4: a rectangle (x, y, width, height), a circle (x, y,
    /// radius), a polygon of kind / 4 % 8 vertices (x, y each: 0 to 2 vertices make a polygon
    /// the library refuses), or a band across the whole box (y, height). A coordinate byte b
    /// is (b − 32) units: sizes and radii of 0 or less from b ≤ 32, places left of and above
    /// the box, and past it; 255 is the largest coordinate the library takes (10⁶ points).
    /// A unit is 1/160 of the box's width (2.5 points without wrapping) across, a fifth of
    /// the font size down.
    static func exclusions(from body: inout ArraySlice<UInt8>, width: Double, size: Double) -> [ExclusionShape] {
        func next() -> UInt8 { body.popFirst() ?? 0 }
        let across = width.isFinite ? width / 160 : 2.5, down = size / 5
        func coordinate(_ unit: Double) -> Double {
            let b = next()
            return b == 255 ? LayoutOptions.maximumLength : (Double(b) - 32) * unit
        }
        let count = 1 + Int(next() & 3)
        var shapes: [ExclusionShape] = []
        for _ in 0..<count {
            let kind = next()
            switch kind % 4 {
            case 0:
                let (x, y, w, h) = (coordinate(across), coordinate(down), coordinate(across), coordinate(down))
                shapes.append(.rect(Rect(x: x, y: y, width: w, height: h)))
            case 1:
                let (x, y, r) = (coordinate(across), coordinate(down), coordinate(across))
                shapes.append(.circle(center: Point(x: x, y: y), radius: r))
            case 2:
                shapes.append(.polygon((0..<Int(kind / 4 % 8)).map { _ in Point(x: coordinate(across), y: coordinate(down)) }))
            default:
                let (y, h) = (coordinate(down), coordinate(down))
                shapes.append(.rect(Rect(x: -1, y: y, width: min(width + 2, LayoutOptions.maximumLength), height: h)))
            }
        }
        return shapes
    }

    /// The body as text (invalid UTF-8 repaired), in one or two style runs.
    func attributedText() -> AttributedText {
        let string = String(decoding: body, as: UTF8.self)
        var text: AttributedText
        if let secondStyle {
            let middle = string.index(string.startIndex, offsetBy: string.count / 2)
            text = AttributedText([(String(string[..<middle]), style), (String(string[middle...]), secondStyle)])
        } else {
            text = AttributedText(string, style: style)
        }
        guard attachmentsOnFFFC else { return text }
        // Every U+FFFC an attachment of a size and alignment from its offset (some 0-wide, some tall).
        let alignments: [TextAttachment.Alignment] = [.center, .top, .bottom, .baseline(descent: 3), .baseline(descent: -5)]
        for offset in text.utf16.indices where text.utf16[offset] == 0xFFFC {
            text.setAttachment(TextAttachment(size: Size(width: Double(offset % 7) * 9, height: Double(offset % 5) * 13),
                                              alignment: alignments[offset % alignments.count], content: .box(tag: "fuzz")), at: offset)
        }
        return text
    }

    /// Every U+FFFC of the text stands for an attachment.
    let attachmentsOnFFFC: Bool
}
