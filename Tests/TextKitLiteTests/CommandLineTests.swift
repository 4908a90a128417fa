import Foundation
@testable import SampleFeed
import Testing
@testable import TextKitLite
@testable import TextKitLiteFeed

/// Runs the built `textrender` executable (it sits beside the test bundle).
enum TextRenderTool {
    static var path: String {
        var url = Bundle.main.bundleURL
        for candidate in [url.appendingPathComponent("textrender")] where FileManager.default.isExecutableFile(atPath: candidate.path) {
            return candidate.path
        }
        url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return url.appendingPathComponent("textrender").path
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:],
                    executable: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable ?? path)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        // A binary a test just copied may be held open for writing by a child another test
        // thread forked meanwhile (the copy's descriptor is inherited until that child
        // execs): exec then fails with ETXTBSY for a moment.
        for attempt in 1... {
            do {
                try process.run()
                break
            } catch let error as NSError where attempt < 20 && [error, error.userInfo[NSUnderlyingErrorKey] as? NSError].contains(where: {
                $0?.domain == NSPOSIXErrorDomain && $0?.code == Int(ETXTBSY)
            }) {
                usleep(50_000)
            }
        }
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs a `/bin/sh` script in which `$T` is the tool: for redirections (`>/dev/full`,
    /// `>&-`), ignored signals (`trap '' PIPE`) and limits (`ulimit -f`) a test sets up.
    static func shell(_ script: String) throws -> Result {
        try run(["-c", script], environment: ["T": path], executable: "/bin/sh")
    }
}

@Suite struct CommandLineTests {
    static let goodAndBad = """
        {"id": 1, "author": "a", "text": "first good post"}
        not json at all
        {"id": "two", "author": "b", "text": "第二条"}
        {"id": 3, "author": "c"}

        {"id": 4, "text": 42}
        {"id": 5, "author": "e", "text": "fifth 🎉", "images": 2}
        """

    @Test func renderWritesAPGM() throws {
        let path = Fixtures.temporaryPath("cli.pgm")
        let result = try TextRenderTool.run(["render", "Hello 世界", "--width", "120", "--scale", "2", "--output", path])
        #expect(result.status == 0, "\(result.stderr)")
        let bitmap = try Bitmap(pgm: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(bitmap.width == 240)
    }

    /// An installed binary (PREFIX/bin) reads the fonts in PREFIX/share/textkitlite, not the
    /// source tree's: there, DejaVu Sans Bold stands in for DejaVu Sans, and "hi" widens.
    @Test func installedBinaryFindsItsFontsBesideIt() throws {
        let prefix = Fixtures.temporaryPath("installed")
        let fonts = prefix + "/share/textkitlite/fonts"
        try? FileManager.default.removeItem(atPath: prefix)
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: fonts, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TextRenderTool.path, toPath: prefix + "/bin/textrender")
        for file in [BundledFonts.sansBold, BundledFonts.cjk, BundledFonts.emoji] {
            try FileManager.default.copyItem(atPath: BundledFonts.path(file), toPath: fonts + "/" + file)
        }
        try FileManager.default.copyItem(atPath: BundledFonts.path(BundledFonts.sansBold), toPath: fonts + "/" + BundledFonts.sans)
        func width(_ executable: String) throws -> Double {
            let result = try TextRenderTool.run(["render", "hi", "--json"], executable: executable)
            #expect(result.status == 0, "\(result.stderr)")
            let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            return json?["measuredWidth"] as? Double ?? 0
        }
        #expect(try width(prefix + "/bin/textrender") > width(TextRenderTool.path))
    }

    /// PNG is color by default (RGB when opaque), gray with --gray; PGM is gray. Black text
    /// on white draws the same levels in all three.
    @Test func renderWritesAPNGThatDecodesToTheSamePixels() throws {
        let png = Fixtures.temporaryPath("hello.png"), pgm = Fixtures.temporaryPath("hello.pgm")
        let grayPNG = Fixtures.temporaryPath("hello-gray.png"), ppm = Fixtures.temporaryPath("hello.ppm")
        for (path, extra) in [(png, []), (pgm, []), (grayPNG, ["--gray"]), (ppm, [])] {
            let result = try TextRenderTool.run(["render", "Hello 世界 [微笑]", "--width", "160", "--scale", "2", "--output", path] + extra)
            #expect(result.status == 0, "\(result.stderr)")
        }
        let reference = try Bitmap(pgm: Array(Data(contentsOf: URL(fileURLWithPath: pgm))))
        let gray = try GrayImage(pngFile: grayPNG)
        #expect(gray.width == reference.width && gray.height == reference.height)
        #expect(gray.gray == reference.pixels && gray.isOpaque && !gray.isColor)
        let color = try GrayImage(pngFile: png)
        #expect(color.isColor && color.isOpaque && color.rgb == reference.pixels.flatMap { [$0, $0, $0] })
        let ppmBytes = try Array(Data(contentsOf: URL(fileURLWithPath: ppm)))
        #expect(ColorEncoding.rgb(ppm: ppmBytes)?.rgb == color.rgb)
        // Standard output, with the format named.
        let piped = try TextRenderTool.run(["render", "x", "--output", "-", "--format", "pgm"])
        #expect(piped.status == 0 && piped.stdout.hasPrefix("P5\n"))
        for (arguments, message) in [(["--output", "x.txt"], "must end in .png, .ppm or .pgm"), (["--output", "-"], "--output - needs --format"),
                                     (["--output", "x.png", "--format", "pgm"], "names a .png file but --format is pgm"),
                                     (["--output", "-", "--format", "png", "--json"], "both print to standard output")] {
            let result = try TextRenderTool.run(["render", "x"] + arguments)
            #expect(result.status == 64 && result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }

    @Test func helpAndUsageSpeakOfTheSubcommand() throws {
        let nothing = try TextRenderTool.run(["render", "hi"])
        #expect(nothing.status == 64 && nothing.stderr.contains("Usage: textrender render [<options>]"))
        let feedHelp = try TextRenderTool.run(["feed", "--help"])
        #expect(feedHelp.stdout.contains("Worker threads, at most the machine's active cores\n") && feedHelp.stdout.contains("(default: all of them).\n"))
        #expect(!feedHelp.stdout.contains("(default: active cores). (default:"))
        let measureHelp = try TextRenderTool.run(["measure", "--help"])
        #expect(measureHelp.stdout.contains("body's"))
    }

    @Test func feedWritesPNGCells() throws {
        let directory = Fixtures.temporaryPath("png-feed")
        let result = try TextRenderTool.run(["feed", "--format", "png", "--out", directory],
                                            stdin: Data("{\"id\": \"a\", \"text\": \"hi [赞]\"}\n{\"id\": \"a\", \"text\": \"again\"}\n".utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(files == ["a+2.png", "a.png", "layouts.jsonl"])
        let image = try GrayImage(pngFile: directory + "/a.png")
        #expect(image.width == 750 && image.gray.contains { $0 < 128 })
    }

    @Test func renderReportsBadInputWithANonZeroExit() throws {
        let cases: [([String], String)] = [
            (["render", "x", "--font", "/nonexistent.ttf", "--json"], "font file not found: /nonexistent.ttf"),
            (["render", "x", "--width", "nan", "--json"], "invalid --width nan"),
            (["render", "x", "--width", "-4", "--json"], "invalid --width -4"),
            (["render", "x", "--font-size", "0", "--json"], "--font-size 0"),
            (["render", "x", "--scale", "0", "--output", "/tmp/x.pgm"], "invalid --scale 0"),
            (["render", "x", "--output", "/nonexistent-dir/x.pgm"], "directory /nonexistent-dir does not exist"),
            (["render", "--file", "/nonexistent.txt", "--json"], "/nonexistent.txt: no such file"),
        ]
        for (arguments, message) in cases {
            let result = try TextRenderTool.run(arguments)
            #expect(result.status != 0, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }

    @Test func invalidUTF8InATextFileNamesTheLine() throws {
        let path = Fixtures.temporaryPath("bad.txt")
        _ = FileManager.default.createFile(atPath: path, contents: Data([0x61, 0x0A, 0x62, 0xFF, 0x63]))
        let result = try TextRenderTool.run(["render", "--file", path, "--json"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(path):2: invalid UTF-8 at byte offset 3"))
    }

    @Test func measureOutputsEveryGoodLineAndReportsBadOnes() throws {
        let result = try TextRenderTool.run(["measure", "--jobs", "2"], stdin: Data(Self.goodAndBad.utf8))
        #expect(result.status == 2)
        let records = result.stdout.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        // Ids keep their JSON type: integers stay integers.
        #expect(records.map { "\($0["id"]!)" } == ["1", "two", "5"])
        #expect(records[0]["id"] is NSNumber && records[1]["id"] is String && records[2]["id"] is NSNumber)
        #expect(result.stdout.hasPrefix(#"{"height":"#) && result.stdout.contains(#""id":1,"#) && result.stdout.contains(#""id":"two""#))
        #expect(records.allSatisfy { ($0["height"] as! Double) > 0 })
        #expect(result.stderr.contains("stdin:2: bad JSON"))
        #expect(result.stderr.contains("stdin:4: missing \"text\""))
        #expect(result.stderr.contains("stdin:6: \"text\" must be a string"))
        #expect(result.stderr.contains("3 posts, 3 bad lines skipped"))
    }

    @Test func measureTextModeGivesLineStartsInScalars() throws {
        let line = #"{"id": 1, "text": "😀😀 abc def ghi jkl mno pqr stu vwx yz"}"#
        let result = try TextRenderTool.run(["measure", "--layout", "text", "--width", "60"], stdin: Data(line.utf8))
        #expect(result.status == 0)
        let record = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        let starts = record["lineStarts"] as! [Int]
        #expect(starts.first == 0 && (record["lines"] as! Int) == starts.count && starts.count > 2)
        let layout = try Fixtures.layout("😀😀 abc def ghi jkl mno pqr stu vwx yz", size: 17, LayoutOptions(width: 60))
        #expect(starts == layout.lines.map { layout.text.scalarOffset(utf16Offset: $0.range.lowerBound) })
        #expect(starts[1] < layout.lines[1].range.lowerBound)  // scalars, not UTF-16 units
    }

    /// `measure --layout text` takes `render`'s style options and measures what `render`
    /// lays out with them; a post's own language wins over `--lang`; a cell refuses them.
    @Test func measureTextModeTakesRendersStyleOptions() throws {
        let text = "Letter spacing widens every line of this text 「東京」"
        func measured(_ post: String, _ options: [String]) throws -> (height: Double, starts: [Int]) {
            let result = try TextRenderTool.run(["measure", "--layout", "text", "--width", "120"] + options, stdin: Data(post.utf8))
            #expect(result.status == 0, "\(options): \(result.stderr)")
            let record = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
            return (record["height"] as! Double, record["lineStarts"] as! [Int])
        }
        let post = #"{"id": 1, "text": "\#(text)"}"#
        let plain = try measured(post, [])
        for options in [["--letter-spacing", "3"], ["--letter-spacing", "-1.5"], ["--weight", "bold"], ["--italic"],
                        ["--features=-kern,-liga"], ["--lang", "ja"], ["--weight", "bold", "--letter-spacing", "2", "--lang", "zh-Hant"],
                        ["--balance"], ["--balance", "--weight", "bold"]] {
            let rendered = try TextRenderTool.run(["render", text, "--width", "120", "--json"] + options)
            #expect(rendered.status == 0, "\(options): \(rendered.stderr)")
            let layout = try JSONSerialization.jsonObject(with: Data(rendered.stdout.utf8)) as! [String: Any]
            let lines = layout["lines"] as! [[String: Any]]
            let styled = try measured(post, options)
            #expect(styled.height == layout["height"] as! Double, "\(options)")
            #expect(styled.starts == lines.map { $0["scalarStart"] as! Int }, "\(options)")
            if options.contains("--letter-spacing") || options.contains("--weight") {
                #expect(styled.starts != plain.starts, "\(options) changed nothing")
            }
        }
        // A post's "lang" wins over --lang.
        let japanese = try measured(#"{"id": 1, "text": "\#(text)", "lang": "ja"}"#, ["--lang", "ko"])
        #expect(japanese == (try measured(post, ["--lang", "ja"])))
        let cell = try TextRenderTool.run(["measure", "--letter-spacing", "3"], stdin: Data(post.utf8))
        #expect(cell.status == 64 && cell.stdout.isEmpty)
        #expect(cell.stderr.contains("--letter-spacing") && cell.stderr.contains("--layout text"), "\(cell.stderr)")
        let balancedCell = try TextRenderTool.run(["measure", "--balance"], stdin: Data(post.utf8))
        #expect(balancedCell.status == 64 && balancedCell.stderr.contains("--balance") && balancedCell.stderr.contains("--layout text"))
        let bad = try TextRenderTool.run(["measure", "--layout", "text", "--letter-spacing", "nan"], stdin: Data(post.utf8))
        #expect(bad.status == 64 && bad.stderr.contains("invalid --letter-spacing nan"), "\(bad.stderr)")
    }

    @Test func feedAndMeasureAgreeOnHeights() throws {
        let directory = Fixtures.temporaryPath("feed")
        let feed = Fixtures.temporaryPath("feed.jsonl")
        _ = FileManager.default.createFile(atPath: feed, contents: Data(Self.goodAndBad.utf8))
        let rendered = try TextRenderTool.run(["feed", feed, "--out", directory, "--scale", "1", "--gray"])
        #expect(rendered.status == 2)
        #expect(rendered.stderr.contains("\(feed):2: bad JSON"))
        let measured = try TextRenderTool.run(["measure", feed])
        func heights(_ text: String) -> [String: Double] {
            Dictionary(uniqueKeysWithValues: text.split(separator: "\n").map {
                let object = try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
                return ("\(object["id"]!)", object["height"] as! Double)
            })
        }
        let layouts = try String(contentsOfFile: directory + "/layouts.jsonl", encoding: .utf8)
        #expect(heights(layouts) == heights(measured.stdout))
        // The summary names the caches a cell is measured through; a text alone, the word cache.
        for cache in ["word cache", "text cache", "height cache"] { #expect(measured.stderr.contains(cache), "\(measured.stderr)") }
        let alone = try TextRenderTool.run(["measure", "--layout", "text", feed])
        #expect(alone.stderr.contains("word cache") && !alone.stderr.contains("height cache"), "\(alone.stderr)")
        #expect(heights(layouts).count == 3)
        for id in ["1", "two", "5"] {
            let bitmap = try Bitmap(pgm: Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(id).pgm"))))
            #expect(bitmap.width == 375 && Double(bitmap.height) == heights(layouts)[id]!.rounded(.up))
        }
        // No temporary files are left behind.
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(!files.contains { $0.hasPrefix(".") })
    }

    /// `render --highlight --json` lists the highlights (ranges in scalars, rects in
    /// points); `--hit` at the centre of the mention's rect finds it.
    @Test func renderFindsAMentionByItsRect() throws {
        let text = "😀 hi @bob, see #swift and https://example.com/x"
        let json = try TextRenderTool.run(["render", text, "--highlight", "--json", "--width", "160"])
        #expect(json.status == 0, "\(json.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        let highlights = report["highlights"] as! [[String: Any]]
        #expect(highlights.map { $0["kind"] as! String } == ["mention", "hashtag", "url"])
        #expect(highlights.allSatisfy { $0["truncationToken"] == nil })
        #expect(highlights.map { $0["value"] as! String } == ["@bob", "#swift", "https://example.com/x"])
        #expect(highlights[0]["range"] as! [Int] == [5, 9])  // scalars: the emoji counts one
        let rect = (highlights[0]["rects"] as! [[String: Double]])[0]
        let (x, y) = (rect["x"]! + rect["width"]! / 2, rect["y"]! + rect["height"]! / 2)
        let hit = try TextRenderTool.run(["render", text, "--highlight", "--width", "160", "--hit", "\(x),\(y)"])
        #expect(hit.status == 0, "\(hit.stderr)")
        #expect(hit.stdout.split(separator: "\n").count == 1)
        let found = try JSONSerialization.jsonObject(with: Data(hit.stdout.utf8)) as! [String: Any]
        let highlight = try #require(found["highlight"] as? [String: Any])
        #expect(highlight["kind"] as? String == "mention" && highlight["value"] as? String == "@bob")
        #expect((5...9).contains(found["index"] as! Int))
        // Without --highlight there is nothing to hit, and the index is still given.
        let plain = try TextRenderTool.run(["render", text, "--width", "160", "--hit", "0,0"])
        #expect(plain.stdout == #"{"highlight":null,"index":0}"# + "\n")
    }

    /// `render --json` writes its report as it encodes it, one line of the layout at a time,
    /// so its memory is the layout's: within the budget docs/OUTPUT-FORMATS.md states, 64 MB
    /// plus 350 MB per MB of text. 200 KB of line breaks (200,000 lines) peaked at 523 MB when
    /// the report was encoded whole (1 MB: 2.2 GB); now at about 110 MB.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time")), .timeLimit(.minutes(2)))
    func renderJSONStaysWithinItsMemoryBudget() throws {
        let path = Fixtures.temporaryPath("newlines.txt")
        try Data(repeating: 0x0A, count: 200_000).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try TextRenderTool.shell("/usr/bin/time -f 'peak %M' \"$T\" render --file '\(path)' --json | tail -c 20")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("\n  \"width\" : 375\n}\n"), "\(result.stdout)")
        let peak = try #require(result.stderr.split(separator: "\n").last { $0.hasPrefix("peak ") }.flatMap { Int($0.dropFirst(5)) })
        #expect(peak < 64 * 1024 + 350 * 1024 / 5, "peak RSS \(peak) KB")
    }

    /// `--hit` takes a negative point as written, as a separate argument or after "=":
    /// before the point is left of and above the text, the index is 0.
    @Test(arguments: [["--hit", "-1,-1"], ["--hit=-1,-1"], ["--hit", "-1e3,-0.5"]])
    func renderHitTakesANegativePoint(_ option: [String]) throws {
        let result = try TextRenderTool.run(["render", "hello"] + option)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == #"{"highlight":null,"index":0}"# + "\n")
    }

    /// `render --json` gives each of 20,000 emoticons its range in Unicode scalars, found in
    /// one pass over the text (a count from the start per attachment took minutes).
    @Test func renderReportsTwentyThousandAttachmentsInScalars() throws {
        let path = Fixtures.temporaryPath("attachments.txt")
        try Data(String(repeating: "😀[微笑] abcdefghijklmnopqrstuvwxyz", count: 20_000).utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let json = try TextRenderTool.run(["render", "--file", path, "--emoticons", EmoticonTableTests.shippedPath, "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        let ranges = (report["attachments"] as! [[String: Any]]).map { $0["range"] as! [Int] }
        // 29 scalars a piece (the emoji one, 30 UTF-16 units); the emoticon is the second.
        #expect(ranges == (0..<20_000).map { [29 * $0 + 1, 29 * $0 + 2] })
    }

    /// `feed` mirrors the cell of a right-to-left post (avatar on the right), or of every
    /// post with `--direction rightToLeft`, of none with `leftToRight`; heights stay.
    @Test func feedMirrorsRightToLeftCells() throws {
        let posts = #"{"id": "l", "author": "a", "text": "hello"}"# + "\n" + #"{"id": "r", "author": "b", "text": "مرحبا بالعالم"}"# + "\n"
        func cells(_ arguments: [String]) throws -> [(avatarX: Double, height: Double)] {
            let directory = Fixtures.temporaryPath("feed-direction")
            let result = try TextRenderTool.run(["feed", "--out", directory, "--scale", "1", "--gray"] + arguments, stdin: Data(posts.utf8))
            #expect(result.status == 0, "\(result.stderr)")
            return try String(contentsOfFile: directory + "/layouts.jsonl", encoding: .utf8).split(separator: "\n").map {
                let record = try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
                let avatar = (record["elements"] as! [[String: Any]]).first { $0["id"] as? String == "avatar" }!
                return ((avatar["frame"] as! [String: Double])["x"]!, record["height"] as! Double)
            }
        }
        let auto = try cells([])
        #expect(auto.map(\.avatarX) == [12, 375 - 52])
        #expect(try cells(["--direction", "rightToLeft"]).map(\.avatarX) == [375 - 52, 375 - 52])
        let ltr = try cells(["--direction", "leftToRight"])
        #expect(ltr.map(\.avatarX) == [12, 12] && ltr.map(\.height) == auto.map(\.height))
        #expect(try TextRenderTool.run(["feed", "--out", Fixtures.temporaryPath("x"), "--direction", "up"], stdin: Data()).status != 0)
    }

    /// layouts.jsonl lists each text element's highlights with rects in the cell's
    /// coordinates, inside the element's frame; a truncated body's token is `expand`.
    @Test func feedLayoutsListHighlightsInCellCoordinates() throws {
        let directory = Fixtures.temporaryPath("feed-highlights")
        let posts = [
            #"{"id": "h1", "author": "a", "text": "hello @bob and #话题# and #swift"}"#,
            SampleFeed.jsonLine(FeedPost(id: "h2", author: "b", text: String(repeating: "long text @someone goes on. ", count: 30))),
        ].joined(separator: "\n")
        let result = try TextRenderTool.run(["feed", "--out", directory, "--scale", "1", "--gray"], stdin: Data(posts.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let records = try String(contentsOfFile: directory + "/layouts.jsonl", encoding: .utf8).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        func highlights(_ record: [String: Any]) -> [(String, [String: Any], [String: Double])] {
            (record["elements"] as! [[String: Any]]).flatMap { element in
                ((element["highlights"] as? [[String: Any]]) ?? []).map { (element["id"] as! String, $0, element["frame"] as! [String: Double]) }
            }
        }
        let first = highlights(records[0])
        #expect(first.map { $0.1["kind"] as! String } == ["mention", "topic", "hashtag"])
        #expect(first.allSatisfy { $0.0 == "body" })
        for (_, highlight, frame) in first + highlights(records[1]) {
            for rect in highlight["rects"] as! [[String: Double]] {
                #expect(rect["x"]! >= frame["x"]! && rect["y"]! >= frame["y"]! - 1e-9)
                #expect(rect["x"]! + rect["width"]! <= frame["x"]! + frame["width"]! + 1e-9)
                #expect(rect["y"]! + rect["height"]! <= frame["y"]! + frame["height"]! + 1e-9)
            }
        }
        let expand = try #require(highlights(records[1]).first { $0.1["kind"] as? String == "expand" })
        #expect(expand.1["value"] as? String == "h2" && expand.1["truncationToken"] as? Bool == true)
        #expect(expand.1["range"] as? [Int] == [0, 3])
    }

    /// `measure --width a,b,c` gives, per post, each width's measurement equal to a run at
    /// that width alone (cells and texts, with a line limit and several jobs).
    @Test func measureAtSeveralWidthsEqualsSingleWidthRuns() throws {
        let feed = Fixtures.temporaryPath("widths.jsonl")
        let lines = (0..<600).map { SampleFeed.jsonLine(SampleFeed.post($0)) }.joined(separator: "\n")
        _ = FileManager.default.createFile(atPath: feed, contents: Data(lines.utf8))
        let widths = ["200", "320", "375", "414", "768"]
        for extra in [["--layout", "cell"], ["--layout", "text"], ["--layout", "text", "--max-lines", "3", "--jobs", "2"]] {
            func objects(_ width: String) throws -> [[String: Any]] {
                let result = try TextRenderTool.run(["measure", feed, "--width", width] + extra)
                #expect(result.status == 0, "\(result.stderr)")
                return try result.stdout.split(separator: "\n").map {
                    try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
                }
            }
            let all = try objects(widths.joined(separator: ","))
            #expect(all.count == 600)
            for (k, width) in widths.enumerated() {
                let single = try objects(width)
                for (post, one) in zip(all, single) {
                    let layout = try #require((post["layouts"] as? [[String: Any]])?[k])
                    let what = "\(one["id"] ?? "") at \(width) \(extra)"
                    #expect(layout.count == 5 && one.count == 5, "\(what)")
                    #expect(layout["width"] as? Double == Double(width), "\(what)")
                    #expect(layout["height"] as? Double == one["height"] as? Double, "\(what)")
                    #expect(layout["lines"] as? Int == one["lines"] as? Int, "\(what)")
                    #expect(layout["lineStarts"] as? [Int] == one["lineStarts"] as? [Int], "\(what)")
                    #expect(layout["truncated"] as? Bool == one["truncated"] as? Bool, "\(what)")
                    #expect("\(post["id"] ?? "")" == "\(one["id"] ?? "")")
                }
            }
        }
    }

    @Test func interruptedFeedLeavesNoHalfWrittenImage() throws {
        let feed = Fixtures.temporaryPath("big.jsonl")
        let lines = (0..<4000).map { SampleFeed.jsonLine(SampleFeed.post($0)) }.joined(separator: "\n")
        _ = FileManager.default.createFile(atPath: feed, contents: Data(lines.utf8))
        let directory = Fixtures.temporaryPath("interrupted")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TextRenderTool.path)
        process.arguments = ["feed", feed, "--out", directory, "--jobs", "2", "--gray"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait (without a deadline) until some images exist, then interrupt mid-run.
        func images() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".pgm") && !$0.hasPrefix(".") }
        }
        while images().count < 20, process.isRunning { usleep(20_000) }
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 130)
        let written = images()
        #expect(written.count >= 20 && written.count < 4000)
        // Every image under its final name is complete.
        for name in written {
            let data = try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name)"))
            let bitmap = try Bitmap(pgm: Array(data))
            #expect(bitmap.width == 750, "\(name)")
        }
        // No temporary file is left, and no layouts.jsonl (it appears when a run finishes).
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(!files.contains { $0.hasPrefix(".") }, "\(files.filter { $0.hasPrefix(".") })")
        #expect(!FileManager.default.fileExists(atPath: directory + "/layouts.jsonl"))
    }

    /// The photo feed: `measure` (headers only) and `feed` (pictures drawn) give the same
    /// heights, every cell is drawn in color, and the picture cache is hit for the pictures
    /// several posts share.
    @Test func photoFeedMeasuresAsItDraws() throws {
        let examples = PictureCellTests.examples
        let directory = NSTemporaryDirectory() + "photo-feed-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let feed = try TextRenderTool.run(["feed", examples + "/photo-feed.jsonl", "--out", directory, "--jobs", "2"])
        #expect(feed.status == 0, "\(feed.stderr)")
        #expect(!feed.stderr.contains("warning"), "\(feed.stderr)")
        #expect(feed.stderr.contains("picture cache"))
        let measured = try TextRenderTool.run(["measure", examples + "/photo-feed.jsonl"])
        #expect(measured.status == 0, "\(measured.stderr)")
        func heights(_ lines: some Sequence<Substring>) throws -> [Double] {
            try lines.filter { !$0.isEmpty }.map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["height"] as? Double ?? -1
            }
        }
        let layouts = try String(contentsOfFile: directory + "/layouts.jsonl", encoding: .utf8)
        let drawn = try heights(layouts.split(separator: "\n"))
        #expect(drawn.count == 14)
        #expect(try heights(measured.stdout.split(separator: "\n")) == drawn)
        #expect(layouts.contains(#""kind":"picture""#) && layouts.contains(#""src":"media/pictures/boats.jpg""#))
        let cell = try GrayImage(pngFile: directory + "/2005.png")
        #expect(cell.isColor && cell.width == 750)
    }

    /// A broken picture: one warning per file, a placeholder, every post drawn, status 2.
    @Test func brokenPicturesWarnOnceAndExitTwo() throws {
        let directory = NSTemporaryDirectory() + "broken-pictures-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: directory + "/bad.jpg"))
        let feed = #"""
        {"id": 1, "text": "a", "avatar": "bad.jpg", "images": ["bad.jpg", "missing.png"]}
        {"id": 2, "text": "b", "images": ["bad.jpg"]}
        """#
        try Data(feed.utf8).write(to: URL(fileURLWithPath: directory + "/feed.jsonl"))
        let result = try TextRenderTool.run(["feed", directory + "/feed.jsonl", "--out", directory + "/out"])
        #expect(result.status == 2)
        let warnings = result.stderr.split(separator: "\n").filter { $0.contains("warning") }
        #expect(warnings.count == 2, "\(result.stderr)")
        #expect(warnings.contains { $0.contains("not a PNG or JPEG file: \(directory)/bad.jpg") })
        #expect(warnings.contains { $0.contains("\(directory)/missing.png: No such file or directory") })
        #expect(result.stderr.contains("rendered 2 posts, 2 pictures unreadable (placeholders drawn)"))
        #expect(FileManager.default.fileExists(atPath: directory + "/out/1.png") && FileManager.default.fileExists(atPath: directory + "/out/2.png"))
        // measure reads the single picture's header only: a warning, its box measured square.
        let measured = try TextRenderTool.run(["measure", directory + "/feed.jsonl"])
        #expect(measured.status == 2 && measured.stdout.split(separator: "\n").count == 2)
        #expect(measured.stderr.contains("not a PNG or JPEG file: \(directory)/bad.jpg (neither signature) (measured as a placeholder)"))
        // --media-root must be a folder.
        let rooted = try TextRenderTool.run(["measure", "--media-root", "/nonexistent-root"], stdin: Data(feed.utf8))
        #expect(rooted.status == 64 && rooted.stderr.contains("invalid --media-root /nonexistent-root: not a folder"))
    }

    /// One set of defaults: the library's `FeedCellStyle()` over `TextEngine.bundled()` (system
    /// fallback included) measures every post of the sample feed as `textrender measure`
    /// does with its defaults (its emoticon table aside: the library's default has none).
    @Test func libraryDefaultsMeasureAsTheCommandLineDoes() throws {
        let feed = Fixtures.testsDirectory.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples/feed.jsonl").path
        let result = try TextRenderTool.run(["measure", feed, "--emoticons", "none"])
        #expect(result.status == 0, "\(result.stderr)")
        let cli = try result.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["height"] as? Double ?? -1
        }
        let precomputer = FeedPrecomputer(engine: try TextEngine.bundled())
        let library = try SampleFeedTests.examplePosts().map { try precomputer.measure($0.post, width: 375).height }
        #expect(library.count == 63)
        #expect(library == cli)
        // Post 1001, the issue's example: one height, from both.
        #expect(library[0] == cli[0])
    }

    /// `feed --layouts full`: each line's "cell" decodes to a `CellLayout` a client draws
    /// without shaping, pixel for pixel as the cell image `feed` wrote.
    @Test func fullLayoutsDrawAsTheFeedDid() throws {
        let examples = PictureCellTests.examples
        let directory = NSTemporaryDirectory() + "full-layouts-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try TextRenderTool.run(["feed", examples + "/photo-feed.jsonl", "--out", directory, "--layouts", "full",
                                             "--now", "2026-11-28T22:00:00Z", "--format", "ppm"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOfFile: directory + "/layouts.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 14)
        let renderer = CellRenderer(pictures: FeedMedia(root: examples))
        for line in lines.prefix(4) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let cellJSON = try JSONSerialization.data(withJSONObject: try #require(object["cell"]))
            let cell = try JSONDecoder().decode(CellLayout.self, from: cellJSON)
            let bitmap = try #require(try renderer.render(cell, options: RenderOptions(scale: 2, format: .rgba8, background: FeedTheme.light.background)))
            let file = try #require(object["file"] as? String)
            let written = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + file))
            #expect(Array(written) == bitmap.ppmData(), "\(file)")
        }
    }
}
