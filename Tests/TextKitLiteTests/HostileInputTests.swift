import Foundation
import Testing
@testable import TextKitLite

/// Huge, degenerate and malicious inputs through layout and rendering: each gets a correct
/// result of bounded size (every character in exactly one line, in order; lines within the
/// width unless they hold one unbreakable cluster; exact-box bitmaps of ceil(size × scale)
/// pixels, held by the default ones, grown by ink outside the box),
/// and regressions of what the fuzzer (Fuzz/, scripts/fuzz.sh) found.
@Suite struct HostileInputTests {
    // MARK: Invariants

    /// Every UTF-16 unit in exactly one line, in order.
    func expectEveryCharacterInOneLine(_ layout: TextLayout, sourceLocation: SourceLocation = #_sourceLocation) {
        LineBreakingTests().expectEveryCharacterInOneLine(layout, sourceLocation: sourceLocation)
    }

    /// Every line fits the content width, except a line that holds a single grapheme
    /// cluster (besides hanging spaces and its paragraph terminator).
    func expectLinesFit(_ layout: TextLayout, sourceLocation: SourceLocation = #_sourceLocation) {
        let options = layout.options
        let width = options.width - options.insets.horizontal
        for (index, line) in layout.lines.enumerated() where line.frame.width > width + 1e-6 {
            let text = String(decoding: layout.text.utf16[line.range], as: UTF16.self)
            let visible = text.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(visible.count == 1, "line \(index) \(line.range) is \(line.frame.width) wide for \(width)",
                    sourceLocation: sourceLocation)
        }
    }

    /// The runs of each line show disjoint parts of it: no character is drawn twice.
    func expectRunsDisjoint(_ layout: TextLayout, sourceLocation: SourceLocation = #_sourceLocation) {
        for line in layout.lines {
            let ranges = line.runs.filter { !$0.isTruncationToken }.map(\.range).sorted { $0.lowerBound < $1.lowerBound }
            for (a, b) in zip(ranges, ranges.dropFirst()) {
                #expect(a.upperBound <= b.lowerBound, "runs \(a) and \(b) overlap", sourceLocation: sourceLocation)
            }
            for range in ranges {
                #expect(line.range.contains(range.lowerBound) || range.isEmpty, "run \(range) outside line \(line.range)",
                        sourceLocation: sourceLocation)
            }
        }
    }

    /// Renders at `scale` and checks the exact box's bitmap (`inkOverflow: .clip`) is
    /// ceil(size × scale) pixels, and the default one holds it, grown by the ink outside.
    ///
    /// - Returns: the exact box's bitmap.
    @discardableResult
    func render(_ layout: TextLayout, scale: Double = 1, sourceLocation: SourceLocation = #_sourceLocation) throws -> Bitmap {
        let outcome = try TextRenderer().render(layout, options: RenderOptions(scale: scale, inkOverflow: .clip))
        let bitmap = try #require(outcome.bitmap, sourceLocation: sourceLocation)
        #expect(outcome.linesDrawn == layout.lineCount, sourceLocation: sourceLocation)
        #expect(bitmap.width == Int((layout.size.width * scale - 1e-6).rounded(.up)), sourceLocation: sourceLocation)
        #expect(bitmap.height == Int((layout.size.height * scale - 1e-6).rounded(.up)), sourceLocation: sourceLocation)
        let grown = try TextRenderer().render(layout, options: RenderOptions(scale: scale))
        let all = try #require(grown.bitmap, sourceLocation: sourceLocation)
        let (x0, y0) = (grown.originX, grown.originY)
        #expect(x0 >= 0 && y0 >= 0 && all.width >= x0 + bitmap.width && all.height >= y0 + bitmap.height, sourceLocation: sourceLocation)
        let cut = (0..<bitmap.height).allSatisfy { row in
            all.pixels[(row + y0) * all.width + x0 ..< (row + y0) * all.width + x0 + bitmap.width]
                == bitmap.pixels[row * bitmap.width ..< (row + 1) * bitmap.width]
        }
        #expect(cut, "the grown bitmap cut to the box is the exact box's", sourceLocation: sourceLocation)
        return bitmap
    }

    func layout(_ string: String, size: Double = 17, width: Double, maxLines: Int = 0) throws -> TextLayout {
        try Fixtures.layout(string, size: size, LayoutOptions(width: width, maxLines: maxLines))
    }

    // MARK: Size

    static let sentence = "The quick brown fox jumps over the lazy dog, 敏捷的棕色狐狸 🎉 مرحبا.\n"

    @Test(.timeLimit(.minutes(1)))
    func oneMegabyteTextLaysOutCompletely() throws {
        let text = String(repeating: Self.sentence, count: 1_000_000 / Self.sentence.utf8.count)
        let engine = Fixtures.engine
        let shaped = try engine.shape(AttributedText(text, style: TextStyle(size: 17)))
        let layout = try engine.layout(shaped, options: LayoutOptions(width: 375))
        expectEveryCharacterInOneLine(layout)
        expectLinesFit(layout)
        #expect(layout.lineCount >= text.utf8.count / Self.sentence.utf8.count)
        #expect(zip(layout.lines, layout.lines.dropFirst()).allSatisfy { $0.frame.maxY <= $1.frame.y + 1e-9 })
        // Its first lines render; the whole would be a 375 × ~300,000 bitmap, over the limit.
        #expect(throws: RenderError.self) { try TextRenderer().render(layout) }
        let head = try engine.layout(shaped, options: LayoutOptions(width: 375, maxLines: 30))
        #expect(head.lineCount == 30 && head.isTruncated)
        try render(head, scale: 2)
    }

    @Test(.timeLimit(.minutes(2)))
    func tenMegabyteTextWithMaxLinesIsBounded() throws {
        // Left-to-right text: a line-limited layout shapes only a prefix. (Text with
        // right-to-left characters is laid out whole: its bidi levels may depend on the rest.)
        let sentence = "The quick brown fox jumps over the lazy dog, 敏捷的棕色狐狸 🎉.\n"
        let text = String(repeating: sentence, count: 10_000_000 / sentence.utf8.count)
        // A fresh engine counts the words it looks up: bounded by what 21 lines can hold,
        // not by the 10 MB of text.
        let engine = TextEngine(fonts: Fixtures.engine.fonts)
        let layout = try engine.layout(AttributedText(text, style: TextStyle(size: 17)), options: LayoutOptions(width: 375, maxLines: 20))
        #expect(layout.lineCount == 20 && layout.isTruncated)
        #expect(layout.text.utf16Count == text.utf16.count)
        let lookups = engine.shapeCache.statistics.hits + engine.shapeCache.statistics.misses
        #expect(lookups < 20_000, "\(lookups) word lookups")
    }

    /// Measuring a long text at several widths with a line limit itemizes a prefix once for
    /// all of them, and the whole text only at the widths the prefix does not settle; each
    /// result equals measuring at that width alone.
    @Test(.timeLimit(.minutes(1)))
    func longTextMeasuredAtSeveralWidthsIsBoundedAndExact() throws {
        let sentence = "The quick brown fox jumps over the lazy dog, 敏捷的棕色狐狸 🎉.\n"
        let long = String(repeating: sentence, count: 2_000_000 / sentence.utf8.count)
        // Clusters of many units: a prefix of so many units holds few lines at a wide width.
        let marks = String(repeating: "x" + String(repeating: "\u{301}", count: 30) + " ", count: 2_000)
        let widths: [Double] = [40, 320, 2000]
        for string in [long, marks] {
            let engine = TextEngine(fonts: Fixtures.engine.fonts)
            let text = AttributedText(string, style: TextStyle(size: 16))
            let options = LayoutOptions(maxLines: 3)
            let all = try engine.measure(text, options: options, widths: widths)
            if string == long {
                let lookups = engine.shapeCache.statistics.hits + engine.shapeCache.statistics.misses
                #expect(lookups < 5_000, "\(lookups) word lookups")
            }
            for (index, width) in widths.enumerated() {
                let alone = try engine.measure(text, options: options.at(width: width))
                #expect(all[index] == alone, "width \(width)")
            }
            #expect(all.allSatisfy { $0.isTruncated })
        }
    }

    /// The largest line limit is a limit like any other: no overflow where one more line
    /// than shown is looked for.
    @Test func largestLineLimitLaysOutAndMeasures() throws {
        let text = AttributedText(String(repeating: "word ", count: 20_000), style: TextStyle(size: 17))
        let options = LayoutOptions(width: 375, maxLines: Int.max)
        let layout = try Fixtures.engine.layout(text, options: options)
        #expect(!layout.isTruncated && layout.lineCount > 100)
        #expect(try Fixtures.engine.measure(text, options: options) == TextMeasurement(layout))
    }

    /// Clusters of tens of thousands of marks or joined emoji: one line, measured as laid
    /// out, drawn, in bounded work (HarfBuzz is handed the cluster in parts: linear time).
    @Test(.timeLimit(.minutes(1)), arguments: [
        "a" + String(repeating: "\u{FE0F}", count: 40_000),
        "a" + String(repeating: "\u{301}", count: 80_000),
        Array(repeating: "👩", count: 20_000).joined(separator: "\u{200D}"),
    ])
    func hugeClustersAreShapedInBoundedParts(_ string: String) throws {
        for maxLines in [0, 3] {
            let text = AttributedText(string, style: TextStyle(size: 17))
            let options = LayoutOptions(width: 300, maxLines: maxLines)
            let layout = try Fixtures.engine.layout(text, options: options)
            #expect(layout.lineCount == 1 && !layout.isTruncated)
            expectEveryCharacterInOneLine(layout)
            #expect(try Fixtures.engine.measure(text, options: options) == TextMeasurement(layout))
            if maxLines == 0 { try render(layout) }
        }
    }

    /// A long cluster is shaped in parts of at most `maxShapedClusterLength` units that
    /// allow no break between them; a long word of short clusters is shaped whole.
    @Test func onlyLongClustersAreShapedInParts() throws {
        let limit = WordCutter.maxShapedClusterLength
        let marks = try Fixtures.engine.shape(AttributedText("a" + String(repeating: "\u{301}", count: 100), style: TextStyle(size: 17)))
        let pieces = marks.pieces(ofParagraph: 0)
        #expect(pieces.count == (101 + limit - 1) / limit)
        #expect(pieces.allSatisfy { $0.end - $0.start <= limit })
        #expect(pieces.dropLast().allSatisfy { !$0.breakAfter } && pieces.last!.breakAfter)
        let word = try Fixtures.engine.shape(AttributedText(String(repeating: "abc", count: 100), style: TextStyle(size: 17)))
        #expect(word.pieces(ofParagraph: 0).count == 1)
    }

    @Test func tenThousandCombiningMarksOnOneBase() throws {
        let cluster = "e" + String(repeating: "\u{301}", count: 10_000)
        let alone = try layout(cluster, width: 100)
        #expect(alone.lineCount == 1)
        expectEveryCharacterInOneLine(alone)
        try render(alone, scale: 2)

        // Between words, the cluster moves as one piece.
        let inText = try layout("abc \(cluster) def", width: 40)
        expectEveryCharacterInOneLine(inText)
        expectLinesFit(inText)
        let texts = Fixtures.lineTexts(inText)
        #expect(texts.contains { $0.unicodeScalars.starts(with: "e\u{301}\u{301}".unicodeScalars) && $0.unicodeScalars.count >= 10_001 })
        try render(inText)
    }

    @Test func fiveThousandZWJEmojiSequences() throws {
        let family = "👨‍👩‍👧‍👦"  // 11 UTF-16 units, one grapheme
        let layout = try layout(String(repeating: family, count: 5_000), width: 200)
        expectEveryCharacterInOneLine(layout)
        expectLinesFit(layout)
        #expect(layout.lineCount > 100)
        // Lines break only between sequences.
        #expect(layout.lines.allSatisfy { $0.range.lowerBound % 11 == 0 })
        #expect(layout.lines.flatMap(\.runs).allSatisfy { $0.font.isColor })
        try render(try self.layout(String(repeating: family, count: 5_000), width: 200, maxLines: 20))
    }

    @Test func aChainOfFiveThousandEmojiJoinedByZWJIsOneGrapheme() throws {
        // UAX #29 rule GB11 keeps Extended_Pictographic ZWJ Extended_Pictographic together.
        let chain = Array(repeating: "👩", count: 5_000).joined(separator: "\u{200D}")
        let layout = try layout(chain, width: 100)
        #expect(layout.lineCount == 1)
        expectEveryCharacterInOneLine(layout)
        #expect(layout.lines[0].frame.width > 100)  // one grapheme wider than the line
        let bitmap = try render(layout)
        #expect(bitmap.width == 100)
    }

    @Test func hundredThousandCharactersWithoutABreakOpportunity() throws {
        let layout = try layout(String(repeating: "a", count: 100_000), width: 375)
        expectEveryCharacterInOneLine(layout)
        expectLinesFit(layout)
        // Emergency breaks fill each line: ~35 "a" (10.4 points each) per 375 points.
        #expect(layout.lineCount > 2_500 && layout.lineCount < 3_000)
        #expect(layout.lines.dropLast().allSatisfy { $0.frame.width > 375 - 11 })
    }

    @Test func longRightToLeftWordWithoutABreakOpportunity() throws {
        let layout = try layout(String(repeating: "ب", count: 20_000), width: 200)
        expectEveryCharacterInOneLine(layout)
        expectLinesFit(layout)
        expectRunsDisjoint(layout)
        #expect(layout.lines.allSatisfy { abs($0.frame.maxX - 200) < 1e-6 })  // right-aligned
        try render(try self.layout(String(repeating: "ب", count: 20_000), width: 200, maxLines: 10))
    }

    // MARK: Rich text

    /// A text of 30,000 runs and 30,000 attachments decodes in one pass over them (a
    /// restyle and an attachment search per run took minutes), to the text encoded.
    @Test func thirtyThousandRunsAndAttachmentsDecode() throws {
        var text = AttributedText("")
        let box = TextAttachment(size: Size(width: 10, height: 10), content: .box(tag: "b"))
        for k in 0..<30_000 {
            text.append("ab", style: TextStyle(size: 12, underline: k.isMultiple(of: 2)))
            text.append(box, style: TextStyle(size: 12))
        }
        let decoded = try JSONDecoder().decode(AttributedText.self, from: JSONEncoder().encode(text))
        #expect(text.runs.count == 30_000 && text.attachments.count == 30_000)
        #expect(decoded == text)
    }

    /// Slices of a text with 30,000 attachments each find theirs by search (a scan of
    /// all of them per slice took minutes): every attachment, moved to its slice.
    @Test func thirtyThousandSlicesOfATextWithThirtyThousandAttachments() {
        var text = AttributedText("")
        for _ in 0..<30_000 {
            text.append("x", style: TextStyle())
            text.append(TextAttachment(size: Size(width: 1, height: 1), content: .box(tag: "b")), style: TextStyle())
        }
        var offsets: [Int] = []
        for k in 0..<30_000 {
            let slice = text.slice(2 * k..<2 * k + 2)
            offsets += slice.attachments.map { $0.offset + 2 * k }
        }
        #expect(offsets == text.attachments.map(\.offset))
    }

    /// Restyling many ranges at once equals restyling them one by one, over runs they cut,
    /// overlap, join or reach past.
    @Test func restylingRangesAtOnceEqualsOneByOne() {
        var text = AttributedText([("abcdef", TextStyle(size: 10)), ("ghij", TextStyle(size: 11)), ("klmnop", TextStyle(size: 12))])
        let ranges = [-3..<1, 2..<4, 3..<7, 7..<7, 9..<11, 11..<12, 14..<30]
        var oneByOne = text
        var covered = IndexSet()
        for range in ranges {
            // A unit in several ranges is changed once.
            for part in IndexSet(integersIn: range.clamped(to: 0..<16)).subtracting(covered).rangeView {
                oneByOne.updateStyle(in: part) { $0.size *= 2 }
            }
            covered.insert(integersIn: range.clamped(to: 0..<16))
        }
        text.updateStyles(in: ranges.reversed()) { $0.size *= 2 }
        #expect(text.runs == oneByOne.runs)
        #expect(text.runs.map(\.style.size) == [20, 10, 20, 22, 11, 22, 24, 12, 24])
    }

    // MARK: Controls

    @Test func controlCharactersAndNULDrawNothing() throws {
        // C0 and C1 controls but the line terminators (LF, VT, FF, CR, NEL), and DEL.
        let controls = (0x00...0x9F).filter { $0 < 0x20 || $0 >= 0x7F }
            .filter { ![0x0A, 0x0B, 0x0C, 0x0D, 0x85].contains($0) }
            .map { Character(Unicode.Scalar(UInt32($0))!) }
        let text = String(controls)
        let layout = try layout(text, width: 100)
        #expect(layout.lineCount == 1)
        expectEveryCharacterInOneLine(layout)
        let bitmap = try render(layout, scale: 2)
        #expect(bitmap.pixels.allSatisfy { $0 == 255 }, "a control character drew a .notdef box")

        // Among letters, controls neither draw nor break: "a", NUL, "b" is one word.
        let mixed = try self.layout("a\u{0}b\u{1}c\td", width: 500)
        #expect(mixed.lineCount == 1)
        expectEveryCharacterInOneLine(mixed)
        #expect(try render(mixed).pixels.contains { $0 < 128 })
    }

    @Test(arguments: [
        ("LRE without PDF", "abc\u{202A}def ghi"),
        ("RLE without PDF", "abc \u{202B}אבג def"),
        ("RLO without PDF", "\u{202E}abc def ghi"),
        ("PDF without an embedding", "abc\u{202C}def"),
        ("PDI without an isolate", "\u{2069}x \u{2069}"),
        ("RLI without PDI", "\u{2067}אבג def ghi"),
        ("200 nested isolates", String(repeating: "\u{2067}", count: 200) + "אבג abc" + String(repeating: "\u{2069}", count: 200)),
        ("200 nested embeddings", String(repeating: "\u{202B}\u{202A}", count: 100) + "אבג abc def"),
        ("200 unclosed overrides", String(repeating: "\u{202E}", count: 200) + "abc def"),
        ("200 isolates never closed", String(repeating: "\u{2068}א", count: 200)),
    ])
    func loneAndDeepBidiControls(_ name: String, _ text: String) throws {
        for width in [60.0, .infinity] {
            let layout = try layout(text, width: width)
            expectEveryCharacterInOneLine(layout)
            if width.isFinite { expectLinesFit(layout) }
            expectRunsDisjoint(layout)
            try render(try self.layout(text, width: width.isFinite ? width : 2_000))
        }
    }

    // MARK: Fonts

    @Test func corruptFontsLoadOrFailButNeverCrash() throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: BundledFonts.path(BundledFonts.sans)))
        var generator = SplitMix64(state: 0x5EED)
        var loaded = 0
        for seed in 0..<24 {
            var bytes = [UInt8](original)
            // Damage the tables at the front (directory, head, hhea, cmap) or anywhere.
            let span = seed % 2 == 0 ? min(bytes.count, 300_000) : bytes.count
            for _ in 0..<[10, 100, 1_000][seed % 3] {
                bytes[Int.random(in: 12..<span, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            let path = Fixtures.temporaryPath("corrupt-\(seed).ttf")
            _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let font: Font
            do {
                font = try Font.load(path: path)
            } catch {
                #expect(error.description.contains(path))
                continue
            }
            loaded += 1
            let engine = TextEngine(fonts: FontFallbackChain(primary: font))
            let layout = try engine.layout(AttributedText("Hello wörld مرحبا 123 中文", style: TextStyle(size: 17)),
                                           options: LayoutOptions(width: 80))
            expectEveryCharacterInOneLine(layout)
            do {
                _ = try TextRenderer().render(layout, options: RenderOptions(scale: 2, maxPixels: 1 << 22))
            } catch {
                // Absurd metrics in a damaged font: refused, not allocated.
                guard case .bitmapTooLarge = error else { throw error }
            }
        }
        #expect(loaded > 0)
    }

    /// A small deterministic generator (SplitMix64), so a failing seed fails every run.
    struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    // MARK: Files

    /// A FIFO or a device where a font, an emoticon table or an emoticon image is expected is
    /// refused at once, naming it: nothing waits for a writer (a FIFO given as a font used to
    /// block for ever in `open`), nothing reads a device. `timeout` ends the tool should it
    /// wait again.
    @Test(.timeLimit(.minutes(1)))
    func nonRegularFilesAreRefusedWithoutBlocking() throws {
        let directory = Fixtures.temporaryPath("hostile-files")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let fifo = directory + "/fifo"
        unlink(fifo)
        #expect(mkfifo(fifo, 0o644) == 0)
        let fifoImage = directory + "/fifo-image.json", deviceImage = directory + "/device-image.json"
        try Data(#"{"emoticons": [{"code": "[x]", "image": "fifo"}]}"#.utf8).write(to: URL(fileURLWithPath: fifoImage))
        try Data(#"{"emoticons": [{"code": "[x]", "image": "/dev/zero"}]}"#.utf8).write(to: URL(fileURLWithPath: deviceImage))
        let cases = [
            ("--font", fifo, "Error: font path is a pipe, not a font file: \(fifo)"),
            ("--emoticons", fifo, "Error: --emoticons: cannot read emoticon table \(fifo): it is a pipe, not a regular file"),
            ("--emoticons", fifoImage,
             "Error: --emoticons: emoticon table \(fifoImage), entry 1 [x]: cannot read image file \(fifo): it is a pipe, not a regular file"),
            ("--emoticons", deviceImage,
             "Error: --emoticons: emoticon table \(deviceImage), entry 1 [x]: cannot read image file /dev/zero: it is a character device, not a regular file"),
        ]
        for (option, path, message) in cases {
            let result = try TextRenderTool.shell("exec timeout 20 \"$T\" render 'a[x]' --json \(option) '\(path)'")
            #expect(result.status == 1, "\(option) \(path): status \(result.status), \(result.stderr)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
    }

    /// A socket is named as one: as a font (refused by `FileBytes.open`), as `--file` (which
    /// said "cannot open (permission denied)", a guess).
    @Test func socketsAreRefusedNamingThem() throws {
        let path = Fixtures.temporaryPath("socket")
        let descriptor = try Fixtures.makeSocket(path)
        defer {
            close(descriptor)
            unlink(path)
        }
        let font = try TextRenderTool.run(["render", "x", "--json", "--font", path])
        #expect(font.status == 1 && font.stderr.contains("Error: font path is a socket, not a font file: \(path)"), "\(font.stderr)")
        let text = try TextRenderTool.run(["render", "--json", "--file", path])
        #expect(text.status == 1 && text.stderr.contains("Error: \(path): is a socket, not a text file"), "\(text.stderr)")
    }

    // MARK: Regressions (bugs found by these tests and the fuzzer)

    /// No line but the first of a paragraph starts with white space: UAX #14 allows no
    /// break before a space or tab, and an emergency break leaves them hanging at the end
    /// of the line before.
    func expectNoLineStartsWithWhiteSpace(_ layout: TextLayout, sourceLocation: SourceLocation = #_sourceLocation) {
        let units = layout.text.utf16
        let terminators: Set<UInt16> = [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029]
        var graphemes: Set<Int> = []
        for paragraph in Paragraphs.split(units) where !paragraph.content.isEmpty {
            let content = Array(units[paragraph.content])
            let offsets = content.withUnsafeBufferPointer { UnicodeProperties.graphemeBoundaries($0) }
            for offset in offsets { graphemes.insert(paragraph.content.lowerBound + Int(offset)) }
        }
        for (index, line) in layout.lines.enumerated()
        where line.range.lowerBound > 0 && line.range.lowerBound < units.count
            && !terminators.contains(units[line.range.lowerBound - 1]) {
            // The line's first cut unit (up to where a glyph cluster and a grapheme cluster
            // both start, as the line breaker cuts): white space with a mark on it is visible.
            let start = line.range.lowerBound
            let clusterEnd = line.runs.flatMap { $0.glyphs.map(\.cluster) }.map(Int.init).filter { $0 > start && graphemes.contains($0) }.min()
                ?? line.range.upperBound
            #expect(!units[start..<min(clusterEnd, line.range.upperBound)].allSatisfy(UnicodeProperties.isHangingSpace),
                    "line \(index) \(line.range) starts with white space", sourceLocation: sourceLocation)
        }
    }

    @Test
    func emergencyBreakKeepsTheHangingSpaceOnTheLine() throws {
        // "W" at 40 points is 27 points wide, wider than the 10-point line.
        let layout = try layout("W i", size: 40, width: 10)
        #expect(Fixtures.lineTexts(layout) == ["W ", "i"])
        let narrow = try self.layout("a b c", size: 17, width: 10)
        #expect(Fixtures.lineTexts(narrow) == ["a ", "b ", "c"])
        expectNoLineStartsWithWhiteSpace(narrow)
    }

    /// A long unit is cut over lines by emergency breaks, each cut a line's work (else a long
    /// unit takes quadratic time): a unit of many pieces (the script changes at every
    /// character, no break opportunity) is neither copied nor summed again per line, and a
    /// long word is cut with a binary search, its rest's letter spacing not summed again.
    /// Each line is as wide as its text laid out alone.
    @Test(arguments: [String(repeating: "aα", count: 400), String(repeating: "x", count: 800),
                      String(repeating: "א", count: 800)],
          [0.0, -3, 4])
    func longUnitsAreCutLineByLine(_ string: String, _ letterSpacing: Double) throws {
        let text = AttributedText(string, style: TextStyle(size: 17, letterSpacing: letterSpacing))
        let options = LayoutOptions(width: 100)
        let layout = try Fixtures.engine.layout(text, options: options)
        expectEveryCharacterInOneLine(layout)
        #expect(layout.lines.count > 10)
        let units = Array(string.utf16)
        for (index, line) in layout.lines.enumerated() {
            // The line's text laid out alone: its width summed afresh, not from a cut.
            let alone = try Fixtures.engine.layout(
                AttributedText(String(decoding: units[line.range], as: UTF16.self), style: text.runs[0].style), options: LayoutOptions())
            #expect(abs(line.frame.width - alone.measuredWidth) < 1e-9, "line \(index): \(line.frame.width) against \(alone.measuredWidth) alone")
            #expect(line.frame.width <= 100 + 1e-6)
        }
        #expect(try Fixtures.engine.measure(text, options: options) == TextMeasurement(layout))
        let again = try Fixtures.engine.layout(text, options: LayoutOptions(width: layout.measuredWidth))
        #expect(again.lines.map(\.range) == layout.lines.map(\.range), "relayout at the measured width \(layout.measuredWidth)")
    }

    @Test
    func pgmHeaderWhoseSizeOverflows() {
        let data = Array("P5\n4294967296 4294967296\n255\n".utf8) + [0, 0]
        #expect(throws: RenderError.self) { try Bitmap(pgm: data) }
    }

    /// Fuzzer crash 9187ba5b (LayoutFuzzer, 2026-11-22): start and middle truncation count the
    /// paragraph's trailing spaces in the line's width, so the line overflows its box
    /// (107.97 points in a 103-point box, x = −4.97 for the right-to-left paragraph).
    /// Reproducer bytes (`scripts/fuzz.sh --replay FILE`): header
    /// [51, 115, 102, 110, 107, 0, 12, 101] then "tween  wores   ", which decode to the
    /// options below.
    @Test(arguments: [TruncationMode.middle, .start])
    func fuzzCrash9187ba5bTruncatedLineFitsTheBox(_ truncation: TruncationMode) throws {
        let reproducer: [UInt8] = [51, 115, 102, 110, 107, 0, 12, 101] + Array("tween  wores   ".utf8)
        let text = String(decoding: reproducer.dropFirst(8), as: UTF8.self)
        for direction in [ParagraphDirection.rightToLeft, .leftToRight] {
            let options = LayoutOptions(width: 103, maxLines: 1, truncation: truncation, alignment: .left,
                                        lineSpacing: 2, lineHeightMode: .fixed(18.25 * 1.2 + 1), direction: direction)
            let layout = try Fixtures.engine.layout(AttributedText(text, style: TextStyle(size: 18.25)), options: options)
            let line = try #require(layout.lines.first)
            #expect(line.frame.width <= 103 + 1e-6, "\(truncation) \(direction): \(line.frame.width)")
            #expect(line.frame.x >= -1e-6)
        }
    }

    /// Fuzzer crashes 22e0bd5c, dc971d0d and dcd97fb1 (LayoutFuzzer, 2026-11-22), one bug:
    /// white space that UAX #14 glues to the next character (no break before "」", ",", a
    /// combining mark or NUL) is cut by emergency breaks, so lines start with it or hold
    /// nothing but hanging, zero-width spaces, a glued "," is pushed onto a line of its own,
    /// and laying out again at the layout's own measured width gives other lines.
    /// Reproducers (`scripts/fuzz.sh --replay FILE`), minimized by libFuzzer: 22e0bd5c is
    /// header [50, 107, 0, 12, 0, 2, 18, 0] (width 101, inset 6, 17.05 points, justified,
    /// line spacing −3) then the UTF-8 of U+07CB, 128 tabs, NUL, "s" (fourth case);
    /// dcd97fb1 is [1, 0, 0, 0, 77, 9, 9, 44] then "I))\t,I" (content width 1, 1 point,
    /// right-to-left; last case). Fixed: white space hangs wherever the line is cut, and
    /// a unit that does not fit leaves its leading white space hanging on the line before.
    @Test(arguments: [
              ("x" + String(repeating: " ", count: 30) + "」", 40.0, 17.0, ParagraphDirection.auto),
              ("Hello" + String(repeating: " ", count: 20) + "」", 40, 17, .auto),
              ("ok " + String(repeating: "\t", count: 12) + "」", 40, 17, .auto),
              ("\u{07CB}" + String(repeating: "\t", count: 128) + "\u{0}s", 89, 17.05, .auto),
              ("G\u{202E}e" + String(repeating: "\t", count: 12) + ",", 89, 17.05, .auto),
              ("ภาษ" + String(repeating: "\t", count: 9) + "\u{094D}aess bces", 89, 17.05, .auto),
              ("I))\t,I", 1, 1, .rightToLeft),
              // Crash 3ce684b0: tab + U+0353 is one glyph cluster (a visible mark on a
              // space), glued to U+FFFD: it cannot be cut, so it starts the next line.
              ("\u{FFFD}\t\u{0353}", 1, 1.6, .auto),
          ])
    func fuzzCrash22e0bd5cGluedWhiteSpaceStaysOnTheLineBefore(
        _ text: String, _ width: Double, _ size: Double, _ direction: ParagraphDirection
    ) throws {
        let attributed = AttributedText(text, style: TextStyle(size: size))
        let layout = try Fixtures.engine.layout(attributed, options: LayoutOptions(width: width, direction: direction))
        expectEveryCharacterInOneLine(layout)
        expectNoLineStartsWithWhiteSpace(layout)
        let again = try Fixtures.engine.layout(attributed, options: LayoutOptions(width: layout.measuredWidth, direction: direction))
        #expect(again.lines.map(\.range) == layout.lines.map(\.range), "relayout at the measured width \(layout.measuredWidth)")
        expectNoLineStartsWithWhiteSpace(again)
    }

    /// Fuzzer crash aab51fa2 (LayoutFuzzer, 30-minute run with -seed=20261123, 2026-11-23):
    /// an emergency break that takes a whole unit ("\u{FFFD} ", wider than the line) left
    /// the white space starting the next unit (U+2000, line-break class BA, so UAX #14 allows
    /// a break before it after a space) to start a line of its own. Reproducer
    /// (`scripts/fuzz.sh --replay FILE`), minimized by libFuzzer: header
    /// [0x0A, 0xE7, 0x01, 0x00, 0x00, 0xCC, 0xCC, 0x83] (width 21, 61 points, Korean, line
    /// spacing 2) then the UTF-8 bytes AC 20 E2 80 80. Fixed: after an emergency break that
    /// ends a unit, the white space that follows hangs on the same line.
    @Test(arguments: [
              ("\u{FFFD} \u{2000}", 21.0, 61.0),
              ("\u{FFFD} \u{3000}\u{2000}x", 21, 61),
              ("🎉 \u{3000}中文", 10, 40),
              ("W \u{205F}\u{1680} W", 5, 30),
          ])
    func fuzzCrashAab51fa2SpaceAfterAnEmergencyBreakHangs(_ text: String, _ width: Double, _ size: Double) throws {
        let attributed = AttributedText(text, style: TextStyle(size: size, language: "ko"))
        let layout = try Fixtures.engine.layout(attributed, options: LayoutOptions(width: width, lineSpacing: 2))
        expectEveryCharacterInOneLine(layout)
        expectNoLineStartsWithWhiteSpace(layout)
        let again = try Fixtures.engine.layout(attributed, options: LayoutOptions(width: layout.measuredWidth, lineSpacing: 2))
        #expect(again.lines.map(\.range) == layout.lines.map(\.range), "relayout at the measured width \(layout.measuredWidth)")
    }

    /// Fuzzer crash a33ca796 (LayoutFuzzer, 2026-11-24, in CI): a unit of white space alone
    /// (" " after "dol", then U+2000 and " ": a BA space allows a break after the space
    /// before it) hung at the end of a full line, and the next unit, U+2000 alone, started
    /// the next line. White space that starts the units after an all-white-space unit
    /// hangs on the same line.
    @Test func fuzzCrashA33ca796WhiteSpaceAfterAHangingUnitHangs() throws {
        var text = AttributedText("\u{2028}dol", style: TextStyle(size: 1))
        text.append(" \u{2000} \u{2000}", style: TextStyle(size: 2.7, ink: 90, language: "zh"))
        let options = LayoutOptions(width: 7, alignment: .right, lineHeightMode: .fixed(2.2), insets: EdgeInsets(all: 3), direction: .leftToRight)
        let layout = try Fixtures.engine.layout(text, options: options)
        expectEveryCharacterInOneLine(layout)
        expectNoLineStartsWithWhiteSpace(layout)
        #expect(layout.lines.map(\.range) == [0..<1, 1..<2, 2..<8])
        #expect(try Fixtures.engine.measure(text, options: options) == TextMeasurement(layout))
    }

    /// Fuzzer crash 205d60de (LayoutFuzzer, 2026-11-24, in CI; reproducer bytes, base64
    /// `AQAFzOKBpuKAgKhkb2wg4oCA4oCMIPSAgA==`): U+2000 followed by U+200C (ZWNJ, Grapheme_
    /// Cluster_Break Extend) is one grapheme cluster that HarfBuzz shapes as two glyph
    /// clusters. Like white space with a mark on it, it does not hang and may start a line
    /// (a line is cut only where a grapheme cluster and a glyph cluster both start); the
    /// checks looked only at the first glyph cluster, U+2000, and called it white space.
    /// Fuzzer crash 5b868026: a truncated line left with no pieces (an empty token, and no
    /// room for the first cluster) is sized by its paragraph's first style in a layout; the
    /// measurement gave it no height at all with natural line heights.
    @Test(arguments: [TruncationMode.end, .middle])
    func fuzzCrash5b868026EmptyTruncatedLineHasItsParagraphsHeight(_ truncation: TruncationMode) throws {
        let text = AttributedText(String(repeating: "\u{FFFD}", count: 40) + "ac\u{FFFD}000", style: TextStyle(size: 1, language: "ar"))
        let options = LayoutOptions(width: 7, maxLines: 6, truncation: truncation, truncationToken: AttributedText(""),
                                    lineHeightMultiple: 2.5, lineSpacing: 2, lineHeightMode: .natural, insets: EdgeInsets(all: 3))
        let layout = try Fixtures.engine.layout(text, options: options)
        #expect(layout.isTruncated)
        #expect(try Fixtures.engine.measure(text, options: options) == TextMeasurement(layout))
    }

    @Test func fuzzCrash205d60deSpaceWithZWNJStartsALine() throws {
        let text = AttributedText([
            ("\u{FFFD}\u{FFFD}\u{FFFD}do", TextStyle(size: 1, language: "en")),
            ("l \u{2000}\u{200C} \u{FFFD}", TextStyle(size: 2.7, ink: 90, language: "he")),
        ])
        let options = LayoutOptions(width: 13, alignment: .right, lineHeightMultiple: 0.5, lineHeightMode: .fixed(2.2),
                                    insets: EdgeInsets(all: 6), direction: .leftToRight)
        let layout = try Fixtures.engine.layout(text, options: options)
        expectEveryCharacterInOneLine(layout)
        expectNoLineStartsWithWhiteSpace(layout)
        #expect(layout.lines.map(\.range) == [0..<1, 1..<2, 2..<3, 3..<4, 4..<5, 5..<7, 7..<10, 10..<11])
        #expect(try Fixtures.engine.measure(text, options: options) == TextMeasurement(layout))
    }

    /// With `maxLines`, only a prefix of the text is shaped (enough for one line more than
    /// shown). It must give the lines the whole text gets: UAX #9 takes the paragraph
    /// direction from the paragraph's first strong character (rule P2), and the level of
    /// neutrals from the next strong character (N1), either of which may lie past the prefix.
    @Test(arguments: [
        (0..<300).map(String.init).joined(separator: " ") + " مرحبا بالعالم",
        "אבג abc" + String(repeating: " -", count: 400) + " def",
    ])
    func maxLinesPrefixGivesTheLinesOfTheWholeText(_ text: String) throws {
        let engine = Fixtures.engine
        let attributed = AttributedText(text, style: TextStyle(size: 17))
        for maxLines in [1, 2, 3] {
            let options = LayoutOptions(width: 100, maxLines: maxLines)
            let direct = try engine.layout(attributed, options: options)
            let whole = try engine.layout(try engine.shape(attributed), options: options)
            #expect(direct.lines.map(\.range) == whole.lines.map(\.range), "maxLines \(maxLines)")
            #expect(direct.lines.map(\.frame) == whole.lines.map(\.frame), "maxLines \(maxLines)")
            #expect(direct.lines.map { $0.runs.map(\.range) } == whole.lines.map { $0.runs.map(\.range) }, "maxLines \(maxLines): visual order")
        }
    }

    /// A bad point size past the lines a line limit shows (where the prefix shortcut stops)
    /// is still an error, the same from `layout`, `measure` and `shape`.
    @Test func badStylePastTheShownLinesIsRefusedAlike() throws {
        let engine = Fixtures.engine
        var text = AttributedText(String(repeating: "word ", count: 8_000), style: TextStyle(size: 17))
        text.append("tail", style: TextStyle(size: -3))
        let options = LayoutOptions(width: 100, maxLines: 2)
        let expected = LayoutError.invalidOption(name: "font size", value: "-3.0", reason: "must be in (0, 100000] points")
        #expect(throws: expected) { try engine.layout(text, options: options) }
        #expect(throws: expected) { try engine.measure(text, options: options) }
        #expect(throws: expected) { try engine.shape(text) }
        var good = text
        good.updateStyle(in: 40_000..<40_004) { $0.size = 17 }
        #expect(try engine.layout(good, options: options).lineCount == 2)
    }

    /// Fuzzer crash 4a2b681b (LayoutFuzzer, 2026-11-22): the `maxLines` prefix shortcut
    /// shapes leading neutral characters (U+FFFD, a combining mark, flags: script Common or
    /// Inherited) with no script, while the whole text gives them the paragraph's first real
    /// script (here NKo, past the prefix), so the first line's glyphs differ: [5372, 693]
    /// against [693, 5372]. Reproducer bytes (`scripts/fuzz.sh --replay FILE`, minimized):
    /// the array below; its header means width 21, inset 6, 61 points, 3 lines, two styles.
    @Test(arguments: [false, true])
    func fuzzCrash4a2b681bPrefixKeepsTheScriptOfLeadingNeutrals(_ fromFuzzer: Bool) throws {
        let reproducer: [UInt8] = [
            10, 231, 136, 204, 129, 204, 130, 204, 131, 204, 132, 204, 204, 204, 204, 204, 204, 255, 255,
            255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
            255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
            255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 137, 129, 130, 131, 204, 255, 255, 255, 255,
            255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 165, 159, 135, 179, 240, 159, 135,
            186, 16, 96, 137, 154, 223, 141, 0, 4, 0, 16, 0, 0, 0, 0, 0, 255, 255, 255, 255, 255, 255, 0,
            167, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 79, 49, 48, 52, 54, 41, 32, 116, 119, 111, 32,
            116, 4, 0, 0, 0, 0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 114, 32,
            102, 101, 32, 116, 101, 114, 97, 255, 255, 255, 255, 255, 255, 101, 32, 116, 101, 114, 97, 255,
            255, 255, 255, 255,
        ]
        let text = fromFuzzer
            ? String(decoding: reproducer.dropFirst(8), as: UTF8.self)
            : "\u{FFFD}\u{0304}" + String(repeating: "🇨🇳", count: 75) + " ߍߍ abc def"
        let attributed = AttributedText(text, style: TextStyle(size: 61, language: fromFuzzer ? "ar" : nil))
        let options = LayoutOptions(width: 21, maxLines: 3, insets: EdgeInsets(all: 6))
        let direct = try Fixtures.engine.layout(attributed, options: options)
        let whole = try Fixtures.engine.layout(try Fixtures.engine.shape(attributed), options: options)
        #expect(direct.lines.map(\.range) == whole.lines.map(\.range))
        #expect(direct.lines.map { $0.runs.map(\.glyphs) } == whole.lines.map { $0.runs.map(\.glyphs) })
    }

    /// Fuzzer crashes 7200ed57, f3aa06b4, 19fff06a and dd0b0da0 (LayoutFuzzer, 2026-11-22):
    /// with `maxLines` 1 and start or middle truncation, the line must end with the end of
    /// the text, but the `maxLines` prefix shortcut shows the end of the prefix, cut in the
    /// middle of a word ("…70 word71 word72 w" for a text that ends "word199 THE END").
    /// Reproducer bytes of 7200ed57 (`scripts/fuzz.sh --replay FILE`): the array below
    /// (header: width 1, 11.2 points, 1 line, start truncation).
    @Test(arguments: [TruncationMode.start, .middle])
    func fuzzCrash7200ed57StartTruncationShowsTheEndOfTheText(_ truncation: TruncationMode) throws {
        let text = (0..<200).map { "word\($0)" }.joined(separator: " ") + " THE END"
        let layout = try Fixtures.engine.layout(AttributedText(text, style: TextStyle(size: 17)),
                                                options: LayoutOptions(width: 200, maxLines: 1, truncation: truncation))
        let line = try #require(layout.lines.first)
        #expect(line.range.upperBound == text.utf16.count)
        #expect(Fixtures.lineTexts(layout).first?.hasSuffix("THE END") == true, "\(Fixtures.lineTexts(layout))")

        let reproducer: [UInt8] = [
            0, 68, 70, 1, 0, 0, 0, 0, 0, 239, 16, 75, 97, 105, 83, 104, 111, 121, 45, 83, 66, 32, 2, 32, 58,
            0, 168, 30, 111, 110, 101, 32, 116, 98, 98, 98, 98, 98, 98, 98, 98, 98, 98, 98, 98, 98, 98, 148,
            0, 0, 0, 98, 98, 98, 98, 98, 98, 98, 98, 98, 98, 98, 98, 98, 98, 98, 98, 98, 98, 98, 98, 98, 98,
            98, 98, 128, 13, 185, 101, 102, 11, 185, 32, 240, 159, 145, 169, 116, 114, 98, 16, 238, 32, 116,
            97,
        ]
        let fuzzText = AttributedText(String(decoding: reproducer.dropFirst(8), as: UTF8.self), style: TextStyle(size: 11.2))
        let options = LayoutOptions(width: 1, maxLines: 1, truncation: truncation)
        let direct = try Fixtures.engine.layout(fuzzText, options: options)
        let whole = try Fixtures.engine.layout(try Fixtures.engine.shape(fuzzText), options: options)
        #expect(direct.lines.map(\.range) == whole.lines.map(\.range))
    }
}
