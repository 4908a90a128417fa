import Foundation
import TextKitLite

/// One post of a feed: the input of a feed cell.
public struct FeedPost: Sendable, Hashable, Codable {
    /// The post's identity (a JSON string or integer, kept as text).
    public var id: String
    /// The id was a JSON integer: outputs write it back as one (`{"id": 7}` stays `7`).
    public var idIsInteger = false
    public var author: String { didSet { contentHash = Self.contentHash(author, text, quote, images, language) } }
    public var text: String { didSet { contentHash = Self.contentHash(author, text, quote, images, language) } }
    /// The text of a reposted post, shown in a nested box.
    public var quote: String? { didSet { contentHash = Self.contentHash(author, text, quote, images, language) } }
    /// Number of attached images, drawn as placeholder boxes in a grid.
    public var images: Int { didSet { contentHash = Self.contentHash(author, text, quote, images, language) } }
    /// The language of the post's texts (BCP 47, "ja", "zh-Hant"): language-specific glyphs,
    /// line breaking and the regional face of CJK fonts. JSON key `lang`.
    public var language: String? { didSet { contentHash = Self.contentHash(author, text, quote, images, language) } }

    /// A hash of everything the post draws, kept up to date when a field changes, so that a
    /// height-cache lookup does not read the whole post again (a hit still compares it all).
    /// Seeded per process, as `Hasher` is: no post can be made to collide with another.
    private(set) var contentHash: Int

    public init(id: String, author: String, text: String, quote: String? = nil, images: Int = 0, language: String? = nil) {
        self.id = id
        self.author = author
        self.text = text
        self.quote = quote
        self.images = images
        self.language = language
        contentHash = Self.contentHash(author, text, quote, images, language)
    }

    private enum CodingKeys: String, CodingKey { case id, author, text, quote, images, lang }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let integer = try? container.decode(Int64.self, forKey: .id)
        self.init(id: try integer.map(String.init) ?? container.decode(String.self, forKey: .id),
                  author: try container.decode(String.self, forKey: .author),
                  text: try container.decode(String.self, forKey: .text),
                  quote: try container.decodeIfPresent(String.self, forKey: .quote),
                  images: try container.decode(Int.self, forKey: .images),
                  language: try container.decodeIfPresent(String.self, forKey: .lang))
        idIsInteger = integer != nil
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(jsonID, forKey: .id)
        try container.encode(author, forKey: .author)
        try container.encode(text, forKey: .text)
        try container.encodeIfPresent(quote, forKey: .quote)
        try container.encode(images, forKey: .images)
        try container.encodeIfPresent(language, forKey: .lang)
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
        images == other.images && author.hasSameUTF8(as: other.author) && text.hasSameUTF8(as: other.text)
            && (quote ?? "\u{0}").hasSameUTF8(as: other.quote ?? "\u{0}") && (quote == nil) == (other.quote == nil)
            && language == other.language
    }

    /// A hash of what `hasSameContent` compares.
    fileprivate static func contentHash(_ author: String, _ text: String, _ quote: String?, _ images: Int, _ language: String?) -> Int {
        var hasher = Hasher()
        author.hashUTF8(into: &hasher)
        text.hashUTF8(into: &hasher)
        (quote ?? "").hashUTF8(into: &hasher)
        hasher.combine(quote == nil)
        hasher.combine(images)
        hasher.combine(language)
        return hasher.finalize()
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
