import Foundation
import Testing
@testable import TextKitLite
@testable import TextKitLiteFeed

/// The words around a post in its cell: the time and source line under the author and the
/// footer with counts, in the post's language (`FeedLabels`), and what they do to a cell.
@Suite struct FeedLabelsTests {
    static let now = PictureCellTests.now

    static func post(_ text: String, lang: String? = nil, ago seconds: Double? = nil, source: String? = nil) -> FeedPost {
        var post = FeedPost(id: "l", author: "a", text: text, language: lang)
        post.time = seconds.map { now.addingTimeInterval(-$0) }
        post.source = source
        return post
    }

    @Test func aPostsLanguageIsItsLangElseItsScript() {
        #expect(FeedLabels.language(of: Self.post("hello")) == "en")
        #expect(FeedLabels.language(of: Self.post("今天天气很好")) == "zh")
        #expect(FeedLabels.language(of: Self.post("今日はいい天気")) == "ja")  // kana after Han
        #expect(FeedLabels.language(of: Self.post("안녕하세요")) == "ko")
        #expect(FeedLabels.language(of: Self.post("صباح الخير")) == "ar")
        #expect(FeedLabels.language(of: Self.post("בוקר טוב")) == "he")
        #expect(FeedLabels.language(of: Self.post("👍 123")) == "en")  // no letter says: English
        #expect(FeedLabels.language(of: Self.post("hello", lang: "zh-Hant-TW")) == "zh-Hant")
        #expect(FeedLabels.language(of: Self.post("hello", lang: "he-IL")) == "he")
        #expect(FeedLabels.language(of: Self.post("hello", lang: "fr")) == "en")  // no table: the text's
    }

    @Test func relativeTimesInEachLanguage() {
        func meta(_ text: String, ago: Double, lang: String? = nil) -> String? {
            FeedLabels.meta(Self.post(text, lang: lang, ago: ago), now: Self.now, language: FeedLabels.language(of: Self.post(text, lang: lang)))
        }
        #expect(meta("hi", ago: 180) == "3 minutes ago")
        #expect(meta("hi", ago: 2 * 3600 + 59) == "2 hours ago")
        #expect(meta("hi", ago: 86_400 + 10) == "yesterday")
        #expect(meta("hi", ago: 20) == "now")
        #expect(meta("你好", ago: 180) == "3分钟前")
        #expect(meta("你好", ago: 7200) == "2小时前")
        #expect(meta("你好", ago: 86_400 * 1.5) == "昨天")
        #expect(meta("בוקר", ago: 180) == "לפני 3 דקות")
        let arabic = meta("صباح", ago: 180) ?? ""
        #expect(arabic.contains("دقائق") && (arabic.contains("3") || arabic.contains("٣")), "\(arabic)")
        // Beyond a week: the date, with its year when it is not now's.
        #expect(meta("hi", ago: 86_400 * 10) == "Nov 18")
        #expect(meta("你好", ago: 86_400 * 400) == "2025年10月24日")
        // A time ahead of now (a clock's skew) is now.
        #expect(meta("hi", ago: -600) == "now")
        // Without now, the date.
        #expect(FeedLabels.meta(Self.post("hi", ago: 180), now: nil, language: "en") == "Nov 28, 2026")
    }

    @Test func sourcesAndCountsInEachLanguage() {
        #expect(FeedLabels.meta(Self.post("hi", ago: 180, source: "iPhone"), now: Self.now, language: "en") == "3 minutes ago via iPhone")
        #expect(FeedLabels.meta(Self.post("你好", source: "iPhone"), now: Self.now, language: "zh") == "来自 iPhone")
        #expect(FeedLabels.meta(Self.post("hi"), now: Self.now, language: "en") == nil)
        var post = Self.post("你好")
        #expect(FeedLabels.footer(post, language: "zh") == "转发 · 评论 · 赞")
        (post.reposts, post.comments, post.likes) = (12, 0, 45)
        #expect(FeedLabels.footer(post, language: "zh") == "转发 12 · 评论 · 赞 45")
        post.likes = 45_000
        #expect(FeedLabels.footer(post, language: "zh") == "转发 12 · 评论 · 赞 4.5万")
        #expect(FeedLabels.footer(post, language: "en") == "Repost 12 · Comment · Like 45K")
        #expect(FeedLabels.footer(post, language: "he").hasPrefix("שיתוף 12"))
        #expect(FeedLabels.footer(post, language: "ar").hasPrefix("إعادة نشر 12"))
    }

    @Test func timeSourceAndCountsParseFromJSON() throws {
        let line = #"{"id": 1, "text": "t", "time": "2026-11-29T05:50:00+08:00", "source": "iPhone", "reposts": 1, "comments": 2, "likes": 3}"#
        let post = try #require(try FeedLineParser.parse(Array(line.utf8), line: 1))
        #expect(post.time == Date(timeIntervalSince1970: 1_795_903_200 - 600))
        #expect(post.source == "iPhone" && post.reposts == 1 && post.comments == 2 && post.likes == 3)
        let seconds = try #require(try FeedLineParser.parse(Array(#"{"id": 2, "text": "t", "time": 1795903200}"#.utf8), line: 1))
        #expect(seconds.time == Self.now)
        // Codable keeps them.
        let decoded = try JSONDecoder().decode(FeedPost.self, from: JSONEncoder().encode(post))
        #expect(decoded.time == post.time && decoded.source == post.source && decoded.likes == 3)
        func failure(_ fields: String) -> String? {
            do {
                _ = try FeedLineParser.parse(Array(#"{"id": 1, "text": "t", \#(fields)}"#.utf8), line: 1)
                return nil
            } catch {
                return error.reason
            }
        }
        #expect(failure(#""time": "yesterday""#) == #""time" must be an ISO 8601 date-time such as "2026-11-28T21:50:00Z" or seconds since 1970, got "yesterday""#)
        #expect(failure(#""time": 1.5"#) == #""time" must be an ISO 8601 date-time such as "2026-11-28T21:50:00Z" or seconds since 1970, got 1.5"#)
        #expect(failure(#""likes": -1"#) == #""likes" must be a count of 0 or more, got -1"#)
        #expect(failure(#""comments": "3""#) == #""comments" must be a count of 0 or more, got "3""#)
        #expect(failure(#""source": 7"#) == #""source" must be a string, got 7"#)
    }

    @Test func aTimeLineGrowsTheCellAsMeasuredAndASeparatorDoesNot() throws {
        var style = FeedCellStyle()
        style.now = Self.now
        let precomputer = FeedPrecomputer(engine: TextEngine(fonts: Fixtures.engine.fonts), style: style)
        let plain = Self.post("Hello there")
        let timed = Self.post("Hello there", ago: 180, source: "iPhone")
        let a = try precomputer.layout(plain, width: 375), b = try precomputer.layout(timed, width: 375)
        // The name and the time line fit beside the 40-point avatar: the row keeps its height.
        #expect(b.height == a.height)
        #expect(try precomputer.measure(timed, width: 375).height == b.height)
        // Larger, they make it taller, measured as laid out.
        var large = style
        large.metaSize = 30
        let tall = FeedPrecomputer(engine: TextEngine(fonts: Fixtures.engine.fonts), style: large)
        #expect(try tall.layout(timed, width: 375).height > b.height)
        #expect(try tall.measure(timed, width: 375).height == tall.layout(timed, width: 375).height)
        let meta = try #require(b.element("meta"))
        #expect(meta.text?.text.string == "3 minutes ago via iPhone")
        let author = try #require(b.element("author"))
        #expect(meta.frame.y > author.frame.maxY)
        style.showsSeparator = true
        let separated = try FeedPrecomputer(engine: TextEngine(fonts: Fixtures.engine.fonts), style: style).layout(timed, width: 375, scale: 2)
        #expect(separated.height == b.height)
        let line = try #require(separated.element("separator"))
        #expect(line.frame.height == 0.5 && line.frame.maxY >= b.height && line.frame.y < b.height)
        let bitmap = try #require(try CellRenderer().render(separated, options: RenderOptions(scale: 2, format: .rgba8)))
        let color = FeedTheme.light.separator
        #expect(bitmap.pixel(x: 100, y: bitmap.height - 1) == (color.red, color.green, color.blue, 255))
    }
}
