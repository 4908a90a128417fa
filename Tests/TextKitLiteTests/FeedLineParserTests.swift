import Foundation
import Testing
@testable import TextKitLite
@testable import TextKitLiteFeed
import SampleFeed

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

    @Test func integerIDsStayIntegersInJSON() throws {
        let integer = try #require(try parse(#"{"id": 42, "text": "t"}"#))
        let string = try #require(try parse(#"{"id": "42", "text": "t"}"#))
        #expect(integer.idIsInteger && !string.idIsInteger)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(integer), as: UTF8.self).contains(#""id":42,"#))
        #expect(String(decoding: try encoder.encode(string), as: UTF8.self).contains(#""id":"42","#))
        let decoded = try JSONDecoder().decode(FeedPost.self, from: encoder.encode(integer))
        #expect(decoded == integer && decoded.idIsInteger)
    }

    @Test func languageTag() throws {
        #expect(try parse(#"{"id":"a","text":"骨","lang":"zh-Hant"}"#)?.language == "zh-Hant")
        #expect(try parse(#"{"id":"a","text":"骨"}"#)?.language == nil)
        #expect(failure(#"{"id":"a","text":"骨","lang":"日本"}"#)?.reason
                == #""lang" must be a BCP 47 language tag such as "ja" or "zh-Hant", got "日本""#)
        #expect(failure(#"{"id":"a","text":"骨","lang":7}"#)?.reason == #""lang" must be a string, got 7"#)
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
        let line = #"{"id": "u", "author": "a", "text": "t", "shares": 3, "tags": ["x"], "meta": {"k": null}}"#
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

    // MARK: The direct reader against JSONDecoder

    /// `FeedLineParser.Record(json:)` reads a line as `JSONDecoder` does, directly or through
    /// the decoder: on generated lines of every JSON construct (escapes, surrogates, numbers
    /// of every form, nested and repeated keys, stray bytes), every record it reads equals
    /// the decoder's, and it never reads a line the decoder refuses. It reads the usual
    /// lines without the decoder.
    @Test func theDirectReaderReadsLinesAsJSONDecoderDoes() throws {
        var generator = SystemRandomNumberGenerator()
        func pick<T>(_ choices: [T]) -> T { choices.randomElement(using: &generator)! }
        let pieces = ["a", "Zz", " ", "中文", "é", "😀", "\\n", "\\t", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\r", "\\u0041",
                      "\\u00e9", "\\u4e2d", "\\ud83d\\ude00", "\\u0000"]
        let badPieces = ["\\ud83d", "\\ude00", "\\x", "\\u12", "\u{1}", "\t"]
        func string() -> String {
            let body = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                Int.random(in: 0..<40, using: &generator) == 0 ? pick(badPieces) : pick(pieces)
            }
            return "\"" + body.joined() + "\""
        }
        func value() -> String {
            pick([string(), string(), string(), "0", "7", "-7", "-0", "01", "1.5", "2e3", "1E2", "-", "9223372036854775807",
                  "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "100", "101", "null", "true", "false",
                  "nul", "[]", "[1, \"a\"]", "{}", "{\"x\": 1}", "\"\""])
        }
        let keys = ["id", "author", "text", "quote", "images", "lang", "other", "t\\u0065xt", "ID"]
        let space = ["", " ", "  ", "\t", "\r"]
        var read = 0, decodable = 0
        for k in 0..<6000 {
            var fields: [String] = []
            if Int.random(in: 0..<4, using: &generator) > 0 { fields.append("\"id\":" + pick(["\"p\(k)\"", "\(k)", value()])) }
            if Int.random(in: 0..<5, using: &generator) > 0 { fields.append("\"text\":" + (Bool.random(using: &generator) ? string() : value())) }
            for _ in 0..<Int.random(in: 0...4, using: &generator) { fields.append("\"\(pick(keys))\"\(pick(space)):\(pick(space))" + value()) }
            fields.shuffle(using: &generator)
            var line = pick(space) + "{" + fields.map { pick(space) + $0 + pick(space) }.joined(separator: ",") + "}" + pick(space)
            switch Int.random(in: 0..<20, using: &generator) {
            case 0: line.removeLast()
            case 1: line += pick(["x", ",", "}", "{}"])
            case 2: line = String(line.dropFirst())
            default: break
            }
            let bytes = Array(line.utf8)
            let decoded = try? JSONDecoder().decode(FeedLineParser.Record.self, from: Data(bytes))
            var toDecoder = false
            let record = FeedLineParser.Record(json: bytes) { bytes in
                toDecoder = true
                return try? JSONDecoder().decode(FeedLineParser.Record.self, from: Data(bytes))
            }
            #expect(record == decoded, "\(line)")
            if decoded != nil { decodable += 1 }
            if record != nil, !toDecoder { read += 1 }
        }
        #expect(read > 200 && read * 3 > decodable)
        // The usual lines, as a client writes them, are read directly.
        let encoder = JSONEncoder()
        for post in SampleFeed.posts(count: 300, seed: 9) {
            let bytes = Array(try encoder.encode(post))
            #expect(FeedLineParser.Record(json: bytes) { _ in nil } != nil)
            #expect(try FeedLineParser.parse(bytes, line: 1) == post)
        }
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
        // Ill-formed sequences anywhere (a value, an escaped string, an unknown field, a key)
        // are found before the line is read.
        let bad: [[UInt8]] = [[0xFF], [0xC3], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE4, 0xB8]]
        for sequence in bad {
            for (before, after) in [(#"{"id":"x","text":""#, #""}"#), (#"{"id":"x","text":"\n"#, #""}"#),
                                    (#"{"id":"x","text":"t","other":""#, #""}"#), (#"{"id":"x","text":"t",""#, #"":1}"#)] {
                let line = Array(before.utf8) + sequence + Array(after.utf8)
                #expect(failure(line)?.reason.hasPrefix("invalid UTF-8 at byte offset \(before.utf8.count) ") == true)
            }
        }
    }

    @Test func arrayInsteadOfObject() {
        #expect(failure(#"[{"id": "x", "text": "t"}]"#)?.reason == "expected a JSON object, got an array")
        #expect(failure(#""just a string""#)?.reason == #"expected a JSON object, got "just a string""#)
        #expect(failure("null")?.reason == "expected a JSON object, got null")
        #expect(failure("12")?.reason == "expected a JSON object, got 12")
    }

    @Test func missingText() {
        #expect(failure(#"{"id": "x", "author": "a"}"#)?.reason == #"missing "text""#)
    }

    @Test func textOfWrongType() {
        // Valid JSON with a value of the wrong type: the field, and the value in words.
        #expect(failure(#"{"id": "x", "text": 12}"#)?.reason == #""text" must be a string, got 12"#)
        #expect(failure(#"{"id": "x", "text": null}"#)?.reason == #""text" must be a string, got null"#)
        #expect(failure(#"{"id": "x", "text": ["a"]}"#)?.reason == #""text" must be a string, got an array"#)
        #expect(failure(#"{"id": "x", "text": "t", "quote": 5}"#)?.reason == #""quote" must be a string, got 5"#)
        #expect(failure(#"{"id": "x", "text": "t", "author": {"a": 1}}"#)?.reason == #""author" must be a string, got an object"#)
        #expect(failure(#"{"id": "x", "text": "t", "author": false}"#)?.reason == #""author" must be a string, got false"#)
        // A long value is cut at 40 characters.
        let long = String(repeating: "a", count: 60)
        #expect(failure(#"{"id": "x", "text": "t", "images": "\#(long)"}"#)?.reason
                == #""images" must be an integer from 0 to 100 or a list of pictures, got ""# + long.prefix(38) + "…")
        // null for an optional field is the field left out.
        #expect(throws: Never.self) { try FeedLineParser.parse(Array(#"{"id": "x", "text": "t", "author": null, "quote": null, "images": null}"#.utf8), line: 1) }
    }

    @Test func badID() {
        #expect(failure(#"{"text": "t"}"#)?.reason == #"missing "id""#)
        #expect(failure(#"{"id": null, "text": "t"}"#)?.reason == #""id" must be a string or an integer, got null"#)
        #expect(failure(#"{"id": "", "text": "t"}"#)?.reason == #""id" is empty"#)
        for (id, words) in [("true", "true"), ("1.5", "1.5"), ("[1]", "an array"), (#"{"n": 1}"#, "an object")] {
            #expect(failure(#"{"id": \#(id), "text": "t"}"#)?.reason == #""id" must be a string or an integer, got "# + words,
                    "id \(id)")
        }
        // An integer id beyond 64 bits is named with its digits, and so is the way out.
        for id in ["99999999999999999999", "-9223372036854775809"] {
            #expect(failure(#"{"id": \#(id), "text": "t"}"#)?.reason
                    == #""id" \#(id) is out of range: an integer id must be from -9223372036854775808 to 9223372036854775807 (give a longer one as a string)"#)
        }
        for id in ["-9223372036854775808", "9223372036854775807"] {
            #expect((try? FeedLineParser.parse(Array(#"{"id": \#(id), "text": "t"}"#.utf8), line: 1))??.id == id)
        }
    }

    @Test func badImages() throws {
        let negative = try #require(failure(#"{"id": "x", "text": "t", "images": -1}"#))
        #expect(negative.reason.hasPrefix(#""images" must be an integer from 0 to 100"#))
        #expect(negative.reason.hasSuffix("got -1"))
        let tooMany = try #require(failure(#"{"id": "x", "text": "t", "images": 101}"#))
        #expect(tooMany.reason.contains("0 to \(FeedLineParser.maximumImages)"))
        #expect(tooMany.reason.hasSuffix("got 101"))
        for (images, words) in [(#""3""#, #""3""#), ("2.5", "2.5"), ("99999999999999999999", "99999999999999999999"), ("true", "true")] {
            #expect(failure(#"{"id": "x", "text": "t", "images": \#(images)}"#)?.reason
                    == #""images" must be an integer from 0 to 100 or a list of pictures, got "# + words)
        }
    }

    @Test func picturesAreSourcesOrSizedObjects() throws {
        let line = #"{"id": 1, "text": "t", "avatar": "a/me.png", "images": ["p/1.jpg", {"src": "file:///srv/2.png", "width": 1200, "height": 800}, null]}"#
        let post = try #require(try FeedLineParser.parse(Array(line.utf8), line: 1))
        #expect(post.avatar == PostPicture(source: "a/me.png"))
        #expect(post.pictures == [PostPicture(source: "p/1.jpg"), PostPicture(source: "file:///srv/2.png", width: 1200, height: 800), PostPicture()])
        #expect(post.images == 3)
        #expect(post.pictures[1].declaredAspectRatio == 1.5)
        // An avatar as an object, and a count of placeholders as before.
        let sized = try #require(try FeedLineParser.parse(Array(#"{"id": "y", "text": "t", "avatar": {"src": "b.jpg", "width": 4, "height": 4}, "images": 2}"#.utf8), line: 1))
        #expect(sized.avatar == PostPicture(source: "b.jpg", width: 4, height: 4))
        #expect(sized.pictures == [PostPicture(), PostPicture()])
        // The fast reader takes a string avatar as the decoder does (unknown keys are skipped,
        // a known one never is).
        let fast = try #require(try FeedLineParser.parse(Array(#"{"id": "z", "text": "t", "avatar": "c.png"}"#.utf8), line: 1))
        #expect(fast.avatar?.source == "c.png")
        // Codable round trip: a list stays a list, placeholders stay a count.
        for original in [post, sized] {
            let decoded = try JSONDecoder().decode(FeedPost.self, from: JSONEncoder().encode(original))
            #expect(decoded.pictures == original.pictures && decoded.avatar == original.avatar)
        }
        #expect(String(decoding: try JSONEncoder().encode(sized), as: UTF8.self).contains(#""images":2"#))
    }

    @Test func badPictures() {
        let cases: [(String, String)] = [
            (#""avatar": 3"#, #""avatar" must be a source string or {"src", "width", "height"}, got 3"#),
            (#""avatar": """#, #""avatar" has an empty source"#),
            (#""avatar": {"width": 3, "height": 3}"#, #""avatar" must be a source string or {"src", "width", "height"}, got an object"#),
            (#""images": ["a.jpg", 7]"#, #""images"[1] must be a source string or {"src", "width", "height"}, got 7"#),
            (#""images": [{"src": "a.jpg", "width": 3}]"#, #""images"[0] declares both "width" and "height" or neither"#),
            (#""images": [{"src": "a.jpg", "width": 0, "height": 3}]"#,
             #""images"[0] has a "width" or "height" that is not an integer from 1 to 1000000: 0"#),
            (#""images": [{"src": "a.jpg", "width": 2.5, "height": 3}]"#,
             #""images"[0] has a "width" or "height" that is not an integer from 1 to 1000000: 2.5"#),
        ]
        for (field, reason) in cases {
            #expect(failure(#"{"id": "x", "text": "t", \#(field)}"#)?.reason == reason, "\(field)")
        }
        let many = "[" + Array(repeating: #""a.jpg""#, count: 101).joined(separator: ",") + "]"
        #expect(failure(#"{"id": "x", "text": "t", "images": \#(many)}"#)?.reason == #""images" lists 101 pictures, more than 100"#)
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

    // MARK: Cutting input into lines

    /// The records of an input given to a `FeedLineSplitter` in chunks of `size` bytes.
    private func split(_ input: [UInt8], chunkSize size: Int) -> [FeedRecord] {
        var splitter = FeedLineSplitter()
        var records: [FeedRecord] = []
        var offset = 0
        while true {
            while let record = splitter.next() { records.append(record) }
            if splitter.isFinished { return records }
            if offset < input.count {
                splitter.append(input[offset..<min(input.count, offset + size)])
                offset += size
            } else {
                splitter.finish()
            }
        }
    }

    /// However the input is cut into chunks (the HTTP service's body, `FeedReader`'s
    /// reads), the records are the same: a line across chunks, blank lines counted but
    /// not given, CRLF, a last line without a newline, a line over the limit skipped.
    @Test func chunksGiveTheSameRecordsWhereverTheyAreCut() throws {
        let posts = "{\"id\": 1, \"text\": \"一\"}\r\n\n   \nnope\n{\"id\": \"b\", \"text\": \"🎉 two\"}\n{\"id\": 3, \"text\": \"last\"}"
        let long = String(repeating: "x", count: FeedLineParser.maximumLineBytes + 10) + "\n"
        for (input, sizes) in [(posts, [1, 2, 3, 7, 100]), (long + posts, [1000, 1 << 16, (1 << 20) + 3])] {
            let bytes = Array(input.utf8)
            let whole = split(bytes, chunkSize: bytes.count)
            for size in sizes {
                let records = split(bytes, chunkSize: size)
                #expect(records.map(\.line) == whole.map(\.line), "chunks of \(size)")
                #expect(records.map(\.result) == whole.map(\.result), "chunks of \(size)")
            }
        }
        let whole = split(Array((long + posts).utf8), chunkSize: 1 << 22)
        #expect(whole.map(\.line) == [1, 2, 5, 6, 7])
        #expect(whole.map { (try? $0.result.get())?.id } == [nil, "1", nil, "b", "3"])
        #expect(whole[0].result == .failure(FeedLineError(line: 1, reason: "line longer than \(FeedLineParser.maximumLineBytes) bytes")))
        #expect(split([], chunkSize: 1).isEmpty)
        #expect(split(Array("\n\n".utf8), chunkSize: 1).isEmpty)
    }
}
