import Foundation
@testable import SampleFeed
import Testing
@testable import TextKitLite
@testable import TextKitLiteFeed

@Suite struct FeedCellTests {
    static let post = FeedPost(
        id: "42", author: "测试用户",
        text: "这是一条很长的微博，用来测试截断。It mixes English, 中文 and emoji 🎉 with @someone and #话题# and https://example.com/path. "
            + String(repeating: "更多的内容让它超过六行。More words to make it long. ", count: 8),
        quote: "被转发的原文：引用的内容也会被排版。", images: 5)

    /// A right-to-left post: Arabic body (truncated, a mention, a hashtag and a URL), Hebrew quote, five images.
    static let rtlPost = FeedPost(
        id: "77", author: "سارة",
        text: "صباح الخير @نور! اليوم يوم جميل للقراءة في الحديقة #كتب https://example.com/ar "
            + String(repeating: "هذا نص إضافي يجعل المنشور أطول من ستة أسطر. ", count: 12),
        quote: "שבוע טוב לכולם! מי מגיע למפגש ביום שלישי בערב?", images: 5)

    func precomputer(_ configure: (inout FeedCellStyle) -> Void = { _ in }) -> FeedPrecomputer {
        var style = FeedCellStyle()
        configure(&style)
        return FeedPrecomputer(engine: TextEngine(fonts: Fixtures.engine.fonts), style: style)
    }

    /// `Field(id:)` finds every field by its element id, as `init(rawValue:)` does.
    @Test func everyFieldIsFoundByItsElementID() {
        for field in FeedCellSpec.Field.allCases { #expect(FeedCellSpec.Field(id: field.rawValue) == field) }
        #expect(FeedCellSpec.Field(id: "image") == nil && FeedCellSpec.Field(id: "") == nil)
    }

    @Test func framesDoNotOverlapAndStayInsideTheCell() throws {
        let cell = try precomputer().layout(Self.post, width: 375)
        let bounds = Rect(x: 0, y: 0, width: cell.width, height: cell.height)
        let ids = cell.elements.map(\.id)
        #expect(ids.prefix(3) == ["avatar", "author", "body"])
        #expect(ids.contains("quoteBox") && ids.contains("quote") && ids.contains("footer"))
        #expect((0..<5).allSatisfy { ids.contains("image\($0)") })
        for element in cell.elements {
            #expect(bounds.contains(element.frame), "\(element.id) \(element.frame) outside \(bounds)")
        }
        // Siblings never overlap; the quote text lies inside its box.
        let siblings = cell.elements.filter { $0.id != "quote" }
        for (i, a) in siblings.enumerated() {
            for b in siblings[(i + 1)...] {
                if a.id == "quoteBox" && b.id == "quote" { continue }
                #expect(!a.frame.intersects(b.frame), "\(a.id) overlaps \(b.id)")
            }
        }
        let quoteBox = try #require(cell.element("quoteBox")), quote = try #require(cell.element("quote"))
        #expect(quoteBox.frame.contains(quote.frame))
        // Text blocks are exactly as tall as their layouts.
        for element in cell.elements where element.kind == .text {
            let text = try #require(element.text)
            #expect(element.frame.height == text.size.height)
            #expect(element.frame.width == text.size.width)
        }
        // The cell ends after the footer plus padding.
        let footer = try #require(cell.element("footer"))
        #expect(abs(cell.height - (footer.frame.maxY + 12)) < 1e-9)
    }

    @Test func bodyIsTruncatedWithTheExpandToken() throws {
        let p = precomputer()
        let cell = try p.layout(Self.post, width: 375)
        let body = try #require(cell.element("body")?.text)
        #expect(body.lineCount == 6)
        #expect(body.isTruncated && cell.isTruncated)
        let tokenRuns = body.lines.last!.runs.filter { $0.isTruncationToken }
        #expect(!tokenRuns.isEmpty)
        let expand = AttributedText.Highlight(kind: .expand, value: "42", range: 0..<3)
        #expect(body.highlights.filter(\.isInTruncationToken).map(\.highlight) == [expand])
        // A token shaped for one post and taken from the engine's token cache for the next
        // keeps each post's own highlight.
        var next = Self.post
        next.id = "43"
        let nextBody = try #require(p.layout(next, width: 375).element("body")?.text)
        let nextTokenRuns = nextBody.lines.last!.runs.filter { $0.isTruncationToken }
        let link = FeedTheme.light.highlight.ink
        #expect(!nextTokenRuns.isEmpty && nextTokenRuns.allSatisfy { $0.style.ink == link })
        #expect(nextBody.highlights.filter(\.isInTruncationToken).map(\.highlight.value) == ["43"])
        // Mentions, topics and URLs are highlights, in the link ink.
        let shown = body.highlights.filter { !$0.isInTruncationToken }.map(\.highlight)
        #expect(shown.map(\.kind) == [.mention, .topic, .url])
        #expect(shown.map(\.value) == ["@someone", "#话题#", "https://example.com/path"])
        #expect(shown.allSatisfy { body.text.style(at: $0.range.lowerBound).ink == link })
        let all = try precomputer { $0.bodyMaxLines = 0 }.layout(Self.post, width: 375)
        #expect(all.element("body")!.text!.lineCount > 6)
        #expect(!all.element("body")!.text!.isTruncated)
    }

    /// A right-to-left post's cell is its left-to-right cell mirrored: the same elements
    /// and sizes, each frame flipped within the cell; author and footer lines end at the
    /// avatar's side, the body's Arabic lines end on the right, images fill from the right.
    @Test func rightToLeftPostsGetTheirCellMirrored() throws {
        let cell = try precomputer().layout(Self.rtlPost, width: 375)
        let ltr = try precomputer { $0.direction = .leftToRight }.layout(Self.rtlPost, width: 375)
        #expect(cell.height == ltr.height)
        #expect(cell.elements.map(\.id) == ltr.elements.map(\.id))
        for (r, l) in zip(cell.elements, ltr.elements) {
            #expect(r.frame == Rect(x: 375 - l.frame.maxX, y: l.frame.y, width: l.frame.width, height: l.frame.height), "\(r.id)")
            #expect(r.text?.lineCount == l.text?.lineCount)
        }
        let avatar = try #require(cell.element("avatar")).frame
        #expect(avatar.maxX == 375 - 12 && avatar.y == 12)
        #expect(try #require(cell.element("author")).frame.maxX == avatar.x - 10)
        for id in ["author", "body", "footer"] {
            let text = try #require(cell.element(id)?.text)
            #expect(text.lines.allSatisfy { abs($0.frame.maxX - text.size.width) < 1e-6 }, "\(id) lines end on the right")
        }
        #expect(try #require(cell.element("body")?.text).isTruncated)
        let images = (0..<5).map { cell.element("image\($0)")!.frame }
        #expect(abs(images[0].maxX - 363) < 1e-9 && images[1].maxX < images[0].x && images[2].maxX < images[1].x)
        #expect(images[3].maxX == images[0].maxX && images[3].y > images[0].y)
        // The left-to-right cell starts its author line (an Arabic name) and its footer next
        // to the avatar, on the left.
        for id in ["author", "footer"] {
            #expect(try #require(ltr.element(id)?.text).lines.allSatisfy { abs($0.frame.x) < 1e-6 }, "\(id)")
        }
    }

    /// `auto` takes the cell's direction from its body's first strong character; the style
    /// can force either. Left-to-right cells are laid out as before.
    @Test func cellDirectionIsTheBodysUnlessTheStyleSaysOtherwise() throws {
        func avatarX(_ post: FeedPost, _ direction: ParagraphDirection = .auto) throws -> Double {
            try #require(precomputer { $0.direction = direction }.layout(post, width: 320).element("avatar")).frame.x
        }
        let right = 320.0 - 12 - 40
        for text in ["שבוע טוב לכולם!", "😀 ١٢٣ مرحبا", "«مرحبا» said Omar"] {
            #expect(try avatarX(FeedPost(id: "r", author: "a", text: text)) == right, "\(text)")
        }
        for text in ["@Layla شكراً على المساعدة", "Hello", "今天", "😀😀", ""] {
            #expect(try avatarX(FeedPost(id: "l", author: "سارة", text: text, quote: "مرحبا")) == 12, "\(text)")
        }
        #expect(try avatarX(Self.post, .rightToLeft) == right)
        #expect(try avatarX(Self.rtlPost, .leftToRight) == 12)
        // Left to right, `auto` and `leftToRight` give the same cell.
        let auto = try precomputer().layout(Self.post, width: 375)
        let forced = try precomputer { $0.direction = .leftToRight }.layout(Self.post, width: 375)
        #expect(auto.elements.map(\.frame) == forced.elements.map(\.frame) && auto.height == forced.height)
        #expect(try CellRenderer().render(auto) == CellRenderer().render(forced))
    }

    @Test func imageGridShapes() throws {
        let p = precomputer()
        func frames(_ count: Int) throws -> [Rect] {
            let cell = try p.layout(FeedPost(id: "img\(count)", author: "a", text: "x", images: count), width: 375)
            return (0..<count).map { cell.element("image\($0)")!.frame }
        }
        let one = try frames(1)
        #expect(one[0].width == one[0].height && abs(one[0].width - 351 * 0.6) < 1e-9)
        let four = try frames(4)
        #expect(four[0].y == four[1].y && four[2].y > four[0].y)  // 2 × 2
        let nine = try frames(9)
        #expect(Set(nine.map(\.y)).count == 3 && Set(nine.map(\.x)).count == 3)
        #expect(nine.allSatisfy { $0.width == nine[0].width && $0.width == $0.height })
    }

    @Test func codableRoundTripGivesTheSameLayoutAndPixels() throws {
        let cell = try precomputer().layout(Self.post, width: 375)
        let data = try JSONEncoder().encode(cell)
        let decoded = try JSONDecoder().decode(CellLayout.self, from: data)
        #expect(decoded.height == cell.height)
        #expect(decoded.elements.map(\.frame) == cell.elements.map(\.frame))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(decoded) == encoder.encode(cell))
        let a = try #require(try CellRenderer().render(cell, options: RenderOptions(scale: 2)))
        let b = try #require(try CellRenderer().render(decoded, options: RenderOptions(scale: 2)))
        #expect(a == b)
    }

    @Test func secondPrecomputeOfTheSameFeedLaysOutAndShapesNothing() throws {
        let p = precomputer()
        let posts = (0..<40).map { SampleFeed.post($0) }
        var first: [Double] = []
        precompute(posts, with: p) { first.append(try! $0.get().height) }
        let layouts = p.layoutCount, shapings = p.engine.shapeCache.shapingCount
        #expect(layouts == 40)
        var second: [Double] = []
        precompute(posts, with: p) { second.append(try! $0.get().height) }
        #expect(p.layoutCount == layouts)
        #expect(p.engine.shapeCache.shapingCount == shapings)
        #expect(second == first)
        #expect(p.heightCache.statistics.hits >= 40)
    }

    @Test func relayoutAtANewWidthShapesNothing() throws {
        let p = precomputer()
        let posts = (0..<20).map { SampleFeed.post($0) }
        for post in posts { _ = try p.layout(post, width: 375) }
        let shapings = p.engine.shapeCache.shapingCount
        let shapedHits = p.shapedTextStatistics.hits
        for post in posts {
            let narrow = try p.layout(post, width: 320)
            #expect(narrow.width == 320)
        }
        #expect(p.engine.shapeCache.shapingCount == shapings)
        // Not even itemized again: every post's shaped texts are reused and only re-broken.
        #expect(p.shapedTextStatistics.hits - shapedHits >= 2 * posts.count)
        #expect(p.layoutCount == 40)
    }

    /// Shaped texts are kept by field and string: a second post by the same author reuses
    /// the author's shaping, but a canonically equivalent spelling (a decomposed "é") is
    /// shaped on its own, with its own UTF-16 offsets.
    @Test func shapedTextsAreSharedByExactStringOnly() throws {
        let p = precomputer()
        _ = try p.layout(FeedPost(id: "1", author: "小明", text: "café au lait"), width: 375)
        let hits = p.shapedTextStatistics.hits
        _ = try p.layout(FeedPost(id: "2", author: "小明", text: "cafe\u{301} au lait"), width: 375)
        #expect(p.shapedTextStatistics.hits == hits + 1)  // the author only
        let body = try #require(p.layout(FeedPost(id: "3", author: "x", text: "cafe\u{301} au lait"), width: 375)
            .element("body")?.text)
        #expect(body.text.utf16Count == 13)
        #expect(body.lines.last?.range.upperBound == 13)
    }

    @Test func inputOrderIsPreservedUnderTwoJobs() throws {
        let p = precomputer()
        let posts = (0..<300).map { SampleFeed.post($0, seed: 7) }
        var ids: [String] = []
        precompute(posts, width: 300, window: 8, with: p) { ids.append(try! $0.get().postID) }
        #expect(ids == posts.map(\.id))
    }

    @Test func asyncPrecomputeStreamsInOrderAndHonoursCancellation() async throws {
        let p = precomputer()
        let posts = (0..<50).map { SampleFeed.post($0, seed: 3) }
        let stream = AsyncStream<FeedPost> { continuation in
            for post in posts { continuation.yield(post) }
            continuation.finish()
        }
        var ids: [String] = []
        for try await cell in cells(stream, width: 375, window: 7, with: p) {
            ids.append(cell.postID)
        }
        #expect(ids == posts.map(\.id))

        let endless = AsyncStream<FeedPost> { continuation in
            for i in 0..<5_000 { continuation.yield(SampleFeed.post(i)) }
            continuation.finish()
        }
        let before = p.layoutCount
        let task = Task {
            var count = 0
            for try await _ in cells(endless, width: 375, window: 4, with: p) {
                count += 1
                if count == 10 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return count
        }
        // The stream ends soon after the consumer's task is cancelled: the producer stops
        // with at most a window of posts in flight instead of laying out the other 4,990.
        let delivered = try await task.value
        #expect(delivered >= 10 && delivered < 10 + 3 * 4)
        #expect(p.layoutCount - before < 10 + 4 * 4)
    }

    @Test func asyncPrecomputeEndsWithTheLayoutError() async {
        let p = precomputer()
        let posts = AsyncStream<FeedPost> { continuation in
            for i in 0..<20 { continuation.yield(SampleFeed.post(i)) }
            continuation.finish()
        }
        var delivered = 0
        await #expect(throws: LayoutError.self) {
            for try await _ in cells(posts, width: 5, window: 3, with: p) { delivered += 1 }
        }
        #expect(delivered == 0)
    }

    /// The height cache's byte bound counts what a cell holds, its texts (string and UTF-16
    /// copy) among it.
    @Test func cellCostCountsItsTexts() throws {
        let long = FeedPost(id: "long", author: "a", text: String(repeating: "很长的文字 long words ", count: 500), quote: nil, images: 0)
        let cell = try FeedPrecomputer(engine: TextEngine(fonts: Fixtures.engine.fonts)).layout(long, width: 375)
        let textBytes = cell.elements.compactMap(\.text).reduce(0) { $0 + $1.text.utf16Count * 2 }
        #expect(textBytes > 10_000)
        #expect(cell.estimatedBytes >= textBytes)
    }

    @Test func cachesRespectTheirBounds() throws {
        let heights = HeightCache(maxEntries: 10, maxBytes: 1 << 30)
        let p = FeedPrecomputer(engine: TextEngine(fonts: Fixtures.engine.fonts, shapeCache: ShapeCache(maxEntries: 50, maxBytes: 1 << 30)),
                                heightCache: heights, shapedTextLimit: 5)
        for i in 0..<60 { _ = try p.layout(SampleFeed.post(i), width: 375) }
        #expect(heights.statistics.count <= 10)
        #expect(heights.statistics.evictions >= 50)
        #expect(p.engine.shapeCache.statistics.count <= 50)
        #expect(p.engine.shapeCache.statistics.evictions > 0)
        #expect(p.shapedTextStatistics.count <= 5)
        let bytes = HeightCache(maxEntries: 1000, maxBytes: 50_000)
        let q = FeedPrecomputer(engine: TextEngine(fonts: Fixtures.engine.fonts), heightCache: bytes)
        for i in 0..<60 { _ = try q.layout(SampleFeed.post(i), width: 375) }
        #expect(bytes.statistics.cost <= 50_000)
    }

    @Test func editedPostWithTheSameIDIsLaidOutAgain() throws {
        let p = precomputer()
        let a = try p.layout(FeedPost(id: "same", author: "x", text: "short"), width: 375)
        let b = try p.layout(FeedPost(id: "same", author: "x", text: String(repeating: "much longer text ", count: 20)), width: 375)
        #expect(b.height > a.height)
    }

    /// A shared height cache answers only for the same fonts and the same post, byte for
    /// byte: precomputers over other fonts, and posts whose texts are canonically
    /// equivalent but not equal, get their own cells, equal to fresh layouts.
    @Test func heightCacheHitsOnlyWhatAFreshLayoutWouldGive() throws {
        let shared = HeightCache()
        let bundled = FeedPrecomputer(engine: TextEngine(fonts: Fixtures.engine.fonts), heightCache: shared)
        let cjkFirst = FontFallbackChain(primary: Fixtures.cjk, fallbacks: [Fixtures.sans, Fixtures.emoji])
        let other = FeedPrecomputer(engine: TextEngine(fonts: cjkFirst), heightCache: shared)
        let post = FeedPost(id: "p", author: "Ana", text: "Fonts decide how wide this text is, and so how tall its cell is. 中文也是。")
        let first = try bundled.layout(post, width: 240)
        let second = try other.layout(post, width: 240)
        let fresh = try FeedPrecomputer(engine: TextEngine(fonts: cjkFirst)).layout(post, width: 240)
        #expect(second.height == fresh.height && other.layoutCount == 1)
        #expect(first.elements.compactMap(\.text?.lines.first?.runs.first?.font) != second.elements.compactMap(\.text?.lines.first?.runs.first?.font))
        #expect(try other.measure(post, width: 240).height == fresh.height)

        let composed = FeedPost(id: "e", author: "a", text: "caf\u{E9}")
        let decomposed = FeedPost(id: "e", author: "a", text: "cafe\u{301}")
        #expect(composed.text == decomposed.text)  // equal as Strings
        _ = try bundled.layout(composed, width: 240)
        let cell = try bundled.layout(decomposed, width: 240)
        #expect(bundled.layoutCount == 3)  // laid out, not taken from the composed post's entry
        #expect(cell.elements.first { $0.id == "body" }?.text?.text.utf16Count == 5)
    }

    @Test func invalidWidthIsAnError() {
        let p = precomputer()
        for width in [0.0, -1, .nan, .infinity, 10] {
            #expect(throws: LayoutError.self) { try p.layout(Self.post, width: width) }
        }
    }

    /// A cell style the engine would refuse (its text blocks' options or styles) is refused
    /// by `layout` and by `measure` alike, with the engine's error, for every post: measuring
    /// does not check each block again, so the style's own check must hold everything.
    @Test func invalidStyleIsRefusedByLayoutAndMeasureAlike() {
        let cases: [(String, (inout FeedCellStyle) -> Void)] = [
            ("invalid lineHeightMode fixed(0.0): line height must be in (0, 1e6] points", { $0.lineHeightMode = .fixed(0) }),
            ("invalid lineHeightMode fixed(nan): line height must be in (0, 1e6] points", { $0.lineHeightMode = .fixed(.nan) }),
            ("invalid lineSpacing inf: must be a finite number of points within ±1e6", { $0.lineSpacing = .infinity }),
            ("invalid bodySize 0.0: must be in (0, 100000] points", { $0.bodySize = 0 }),
        ]
        for (message, configure) in cases {
            let p = precomputer(configure)
            for post in [Self.post, FeedPost(id: "short", author: "", text: "")] {
                for error in [#expect(throws: LayoutError.self) { try p.layout(post, width: 375) },
                              #expect(throws: LayoutError.self) { try p.measure(post, width: 375) }] {
                    #expect(error.map { "\($0)" } == message)
                }
            }
        }
    }

    @Test func emoticonsAuthorsAndLinksAreStyledAndKeyed() throws {
        let heights = HeightCache()
        let engine = TextEngine(fonts: Fixtures.engine.fonts)
        let plain = FeedPrecomputer(engine: engine, heightCache: heights)
        let rich = FeedPrecomputer(engine: engine, heightCache: heights, emoticons: try EmoticonTable.bundled())
        let post = FeedPost(id: "7", author: "Mia", text: "[微笑] see https://example.com @x [未知]")
        let a = try #require(plain.layout(post, width: 375).element("body")?.text)
        let b = try #require(rich.layout(post, width: 375).element("body")?.text)
        // One height cache, two emoticon tables: each precomputer gets its own cell.
        #expect(a.lines.flatMap(\.attachments).isEmpty)
        #expect(b.lines.flatMap(\.attachments).count == 1)
        #expect(b.text.string.hasPrefix("\u{FFFC} see"))
        let url = try #require(b.text.highlights.first { $0.kind == .url })
        // The default (light) theme underlines nothing; the gray one underlines URLs only.
        #expect(!b.text.style(at: url.range.lowerBound).underline)
        var grayStyle = FeedCellStyle()
        grayStyle.theme = .gray
        let gray = try #require(FeedPrecomputer(engine: engine, style: grayStyle, emoticons: try EmoticonTable.bundled())
            .layout(post, width: 375).element("body")?.text)
        #expect(gray.text.style(at: url.range.lowerBound).underline)
        #expect(!gray.text.style(at: try #require(gray.text.highlights.first { $0.kind == .mention }).range.lowerBound).underline)
        let author = try #require(rich.layout(post, width: 375).element("author")?.text)
        #expect(author.allRuns.allSatisfy { $0.font.isBold })
    }

    /// A post whose emoticon is too large to lay out (size × point size over 100,000 points:
    /// 8 × 16,000) is refused alike by `layout` and `measure`, in the body or the quote:
    /// `layout` drew the body empty while `measure` gave it three lines.
    @Test func aPostWithAnEmoticonTooLargeIsRefusedByLayoutAndMeasure() throws {
        let table = try EmoticonTable([Emoticon(code: "[big]", image: GrayImage(width: 1, height: 1, gray: [0]), size: 8)])
        var style = FeedCellStyle()
        (style.bodySize, style.quoteSize) = (16_000, 16_000)
        let message = "invalid attachment size 128000.0×128000.0: must be finite, not negative and at most 100000 points a side"
        do {
            let p = FeedPrecomputer(engine: Fixtures.engine, style: style, emoticons: table)
            for post in [FeedPost(id: "b", author: "a", text: "Hello [big] world, some words here."),
                         FeedPost(id: "q", author: "a", text: "Hello", quote: "a [big]")] {
                let errors: [LayoutError?] = [#expect(throws: LayoutError.self) { try p.layout(post, width: 375) },
                                              #expect(throws: LayoutError.self) { try p.measure(post, width: 375) },
                                              #expect(throws: LayoutError.self) { try p.measure(post, widths: [320, 375]) }]
                for error in errors { #expect(error.map { "\($0)" }?.hasPrefix("invalid attachment size") == true, "\(post.id)") }
                if post.id == "b" { #expect(errors.allSatisfy { $0.map { "\($0)" } == message }) }
            }
            // One that fits is drawn, and measures as it lays out.
            let fits = FeedPost(id: "f", author: "a", text: "Hello [big]")
            let small = FeedPrecomputer(engine: Fixtures.engine, style: style,
                                        emoticons: try EmoticonTable([Emoticon(code: "[big]", image: GrayImage(width: 1, height: 1, gray: [0]), size: 2)]))
            #expect(try small.layout(fits, width: 375).height == small.measure(fits, width: 375).height)
        }
        // What `measure` and the service's /measure answer for its line (through FeedMeasurer).
        let p = FeedPrecomputer(engine: Fixtures.engine, style: style, emoticons: table)
        for subject in FeedMeasurer.Subject.allCases {
            let record = FeedRecord(line: 3, result: .success(FeedPost(id: "b", author: "a", text: "Hello [big] world")))
            #expect(FeedMeasurer(precomputer: p, subject: subject, width: 375).measure(record) == .failure(FeedLineError(line: 3, reason: message)))
        }
    }

    /// Thousands of links in a post are underlined in one pass over the runs, not one pass
    /// per link (30,000 links in a body and a quote took minutes when it was so). Every link
    /// is underlined in the link ink, nothing else is, and the cell measures as it lays out.
    @Test func thirtyThousandLinksAreStyledInOnePass() throws {
        let text = (0..<30_000).map { "http://a.co/\($0)" }.joined(separator: " ")
        let post = FeedPost(id: "links", author: "a", text: text, quote: text)
        var style = FeedCellStyle()
        style.theme = .gray  // URLs underlined
        let p = FeedPrecomputer(engine: Fixtures.engine, style: style)
        let cell = try p.layout(post, width: 375)
        for id in ["body", "quote"] {
            let body = try #require(cell.element(id)?.text).text
            #expect(body.highlights.count == 30_000 && body.highlights.allSatisfy { $0.kind == .url })
            // Link, space, link, …: each run is one link (underlined) or the space after it.
            #expect(body.runs.count == 2 * 30_000 - 1)
            for (k, run) in body.runs.enumerated() {
                #expect(run.style.underline == k.isMultiple(of: 2) && (run.style.ink == p.style.theme.highlight.ink(for: .url)) == k.isMultiple(of: 2))
                if k.isMultiple(of: 2) { #expect(run.range == body.highlights[k / 2].range) }
            }
        }
        let measured = try p.measure(post, width: 375)
        #expect(measured.height == cell.height && measured.text("body")?.lineCount == cell.element("body")?.text?.lineCount)
    }
}

/// A feed's cells on two workers, in input order, as an app precomputes them.
private func precompute(_ posts: [FeedPost], width: Double = 375, window: Int = 256, with p: FeedPrecomputer,
                        consume: (Result<CellLayout, LayoutError>) -> Void) {
    RenderQueuePool(workerCount: 2).orderedMap(posts, priority: .prefetch, window: window, transform: { post in
        Result { () throws(LayoutError) -> CellLayout in try p.layout(post, width: width) }
    }, consume: consume)
}

/// The cells of an async sequence of posts on two workers, in input order.
private func cells<Posts: AsyncSequence & Sendable>(_ posts: Posts, width: Double, window: Int,
                                                    with p: FeedPrecomputer) -> AsyncThrowingStream<CellLayout, Error>
where Posts.Element == FeedPost {
    RenderQueuePool(workerCount: 2).orderedMap(posts, priority: .prefetch, window: window) { post in
        try p.layout(post, width: width)
    }
}
