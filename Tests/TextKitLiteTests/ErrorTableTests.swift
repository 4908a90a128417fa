import Foundation
import Testing
@testable import TextKitLite
@testable import TextKitLiteFeed
import TextKitLiteFrontEnd

/// The error table of docs/errors.md: every kind of bad input, through the library and
/// through `textrender`, and what it gets: a typed error whose message names the value,
/// file or line, or a correct result of bounded size.
@Suite struct ErrorTableTests {
    // MARK: Fixture files (made once per process)

    enum Files {
        static let directory: String = {
            let directory = Fixtures.temporaryPath("errors")
            try! FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let sans = try! Data(contentsOf: URL(fileURLWithPath: BundledFonts.path(BundledFonts.sans)))
            let files: [(String, Data)] = [
                ("truncated.ttf", sans.prefix(3000)),
                ("half.ttf", sans.prefix(sans.count / 2)),
                ("empty.ttf", Data()),
                ("text.ttf", Data("not a font at all, just some text\n".utf8)),
                ("zeroed-head.ttf", zeroingTable("head", of: sans)),
                ("bad-utf8.txt", Data([0x61, 0x0A, 0x62, 0xFF, 0x63])),
                ("plain-file", Data("a regular file where a directory is expected".utf8)),
                ("long-line.jsonl", Data(#"{"id": 1, "text": "ok"}"#.utf8) + Data([0x0A])
                    + Data(#"{"id": 2, "text": ""#.utf8) + Data(repeating: 0x61, count: FeedLineParser.maximumLineBytes)
                    + Data(#""}"#.utf8) + Data([0x0A]) + Data(#"{"id": 3, "text": "ok"}"#.utf8)),
            ]
            for (name, data) in files {
                _ = FileManager.default.createFile(atPath: directory + "/" + name, contents: data)
            }
            return directory
        }()

        static func path(_ name: String) -> String { directory + "/" + name }

        /// `font` with the bytes of its table `tag` zeroed (found through the sfnt table directory).
        static func zeroingTable(_ tag: String, of font: Data) -> Data {
            var bytes = [UInt8](font)
            func read32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
            let tables = Int(bytes[4]) << 8 | Int(bytes[5])
            for record in stride(from: 12, to: 12 + 16 * tables, by: 16)
                where String(decoding: bytes[record..<record + 4], as: UTF8.self) == tag {
                let offset = read32(record + 8), length = read32(record + 12)
                for i in offset..<min(offset + length, bytes.count) { bytes[i] = 0 }
            }
            return Data(bytes)
        }

        /// The two-face ASCII subset of DejaVu Sans (Fixtures/README.md).
        static let twoFaces = Fixtures.testsDirectory.appendingPathComponent("Fixtures/TwoFaces.ttc").path
    }

    /// The error of type `E` a throwing call gives (recording an issue when it succeeds or
    /// throws another type).
    static func error<E: Error>(_ type: E.Type, sourceLocation: SourceLocation = #_sourceLocation,
                                _ body: () throws -> Void) -> E? {
        do {
            try body()
            Issue.record("expected \(E.self), got a result", sourceLocation: sourceLocation)
        } catch let error as E {
            return error
        } catch {
            Issue.record("expected \(E.self), got \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }

    /// A layout through the shared engine, with the typed error.
    static func layout(_ string: String, size: Double = 17, _ options: LayoutOptions) throws(LayoutError) -> TextLayout {
        try Fixtures.engine.layout(AttributedText(string, style: TextStyle(size: size)), options: options)
    }

    // MARK: Fonts

    @Test func missingFontFile() {
        let error = Self.error(FontError.self) { _ = try Font.load(path: "/nonexistent/font.ttf") }
        #expect(error == FontError(path: "/nonexistent/font.ttf", reason: .notFound))
        #expect(error?.description == "font file not found: /nonexistent/font.ttf")
    }

    @Test func directoryAsFont() {
        let error = Self.error(FontError.self) { _ = try Font.load(path: Files.directory) }
        #expect(error?.reason == .isDirectory)
        #expect(error?.description == "font path is a directory, not a font file: \(Files.directory)")
    }

    @Test func emptyFontFile() {
        let path = Files.path("empty.ttf")
        let error = Self.error(FontError.self) { _ = try Font.load(path: path) }
        #expect(error == FontError(path: path, reason: .empty))
        #expect(error?.description == "font file is empty: \(path)")
    }

    @Test(arguments: ["truncated.ttf", "half.ttf", "text.ttf"])
    func truncatedOrCorruptFontFile(_ name: String) {
        let path = Files.path(name)
        let error = Self.error(FontError.self) { _ = try Font.load(path: path) }
        guard case .notAFont = error?.reason else {
            Issue.record("expected notAFont, got \(String(describing: error))")
            return
        }
        #expect(error!.description.hasPrefix("not a usable font file: \(path) ("))
    }

    /// The font fuzzer's row: a damaged table FreeType refuses is named in its words.
    @Test func zeroedHeadTableIsABrokenTable() {
        let path = Files.path("zeroed-head.ttf")
        let error = Self.error(FontError.self) { _ = try Font.load(path: path) }
        #expect(error?.description == "not a usable font file: \(path) (broken table)")
    }

    @Test func faceIndexOutOfRange() {
        let error = Self.error(FontError.self) { _ = try FontFallbackChain.load(specs: [Files.twoFaces + "#2"]) }
        #expect(error == FontError(path: Files.twoFaces, reason: .faceIndexOutOfRange(index: 2, faceCount: 2)))
        #expect(error?.description == "face index 2 out of range for \(Files.twoFaces): the file has 2 faces (0...1)")
    }

    @Test(arguments: ["-1", "abc"])
    func faceIndexThatIsNotANumber(_ index: String) {
        let error = Self.error(FontError.self) { _ = try FontFallbackChain.load(specs: [Files.twoFaces + "#" + index]) }
        #expect(error?.description.contains("\(Files.twoFaces)#\(index)") == true || error?.description.contains(index) == true)
        #expect(error?.description.contains("0 faces") == false, "\(String(describing: error))")
    }

    @Test func freeTypeErrorsAreFreeTypesWords() {
        // Every code FreeType defines has its message (Debian's FreeType has no FT_Error_String).
        #expect(FreeTypeError(code: 0x55).description == "invalid stream operation")
        #expect(FreeTypeError(code: 0x02).description == "unknown file format")
        #expect(FreeTypeError(code: 0x08).description == "broken table")
        let defined = (0..<0x100).filter { !FreeTypeError(code: Int32($0)).description.hasPrefix("FreeType error") }
        #expect(defined.count == 95)
        #expect(FreeTypeError(code: 300).description == "FreeType error 300 (not a code FreeType 2.12 defines)")
    }

    @Test func fontWithNoGlyphsForTheTextDrawsNotdef() throws {
        // The ASCII subset of DejaVu Sans has no Chinese: each character is its .notdef box.
        let font = try Font.load(path: Files.twoFaces, faceIndex: 0)
        let engine = TextEngine(fonts: FontFallbackChain(primary: font))
        let layout = try engine.layout(AttributedText("中文 abc", style: TextStyle(size: 20)), options: LayoutOptions(width: 300))
        #expect(layout.lineCount == 1)
        let glyphs = layout.lines.flatMap(\.runs).flatMap { $0.glyphs.map(\.id) }
        #expect(glyphs.prefix(2) == [0, 0])
        #expect(glyphs.dropFirst(2).contains { $0 != 0 })
        let bitmap = try #require(try TextRenderer().render(layout).bitmap)
        #expect(bitmap.pixels.contains { $0 < 128 })
    }

    // MARK: Text and feed lines

    @Test func invalidUTF8BecomesReplacementCharacters() throws {
        // A Swift String cannot hold invalid UTF-8: decoding repairs it to U+FFFD, which lays out.
        let string = String(decoding: [0x61, 0xFF, 0xC3, 0x28, 0x62], as: UTF8.self)
        #expect(string == "a\u{FFFD}\u{FFFD}(b")
        let layout = try Fixtures.layout(string, size: 17, LayoutOptions(width: 200))
        LineBreakingTests().expectEveryCharacterInOneLine(layout)
    }

    @Test func invalidUTF8InAFeedLine() {
        let error = Self.error(FeedLineError.self) { _ = try FeedLineParser.parse([0x7B, 0xFF, 0x7D], line: 12) }
        #expect(error == FeedLineError(line: 12, reason: "invalid UTF-8 at byte offset 1 of the line (byte 0xff)"))
        #expect(error?.description == "line 12: invalid UTF-8 at byte offset 1 of the line (byte 0xff)")
    }

    @Test(arguments: [
        (#"{"id": 1, "text": "unterminated"#, "bad JSON: Unexpected end of file during JSON parse"),
        (#"{"id": 1, "text": "lone \ud800 surrogate"}"#,
         "bad JSON: Unexpected end of file during string parse (expected low-surrogate code point but did not find one)"),
        (#"not json"#, "bad JSON: Invalid value around character 1"),
        (#"[1, 2]"#, "expected a JSON object, got an array"),
        (#"null"#, "expected a JSON object, got null"),
        (#"{"id": 1, "text": 42}"#, "\"text\" must be a string, got 42"),
        (#"{"id": 1, "text": "t", "author": ["a"]}"#, "\"author\" must be a string, got an array"),
        (#"{"id": 1, "text": "t", "images": "2"}"#, "\"images\" must be an integer from 0 to 100 or a list of pictures, got \"2\""),
        (#"{"id": 1, "text": "t", "images": 1.5}"#, "\"images\" must be an integer from 0 to 100 or a list of pictures, got 1.5"),
        (#"{"id": 1, "text": "t", "images": 101}"#, "\"images\" must be an integer from 0 to 100 or a list of pictures, got 101"),
        (#"{"id": true, "text": "t"}"#, "\"id\" must be a string or an integer, got true"),
        (#"{"id": 99999999999999999999, "text": "t"}"#,
         "\"id\" 99999999999999999999 is out of range: an integer id must be from -9223372036854775808 to 9223372036854775807 (give a longer one as a string)"),
        (#"{"id": "", "text": "t"}"#, "\"id\" is empty"),
        (#"{"id": 1, "author": "a"}"#, "missing \"text\""),
        (#"{"text": "t"}"#, "missing \"id\""),
    ])
    func badFeedLine(_ line: String, reason: String) {
        let error = Self.error(FeedLineError.self) { _ = try FeedLineParser.parse(Array(line.utf8), line: 3) }
        #expect(error == FeedLineError(line: 3, reason: reason))
    }

    @Test func feedLineOverTheSizeLimit() {
        let line = [UInt8](repeating: 0x20, count: 10) + [UInt8](repeating: 0x61, count: FeedLineParser.maximumLineBytes)
        let error = Self.error(FeedLineError.self) { _ = try FeedLineParser.parse(line, line: 5) }
        #expect(error == FeedLineError(line: 5, reason: "line longer than 1048576 bytes"))
    }

    @Test func emptyText() throws {
        let layout = try Fixtures.layout("", size: 17, LayoutOptions(width: 200))
        #expect(layout.lineCount == 0 && layout.size == Size(width: 200, height: 0) && !layout.isTruncated)
        let bitmap = try #require(try TextRenderer().render(layout, options: RenderOptions(scale: 2)).bitmap)
        #expect(bitmap.width == 400 && bitmap.height == 0 && bitmap.pixels.isEmpty)
        let path = Fixtures.temporaryPath("empty.pgm")
        try bitmap.writePGM(to: path)
        #expect(try Bitmap(pgm: Array(Data(contentsOf: URL(fileURLWithPath: path)))) == bitmap)
        // With insets, the box is the insets.
        let inset = try Fixtures.layout("", size: 17, LayoutOptions(width: 200, insets: EdgeInsets(all: 5)))
        #expect(inset.size.height == 10)
    }

    // MARK: Layout options

    @Test(arguments: [0.0, -0.0, -5, -.infinity, .nan, 1e6 + 1, 1e9, 8e18, 1e39, 1e300, .greatestFiniteMagnitude])
    func invalidWidth(_ width: Double) {
        let error = Self.error(LayoutError.self) { _ = try Self.layout("x", size: 17, LayoutOptions(width: width)) }
        #expect(error == .invalidOption(name: "width", value: "\(width)", reason: "must be a positive number of points up to 1000000, or infinity (no wrapping)"))
        #expect(error?.description == "invalid width \(width): must be a positive number of points up to 1000000, or infinity (no wrapping)")
    }

    @Test func infiniteWidthMeansNoWrapping() throws {
        let layout = try Fixtures.layout("a long line that never wraps at an infinite width", size: 17, LayoutOptions(width: .infinity))
        #expect(layout.lineCount == 1)
        #expect(layout.size.width == layout.measuredWidth && layout.size.width > 300)
        let bitmap = try #require(try TextRenderer().render(layout).bitmap)
        #expect(bitmap.width == Int(layout.size.width.rounded(.up)))
    }

    @Test func widestWidthLaysOutButItsBitmapIsRefused() throws {
        let layout = try Fixtures.layout("x", size: 17, LayoutOptions(width: 1e6, alignment: .center))
        #expect(layout.lineCount == 1 && layout.size.width == 1e6)
        let error = Self.error(RenderError.self) { _ = try TextRenderer().render(layout, options: RenderOptions(scale: 100)) }
        #expect(error == .bitmapTooLarge(width: 100_000_000, height: 1979, limit: RenderOptions.defaultMaxPixels))
        #expect(error?.description == "bitmap of 100000000×1979 pixels exceeds the limit of 67108864 pixels (raise it with maxPixels / --max-pixels)")
    }

    @Test func widthThatLeavesNoRoomInsideTheInsets() {
        let error = Self.error(LayoutError.self) {
            _ = try Self.layout("x", size: 17, LayoutOptions(width: 20, insets: EdgeInsets(all: 10)))
        }
        #expect(error?.description == "invalid width 20.0: leaves no room inside the insets (20.0 points)")
    }

    @Test(arguments: [0.0, -3, .nan, .infinity, 100_001])
    func invalidFontSize(_ size: Double) {
        let error = Self.error(LayoutError.self) { _ = try Self.layout("x", size: size, LayoutOptions(width: 100)) }
        #expect(error == .invalidOption(name: "font size", value: "\(size)", reason: "must be in (0, 100000] points"))
        // Also in a truncation token.
        let token = AttributedText("…", style: TextStyle(size: size))
        let tokenError = Self.error(LayoutError.self) {
            _ = try Self.layout("x", size: 17, LayoutOptions(width: 100, maxLines: 1, truncationToken: token))
        }
        #expect(tokenError?.description == "invalid font size \(size): must be in (0, 100000] points")
    }

    @Test func largestFontSizeLaysOutAndRendersBounded() throws {
        let layout = try Fixtures.layout("x", size: 100_000, LayoutOptions(width: 10))
        #expect(layout.lineCount == 1)
        #expect(layout.size.height > 100_000 && layout.size.height < 130_000)
        // A glyph over FreeType's raster limit (4 Mpx) draws nothing; the bitmap is the box.
        let bitmap = try #require(try TextRenderer().render(layout).bitmap)
        #expect(bitmap.width == 10 && bitmap.height == Int(layout.size.height.rounded(.up)))
    }

    @Test func maxLinesZeroMeansNoLimit() throws {
        let text = String(repeating: "word ", count: 200)
        let layout = try Fixtures.layout(text, size: 17, LayoutOptions(width: 100, maxLines: 0))
        #expect(layout.lineCount > 20 && !layout.isTruncated)
        LineBreakingTests().expectEveryCharacterInOneLine(layout)
    }

    @Test(arguments: [-1, Int.min])
    func negativeMaxLines(_ maxLines: Int) {
        let error = Self.error(LayoutError.self) { _ = try Self.layout("x", size: 17, LayoutOptions(width: 100, maxLines: maxLines)) }
        #expect(error?.description == "invalid maxLines \(maxLines): must be 0 (no limit) or more")
    }

    @Test func otherInvalidLayoutOptions() {
        let cases: [(LayoutOptions, String)] = [
            (LayoutOptions(width: 100, lineHeightMultiple: 0), "invalid lineHeightMultiple 0.0: must be in (0, 100]"),
            (LayoutOptions(width: 100, lineHeightMultiple: .nan), "invalid lineHeightMultiple nan: must be in (0, 100]"),
            (LayoutOptions(width: 100, lineSpacing: .infinity), "invalid lineSpacing inf: must be a finite number of points within ±1e6"),
            (LayoutOptions(width: 100, lineHeightMode: .fixed(0)), "invalid lineHeightMode fixed(0.0): line height must be in (0, 1e6] points"),
            (LayoutOptions(width: 100, insets: EdgeInsets(top: -1)), "invalid insets"),
        ]
        for (options, message) in cases {
            let error = Self.error(LayoutError.self) { _ = try Self.layout("x", size: 17, options) }
            #expect(error?.description.hasPrefix(message) == true, "\(String(describing: error))")
        }
    }

    // MARK: Rendering

    @Test(arguments: [0.0, -1, .nan, .infinity, 100.5])
    func invalidScale(_ scale: Double) throws {
        let layout = try Fixtures.layout("x", size: 17, LayoutOptions(width: 20))
        let error = Self.error(RenderError.self) { _ = try TextRenderer().render(layout, options: RenderOptions(scale: scale)) }
        #expect(error?.description == "invalid scale \(scale): must be in (0, 100]")
    }

    @Test func largestScale() throws {
        // 375 points at 100× and a 20-point line: 37,500 × 1,979 pixels, over the default limit.
        let wide = try Fixtures.layout("x", size: 17, LayoutOptions(width: 375))
        let error = Self.error(RenderError.self) { _ = try TextRenderer().render(wide, options: RenderOptions(scale: 100)) }
        #expect(error == .bitmapTooLarge(width: 37_500, height: 1_979, limit: RenderOptions.defaultMaxPixels))
        // A small box at 100× renders: ceil(size × scale) pixels.
        let small = try Fixtures.layout("x", size: 17, LayoutOptions(width: 12))
        let bitmap = try #require(try TextRenderer().render(small, options: RenderOptions(scale: 100)).bitmap)
        #expect(bitmap.width == 1_200 && bitmap.height == Int((small.size.height * 100).rounded(.up)))
        #expect(bitmap.pixels.contains { $0 < 128 })
    }

    @Test func bitmapOverTheConfiguredLimit() throws {
        let layout = try Fixtures.layout("x", size: 17, LayoutOptions(width: 100))
        let error = Self.error(RenderError.self) { _ = try TextRenderer().render(layout, options: RenderOptions(maxPixels: 1_000)) }
        #expect(error == .bitmapTooLarge(width: 100, height: 20, limit: 1_000))
        #expect(error?.description.contains("raise it with maxPixels / --max-pixels") == true)
        for limit in [0, -1] {
            let invalid = Self.error(RenderError.self) { _ = try TextRenderer().render(layout, options: RenderOptions(maxPixels: limit)) }
            #expect(invalid?.description == "invalid maxPixels \(limit): must be positive")
        }
        // Sizes whose product overflows are refused, not trapped on.
        #expect(Self.error(RenderError.self) { _ = try Bitmap(width: Int.max, height: 2) }
                == .bitmapTooLarge(width: Int.max, height: 2, limit: RenderOptions.defaultMaxPixels))
        #expect(Self.error(RenderError.self) { _ = try Bitmap(width: -1, height: 2) } == .invalidSize(width: -1, height: 2))
    }

    @Test func outputPathThatCannotBeWritten() throws {
        let bitmap = try Bitmap(width: 2, height: 2)
        let cases: [(String, String)] = [
            ("/nonexistent-dir/x.pgm", "cannot write /nonexistent-dir/x.pgm: directory /nonexistent-dir does not exist"),
            ("/proc/x.pgm", "cannot write /proc/x.pgm: cannot create a file in /proc: No such file or directory"),
            (Files.path("plain-file") + "/x.pgm", "cannot write \(Files.path("plain-file"))/x.pgm: "),
            (Files.directory, "cannot write \(Files.directory): Is a directory"),
        ]
        for (path, message) in cases {
            let error = Self.error(RenderError.self) { try OutputFile.write(bitmap, to: path, format: .pgm) }
            #expect(error?.description.hasPrefix(message) == true, "\(String(describing: error))")
        }
    }

    @Test
    func outputUnderARegularFileSaysItIsNotADirectory() throws {
        let path = Files.path("plain-file") + "/x.pgm"
        let error = Self.error(RenderError.self) { try OutputFile.write(Bitmap(width: 2, height: 2), to: path, format: .pgm) }
        #expect(error?.description.contains("is not a directory") == true, "\(String(describing: error))")
    }

    @Test func badPGMData() {
        let cases: [([UInt8], String)] = [
            (Array("P6\n1 1\n255\n\0".utf8), "not a binary PGM image: missing P5 magic number"),
            (Array("P5\n-1 1\n255\n\0".utf8), "not a binary PGM image: bad width or height"),
            (Array("P5\n1 1\n65535\n\0\0".utf8), "not a binary PGM image: maxval must be 255"),
            (Array("P5\n4 4\n255\n\0\0".utf8), "not a binary PGM image: raster has 2 bytes, expected 16"),
            (Array("P5\n4294967296 4294967296\n255\n\0\0".utf8), "not a binary PGM image: image of 4294967296×4294967296 pixels is too large"),
        ]
        for (data, message) in cases {
            #expect(Self.error(RenderError.self) { _ = try Bitmap(pgm: data) }?.description == message)
        }
    }

    @Test func invalidCellWidth() {
        let precomputer = FeedPrecomputer(engine: Fixtures.engine)
        let post = FeedPost(id: "1", author: "a", text: "t")
        for width in [0.0, 24, .nan, .infinity, 2e6] {
            let error = Self.error(LayoutError.self) { _ = try precomputer.layout(post, width: width) }
            #expect(error?.description.hasPrefix("invalid width \(width): must be a finite number of points wider than the cell padding") == true)
        }
    }

    // MARK: Through the command line

    /// One row of the command-line table: arguments (and standard input), exit status, and
    /// text that standard error (or, for status 0, standard output) must contain.
    struct CLICase: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var stdin: [UInt8]?
        var status: Int32
        var message: String
        var environment: [String: String] = [:]

        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let cliCases: [CLICase] = {
        let f = Files.path
        let big = "--max-pixels"
        return [
            CLICase(arguments: ["render", "x", "--font", "/nonexistent/font.ttf", "--json"], status: 1,
                    message: "Error: font file not found: /nonexistent/font.ttf"),
            CLICase(arguments: ["render", "x", "--font", Files.directory, "--json"], status: 1,
                    message: "Error: font path is a directory, not a font file: \(Files.directory)"),
            CLICase(arguments: ["render", "x", "--font", f("truncated.ttf"), "--json"], status: 1,
                    message: "Error: not a usable font file: \(f("truncated.ttf")) ("),
            CLICase(arguments: ["render", "x", "--font", f("empty.ttf"), "--json"], status: 1,
                    message: "Error: font file is empty: \(f("empty.ttf"))"),
            CLICase(arguments: ["render", "x", "--font", Files.twoFaces + "#2", "--json"], status: 1,
                    message: "Error: face index 2 out of range for \(Files.twoFaces): the file has 2 faces (0...1)"),
            CLICase(arguments: ["render", "x", "--font", Files.twoFaces + "#abc", "--json"], status: 1,
                    message: "Error: invalid face index \"abc\" for \(Files.twoFaces): expected a number ≥ 0 after \"#\""),
            CLICase(arguments: ["render", "x", "--font", "/dev/zero", "--json"], status: 1,
                    message: "Error: font path is a character device, not a font file: /dev/zero"),
            CLICase(arguments: ["measure", "--font", "/dev/null"], stdin: [], status: 1,
                    message: "Error: font path is a character device, not a font file: /dev/null"),
            CLICase(arguments: ["render", "x", "--json"], status: 1, message: "Error: bundled font not found: /nonexistent-fonts/DejaVuSans.ttf (set TEXTKITLITE_FONTS",
                    environment: [BundledFonts.environmentVariable: "/nonexistent-fonts"]),
            CLICase(arguments: ["render", "中文", "--font", Files.twoFaces, "--json"], status: 0, message: "\"lineCount\" : 1"),
            CLICase(arguments: ["render", "--file", f("bad-utf8.txt"), "--json"], status: 1,
                    message: "Error: \(f("bad-utf8.txt")):2: invalid UTF-8 at byte offset 3 (byte 0xff)"),
            CLICase(arguments: ["render", "--json"], stdin: [0x6F, 0x6B, 0x0A, 0xC3, 0x28], status: 1,
                    message: "Error: stdin:2: invalid UTF-8 at byte offset 3 (byte 0xc3)"),
            CLICase(arguments: ["measure"], stdin: Array(#"{"id": 1, "text": "ok"}"#.utf8) + [0x0A] + Array(#"{"id": 2, "text": ""#.utf8) + [0xFF, 0x22, 0x7D, 0x0A],
                    status: 2, message: "stdin:2: invalid UTF-8 at byte offset 19 of the line (byte 0xff) (line skipped)"),
            CLICase(arguments: ["render", "--file", "/nonexistent.txt", "--json"], status: 1, message: "Error: /nonexistent.txt: no such file"),
            CLICase(arguments: ["render", "--file", Files.directory, "--json"], status: 1,
                    message: "Error: \(Files.directory): is a directory, not a text file"),
            CLICase(arguments: ["measure"], stdin: Array("{\"id\": 1, \"text\": \"a\"}\n{\"id\": 2, \"text\": \"\u{1}\"}\nnot json\n".utf8),
                    status: 2, message: "stdin:3: bad JSON: Invalid value around character 1 (line skipped)"),
            CLICase(arguments: ["measure"], stdin: Array(#"{"id": 1}"#.utf8), status: 2, message: "stdin:1: missing \"text\" (line skipped)"),
            CLICase(arguments: ["measure"], stdin: Array(#"{"id": 1, "text": ["a"]}"#.utf8), status: 2,
                    message: "stdin:1: \"text\" must be a string, got an array (line skipped)"),
            CLICase(arguments: ["measure", f("long-line.jsonl")], status: 2,
                    message: "\(f("long-line.jsonl")):2: line longer than 1048576 bytes (line skipped)"),
            CLICase(arguments: ["measure", "/nonexistent.jsonl"], status: 1, message: "Error: /nonexistent.jsonl: no such file"),
            CLICase(arguments: ["measure", Files.directory], status: 1, message: "Error: \(Files.directory): is a directory, not a feed file"),
            // /proc/self/mem opens, and reading its first page fails (EIO): the reader stops there.
            CLICase(arguments: ["measure", "/proc/self/mem"], status: 1, message: "Error: cannot read /proc/self/mem: Input/output error"),
            CLICase(arguments: ["render", "x", "--width", "0", "--json"], status: 64,
                    message: "Error: invalid --width 0.0: must be a positive number of points up to 1000000, or infinity (no wrapping)"),
            CLICase(arguments: ["render", "x", "--width", "-4", "--json"], status: 64, message: "Error: invalid --width -4.0"),
            CLICase(arguments: ["render", "x", "--width", "nan", "--json"], status: 64, message: "Error: invalid --width nan"),
            CLICase(arguments: ["render", "x", "--width", "10", "--inset", "6", "--json"], status: 64,
                    message: "Error: invalid --width 10.0: leaves no room inside the insets (12.0 points)"),
            CLICase(arguments: ["render", "x", "--inset", "-1", "--json"], status: 64, message: "Error: invalid --inset -1.0: must be from 0 to 1000000 points"),
            CLICase(arguments: ["render", "x", "--line-height-multiple", "0", "--json"], status: 64,
                    message: "Error: invalid --line-height-multiple 0.0: must be in (0, 100]"),
            CLICase(arguments: ["render", "x", "--line-height", "2e6", "--json"], status: 64,
                    message: "Error: invalid --line-height 2e6: line height must be in (0, 1e6] points"),
            CLICase(arguments: ["render", "x", "--width", "inf", "--json"], status: 0, message: "\"lineCount\" : 1"),
            CLICase(arguments: ["render", "x", "--width", "1e6", "--scale", "100", "--output", f("wide.pgm")], status: 1,
                    message: "Error: bitmap of 100000000×1979 pixels exceeds the limit of 67108864 pixels (raise it with maxPixels / --max-pixels)"),
            CLICase(arguments: ["render", "x", "--width", "1e300", "--align", "center", "--output", f("far.pgm")], status: 64,
                    message: "Error: invalid --width 1e+300: must be a positive number of points up to 1000000, or infinity (no wrapping)"),
            CLICase(arguments: ["render", "x", "--width", "inf", "--inset", "1e300", "--output", f("far.pgm")], status: 64,
                    message: "Error: invalid --inset 1e+300: must be from 0 to 1000000 points"),
            CLICase(arguments: ["measure", "--width", "0"], stdin: [], status: 64,
                    message: "Error: invalid --width 0.0: must be a positive number of points up to 1000000"),
            CLICase(arguments: ["render", "x", "--font-size", "0", "--json"], status: 64,
                    message: "Error: invalid --font-size 0.0: must be in (0, 100000] points"),
            CLICase(arguments: ["render", "x", "--font-size", "-3", "--json"], status: 64, message: "Error: invalid --font-size -3.0"),
            CLICase(arguments: ["render", "x", "--lang", "ja_JP!", "--json"], status: 64, message: "Error: invalid --lang \"ja_JP!\""),
            CLICase(arguments: ["render", "x", "--font-family", ":Bold", "--json"], status: 1,
                    message: "Error: invalid --font-family \":Bold\": expected NAME or NAME:STYLE"),
            CLICase(arguments: ["measure", "--font-family", "No Such Family 1234"], stdin: [], status: 1,
                    message: "Error: no installed font family \"No Such Family 1234\""),
            CLICase(arguments: ["render", "x", "--font-size", "100001", "--json"], status: 64, message: "Error: invalid --font-size 100001.0"),
            CLICase(arguments: ["render", "x", "--font-size", "100000", "--width", "10", "--json"], status: 0, message: "\"lineCount\" : 1"),
            CLICase(arguments: ["render", "a b c d e f", "--width", "30", "--max-lines", "0", "--json"], status: 0, message: "\"lineCount\" : 3"),
            CLICase(arguments: ["render", "x", "--max-lines", "-1", "--json"], status: 64,
                    message: "Error: invalid --max-lines -1: must be from 0 (no limit) to 1000000"),
            CLICase(arguments: ["measure", "--max-lines", "-2"], stdin: [], status: 64, message: "Error: invalid --max-lines -2"),
            CLICase(arguments: ["measure", "--max-lines", "9223372036854775807"], stdin: [], status: 64,
                    message: "Error: invalid --max-lines 9223372036854775807: must be from 0 (no limit) to 1000000"),
            CLICase(arguments: ["render", "x", "--max-lines", "1000001", "--json"], status: 64,
                    message: "Error: invalid --max-lines 1000001: must be from 0 (no limit) to 1000000"),
            CLICase(arguments: ["render", "x", "--max-lines", "1000000", "--json"], status: 0, message: "\"lineCount\" : 1"),
            CLICase(arguments: ["feed", "--out", f("feed-narrow"), "--width", "10"], stdin: [], status: 64,
                    message: "Error: invalid --width 10.0: a cell must be wider than its padding (24.0 points)"),
            CLICase(arguments: ["measure", "--width", "24"], stdin: [], status: 64,
                    message: "Error: invalid --width 24.0: a cell must be wider than its padding (24.0 points)"),
            CLICase(arguments: ["measure", "--layout", "text", "--width", "10"], stdin: Array(#"{"id": 1, "text": "ok"}"#.utf8),
                    status: 0, message: "\"id\":1,"),
            CLICase(arguments: ["feed", "--out", f("feed-limit"), "--max-pixels", "1000"], stdin: Array(#"{"id": 1, "text": "ok"}"#.utf8),
                    status: 2, message: "stdin:1: bitmap of 750×228 pixels exceeds the limit of 1000 pixels (raise it with maxPixels / --max-pixels) (line skipped)"),
            CLICase(arguments: ["feed", "--out", f("feed-limit0"), "--max-pixels", "0"], stdin: [], status: 64,
                    message: "Error: invalid --max-pixels 0: must be positive"),
            CLICase(arguments: ["render", "x", "--scale", "0", "--output", f("s0.pgm")], status: 64,
                    message: "Error: invalid --scale 0.0: must be in (0, 100]"),
            CLICase(arguments: ["render", "x", "--scale", "100", "--output", f("s100.pgm")], status: 1,
                    message: "Error: bitmap of 37500×1979 pixels exceeds the limit of 67108864 pixels"),
            CLICase(arguments: ["render", "x", "--scale", "100", "--width", "12", "--output", f("s100-small.pgm")], status: 0, message: ""),
            CLICase(arguments: ["feed", "--out", f("feed"), "--scale", "0"], stdin: [], status: 64, message: "Error: invalid --scale 0.0: must be in (0, 100]"),
            CLICase(arguments: ["render", "x", "--output", "/nonexistent-dir/x.pgm"], status: 1,
                    message: "Error: cannot write /nonexistent-dir/x.pgm: directory /nonexistent-dir does not exist"),
            CLICase(arguments: ["render", "x", "--output", "/proc/x.pgm"], status: 1,
                    message: "Error: cannot write /proc/x.pgm: cannot create a file in /proc: No such file or directory"),
            CLICase(arguments: ["render", "x", "--output", f("plain-file") + "/x.pgm"], status: 1,
                    message: "Error: cannot write \(f("plain-file"))/x.pgm: \(f("plain-file")) is not a directory"),
            CLICase(arguments: ["feed", "--out", f("plain-file") + "/out"], stdin: [], status: 1,
                    message: "Error: cannot create output directory \(f("plain-file"))/out: Not a directory"),
            // Foundation's errors in the system's words, never "Error Domain=…" nor "The file doesn’t exist."
            CLICase(arguments: ["feed", "--out", "/dev/null/out"], stdin: [], status: 1,
                    message: "Error: cannot create output directory /dev/null/out: Not a directory"),
            CLICase(arguments: ["feed", "--out", "/proc/nonexistent/out"], stdin: [], status: 1,
                    message: "Error: cannot create output directory /proc/nonexistent/out: No such file or directory"),
            CLICase(arguments: ["render", "x", "--output", f("x.txt")], status: 64, message: "the file name must end in .png, .ppm or .pgm (or give --format)"),
            CLICase(arguments: ["render", "x", big, "1000", "--output", f("limit.pgm")], status: 1,
                    message: "Error: bitmap of 375×20 pixels exceeds the limit of 1000 pixels"),
            CLICase(arguments: ["render", "x", big, "0", "--output", f("limit0.pgm")], status: 64,
                    message: "Error: invalid --max-pixels 0: must be positive"),
            CLICase(arguments: ["render", "", "--json"], status: 0, message: "\"lineCount\" : 0"),
            CLICase(arguments: ["render", "--json"], stdin: [], status: 0, message: "\"lineCount\" : 0"),
            CLICase(arguments: ["render", "x"], status: 64, message: "nothing to do: give --output FILE.png|FILE.ppm|FILE.pgm, --json or --hit X,Y"),
            CLICase(arguments: ["render", "x", "--color", "reddish", "--json"], status: 64,
                    message: "Error: invalid --color \"reddish\": " + Color.syntaxReason),
            CLICase(arguments: ["render", "x", "--link-color", "#12", "--json"], status: 64,
                    message: "Error: invalid --link-color \"#12\": " + Color.syntaxReason),
            CLICase(arguments: ["feed", "--out", f("feed-theme"), "--theme", "sepia"], stdin: [], status: 64,
                    message: "Error: invalid --theme sepia: use light, dark, gray"),
            CLICase(arguments: ["render", "x", "--hit", "1"], status: 64, message: "invalid --hit 1: use X,Y in points (two finite numbers)"),
            CLICase(arguments: ["render", "x", "--hit", "1,nan"], status: 64, message: "invalid --hit 1,nan"),
            CLICase(arguments: ["render", "x", "--hit", "1,2", "--json"], status: 64, message: "--hit and --json both print to standard output: give one"),
            // A bad value is named even when nothing would be written.
            CLICase(arguments: ["render", "x", "--width", "-5"], status: 64, message: "Error: invalid --width -5.0"),
            CLICase(arguments: ["render", "x", "--font", "/nonexistent.ttf"], status: 1, message: "Error: font file not found: /nonexistent.ttf"),
            CLICase(arguments: ["measure", "--jobs", "0"], stdin: [], status: 64, message: "Error: invalid --jobs 0: must be from 1 to 256"),
        ]
    }()

    @Test(arguments: cliCases)
    func commandLine(_ row: CLICase) throws {
        let result = try Self.runTool(row.arguments, stdin: row.stdin.map { Data($0) }, environment: row.environment)
        #expect(result.status == row.status, "\(result.stderr)")
        let output = row.status == 0 ? result.stdout : result.stderr
        if !row.message.isEmpty { #expect(output.contains(row.message), "\(output)") }
        if row.status != 0 { #expect(result.stderr.hasPrefix("Error: ") || result.stderr.hasPrefix("textrender: "), "\(result.stderr)") }
    }

    @Test func commandLineRejectsATextFileOverItsSizeLimit() throws {
        // A sparse 65 MB file: over the 64 MB limit of one text, refused while reading.
        let path = Files.path("huge.txt")
        try Fixtures.makeSparseFile(path, size: 65 << 20)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Self.runTool(["render", "--file", path, "--json"], stdin: nil, environment: [:])
        #expect(result.status == 1)
        #expect(result.stderr.contains("Error: \(path): input larger than 67108864 bytes"), "\(result.stderr)")
    }

    @Test func badEmoticonTablesNameTheFileAndEntry() throws {
        let missing = Files.path("missing-emoticons.json"), fake = Files.path("fake-emoticons.json"), notPNG = Files.path("fake.png")
        try Data(#"{"emoticons": [{"code": "[x]", "image": "nope.png"}]}"#.utf8).write(to: URL(fileURLWithPath: missing))
        try Data("hello".utf8).write(to: URL(fileURLWithPath: notPNG))
        try Data(#"{"emoticons": [{"code": "[x]", "image": "fake.png"}]}"#.utf8).write(to: URL(fileURLWithPath: fake))
        let cases = [
            ("/nonexistent.json", "Error: --emoticons: cannot read emoticon table /nonexistent.json: No such file or directory"),
            (missing, "Error: --emoticons: emoticon table \(missing), entry 1 [x]: cannot read image file"),
            (fake, "Error: --emoticons: emoticon table \(fake), entry 1 [x]: not a PNG file: \(notPNG) (no PNG signature)"),
        ]
        for (table, message) in cases {
            for command in [["render", "a[x]", "--json"], ["measure", "-"]] {
                let result = try Self.runTool(command + ["--emoticons", table], stdin: Data("{\"id\": 1, \"text\": \"a\"}\n".utf8),
                                              environment: [:])
                #expect(result.status == 1, "\(command)")
                #expect(result.stderr.contains(message), "\(result.stderr)")
            }
        }
    }

    /// A post whose emoticon is too large to lay out (an entry's size times the body's
    /// point size over 100,000 points) is reported and skipped alike by `feed` and
    /// `measure`: `feed` drew its body empty while `measure` gave it three lines.
    @Test func aPostWithAnEmoticonTooLargeIsReportedByFeedAndMeasure() throws {
        let image = try Data(contentsOf: URL(fileURLWithPath: EmoticonTableTests.shippedPath).deletingLastPathComponent()
            .appendingPathComponent("smile.png"))
        try image.write(to: URL(fileURLWithPath: Files.path("big.png")))
        let table = Files.path("big-emoticons.json")
        try Data(#"{"emoticons": [{"code": "[big]", "image": "big.png", "size": 8}]}"#.utf8).write(to: URL(fileURLWithPath: table))
        let feed = Data((#"{"id": 1, "text": "Hello [big] world, some words here."}"# + "\n" + #"{"id": 2, "text": "ok [big"}"# + "\n").utf8)
        let message = "stdin:1: invalid attachment size 136000.0×136000.0: must be finite, not negative and at most 100000 points a side (line skipped)"
        let out = Files.path("feed-big-emoticon")
        for command in [["measure"], ["measure", "--width", "320,375"], ["measure", "--layout", "text"], ["feed", "--out", out, "--max-pixels", "400000000"]] {
            // 8 × 17,000 points: an emoticon past the 100,000-point attachment limit.
            let result = try Self.runTool(command + ["--emoticons", table, "--font-size", "17000"], stdin: feed, environment: [:])
            #expect(result.status == 2, "\(command): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(command): \(result.stderr)")
            #expect(command[0] == "feed" || result.stdout.split(separator: "\n").count == 1, "\(command): \(result.stdout)")
        }
        let layouts = try String(contentsOfFile: out + "/layouts.jsonl", encoding: .utf8)
        #expect(layouts.split(separator: "\n").count == 1 && layouts.contains(#""id":2"#), "\(layouts)")
    }

    @Test func badStyleOptionsAreUsageErrors() throws {
        let features = try Self.runTool(["render", "a", "--features", "tnum,toolong", "--json"], stdin: nil, environment: [:])
        #expect(features.status == 64 && features.stderr.contains("Error: invalid --features tnum,toolong"))
        let spacing = try Self.runTool(["render", "a", "--letter-spacing", "nan", "--json"], stdin: nil, environment: [:])
        #expect(spacing.status == 64 && spacing.stderr.contains("Error: invalid --letter-spacing nan"))
        #expect(throws: LayoutError.self) {
            try Fixtures.engine.layout(AttributedText("a", style: TextStyle(letterSpacing: .infinity)), options: LayoutOptions())
        }
    }

    @Test func commandLineRendersAnEmptyTextToAnEmptyImage() throws {
        let path = Files.path("empty-text.pgm")
        let result = try Self.runTool(["render", "", "--width", "50", "--output", path], stdin: nil, environment: [:])
        #expect(result.status == 0, "\(result.stderr)")
        let bitmap = try Bitmap(pgm: Array(Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(bitmap.width == 50 && bitmap.height == 0)
    }

    /// `TextRenderTool.run` with extra environment variables.
    static func runTool(_ arguments: [String], stdin: Data?, environment: [String: String]) throws -> TextRenderTool.Result {
        try TextRenderTool.run(arguments, stdin: stdin, environment: environment)
    }
}
