import Foundation
@testable import SampleFeed
import Testing
@testable import TextKitLite
@testable import TextKitLiteFeed

/// The synthetic feed generator and the committed example feed.
@Suite struct SampleFeedTests {
    /// Enough posts for the mix to settle near its target fractions.
    static let sample = Array(SampleFeed.posts(count: 2000))

    // MARK: Determinism

    @Test func samePostForSameIndexAndSeed() {
        for index in [0, 1, 2, 17, 999, 123_456, Int.max] {
            for seed: UInt64 in [0, 1, 42, .max] {
                #expect(SampleFeed.post(index, seed: seed) == SampleFeed.post(index, seed: seed))
            }
        }
        #expect(Array(SampleFeed.posts(count: 100, seed: 9)) == (0..<100).map { SampleFeed.post($0, seed: 9) })
        #expect(Self.sample[5] == SampleFeed.post(5))
    }

    @Test func idsFollowIndex() {
        #expect(Self.sample.prefix(3).map(\.id) == ["p0", "p1", "p2"])
        #expect(SampleFeed.post(1_000_000).id == "p1000000")
    }

    @Test func seedsAndIndicesGiveDifferentPosts() {
        let other = Array(SampleFeed.posts(count: 200, seed: 2))
        let differing = zip(Self.sample, other).filter { $0.text != $1.text }.count
        #expect(differing >= 190)
        // Neighbouring indices do not share a random stream.
        let distinct = Set(Self.sample.map(\.text)).count
        #expect(distinct >= Self.sample.count * 95 / 100)
    }

    @Test func postsIsLazy() {
        // A feed of Int.max posts could never be made eagerly: taking three proves laziness.
        let feed = SampleFeed.posts(count: Int.max)
        #expect(Array(feed.prefix(3)) == [SampleFeed.post(0), SampleFeed.post(1), SampleFeed.post(2)])
        #expect(Array(SampleFeed.posts(count: 0)).isEmpty)
    }

    // MARK: JSON Lines

    @Test func everyJSONLineParsesBack() throws {
        for (i, post) in Self.sample.enumerated() {
            let line = SampleFeed.jsonLine(post)
            #expect(!line.contains("\n"))
            let parsed = try FeedLineParser.parse(Array(line.utf8), line: i + 1)
            #expect(parsed == post, "\(line)")
        }
    }

    @Test func jsonLineEscapes() throws {
        let post = FeedPost(
            id: "a\"b", author: "back\\slash", text: "line\nbreak\ttab\r\u{1}\u{1F}\u{7F} / \u{2028} 👨‍👩‍👧 “引号”",
            quote: "@x: \"quoted\"", images: 4)
        let line = SampleFeed.jsonLine(post)
        #expect(line.contains(#"\u0001"#))
        #expect(line.contains(#"\u001F"#))
        #expect(line.contains(#"\n"#) && !line.contains("\n"))
        #expect(try FeedLineParser.parse(Array(line.utf8), line: 1) == post)
        let plain = FeedPost(id: "p1", author: "a", text: "t")
        #expect(SampleFeed.jsonLine(plain) == #"{"id":"p1","author":"a","text":"t","images":0}"#)
    }

    // MARK: The mix

    @Test func mixResemblesAFeed() {
        let posts = Self.sample
        func fraction(_ predicate: (FeedPost) -> Bool) -> Double {
            Double(posts.filter(predicate).count) / Double(posts.count)
        }
        let cjk = fraction { $0.text.unicodeScalars.contains(where: Self.isCJK) }
        let rtl = fraction { $0.text.unicodeScalars.contains(where: Self.isRightToLeft) }
        let emoji = fraction { $0.text.unicodeScalars.contains { $0.properties.isEmojiPresentation } }
        let latinOnly = fraction { post in
            !post.text.unicodeScalars.contains { Self.isCJK($0) || Self.isRightToLeft($0) }
        }
        #expect((0.45...0.70).contains(cjk), "CJK \(cjk)")
        #expect((0.07...0.15).contains(rtl), "Arabic or Hebrew \(rtl)")
        #expect((0.20...0.45).contains(latinOnly), "English \(latinOnly)")
        #expect((0.15...0.40).contains(emoji), "emoji \(emoji)")
        #expect((0.10...0.20).contains(fraction { $0.quote != nil }), "quotes")
        #expect((0.25...0.35).contains(fraction { $0.images > 0 }), "images")
        #expect(posts.allSatisfy { (0...9).contains($0.images) })
        #expect(Set(posts.map(\.images)) == Set(0...9))
        #expect((0.02...0.10).contains(fraction { $0.text.count >= 280 }), "long posts")
    }

    @Test func lengthsRangeFromShortToLong() {
        let lengths = Self.sample.map(\.text.count)
        #expect(lengths.allSatisfy { (5...450).contains($0) })
        #expect(lengths.min()! <= 8)
        #expect(lengths.max()! >= 350)
    }

    @Test func featuresOfRealPosts() {
        let all = Self.sample.map { $0.text + ($0.quote ?? "") }.joined(separator: " ")
        let scalars = Set(all.unicodeScalars.map(\.value))
        #expect(all.contains("@"))
        #expect(all.contains("https://example.com/"))
        #expect(all.contains(#/#[^#\s]+#/#))  // Weibo topic: #话题#
        #expect(all.contains(#/ #[a-z]+/#))  // hashtag
        #expect(all.contains("\n"))
        #expect(scalars.contains(0x200D))  // ZWJ sequence
        #expect(scalars.contains(0x1F3FD))  // skin tone
        #expect(scalars.contains(0x1F1E8))  // regional indicator (flag)
        #expect(scalars.contains { (0x0600...0x06FF).contains($0) })  // Arabic
        #expect(scalars.contains { (0x0590...0x05FF).contains($0) })  // Hebrew
        #expect(Self.sample.contains { $0.quote?.hasPrefix("@") == true })
    }

    @Test func wordsRepeatAcrossPosts() {
        // Space-separated words of posts without CJK (a Chinese post has few spaces).
        let words = Self.sample.filter { !$0.text.unicodeScalars.contains(where: Self.isCJK) }
            .flatMap { $0.text.split(whereSeparator: \.isWhitespace) }
        let distinct = Set(words).count
        #expect(words.count > 5_000)
        #expect(distinct * 10 < words.count, "\(distinct) distinct of \(words.count)")
    }

    @Test func everyCharacterHasABundledFont() throws {
        let examples = try Self.examplePosts().map(\.post)
        let fonts = Fixtures.engine.fonts.fonts
        var missing = Set<Unicode.Scalar>()
        for post in Self.sample.prefix(500) + examples {
            for scalar in (post.author + post.text + (post.quote ?? "")).unicodeScalars
            where scalar.properties.generalCategory != .control && !missing.contains(scalar) {
                if !fonts.contains(where: { $0.covers(scalar) }) { missing.insert(scalar) }
            }
        }
        #expect(missing.isEmpty, "\(missing.map { "U+" + String($0.value, radix: 16, uppercase: true) })")
    }

    // MARK: examples/feed.jsonl

    @Test func exampleFeedParses() throws {
        let posts = try Self.examplePosts()
        #expect(posts.count >= 45)
        #expect(Set(posts.map(\.post.id)).count == posts.count, "ids are unique")
        let all = posts.map(\.post)
        #expect(all.contains { $0.text.isEmpty })
        #expect(all.contains { $0.quote != nil })
        #expect(all.contains { $0.images == 9 })
        #expect(all.contains { $0.text.unicodeScalars.contains(where: Self.isRightToLeft) })
        #expect(all.contains { $0.text.unicodeScalars.contains(where: Self.isCJK) })
    }

    // MARK: Helpers

    static func isCJK(_ scalar: Unicode.Scalar) -> Bool { (0x4E00...0x9FFF).contains(scalar.value) }

    static func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool { (0x0590...0x06FF).contains(scalar.value) }

    /// The posts of examples/feed.jsonl with their line numbers; a bad line fails the test.
    static func examplePosts() throws -> [(line: Int, post: FeedPost)] {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("examples/feed.jsonl")
        let data = try Data(contentsOf: url)
        var posts: [(line: Int, post: FeedPost)] = []
        for (i, line) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            if let post = try FeedLineParser.parse(line, line: i + 1) { posts.append((i + 1, post)) }
        }
        return posts
    }
}
