import Foundation
import TextKitLite

/// Why one line of a JSON Lines feed was rejected.
public struct FeedLineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based line number in the input.
    public let line: Int
    public let reason: String

    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }

    public var description: String { "line \(line): \(reason)" }
}

/// Parses one JSON Lines record into a `FeedPost`: `id` (string or integer), `author`,
/// `text` (required), optional `quote`, `avatar` (a picture: a source string, or `{"src",
/// "width", "height"}`), `images` (a count of placeholders from 0 to 100, or a list of up to
/// 100 pictures), `lang` (a BCP 47 language tag: "ja", "zh-Hant"), `time` (ISO 8601 or seconds
/// since 1970), `source` (a string) and `reposts`, `comments`, `likes` (counts ≥ 0).
public enum FeedLineParser {
    /// Longest accepted line, in bytes (a post is small; this bounds memory on bad input).
    public static let maximumLineBytes = 1 << 20
    /// Most images a post may have.
    public static let maximumImages = 100

    /// Parses a line's bytes (without its newline).
    ///
    /// - Returns: nil for a blank line.
    /// - Throws: `FeedLineError` naming the line and what is wrong.
    public static func parse(_ bytes: some Collection<UInt8>, line: Int) throws(FeedLineError) -> FeedPost? {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return nil }
        guard bytes.count <= maximumLineBytes else {
            throw FeedLineError(line: line, reason: "line longer than \(maximumLineBytes) bytes")
        }
        let array = Array(bytes)
        if let offset = UTF8Validation.firstInvalidOffset(array) {
            throw FeedLineError(line: line, reason: "invalid UTF-8 at byte offset \(offset) of the line (\(UTF8Validation.describeByte(array, at: offset)))")
        }
        guard let record = Record(json: array) else { throw FeedLineError(line: line, reason: diagnose(Data(array))) }
        return try post(record, line: line)
    }

    /// The post of a record, once its image count and language are checked.
    private static func post(_ record: Record, line: Int) throws(FeedLineError) -> FeedPost {
        guard (0...maximumImages).contains(record.images ?? 0) else {
            throw FeedLineError(line: line, reason: "\"images\" must be an integer from 0 to \(maximumImages) or a list of pictures, got \(record.images ?? 0)")
        }
        if let pictures = record.pictures, pictures.count > maximumImages {
            throw FeedLineError(line: line, reason: "\"images\" lists \(pictures.count) pictures, more than \(maximumImages)")
        }
        if let language = record.lang, !TextStyle.isWellFormedLanguage(language) {
            throw FeedLineError(line: line, reason: "\"lang\" must be a BCP 47 language tag such as \"ja\" or \"zh-Hant\", got \(describe(language))")
        }
        for (key, count) in [("reposts", record.reposts), ("comments", record.comments), ("likes", record.likes)] where (count ?? 0) < 0 {
            throw FeedLineError(line: line, reason: "\"\(key)\" must be a count of 0 or more, got \(count ?? 0)")
        }
        var time: Date?
        switch record.time {
        case nil: break
        case .seconds(let seconds): time = Date(timeIntervalSince1970: Double(seconds))
        case .text(let text):
            guard let date = FeedPost.time(iso8601: text) else {
                throw FeedLineError(line: line, reason: "\"time\" must be an ISO 8601 date-time such as \"2026-11-28T21:50:00Z\" or seconds since 1970, got \(describe(text))")
            }
            time = date
        }
        var post = FeedPost(id: record.id, author: record.author ?? "", text: record.text, quote: record.quote, avatar: record.avatar,
                            pictures: record.pictures ?? Array(repeating: PostPicture(), count: record.images ?? 0), language: record.lang,
                            time: time, source: record.source, reposts: record.reposts, comments: record.comments, likes: record.likes)
        post.idIsInteger = record.idIsInteger
        return post
    }

    /// The JSON shape of a post: `id` may be a non-empty string or an integer.
    struct Record: Decodable, Equatable {
        var id: String
        var idIsInteger = false
        var author: String?
        var text: String
        var quote: String?
        var avatar: PostPicture?
        /// `images` as a count of placeholders, or as a list of pictures.
        var images: Int?
        var pictures: [PostPicture]?
        var lang: String?
        var time: Time?
        var source: String?
        var reposts: Int?, comments: Int?, likes: Int?

        /// `time` as given: seconds since 1970, or text (ISO 8601, checked by `post`).
        enum Time: Equatable {
            case seconds(Int64)
            case text(String)
        }

        enum CodingKeys: String, CodingKey { case id, author, text, quote, avatar, images, lang, time, source, reposts, comments, likes }

        init(id: String, idIsInteger: Bool, author: String?, text: String, quote: String?, avatar: PostPicture? = nil, images: Int?,
             pictures: [PostPicture]? = nil, lang: String?) {
            (self.id, self.idIsInteger, self.author, self.text, self.quote) = (id, idIsInteger, author, text, quote)
            (self.avatar, self.images, self.pictures, self.lang) = (avatar, images, pictures, lang)
        }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let string = try? container.decode(String.self, forKey: .id), !string.isEmpty {
                id = string
            } else {
                id = String(try container.decode(Int64.self, forKey: .id))
                idIsInteger = true
            }
            text = try container.decode(String.self, forKey: .text)
            author = try container.decodeIfPresent(String.self, forKey: .author)
            quote = try container.decodeIfPresent(String.self, forKey: .quote)
            avatar = try container.decodeIfPresent(PostPicture.self, forKey: .avatar)
            if let count = try? container.decodeIfPresent(Int.self, forKey: .images) {
                images = count
            } else {
                pictures = try container.decodeIfPresent([PostPicture].self, forKey: .images)
            }
            lang = try container.decodeIfPresent(String.self, forKey: .lang)
            if let seconds = try? container.decodeIfPresent(Int64.self, forKey: .time) {
                time = .seconds(seconds)
            } else if let text = try container.decodeIfPresent(String.self, forKey: .time) {
                time = .text(text)
            }
            source = try container.decodeIfPresent(String.self, forKey: .source)
            reposts = try container.decodeIfPresent(Int.self, forKey: .reposts)
            comments = try container.decodeIfPresent(Int.self, forKey: .comments)
            likes = try container.decodeIfPresent(Int.self, forKey: .likes)
        }
    }

    /// What is wrong with a line the decoder refused, in words and with the value: the
    /// syntax error, or the first field (in the order id, text, author, quote, lang, images)
    /// that is missing or of the wrong type. Runs on bad lines only.
    private static func diagnose(_ data: Data) -> String {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            return "bad JSON" + (syntaxError(error).map { ": " + $0 } ?? "")
        }
        guard let fields = object as? [String: Any] else { return "expected a JSON object, got \(describe(object))" }
        func present(_ key: String) -> Any? { fields[key].flatMap { $0 is NSNull ? nil : $0 } }
        guard let id = fields["id"] else { return "missing \"id\"" }
        if let id = id as? String, id.isEmpty { return "\"id\" is empty" }
        if !(id is String) {
            let text = describe(id)
            if id is NSNumber, !isBoolean(id), !text.contains(where: { ".eE".contains($0) }), Int64(text) == nil {
                return "\"id\" \(text) is out of range: an integer id must be from \(Int64.min) to \(Int64.max) (give a longer one as a string)"
            }
            if Int64(text) == nil { return "\"id\" must be a string or an integer, got \(text)" }
        }
        guard let text = fields["text"] else { return "missing \"text\"" }
        for (key, value): (String, Any?) in [("text", text), ("author", present("author")), ("quote", present("quote")), ("lang", present("lang")),
                                             ("source", present("source"))] {
            if let value, !(value is String) { return "\"\(key)\" must be a string, got \(describe(value))" }
        }
        for key in ["reposts", "comments", "likes"] {
            if let value = present(key), !isInteger(value) { return "\"\(key)\" must be a count of 0 or more, got \(describe(value))" }
        }
        if let time = present("time"), !(time is String), !isInteger(time) {
            return "\"time\" must be an ISO 8601 date-time such as \"2026-11-28T21:50:00Z\" or seconds since 1970, got \(describe(time))"
        }
        if let avatar = present("avatar"), let reason = pictureProblem(avatar) { return "\"avatar\" \(reason)" }
        if let images = present("images") {
            guard let list = images as? [Any] else {
                return "\"images\" must be an integer from 0 to \(maximumImages) or a list of pictures, got \(describe(images))"
            }
            for (index, picture) in list.enumerated() where !(picture is NSNull) {
                if let reason = pictureProblem(picture) { return "\"images\"[\(index)] \(reason)" }
            }
        }
        return "bad JSON"
    }

    /// What is wrong with a picture's JSON (see `PostPicture`), or nil.
    private static func pictureProblem(_ value: Any) -> String? {
        let expected = "must be a source string or {\"src\", \"width\", \"height\"}, got \(describe(value))"
        if let source = value as? String { return source.isEmpty ? "has an empty source" : nil }
        guard let fields = value as? [String: Any] else { return expected }
        guard let source = fields["src"] as? String else { return expected }
        if source.isEmpty { return "has an empty source" }
        let sides = [fields["width"], fields["height"]].map { $0.flatMap { $0 is NSNull ? nil : $0 } }
        if (sides[0] == nil) != (sides[1] == nil) { return "declares both \"width\" and \"height\" or neither" }
        for side in sides.compactMap({ $0 }) {
            guard let number = side as? NSNumber, !isBoolean(side), let value = Int(exactly: number.doubleValue),
                  (1...PostPicture.maximumDeclaredSide).contains(value) else {
                return "has a \"width\" or \"height\" that is not an integer from 1 to \(PostPicture.maximumDeclaredSide): \(describe(side))"
            }
        }
        return nil
    }

    /// A JSON value as it would be written (strings quoted, at most 40 characters), or
    /// its kind for arrays and objects.
    private static func describe(_ value: Any) -> String {
        switch value {
        case is [Any]: return "an array"
        case is [String: Any]: return "an object"
        case is NSNull: return "null"
        default:
            guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .withoutEscapingSlashes]) else {
                return "\(value)"
            }
            let text = String(decoding: data, as: UTF8.self)
            return text.count > 40 ? text.prefix(39) + "…" : text
        }
    }

    /// True for a JSON integer that fits 64 bits.
    private static func isInteger(_ value: Any) -> Bool {
        value is NSNumber && !isBoolean(value) && Int64(describe(value)) != nil
    }

    /// True for JSON `true` and `false` (which Foundation gives as NSNumber too).
    private static func isBoolean(_ value: Any) -> Bool {
        let text = describe(value)
        return text == "true" || text == "false"
    }

    /// Where a JSON document's syntax goes wrong, in the words of `syntaxError(_:)`; nil
    /// when it parses or the parser says nothing. `JSONDecoder` says only "The given data
    /// was not valid JSON."
    public static func syntaxError(in data: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return nil
        } catch {
            return syntaxError(error)
        }
    }

    /// Where the JSON syntax goes wrong ("Invalid value around character 1", without a
    /// final period), from Foundation's parser, whose message `JSONDecoder` does not show
    /// (it keeps it as its error's underlying error); nil when it gives none.
    static func syntaxError(_ error: any Error) -> String? {
        guard let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String, !detail.isEmpty else { return nil }
        return detail.hasSuffix(".") ? String(detail.dropLast()) : detail
    }
}
