import Foundation
@testable import SampleFeed
import Testing
@testable import TextKitLite
@testable import TextKitLiteFeed

@Suite struct HitTestingTests {
    static let lines: [(String, ParagraphDirection)] = [
        ("Hello world, plain text.", .auto),
        ("שלום עולם וכל יושביו", .auto),
        ("abc שלום עולם def 123", .auto),
        ("שלום abc def עולם", .auto),
        ("مرحبا بالعالم لا بأس", .auto),
    ]

    /// The grapheme cluster boundaries of a string, as UTF-16 offsets from `base`.
    static func graphemeBoundaries(_ string: Substring, base: Int) -> Set<Int> {
        var result: Set<Int> = [base]
        var offset = base
        for character in string {
            offset += character.utf16.count
            result.insert(offset)
        }
        return result
    }

    /// A point near a glyph cluster's left edge maps to the cluster's visual left caret,
    /// one near its right edge to its right caret: its start and end in a left-to-right
    /// run, its end and start in a right-to-left one. Near: a quarter of the cluster's
    /// width, divided among the grapheme clusters of a ligature (Arabic lam-alef).
    @Test(arguments: lines)
    func glyphClusterEdgesMapToTheirCarets(_ text: String, _ direction: ParagraphDirection) throws {
        let layout = try Fixtures.layout(text, size: 17, LayoutOptions(direction: direction))
        let line = try #require(layout.lines.first)
        #expect(layout.lineCount == 1)
        let y = line.frame.y + line.frame.height / 2
        let boundaries = Self.graphemeBoundaries(Substring(text), base: 0)
        for run in line.runs {
            // Visual clusters (one per distinct cluster value, in glyph order).
            var starts: [(cluster: Int, x: Double)] = []
            for (g, cluster) in run.glyphs.map(\.cluster).enumerated() where starts.last?.cluster != Int(cluster) {
                starts.append((Int(cluster), Double(run.glyphs.map(\.position)[g].x)))
            }
            let logical = Set(starts.map(\.cluster)).sorted()
            for (k, start) in starts.enumerated() {
                let right = k + 1 < starts.count ? starts[k + 1].x : run.x + run.width
                let end = logical.first { $0 > start.cluster } ?? run.range.upperBound
                let graphemes = boundaries.filter { $0 > start.cluster && $0 <= end }.count
                let width = (right - start.x) / Double(max(1, graphemes))
                guard width > 0.5 else { continue }
                let (leftIndex, rightIndex) = run.isRightToLeft ? (end, start.cluster) : (start.cluster, end)
                #expect(layout.characterIndex(at: Point(x: start.x + width / 4, y: y)) == leftIndex, "\(text) cluster \(start.cluster)")
                #expect(layout.characterIndex(at: Point(x: right - width / 4, y: y)) == rightIndex, "\(text) cluster \(start.cluster)")
            }
        }
    }

    /// Sweeping a line from left to right reaches every grapheme boundary of its text and
    /// nothing else, in ligatures (Arabic lam-alef, "fi"), emoji sequences and combining
    /// marks too; on a left-to-right line the indices never decrease.
    @Test(arguments: lines + [("e\u{301}👍🏽 fit 👨‍👩‍👧 office", .auto), ("x\u{5D0}\u{5B8}\u{5D1} y", .auto)])
    func everyGraphemeBoundaryIsReachable(_ text: String, _ direction: ParagraphDirection) throws {
        let layout = try Fixtures.layout(text, size: 17, LayoutOptions(direction: direction))
        let line = try #require(layout.lines.first)
        let y = line.frame.y + line.frame.height / 2
        var seen: [Int] = []
        for step in 0...Int((line.frame.width + 20) * 8) {
            seen.append(layout.characterIndex(at: Point(x: line.frame.x - 10 + Double(step) / 8, y: y)))
        }
        #expect(Set(seen) == Self.graphemeBoundaries(Substring(text), base: 0), "\(text)")
        if !line.runs.contains(where: \.isRightToLeft) { #expect(seen == seen.sorted(), "\(text)") }
    }

    /// An attachment is one cluster: its left and right parts map to its two carets in the
    /// direction of the text around it, a sweep reaches both, and a range over it has its box.
    @Test(arguments: [("ab", "cd"), ("שלום", "עולם")])
    func attachmentsAreClusters(_ before: String, _ after: String) throws {
        var text = AttributedText(before, style: TextStyle(size: 17))
        text.append(TextAttachment(size: Size(width: 20, height: 20), content: .box(tag: "a")), style: TextStyle(size: 17))
        text.append(AttributedText(after, style: TextStyle(size: 17)))
        let layout = try Fixtures.engine.layout(text, options: LayoutOptions())
        let line = layout.lines[0]
        let box = try #require(line.attachments.first).rect
        let offset = before.utf16.count, y = line.frame.y + line.frame.height / 2
        let rightToLeft = before.unicodeScalars.first!.value >= 0x590
        #expect(layout.characterIndex(at: Point(x: box.x + 5, y: y)) == (rightToLeft ? offset + 1 : offset))
        #expect(layout.characterIndex(at: Point(x: box.maxX - 5, y: y)) == (rightToLeft ? offset : offset + 1))
        var seen: Set<Int> = []
        for step in 0...Int((line.frame.width + 20) * 8) {
            seen.insert(layout.characterIndex(at: Point(x: line.frame.x - 10 + Double(step) / 8, y: y)))
        }
        #expect(seen == Set(0...text.utf16Count))
        let rects = layout.rects(for: offset..<offset + 1)
        #expect(rects.count == 1 && abs(rects[0].x - box.x) < 1e-6 && abs(rects[0].width - box.width) < 1e-6)
        #expect(layout.rects(for: 0..<text.utf16Count).count == 1)
    }

    /// A line of 30,000 attachments between right-to-left letters: each attachment's
    /// direction is found from its neighbours once per line, not by a search through the
    /// line per attachment (which took minutes): each range over one has its box, and its
    /// right part maps to its start, as in right-to-left text.
    @Test func aLineOfThirtyThousandAttachmentsIsHitTestedInOnePass() throws {
        var text = AttributedText("")
        for _ in 0..<30_000 {
            text.append("ש", style: TextStyle(size: 17))
            text.append(TextAttachment(size: Size(width: 4, height: 4), content: .box(tag: "a")), style: TextStyle(size: 17))
        }
        let layout = try Fixtures.engine.layout(text, options: LayoutOptions(width: .infinity))
        let line = try #require(layout.lines.first)
        #expect(layout.lineCount == 1 && line.attachments.count == 30_000)
        let boxes = Dictionary(uniqueKeysWithValues: line.attachments.map { ($0.offset, $0.rect) })
        let rects = layout.rects(for: text.attachments.map { $0.offset..<$0.offset + 1 }, inTruncationToken: false)
        for (attachment, rects) in zip(text.attachments, rects) {
            let box = try #require(boxes[attachment.offset])
            #expect(rects.count == 1 && abs(rects[0].x - box.x) < 1e-6 && abs(rects[0].width - box.width) < 1e-6)
        }
        let y = line.frame.y + line.frame.height / 2
        for attachment in [text.attachments[0], text.attachments[15_000], text.attachments[29_999]] {
            let box = try #require(boxes[attachment.offset])
            #expect(layout.characterIndex(at: Point(x: box.maxX - 1, y: y)) == attachment.offset)
        }
    }

    @Test func linesArePickedByYClampedToTheText() throws {
        let layout = try Fixtures.layout("one two three four five six seven eight nine ten", size: 17,
                                         LayoutOptions(width: 80, lineSpacing: 6, insets: EdgeInsets(all: 5)))
        #expect(layout.lineCount > 2)
        for (i, line) in layout.lines.enumerated() {
            let index = layout.characterIndex(at: Point(x: line.frame.x + 1, y: line.frame.y + line.frame.height / 2))
            #expect(index == line.range.lowerBound, "line \(i)")
        }
        let first = layout.lines[0], last = layout.lines[layout.lineCount - 1]
        #expect(layout.characterIndex(at: Point(x: -100, y: -100)) == 0)
        #expect(layout.characterIndex(at: Point(x: 1000, y: 1000)) == last.range.upperBound)
        // In the spacing between two lines, the nearer one.
        #expect(layout.characterIndex(at: Point(x: 0, y: first.frame.maxY + 1)) == 0)
        #expect(layout.characterIndex(at: Point(x: 0, y: layout.lines[1].frame.y - 1)) == layout.lines[1].range.lowerBound)
    }

    /// "abc שלום def": the range "c שׁל" is on screen "c " at the left of the Hebrew word and
    /// "לש" at its right end: two pieces. The whole text is one.
    @Test func rectsOfARangeAcrossARightToLeftRunAreVisualPieces() throws {
        let layout = try Fixtures.layout("abc שלום def", size: 17)
        let line = layout.lines[0]
        let pieces = layout.rects(for: 2..<6)
        #expect(pieces.count == 2)
        #expect(pieces[0].maxX < pieces[1].x)
        #expect(pieces.allSatisfy { $0.y == line.frame.y && $0.height == line.frame.height })
        let hebrew = try #require(line.runs.first { $0.isRightToLeft })
        #expect(abs(pieces[0].maxX - hebrew.x) < 1e-3 && abs(pieces[1].maxX - (hebrew.x + hebrew.width)) < 1e-3)
        let whole = layout.rects(for: 0..<layout.text.utf16Count)
        #expect(whole.count == 1)
        #expect(abs(whole[0].x - line.frame.x) < 1e-3 && abs(whole[0].width - line.frame.width) < 1e-3)
        #expect(layout.rects(for: 3..<3).isEmpty)
        // Across lines: one rect per line.
        let wrapped = try Fixtures.layout("first line second line third line", size: 17, LayoutOptions(width: 90))
        #expect(wrapped.rects(for: 0..<wrapped.text.utf16Count).count == wrapped.lineCount)
    }

    /// The truncation token maps to where the text was cut and hits its `expand`
    /// highlight; a highlight cut by truncation keeps its visible part.
    @Test(arguments: [TruncationMode.end, .start, .middle])
    func truncationTokenHitsExpand(_ mode: TruncationMode) throws {
        var token = AttributedText("…更多", style: TextStyle(size: 15, ink: 80))
        token.setHighlights([AttributedText.Highlight(kind: .expand, value: "post-7", range: 0..<3)])
        let text = Highlighter().attributed("@someone wrote a long line of text that never fits in the box, see https://example.com/x",
                                            style: TextStyle(size: 15), highlightStyle: HighlightStyle())
        let layout = try Fixtures.engine.layout(text, options: LayoutOptions(width: 200, maxLines: 1, truncation: mode, truncationToken: token))
        let line = layout.lines[0]
        #expect(layout.isTruncated)
        let expand = try #require(layout.highlights.first { $0.isInTruncationToken })
        #expect(expand.highlight == AttributedText.Highlight(kind: .expand, value: "post-7", range: 0..<3))
        // One rect over the token's runs ("…" and "更多" come from two fonts).
        let tokenRuns = line.runs.filter(\.isTruncationToken)
        let tokenLeft = tokenRuns.map(\.x).min()!, tokenRight = tokenRuns.map { $0.x + $0.width }.max()!
        #expect(expand.rects.count == 1)
        #expect(abs(expand.rects[0].x - tokenLeft) < 1e-3 && abs(expand.rects[0].maxX - tokenRight) < 1e-3)
        let centre = Point(x: expand.rects[0].x + expand.rects[0].width / 2, y: expand.rects[0].y + expand.rects[0].height / 2)
        #expect(layout.highlight(at: centre) == expand)
        let cut = layout.characterIndex(at: centre)
        switch mode {
        case .end: #expect(cut == line.range.upperBound)
        case .start: #expect(cut == line.range.lowerBound)
        case .middle:
            let head = line.runs.filter { !$0.isTruncationToken && $0.x < tokenLeft }.map(\.range.upperBound).max()
            #expect(cut == head && cut > 0)
        }
        // Visible text highlights only, each within what the line shows.
        let shown = layout.highlights.filter { !$0.isInTruncationToken }
        let visible = layout.visibleRanges(of: line)
        #expect(shown.allSatisfy { h in visible.contains { $0.contains(h.highlight.range.lowerBound) && h.highlight.range.upperBound <= $0.upperBound } })
        #expect(shown.map(\.highlight.kind) == (mode == .end ? [.mention] : mode == .start ? [.url] : [.mention, .url]))
        #expect(shown.allSatisfy { !$0.rects.isEmpty })
    }

    /// The centre of every highlight rect hits that highlight, in sample feed cells.
    @Test func centreOfEveryHighlightRectHitsIt() throws {
        let precomputer = FeedPrecomputer(engine: TextEngine(fonts: Fixtures.engine.fonts))
        var checked = 0, kinds: Set<AttributedText.Highlight.Kind> = []
        for post in SampleFeed.posts(count: 300) {
            let cell = try precomputer.layout(post, width: 375)
            for highlight in cell.highlights {
                kinds.insert(highlight.highlight.highlight.kind)
                #expect(!highlight.highlight.rects.isEmpty, "\(post.id) \(highlight)")
                for rect in highlight.highlight.rects {
                    let centre = Point(x: rect.x + rect.width / 2, y: rect.y + rect.height / 2)
                    #expect(cell.highlight(at: centre) == highlight, "\(post.id) \(highlight)")
                    checked += 1
                }
            }
        }
        #expect(checked > 100)
        #expect(kinds == [.mention, .topic, .hashtag, .url, .expand])
    }

    @Test func cellAnswersElementAndHighlightAtAPoint() throws {
        let cell = try FeedPrecomputer(engine: TextEngine(fonts: Fixtures.engine.fonts)).layout(FeedCellTests.post, width: 375)
        func centre(_ rect: Rect) -> Point { Point(x: rect.x + rect.width / 2, y: rect.y + rect.height / 2) }
        for id in ["avatar", "author", "body", "quote", "footer", "image0"] {
            #expect(cell.element(at: centre(try #require(cell.element(id)).frame))?.id == id)
        }
        #expect(cell.element(at: Point(x: 1, y: 1)) == nil)
        let mention = try #require(cell.highlights.first { $0.highlight.highlight.kind == .mention })
        #expect(mention.elementID == "body")
        let rect = mention.highlight.rects[0]
        // Cell coordinates: the body's layout rect moved by the body's frame.
        let body = try #require(cell.element("body"))
        #expect(body.text!.highlights.first { $0.highlight.kind == .mention }!.rects[0].offsetBy(dx: body.frame.x, dy: body.frame.y) == rect)
        #expect(cell.highlight(at: centre(rect)) == mention)
        // Just above the mention (in the spacing between lines): a hit only with a margin.
        let above = Point(x: rect.x + rect.width / 2, y: rect.y - 0.5)
        #expect(cell.highlights.allSatisfy { $0.highlight.distance(to: above) > 0 })
        #expect(cell.highlight(at: above) == nil)
        #expect(cell.highlight(at: above, margin: 1) == mention)
        let expand = try #require(cell.highlights.first { $0.highlight.isInTruncationToken })
        #expect(expand.highlight.highlight == AttributedText.Highlight(kind: .expand, value: "42", range: 0..<3))
        #expect(cell.highlight(at: centre(expand.highlight.rects[0]))?.highlight.highlight.kind == .expand)
    }

    /// In a mirrored (right-to-left) cell, elements and highlights are hit where they are
    /// drawn: the avatar on the right, the body's highlights in its mirrored frame.
    @Test func mirroredCellAnswersElementAndHighlightAtAPoint() throws {
        let cell = try FeedPrecomputer(engine: TextEngine(fonts: Fixtures.engine.fonts)).layout(FeedCellTests.rtlPost, width: 375)
        func centre(_ rect: Rect) -> Point { Point(x: rect.x + rect.width / 2, y: rect.y + rect.height / 2) }
        for id in ["avatar", "author", "body", "quote", "footer", "image0", "image4"] {
            #expect(cell.element(at: centre(try #require(cell.element(id)).frame))?.id == id)
        }
        #expect(cell.element(at: Point(x: 375 - 32, y: 32))?.id == "avatar")
        #expect(cell.element(at: Point(x: 32, y: 32))?.id == "author")
        #expect(cell.element(at: Point(x: 374, y: 1)) == nil)
        let body = try #require(cell.element("body"))
        var kinds: [AttributedText.Highlight.Kind] = []
        for highlight in cell.highlights {
            kinds.append(highlight.highlight.highlight.kind)
            for rect in highlight.highlight.rects {
                #expect(cell.element(highlight.elementID)!.frame.contains(rect), "\(highlight)")
                #expect(cell.highlight(at: centre(rect)) == highlight, "\(highlight)")
            }
        }
        #expect(kinds == [.mention, .hashtag, .url, .expand])
        let mention = try #require(cell.highlights.first)
        #expect(body.text!.highlights[0].rects[0].offsetBy(dx: body.frame.x, dy: body.frame.y) == mention.highlight.rects[0])
        // The mention starts the first line's Arabic text, near its right end.
        #expect(mention.highlight.rects[0].maxX > body.frame.midX)
        let hit = centre(mention.highlight.rects[0])
        #expect(cell.highlight(at: Point(x: 375 - hit.x, y: hit.y)) != mention)  // where a left-to-right cell has it
    }
}
