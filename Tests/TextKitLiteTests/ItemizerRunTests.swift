import SampleFeed
import Testing
@testable import TextKitLite

/// The itemizer's extension of runs that continue an item (`Itemizer.extendsRuns`) against
/// the general per-cluster steps: the same pieces, from the same cached words, for feed
/// posts and for texts that end runs where the fast steps must stop.
@Suite struct ItemizerRunTests {
    static let engine = Fixtures.engine

    /// Each paragraph's pieces (`ShapedPiece.debugDescription`: a word by identity, so
    /// another script or font would show as another cached word).
    func pieces(_ text: AttributedText, extendsRuns: Bool) -> [String] {
        let itemizer = Itemizer(text: text, direction: .auto, fonts: Self.engine.fonts, cache: Self.engine.shapeCache,
                                extendsRuns: extendsRuns)
        return itemizer.shapeParagraphs().sink.pieces.map(\.debugDescription)
    }

    func expectSame(_ text: AttributedText, sourceLocation: SourceLocation = #_sourceLocation) {
        let fast = pieces(text, extendsRuns: true), general = pieces(text, extendsRuns: false)
        guard fast != general else { return }
        let first = zip(fast, general).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(fast.count, general.count)
        let (got, expected) = (first < fast.count ? fast[first] : "none", first < general.count ? general[first] : "none")
        Issue.record("\(text.string): piece \(first) is \(got), cluster by cluster \(expected)", sourceLocation: sourceLocation)
    }

    @Test func feedPostsItemizeAsClusterByCluster() {
        for post in SampleFeed.posts(count: 400, seed: 11) {
            expectSame(AttributedText(post.text, style: TextStyle(size: 16)))
        }
    }

    @Test func runsStopWhereScriptFontStyleOrLevelChange() {
        let plain = TextStyle(size: 16)
        var ink = plain
        ink.ink = 90
        var bold = plain
        bold.weight = .bold
        var japanese = plain
        japanese.language = "ja"
        for text in [
            AttributedText([("中文中文", plain), ("中文中文", ink)]),  // a run ends inside the letters
            AttributedText([("abcdef", plain), ("ghijk", bold), ("lmn中文", plain)]),
            AttributedText([("今天很好", japanese), ("今天很好", plain)]),
            AttributedText("abc中文def 中文，中文。ABCxyz", style: plain),
            AttributedText("中文\u{0627}\u{0644}中文 abc", style: plain),  // right to left: levels
            AttributedText("中文😀中文 e\u{0301}abc", style: plain),  // clusters of several units
            AttributedText("「中文」、中文ａｂｃ abc123def", style: plain),
            AttributedText("中文\u{FFFC}中文", style: plain),
            AttributedText("abc\n中文\r\n\ndef", style: plain),
        ] {
            expectSame(text)
        }
    }
}
