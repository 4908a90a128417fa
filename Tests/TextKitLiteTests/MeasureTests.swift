import Dispatch
@testable import SampleFeed
import Testing
@testable import TextKitLite
@testable import TextKitLiteFeed

/// `TextEngine.measure` and `FeedPrecomputer.measure` against layouts of the same texts:
/// every field equal to the bit, over generated texts, widths and option sets.
@Suite struct MeasureTests {
    /// Texts that reach every path: the feed's mix, and the edge cases of line filling.
    static let texts: [String] = {
        var texts = [
            "", "\n", "a\n\nb\n", "\t\tindented\tline with tabs\t", "word  " + String(repeating: " ", count: 40) + "」after spaces",
            "Supercalifragilisticexpialidocious-and-then-some-more-hyphenated-words-that-never-end",
            "https://example.com/a/very/long/path/that/does/not/fit/on/one/line?with=query&and=more#fragment",
            "مرحبا بالعالم، هذا نص عربي طويل بما يكفي ليلتف على عدة أسطر في هذا العرض",
            "English then עברית באמצע the sentence and back 123 456.",
            "中文标点「引号」，句号。以及、顿号！还有（括号）和——破折号……省略号",
            "e\u{301}\u{302} a\u{20DD} 👩‍👩‍👧‍👦 🇯🇵 👍🏽 ok \u{3000}\u{3000}全角空格",
            " leading space, then 　ideographic space and trailing spaces   ",
            "x\u{200B}y\u{200B}z\u{00AD}soft\u{00AD}hyphen",
        ]
        for post in SampleFeed.posts(count: 120, seed: 11) {
            texts.append(post.text)
            if let quote = post.quote { texts.append(quote) }
        }
        return texts
    }()

    static let optionSets: [LayoutOptions] = {
        let token = AttributedText("…全文", style: TextStyle(size: 15, ink: 80))
        return [
            LayoutOptions(),
            LayoutOptions(maxLines: 3, truncationToken: token, lineSpacing: 2, lineHeightMode: .uniform),
            LayoutOptions(maxLines: 1, lineHeightMode: .fixed(21.5)),
            LayoutOptions(maxLines: 2, lineHeightMultiple: 1.3, lineSpacing: -1.5, lineHeightMode: .natural,
                          insets: EdgeInsets(top: 3, left: 5, bottom: 7, right: 2), direction: .rightToLeft),
            LayoutOptions(maxLines: 1, truncation: .middle, lineHeightMode: .uniform),
            LayoutOptions(maxLines: 6, alignment: .justify, lineHeightMode: .uniform, direction: .leftToRight),
            // Start and middle truncation over several lines; balanced lines (lines broken twice).
            LayoutOptions(maxLines: 3, truncation: .start, truncationToken: token, lineHeightMode: .natural),
            LayoutOptions(maxLines: 2, truncation: .middle, lineHeightMode: .natural, insets: EdgeInsets(all: 4)),
            balanced,
            LayoutOptions(maxLines: 4, truncationToken: token, lineHeightMode: .natural, hyphenation: .auto),
            // Hyphenation with lines broken twice, and beside an exclusion shape.
            { var options = balanced; options.hyphenation = .auto; return options }(),
            LayoutOptions(maxLines: 3, truncation: .middle, hyphenation: .auto),
            LayoutOptions(maxLines: 5, exclusions: [.circle(center: Point(x: 20, y: 20), radius: 18)], hyphenation: .auto),
        ]
    }()

    /// Balanced lines, with a line limit and natural line heights.
    static var balanced: LayoutOptions {
        var options = LayoutOptions(maxLines: 5, alignment: .center, lineHeightMode: .natural)
        options.lineBalance = true
        return options
    }

    static let widths: [Double] = [24, 61.5, 120, 230, 375, 800]

    @Test func textMeasurementsEqualLayouts() throws {
        let engine = TextEngine(fonts: Fixtures.engine.fonts)
        let styles = [TextStyle(size: 15), TextStyle(size: 17.5, language: "ja"),
                      TextStyle(font: .font(Fixtures.cjk), size: 13),
                      TextStyle(size: 16, weight: .bold, isItalic: true, features: [FontFeature("-liga")!]),
                      TextStyle(size: 14, letterSpacing: 1.25)]
        var compared = 0
        for (t, string) in Self.texts.enumerated() {
            var text = AttributedText(string, style: styles[t % styles.count])
            if t % 4 == 1, text.utf16Count > 6 { text.updateStyle(in: 2..<6) { $0.size = 24 } }
            if t % 4 == 2, text.utf16Count > 9 { text.updateStyle(in: 3..<9) { $0.weight = .bold } }
            if t % 3 == 0, text.utf16Count > 4 {  // attachments of every alignment, some taller than the text
                var k = text.utf16Count / 3
                if UTF16.isTrailSurrogate(text.utf16[k]) { k += 1 }
                let alignments: [TextAttachment.Alignment] = [.center, .baseline(descent: 4), .top, .bottom]
                var spliced = text.slice(0..<k)
                spliced.append(TextAttachment(size: Size(width: Double(10 + t % 40), height: Double(8 + (t * 7) % 40)),
                                              alignment: alignments[t % 4], content: .box(tag: "m")), style: styles[t % styles.count])
                spliced.append(text.slice(k..<text.utf16Count))
                text = spliced
            }
            for options in Self.optionSets {
                // Shaped once, measured again at every width (relayout without shaping).
                let shaped = try engine.shape(text, direction: options.direction)
                let atWidths = try engine.measure(text, options: options, widths: Self.widths.map { $0 + options.insets.horizontal })
                for (w, width) in Self.widths.enumerated() {
                    var options = options
                    options.width = width + options.insets.horizontal
                    let layout = try engine.layout(text, options: options)
                    let measured = try engine.measure(text, options: options)
                    #expect(measured == TextMeasurement(layout), "text \(t) \(string.prefix(30).debugDescription) width \(width) \(options)")
                    #expect(try engine.measure(shaped, options: options) == measured, "shaped text \(t) width \(width) \(options)")
                    #expect(atWidths[w] == measured, "several widths, text \(t) width \(width) \(options)")
                    compared += 1
                }
            }
        }
        #expect(compared == Self.texts.count * Self.optionSets.count * Self.widths.count)
    }

    /// A shaped text measured again at many widths (its break units' summaries) gives what
    /// measuring the text afresh gives, including at each line's own width and a hair
    /// below it, where a unit just fits or just does not.
    @Test func relayoutEqualsFreshMeasureAtEveryWidth() throws {
        let engine = TextEngine(fonts: Fixtures.engine.fonts)
        var compared = 0
        for (t, string) in Self.texts.enumerated() where t % 3 == 0 {
            let text = AttributedText(string, style: TextStyle(size: 15 + Double(t % 4)))
            for options in [LayoutOptions(), LayoutOptions(maxLines: 4, lineHeightMode: .uniform)] {
                let shaped = try engine.shape(text, direction: options.direction)
                var widths = stride(from: 3.0, through: 640, by: 11.7).map { $0 }
                for line in try engine.layout(text, options: LayoutOptions(width: 180)).lines {
                    widths += [line.frame.width, line.frame.width.nextDown, line.frame.width - 1e-3]
                }
                for width in widths where width > 0 {
                    var options = options
                    options.width = width
                    #expect(try engine.measure(shaped, options: options) == engine.measure(text, options: options),
                            "text \(t) \(string.prefix(30).debugDescription) width \(width)")
                    compared += 1
                }
            }
        }
        #expect(compared > 2_000)
    }

    /// A width whose line limit is reached in the first paragraph keeps that paragraph's
    /// empty-line metrics while the other widths go on into the next one: its last line,
    /// truncated to nothing by an empty token, is as tall as measured alone (a fuzzer find).
    @Test func aWidthStoppedEarlyKeepsItsParagraphsMetrics() throws {
        let engine = TextEngine(fonts: Fixtures.engine.fonts)
        let text = AttributedText([("abcdefgh\n", TextStyle(size: 10)), ("x", TextStyle(size: 30))])
        var options = LayoutOptions(width: 3, maxLines: 2, truncationToken: AttributedText(""), lineHeightMode: .natural)
        options.insets = EdgeInsets(top: 1, left: 1, bottom: 1, right: 1)
        let widths = [3.0, 500]
        let several = try engine.measure(text, options: options, widths: widths)
        for (index, width) in widths.enumerated() {
            var alone = options
            alone.width = width
            #expect(several[index] == (try engine.measure(text, options: alone)), "width \(width)")
        }
        #expect(several[0].isTruncated && !several[1].isTruncated)
    }

    /// Cell styles: the feed's (right-to-left posts mirrored), and one with natural line
    /// heights, other limits and sizes, every cell mirrored.
    static let cellStyles: [FeedCellStyle] = {
        var other = FeedCellStyle()
        other.lineHeightMode = .natural
        other.bodyMaxLines = 3
        other.quoteMaxLines = 0
        other.bodySize = 19
        other.lineSpacing = 0.5
        other.padding = EdgeInsets(top: 5, left: 9, bottom: 11, right: 3)
        other.direction = .rightToLeft
        return [FeedCellStyle(), other]
    }()

    @Test func cellMeasurementsEqualLayouts() throws {
        let codes = ["[微笑]", "[哈哈]", "[不存在]", "[doge]", "[赞]"]
        let emoticonPosts = SampleFeed.posts(count: 40, seed: 5).enumerated().map { i, post in
            // Codes spliced in at a few places, known and unknown.
            var text = post.text
            for k in 0..<(i % 4) { text.insert(contentsOf: codes[(i + k) % codes.count], at: text.index(text.startIndex, offsetBy: text.count * k / 4)) }
            return FeedPost(id: "e\(i)", author: post.author, text: text, quote: post.quote.map { $0 + codes[i % codes.count] }, images: post.images)
        }
        let posts = Array(SampleFeed.posts(count: 150, seed: 7)) + emoticonPosts
            + [FeedPost(id: "empty", author: "", text: ""), FeedPost(id: "q", author: "a", text: "x", quote: "引用\n\n第二段", images: 9),
               FeedCellTests.rtlPost, FeedPost(id: "he", author: "נועה", text: "שבוע טוב לכולם! מי מגיע למפגש ביום שלישי בערב?", images: 1)]
        for style in Self.cellStyles {
            let engine = TextEngine(fonts: Fixtures.engine.fonts)
            let precomputer = FeedPrecomputer(engine: engine, style: style, emoticons: try EmoticonTable.bundled())
            for width in [90.0, 214.5, 375, 640] {
                for post in posts {
                    let cell = try precomputer.layout(post, width: width)
                    let measured = try precomputer.measure(post, width: width)
                    #expect(measured.height == cell.height, "\(post.id) at \(width)")
                    #expect(measured.isTruncated == cell.isTruncated, "\(post.id) at \(width)")
                    let texts = cell.elements.compactMap { e in e.text.map { MeasuredText(id: e.id, measurement: TextMeasurement($0)) } }
                    #expect(measured.texts == texts, "\(post.id) at \(width)")
                }
            }
            #expect(precomputer.measurementCount == posts.count * 4)
            // Many widths at once (each field shaped once, broken at each width) equal the
            // single-width measurements, from a precomputer with a height cache of its own.
            let many = FeedPrecomputer(engine: TextEngine(fonts: Fixtures.engine.fonts), style: style,
                                       emoticons: try EmoticonTable.bundled())
            let widths = [90.0, 214.5, 375, 640]
            for post in posts {
                let all = try many.measure(post, widths: widths)
                #expect(all == widths.map { try! precomputer.measure(post, width: $0) }, "\(post.id)")
            }
            #expect(many.measurementCount == posts.count * 4)
            // Another list of widths: planned per post (each shape keeps the first list's
            // plan), measured alike.
            let others = [120.0, 375, 500]
            for post in posts {
                let all = try many.measure(post, widths: others)
                #expect(all == others.map { try! precomputer.measure(post, width: $0) }, "\(post.id)")
            }
        }
    }

    /// A mirrored spec: the child's frames flipped within the child's own frame (a box
    /// within itself stays put), nothing else changed: sizes, texts and measurements.
    @Test func mirroredSpecsFlipFramesOnly() throws {
        let engine = TextEngine(fonts: Fixtures.engine.fonts)
        let row = LayoutSpec.stack(StackSpec(axis: .horizontal, spacing: 5, alignment: .center, children: [
            .box(id: "a", size: Size(width: 20, height: 20), fill: 1),
            .attributedText(id: "t", text: AttributedText("Mirrored 镜像 مرآة", style: TextStyle(size: 15)), options: LayoutOptions()),
            .mirrored(.box(id: "b", size: Size(width: 10, height: 30), fill: 2)),
        ]))
        let plain = LayoutSpec.inset(EdgeInsets(top: 1, left: 7, bottom: 2, right: 3), .stack(StackSpec(axis: .vertical, spacing: 4, children: [
            row, .grid(GridSpec(idPrefix: "g", count: 2, columns: 3, spacing: 4, fill: 9)),
        ])))
        let solved = try plain.solve(width: 200, engine: engine)
        #expect(solved.elements.map(\.id) == ["a", "t", "b", "g0", "g1"])
        #expect(solved.elements[2].frame == Rect(x: 187, y: 1, width: 10, height: 30))
        let mirrored = try LayoutSpec.mirrored(plain).solve(width: 200, engine: engine)
        #expect(mirrored.size == solved.size && mirrored.elements.map(\.id) == solved.elements.map(\.id))
        for (m, p) in zip(mirrored.elements, solved.elements) {
            #expect(m.frame == Rect(x: 200 - p.frame.maxX, y: p.frame.y, width: p.frame.width, height: p.frame.height), "\(m.id)")
            #expect(m.text.map(TextMeasurement.init) == p.text.map(TextMeasurement.init))
        }
        let (size, texts) = try LayoutSpec.mirrored(plain).measure(width: 200, engine: engine)
        let plainTexts = try plain.measure(width: 200, engine: engine).texts
        #expect(size == solved.size && texts == plainTexts)
        // Nested at an offset: flipped within its own frame, not the whole width.
        let nested = try LayoutSpec.inset(EdgeInsets(top: 0, left: 50, bottom: 0, right: 0), .mirrored(plain)).solve(width: 250, engine: engine)
        for (n, p) in zip(nested.elements, solved.elements) {
            #expect(abs(n.frame.x - (250 - p.frame.maxX)) < 1e-9 && n.frame.y == p.frame.y, "\(n.id)")
        }
    }

    /// A spec with an attributed text block: solving lays it out (as `TextEngine.layout`
    /// would), measuring measures it, and both give the same size and lines.
    @Test func attributedTextBlocksSolveAndMeasureAlike() throws {
        let engine = TextEngine(fonts: Fixtures.engine.fonts)
        let text = AttributedText("A text block given unshaped: 一段没有先排版的文字 🎉", style: TextStyle(size: 15))
        let options = LayoutOptions(maxLines: 2, lineSpacing: 1, lineHeightMode: .uniform)
        let spec = LayoutSpec.inset(EdgeInsets(all: 6), .stack(StackSpec(axis: .vertical, spacing: 4, children: [
            .box(id: "box", size: Size(width: 20, height: 20), fill: 100),
            .attributedText(id: "block", text: text, options: options),
        ])))
        let solved = try spec.solve(width: 160, engine: engine)
        let measured = try spec.measure(width: 160, engine: engine)
        let block = try #require(solved.elements.first { $0.id == "block" }?.text)
        var direct = options
        direct.width = 148
        #expect(TextMeasurement(block) == TextMeasurement(try engine.layout(text, options: direct)))
        #expect(block.lineCount == 2 && block.isTruncated)
        #expect(measured.size == solved.size)
        #expect(measured.texts == [MeasuredText(id: "block", measurement: TextMeasurement(block))])
    }

    /// Precomputers (each making its measuring specs) and empty texts made on several threads
    /// at once: no shared state is written (Thread Sanitizer runs this suite).
    @Test func precomputersAndEmptyTextsMadeOnManyThreads() {
        let engine = TextEngine(fonts: Fixtures.engine.fonts)
        DispatchQueue.concurrentPerform(iterations: 16) { k in
            let precomputer = FeedPrecomputer(engine: engine)
            let empty = AttributedText("")
            #expect(empty.utf16Count == 0)
            #expect((try? precomputer.measure(FeedPost(id: "\(k)", author: "", text: ""), width: 200))?.height ?? 0 > 0)
        }
    }

    @Test func measurementsAreCachedApartFromLayouts() throws {
        let engine = TextEngine(fonts: Fixtures.engine.fonts)
        let precomputer = FeedPrecomputer(engine: engine)
        let posts = Array(SampleFeed.posts(count: 40, seed: 3))
        let first = try posts.map { try precomputer.measure($0, width: 375) }
        let shapings = engine.shapeCache.shapingCount
        let hits = precomputer.heightCache.statistics.hits
        // Again: every post a height-cache hit, nothing measured or shaped.
        let second = try posts.map { try precomputer.measure($0, width: 375) }
        #expect(second == first)
        #expect(precomputer.measurementCount == posts.count)
        #expect(precomputer.heightCache.statistics.hits == hits + posts.count)
        #expect(engine.shapeCache.shapingCount == shapings)
        // A measurement never stands in for a layout, nor a layout for a measurement.
        _ = try precomputer.layout(posts[0], width: 375)
        #expect(precomputer.layoutCount == 1)
        _ = try precomputer.measure(posts[0], width: 320)
        #expect(precomputer.measurementCount == posts.count + 1)
        // Bad widths are refused by name, as for layouts.
        #expect(throws: LayoutError.self) { try precomputer.measure(posts[0], width: 10) }
        #expect(throws: LayoutError.self) { try precomputer.measure(posts[0], width: .nan) }
    }

    /// A post's measurements at all its widths are one height-cache entry: widths asked one
    /// by one, then together, are found; a width not yet measured is a miss; only the
    /// newest `HeightCache.widthsPerPost` widths are kept.
    @Test func aPostsWidthsShareOneHeightCacheEntry() throws {
        let precomputer = FeedPrecomputer(engine: TextEngine(fonts: Fixtures.engine.fonts))
        let post = Array(SampleFeed.posts(count: 3, seed: 5))[2]
        let narrow = try precomputer.measure(post, width: 320)
        let wide = try precomputer.measure(post, width: 768)
        #expect(precomputer.heightCache.statistics.count == 1)
        var hits = precomputer.heightCache.statistics.hits
        #expect(try precomputer.measure(post, widths: [768, 320]) == [wide, narrow])
        #expect(precomputer.heightCache.statistics.hits == hits + 1)
        #expect(precomputer.measurementCount == 2)
        // One width missing: a miss, and only what was asked is measured.
        let misses = precomputer.heightCache.statistics.misses
        let three = try precomputer.measure(post, widths: [320, 414])
        #expect(three[0] == narrow && three[1].width == 414)
        #expect(precomputer.heightCache.statistics.misses == misses + 1)
        #expect(precomputer.measurementCount == 4)
        // The oldest widths go first; the entry stays one.
        let widths = (0..<HeightCache.widthsPerPost).map { 400 + Double($0) }
        _ = try precomputer.measure(post, widths: widths)
        #expect(precomputer.heightCache.statistics.count == 1)
        hits = precomputer.heightCache.statistics.hits
        #expect(try precomputer.measure(post, widths: widths).map(\.width) == widths)
        #expect(precomputer.heightCache.statistics.hits == hits + 1)
        let counted = precomputer.measurementCount
        _ = try precomputer.measure(post, width: 320)
        #expect(precomputer.measurementCount == counted + 1)
        // A new post asked at more widths at once than an entry keeps: the newest are kept.
        let other = Array(SampleFeed.posts(count: 3, seed: 5))[1]
        let many = (0...HeightCache.widthsPerPost).map { 500 + Double($0) }
        _ = try precomputer.measure(other, widths: many)
        _ = try precomputer.measure(other, widths: Array(many.dropFirst()))
        #expect(precomputer.measurementCount == counted + 1 + many.count)
        _ = try precomputer.measure(other, width: many[0])
        #expect(precomputer.measurementCount == counted + 2 + many.count)
    }
}
