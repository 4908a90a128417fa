import Foundation
import Testing
@testable import TextKitLite

@Suite struct HighlighterTests {
    /// "kind value@start" for each highlight the default highlighter finds.
    func found(_ text: String, _ highlighter: Highlighter = Highlighter()) -> [String] {
        highlighter.highlights(in: text).map { "\($0.kind) \($0.value)@\($0.range.lowerBound)" }
    }

    /// The white space test that skips the property table agrees with it on every scalar.
    @Test func whiteSpaceAgreesWithTheUnicodeProperty() {
        let disagreeing = (0...0x10FFFF).compactMap(Unicode.Scalar.init).filter {
            Highlighter.isWhiteSpace($0) != $0.properties.isWhitespace
        }
        #expect(disagreeing.isEmpty, "\(disagreeing.prefix(5).map { String($0.value, radix: 16) })")
    }

    @Test func hashtagsAreWordsAndTopicsAreClosed() {
        #expect(found("#running #nofilter") == ["hashtag #running@0", "hashtag #nofilter@9"])
        #expect(found("#话题#") == ["topic #话题#@0"])
        #expect(found("今天#晨跑打卡# done #swift") == ["topic #晨跑打卡#@2", "hashtag #swift@14"])
        // A topic's text does not start or end with white space, and may hold some inside.
        #expect(found("# a# #a b#") == ["topic #a b#@5"])
        // Twitter's rules: not after a word character or "&", at least one letter.
        let hashtags = Highlighter(kinds: [.hashtag])
        #expect(found("abc#def &#39; #123 #1a #_ #️⃣ #קפה #برمجة", hashtags) == ["hashtag #1a@19", "hashtag #קפה@30", "hashtag #برمجة@35"])
        // Only the kinds asked for.
        #expect(found("#话题# #tag", Highlighter(kinds: [.hashtag])) == ["hashtag #话题@0", "hashtag #tag@5"])
        #expect(found("#running #nofilter", Highlighter(kinds: [.topic])) == [])
        #expect(found("@a #b# http://c", Highlighter(kinds: [.url])) == ["url http://c@7"])
    }

    /// Names in any script, topics of at most 63 scalars (a surrogate pair is one) on one
    /// line, URLs up to white space or CJK text and without trailing sentence punctuation,
    /// and nothing for a lone "@", "#" or scheme.
    @Test func mentionsTopicsAndURLsWhereverTheyAre() {
        #expect(found("转发 @小明_2: 看 #话题# https://a.b/c?d=1).") == ["mention @小明_2@3", "topic #话题#@12", "url https://a.b/c?d=1@17"])
        #expect(found("@ http:// #a\nb#") == ["hashtag #a@10"])
        #expect(found("https:/x httpsx http: hthttp://q, http") == ["url http://q@24"])
        #expect(found("😀#\(String(repeating: "😀", count: 63))#") == ["topic #\(String(repeating: "😀", count: 63))#@2"])
        #expect(found("#\(String(repeating: "😀", count: 64))#") == [])
        #expect(found("see https://a.jp/p\u{3000}next https://例え") == ["url https://a.jp/p@4"])
    }

    @Test func attributedTextStylesHighlightsAndKeepsThem() {
        let style = TextStyle(size: 15, ink: 10)
        let highlightStyle = HighlightStyle(ink: 70, weight: .bold, underline: true)
        let text = Highlighter().attributed("hi @bob see https://x.y/z ok", style: style, highlightStyle: highlightStyle)
        #expect(text.string == "hi @bob see https://x.y/z ok")
        #expect(text.highlights.map(\.range) == [3..<7, 12..<25])
        #expect(text.runs.map(\.range) == [0..<3, 3..<7, 7..<12, 12..<25, 25..<28])
        #expect(text.style(at: 4) == highlightStyle.applied(to: style, kind: .mention) && text.style(at: 4).weight == .bold && text.style(at: 4).underline)
        #expect(text.style(at: 8) == style)
    }

    @Test func urlLabelReplacesTheURLButKeepsItAsTheValue() {
        let highlighter = Highlighter(urlLabel: "网页链接")
        let text = highlighter.attributed("看 https://t.cn/abc 和 @小明 #话题#", style: TextStyle(), highlightStyle: HighlightStyle())
        #expect(text.string == "看 网页链接 和 @小明 #话题#")
        #expect(text.highlights.map(\.kind) == [.url, .mention, .topic])
        #expect(text.highlights.map(\.value) == ["https://t.cn/abc", "@小明", "#话题#"])
        #expect(text.highlights.map { String(decoding: text.utf16[$0.range], as: UTF16.self) } == ["网页链接", "@小明", "#话题#"])
        #expect(text.runs.count == 6 && text.style(at: 2).ink == 70)
        // An empty label shows URLs as written.
        #expect(Highlighter(urlLabel: "").attributed("a http://b", style: TextStyle(), highlightStyle: HighlightStyle()).string == "a http://b")
    }

    /// Hostile inputs stay linear: a megabyte of entity starts, of near-topics, of one long
    /// entity (no timing asserts: a quadratic scan would not finish in the suite's time).
    @Test func hostileInputsAreScannedInLinearTime() {
        let megabyte = 1 << 20
        for unit in ["#", "@", "h", "ht", "http://", "#a", "a#", "# ", "&#"] {
            _ = Highlighter().highlights(in: String(repeating: unit, count: megabyte / unit.utf16.count))
        }
        // A "#" every 65 scalars: each topic attempt reads 64 and finds no closing "#".
        let nearTopics = String(repeating: "#" + String(repeating: "话", count: 64), count: megabyte / 65)
        #expect(Highlighter(kinds: [.topic]).highlights(in: nearTopics).isEmpty)
        #expect(found(String(repeating: "a", count: megabyte)).isEmpty)
        #expect(found("@" + String(repeating: "a", count: megabyte)).count == 1)
        #expect(found("#" + String(repeating: "1", count: megabyte)).isEmpty)
    }

    @Test func attributedTextKeepsHighlightsThroughAppendPrefixAndCoding() throws {
        let highlighter = Highlighter()
        var text = highlighter.attributed("@a and #b#", style: TextStyle(), highlightStyle: HighlightStyle())
        text.append(highlighter.attributed(" http://c", style: TextStyle(), highlightStyle: HighlightStyle()))
        #expect(text.highlights.map(\.range) == [0..<2, 7..<10, 11..<19])
        #expect(text.highlights.map(\.value) == ["@a", "#b#", "http://c"])
        // A slice keeps the highlights it overlaps, cut at its ends (as an emoticon table
        // splicing attachments in keeps them).
        #expect(text.slice(1..<9).highlights.map(\.range) == [0..<1, 6..<8])
        #expect(text.slice(1..<9).highlights.map(\.value) == ["@a", "#b#"])

        // setHighlights clamps, sorts and drops empty and overlapping ranges.
        var manual = AttributedText("0123456789")
        manual.setHighlights([AttributedText.Highlight(kind: .url, value: "u", range: 8..<20), AttributedText.Highlight(kind: .mention, value: "m", range: 1..<3),
                              AttributedText.Highlight(kind: .topic, value: "t", range: 2..<5), AttributedText.Highlight(kind: .hashtag, value: "h", range: 4..<4)])
        #expect(manual.highlights.map(\.range) == [1..<3, 8..<10])
        #expect(manual != AttributedText("0123456789"))

        // A prefix keeps the highlights it holds, cut at its end.
        let long = highlighter.attributed(String(repeating: "@name word ", count: 4000), style: TextStyle(size: 10), highlightStyle: HighlightStyle())
        let prefix = try #require(long.prefixForLines(2, width: 100))
        #expect(!prefix.highlights.isEmpty && prefix.highlights.allSatisfy { $0.range.upperBound <= prefix.utf16Count })
        #expect(prefix.highlights == long.highlights.prefix(prefix.highlights.count).map {
            var h = $0
            h.range = h.range.clamped(to: 0..<prefix.utf16Count)
            return h
        })

        // Coding: kinds as lowercase names; bad ranges are refused.
        let data = try JSONEncoder().encode(text)
        #expect(String(decoding: data, as: UTF8.self).contains(#""kind":"mention""#))
        #expect(try JSONDecoder().decode(AttributedText.self, from: data) == text)
        let plain = String(decoding: try JSONEncoder().encode(AttributedText("x")), as: UTF8.self)
        #expect(!plain.contains("highlights"))
        let bad = plain.dropLast() + #","highlights":[{"kind":"url","value":"v","range":[0,5]}]}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(AttributedText.self, from: Data(bad.utf8)) }
    }
}
