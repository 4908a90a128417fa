import Testing
@testable import TextKitLite
@testable import TextKitLiteFeed

/// JSON Lines records: what `FeedLineParser` accepts, and the reason it gives for each bad line.
@Suite struct FeedLineParserTests {
    /// Parses a line given as text.
    private func parse(_ line: String, line number: Int = 1) throws(FeedLineError) -> FeedPost? {
        try FeedLineParser.parse(Array(line.utf8), line: number)
    }

    /// The error a bad line throws (failing the test if it parses).
    private func failure(_ bytes: [UInt8], line number: Int = 7) -> FeedLineError? {
        do {
            let post = try FeedLineParser.parse(bytes, line: number)
            Issue.record("expected an error, parsed \(String(describing: post))")
            return nil
        } catch {
            return error
        }
    }

    private func failure(_ line: String, line number: Int = 7) -> FeedLineError? {
        failure(Array(line.utf8), line: number)
    }

    // MARK: Good lines

    @Test func stringID() throws {
        let post = try #require(try parse(#"{"id": "abc-1", "author": "小林", "text": "你好，世界 👋"}"#))
        #expect(post == FeedPost(id: "abc-1", author: "小林", text: "你好，世界 👋"))
        #expect(post.quote == nil)
        #expect(post.images == 0)
    }

    @Test func integerIDBecomesText() throws {
        #expect(try parse(#"{"id": 42, "author": "a", "text": "t"}"#)?.id == "42")
        #expect(try parse(#"{"id": -7, "author": "a", "text": "t"}"#)?.id == "-7")
        #expect(try parse(#"{"id": 1234567890123, "author": "a", "text": "t"}"#)?.id == "1234567890123")
    }

    @Test func quoteAndImages() throws {
        let post = try #require(
            try parse(#"{"id": "q", "author": "Mia", "text": "repost", "quote": "@sam: original", "images": 9}"#))
        #expect(post == FeedPost(id: "q", author: "Mia", text: "repost", quote: "@sam: original", images: 9))
        #expect(try parse(#"{"id": "z", "text": "t", "images": 0}"#)?.images == 0)
        #expect(try parse(#"{"id": "m", "text": "t", "images": 100}"#)?.images == FeedLineParser.maximumImages)
    }

    @Test func optionalFieldsMayBeMissingOrNull() throws {
        let post = try #require(try parse(#"{"id": "n", "text": "", "author": null, "quote": null, "images": null}"#))
        #expect(post == FeedPost(id: "n", author: "", text: ""))
    }

    @Test func unknownFieldsAreIgnored() throws {
        let line = #"{"id": "u", "author": "a", "text": "t", "likes": 3, "tags": ["x"], "meta": {"k": null}}"#
        #expect(try parse(line) == FeedPost(id: "u", author: "a", text: "t"))
    }

    @Test func escapesAreDecoded() throws {
        let line = #"{"id": "e", "text": "a\"b\\c\nd\t\u4f60\ud83d\udc4b"}"#
        #expect(try parse(line)?.text == "a\"b\\c\nd\t你👋")
    }

    @Test func blankLineIsNil() throws {
        #expect(try parse("") == nil)
        #expect(try parse("   \t \r") == nil)
    }

    // MARK: Bad lines

    @Test func badJSON() {
        // The reason says where the syntax goes wrong.
        for (line, reason) in [(#"{"id": "x", "text": "unterminated"#, "bad JSON: Unexpected end of file during JSON parse"),
                               ("not json", "bad JSON: Invalid value around character 1"),
                               (#"{"id": "x" "text": "t"}"#, "bad JSON: Invalid value around character 11")] {
            #expect(failure(line)?.reason == reason, "\(line)")
        }
    }

    @Test func invalidUTF8() {
        let bytes = Array(#"{"id": "x", "text": ""#.utf8) + [0xFF, 0xC3] + Array(#""}"#.utf8)
        #expect(failure(bytes)?.reason == "invalid UTF-8 at byte offset 21 of the line (byte 0xff)")
    }

    @Test func arrayInsteadOfObject() {
        #expect(failure(#"[{"id": "x", "text": "t"}]"#)?.reason == "expected a JSON object")
        #expect(failure(#""just a string""#)?.reason == "expected a JSON object")
    }

    @Test func missingText() {
        #expect(failure(#"{"id": "x", "author": "a"}"#)?.reason == #"missing "text""#)
    }

    @Test func textOfWrongType() {
        #expect(failure(#"{"id": "x", "text": 12}"#)?.reason == #""text" must be a string"#)
        #expect(failure(#"{"id": "x", "text": null}"#)?.reason == #""text" must be a string"#)
        #expect(failure(#"{"id": "x", "text": ["a"]}"#)?.reason == #""text" must be a string"#)
        #expect(failure(#"{"id": "x", "text": "t", "quote": 5}"#)?.reason == #""quote" must be a string"#)
    }

    @Test func badID() {
        #expect(failure(#"{"text": "t"}"#)?.reason == #"missing "id""#)
        #expect(failure(#"{"id": null, "text": "t"}"#)?.reason == #"missing "id""#)
        #expect(failure(#"{"id": "", "text": "t"}"#)?.reason == #""id" is empty"#)
        for id in ["true", "1.5", "[1]", #"{"n": 1}"#] {
            #expect(failure(#"{"id": \#(id), "text": "t"}"#)?.reason == #""id" must be a string or an integer"#,
                    "id \(id)")
        }
    }

    @Test func badImages() throws {
        let negative = try #require(failure(#"{"id": "x", "text": "t", "images": -1}"#))
        #expect(negative.reason.hasPrefix(#""images" must be an integer from 0 to 100"#))
        #expect(negative.reason.hasSuffix("got -1"))
        let tooMany = try #require(failure(#"{"id": "x", "text": "t", "images": 101}"#))
        #expect(tooMany.reason.contains("0 to \(FeedLineParser.maximumImages)"))
        #expect(tooMany.reason.hasSuffix("got 101"))
        #expect(failure(#"{"id": "x", "text": "t", "images": "3"}"#)?.reason == #""images" must be an integer"#)
        // Foundation reports a fraction as corrupt data without a key, hence no field name here.
        #expect(failure(#"{"id": "x", "text": "t", "images": 2.5}"#) != nil)
    }

    @Test func lineTooLong() throws {
        let text = String(repeating: "a", count: FeedLineParser.maximumLineBytes)
        let line = #"{"id": "x", "text": "\#(text)"}"#
        #expect(failure(line)?.reason == "line longer than \(FeedLineParser.maximumLineBytes) bytes")
        // Exactly at the limit is fine.
        let padding = FeedLineParser.maximumLineBytes - #"{"id": "x", "text": ""}"#.utf8.count
        let longest = #"{"id": "x", "text": "\#(String(repeating: "a", count: padding))"}"#
        #expect(longest.utf8.count == FeedLineParser.maximumLineBytes)
        #expect(try parse(longest)?.text.count == padding)
    }

    @Test func everyErrorCarriesItsLineNumber() throws {
        let bad: [[UInt8]] = [
            Array("nope".utf8), [0x7B, 0xFF, 0x7D], Array("[]".utf8), Array(#"{"id": "x"}"#.utf8),
            Array(#"{"id": true, "text": "t"}"#.utf8), Array(#"{"id": "x", "text": "t", "images": 1000}"#.utf8),
            Array(repeating: UInt8(ascii: "x"), count: FeedLineParser.maximumLineBytes + 1),
        ]
        for (i, bytes) in bad.enumerated() {
            let number = 1000 + i
            let error = try #require(failure(bytes, line: number))
            #expect(error.line == number)
            #expect(error.description == "line \(number): \(error.reason)")
        }
    }
}
