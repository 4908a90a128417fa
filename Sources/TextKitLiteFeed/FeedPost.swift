import Foundation
import TextKitLite

/// One post of a feed: the input of a feed cell.
public struct FeedPost: Sendable, Hashable, Codable {
    /// The post's identity (a JSON string or integer, kept as text).
    public var id: String
    /// The id was a JSON integer: outputs write it back as one (`{"id": 7}` stays `7`).
    public var idIsInteger = false
    public var author: String { didSet { updateContentHash() } }
    public var text: String { didSet { updateContentHash() } }
    /// The text of a reposted post, shown in a nested box.
    public var quote: String? { didSet { updateContentHash() } }
    /// The author's picture, drawn in a circle; nil for a placeholder. JSON key `avatar`: a
    /// source (a path or `file://` URL) or `{"src", "width", "height"}`.
    public var avatar: PostPicture? { didSet { updateContentHash() } }
    /// The attached pictures, in a grid. JSON key `images`: a list of sources (or
    /// `{"src", "width", "height"}` objects), or a count of placeholder boxes.
    public var pictures: [PostPicture] { didSet { updateContentHash() } }
    /// The language of the post's texts (BCP 47, "ja", "zh-Hant"): language-specific glyphs,
    /// line breaking and the regional face of CJK fonts. JSON key `lang`.
    public var language: String? { didSet { updateContentHash() } }

    /// When the post was written: shown under the author, relative to the cell style's `now`
    /// ("3分钟前", "3 minutes ago"). JSON key `time`: an ISO 8601 date-time
    /// ("2026-11-28T21:50:00Z", "2026-11-29T05:50:00+08:00") or seconds since 1970.
    public var time: Date? { didSet { updateContentHash() } }
    /// What the post was written with ("iPhone"), shown after the time ("来自 iPhone").
    public var source: String? { didSet { updateContentHash() } }
    /// The counts shown in the footer ("转发 12 · 评论 3 · 赞 45"); nil or 0 shows the word alone.
    public var reposts: Int? { didSet { updateContentHash() } }
    public var comments: Int? { didSet { updateContentHash() } }
    public var likes: Int? { didSet { updateContentHash() } }

    /// Number of attached pictures; setting it makes that many placeholders.
    public var images: Int {
        get { pictures.count }
        set { pictures = Array(repeating: PostPicture(), count: max(0, newValue)) }
    }

    /// A hash of everything the post draws, kept up to date when a field changes, so that a
    /// height-cache lookup does not read the whole post again (a hit still compares it all).
    /// Seeded per process, as `Hasher` is: no post can be made to collide with another.
    private(set) var contentHash: Int

    /// A post with `images` placeholder pictures.
    public init(id: String, author: String, text: String, quote: String? = nil, images: Int = 0, language: String? = nil) {
        self.init(id: id, author: author, text: text, quote: quote, pictures: Array(repeating: PostPicture(), count: max(0, images)),
                  language: language)
    }

    /// A post with pictures, and with its time, source and counts when given: its content
    /// is hashed once (setting a field after hashes the post again).
    public init(id: String, author: String, text: String, quote: String? = nil, avatar: PostPicture? = nil,
                pictures: [PostPicture], language: String? = nil, time: Date? = nil, source: String? = nil,
                reposts: Int? = nil, comments: Int? = nil, likes: Int? = nil) {
        self.id = id
        self.author = author
        self.text = text
        self.quote = quote
        self.avatar = avatar
        self.pictures = pictures
        self.language = language
        self.time = time
        self.source = source
        self.reposts = reposts
        self.comments = comments
        self.likes = likes
        contentHash = 0
        updateContentHash()
    }

    private enum CodingKeys: String, CodingKey { case id, author, text, quote, avatar, images, lang, time, source, reposts, comments, likes }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let integer = try? container.decode(Int64.self, forKey: .id)
        let count = try? container.decode(Int.self, forKey: .images)
        let id = try integer.map(String.init) ?? container.decode(String.self, forKey: .id)
        let author = try container.decode(String.self, forKey: .author)
        let text = try container.decode(String.self, forKey: .text)
        let quote = try container.decodeIfPresent(String.self, forKey: .quote)
        let avatar = try container.decodeIfPresent(PostPicture.self, forKey: .avatar)
        let pictures = try count.map { Array(repeating: PostPicture(), count: max(0, $0)) } ?? container.decode([PostPicture].self, forKey: .images)
        let language = try container.decodeIfPresent(String.self, forKey: .lang)
        var time: Date?
        if let seconds = try? container.decodeIfPresent(Double.self, forKey: .time) {
            time = Date(timeIntervalSince1970: seconds)
        } else if let text = try container.decodeIfPresent(String.self, forKey: .time) {
            guard let date = Self.time(iso8601: text) else {
                throw DecodingError.dataCorruptedError(forKey: .time, in: container, debugDescription: "not an ISO 8601 date-time: \(text)")
            }
            time = date
        }
        self.init(id: id, author: author, text: text, quote: quote, avatar: avatar, pictures: pictures, language: language, time: time,
                  source: try container.decodeIfPresent(String.self, forKey: .source),
                  reposts: try container.decodeIfPresent(Int.self, forKey: .reposts),
                  comments: try container.decodeIfPresent(Int.self, forKey: .comments),
                  likes: try container.decodeIfPresent(Int.self, forKey: .likes))
        idIsInteger = integer != nil
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(jsonID, forKey: .id)
        try container.encode(author, forKey: .author)
        try container.encode(text, forKey: .text)
        try container.encodeIfPresent(quote, forKey: .quote)
        try container.encodeIfPresent(avatar, forKey: .avatar)
        if pictures.allSatisfy({ $0.source == nil }) {
            try container.encode(images, forKey: .images)
        } else {
            try container.encode(pictures, forKey: .images)
        }
        try container.encodeIfPresent(language, forKey: .lang)
        try container.encodeIfPresent(time.map { $0.formatted(.iso8601) }, forKey: .time)
        try container.encodeIfPresent(source, forKey: .source)
        try container.encodeIfPresent(reposts, forKey: .reposts)
        try container.encodeIfPresent(comments, forKey: .comments)
        try container.encodeIfPresent(likes, forKey: .likes)
    }

    /// A time written in ISO 8601 as posts give it: a date and a time with seconds (and
    /// optionally their fraction), "Z" or an offset ("2026-11-28T21:50:00Z",
    /// "2026-11-29T05:50:00.5+08:00"); nil for anything else.
    public static func time(iso8601 text: String) -> Date? {
        try? Date.ISO8601FormatStyle().parse(text)
    }

    /// The id as the JSON it came as: an integer when `idIsInteger`, else a string.
    public var jsonID: JSONID { JSONID(id, isInteger: idIsInteger) }

    /// 64-bit FNV-1a over strings' UTF-8 bytes, each followed by 0xff (a byte UTF-8 never
    /// holds, so the strings' boundaries count): a file name stable across runs.
    private struct FNV1a {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325

        mutating func mix(_ string: String) {
            for byte in string.utf8 {
                value ^= UInt64(byte)
                value &*= 0x100_0000_01b3
            }
            value ^= 0xff
            value &*= 0x100_0000_01b3
        }
    }

    /// The longest id used as a file name as it is.
    public static let maximumPlainFileNameLength = 100

    /// The image file name of a post id: readable, stable across runs and distinct for
    /// distinct ids.
    ///
    /// An id of at most 100 ASCII letters, digits, "-", "_" and "." that does not start
    /// with "." is the name as it is: `abc-1.pgm`. Any other id gets its first 48
    /// characters with every other character replaced by "_" (a leading "." too), "+",
    /// and 16 hex digits of a 64-bit FNV-1a hash of the id's exact UTF-8 bytes:
    /// `小林` → `__+9bd6e3b3bc2ca1e3.pgm`. A plain name never holds "+", so the two kinds
    /// never meet; two hashed names meet only when two ids' hashes do.
    public static func fileName(forID id: String, extension fileExtension: String = "pgm") -> String {
        func kept(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_" || scalar == ".")
        }
        let scalars = id.unicodeScalars
        if !id.isEmpty, !id.hasPrefix("."), scalars.count <= maximumPlainFileNameLength, scalars.allSatisfy(kept) {
            return id + "." + fileExtension
        }
        var prefix = String(String.UnicodeScalarView(scalars.prefix(48).map { kept($0) ? $0 : "_" }))
        if prefix.hasPrefix(".") { prefix = "_" + prefix.dropFirst() }
        var hash = FNV1a()
        hash.mix(id)
        let digits = String(hash.value, radix: 16)
        return prefix + "+" + String(repeating: "0", count: 16 - digits.count) + digits + "." + fileExtension
    }
}

extension FeedPost {
    /// True when both posts draw the same: equal UTF-8 bytes in every field (not `String`'s
    /// canonical equivalence: "é" and "e\u{301}" are shaped differently) and images.
    func hasSameContent(as other: FeedPost) -> Bool {
        pictures == other.pictures && avatar == other.avatar && time == other.time && source == other.source
            && reposts == other.reposts && comments == other.comments && likes == other.likes && author.hasSameUTF8(as: other.author) && text.hasSameUTF8(as: other.text)
            && (quote ?? "\u{0}").hasSameUTF8(as: other.quote ?? "\u{0}") && (quote == nil) == (other.quote == nil)
            && language == other.language
    }

    /// Sets `contentHash` to a hash of what `hasSameContent` compares.
    fileprivate mutating func updateContentHash() {
        var hasher = Hasher()
        author.hashUTF8(into: &hasher)
        text.hashUTF8(into: &hasher)
        (quote ?? "").hashUTF8(into: &hasher)
        hasher.combine(quote == nil)
        hasher.combine(pictures)
        hasher.combine(avatar)
        hasher.combine(language)
        hasher.combine(time)
        hasher.combine(source)
        hasher.combine(reposts)
        hasher.combine(comments)
        hasher.combine(likes)
        contentHash = hasher.finalize()
    }
}

extension String {
    /// The strings' UTF-8 bytes are equal (compared as buffers, not scalar by scalar, and
    /// not by canonical equivalence as `==` does).
    func hasSameUTF8(as other: String) -> Bool {
        var a = self, b = other
        return a.withUTF8 { x in
            b.withUTF8 { y in x.count == y.count && (x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0) }
        }
    }

    /// Feeds the string's UTF-8 bytes and their count into `hasher` (`String`'s own hashing
    /// normalizes, which costs more and equates what `hasSameUTF8` tells apart).
    func hashUTF8(into hasher: inout Hasher) {
        var copy = self
        copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(utf8.count)
    }
}

/// A picture a post refers to: its source and, when the post declares it, its size in
/// pixels (which then sizes a single picture's box without reading the file). A picture
/// without a source is a placeholder box.
///
/// JSON: a source string (`"media/a.jpg"`, `"file:///srv/media/a.jpg"`), or an object
/// `{"src": "media/a.jpg", "width": 1200, "height": 800}`; `null` in a list is a placeholder.
public struct PostPicture: Sendable, Hashable, Codable {
    /// A file path (relative ones are resolved against the feed's media root) or a
    /// `file://` URL; nil for a placeholder.
    public var source: String?
    /// The declared width and height in pixels (as displayed), or nil.
    public var width: Int?
    public var height: Int?

    /// A placeholder.
    public init() {}

    public init(source: String, width: Int? = nil, height: Int? = nil) {
        self.source = source
        self.width = width
        self.height = height
    }

    /// The declared size as width over height, when both sides are declared.
    public var declaredAspectRatio: Double? {
        guard let width, let height, width > 0, height > 0 else { return nil }
        return Double(width) / Double(height)
    }

    /// The largest side a picture may declare.
    public static let maximumDeclaredSide = 1_000_000

    private enum CodingKeys: String, CodingKey { case src, width, height }

    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer() {
            if single.decodeNil() {
                self.init()
                return
            }
            if let source = try? single.decode(String.self) {
                try self.init(checked: source, width: nil, height: nil, codingPath: decoder.codingPath)
                return
            }
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(checked: container.decode(String.self, forKey: .src), width: container.decodeIfPresent(Int.self, forKey: .width),
                      height: container.decodeIfPresent(Int.self, forKey: .height), codingPath: decoder.codingPath)
    }

    private init(checked source: String, width: Int?, height: Int?, codingPath: [any CodingKey]) throws {
        func invalid(_ reason: String) -> DecodingError {
            .dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: reason))
        }
        guard !source.isEmpty else { throw invalid("a picture's source is empty") }
        guard (width == nil) == (height == nil) else { throw invalid("a picture declares both \"width\" and \"height\" or neither") }
        for side in [width, height].compactMap({ $0 }) where !(1...Self.maximumDeclaredSide).contains(side) {
            throw invalid("a picture's declared \"width\" and \"height\" are from 1 to \(Self.maximumDeclaredSide), got \(side)")
        }
        self.init(source: source, width: width, height: height)
    }

    public func encode(to encoder: any Encoder) throws {
        guard let source else {
            var single = encoder.singleValueContainer()
            return try single.encodeNil()
        }
        guard let width, let height else {
            var single = encoder.singleValueContainer()
            return try single.encode(source)
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(source, forKey: .src)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
    }
}

/// A post id as JSON: an integer id stays an integer in every output.
public struct JSONID: Sendable, Hashable, Encodable {
    public let text: String
    public let isInteger: Bool

    public init(_ text: String, isInteger: Bool) {
        self.text = text
        self.isInteger = isInteger && Int64(text) != nil
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if isInteger, let value = Int64(text) { try container.encode(value) } else { try container.encode(text) }
    }
}
