import TextKitLite

/// One post of a feed: the input of a feed cell.
public struct FeedPost: Sendable, Hashable, Codable {
    /// The post's identity (a JSON string or integer, kept as text).
    public var id: String
    public var author: String { didSet { contentHash = Self.hash(author, text, quote, images) } }
    public var text: String { didSet { contentHash = Self.hash(author, text, quote, images) } }
    /// The text of a reposted post, shown in a nested box.
    public var quote: String? { didSet { contentHash = Self.hash(author, text, quote, images) } }
    /// Number of attached images, drawn as placeholder boxes in a grid.
    public var images: Int { didSet { contentHash = Self.hash(author, text, quote, images) } }
    /// A 64-bit FNV-1a hash of everything that is drawn, so that an edited post with the
    /// same id never hits a stale cache entry. Kept up to date when a field changes, so a
    /// height-cache lookup does not read the whole post again.
    public private(set) var contentHash: UInt64

    public init(id: String, author: String, text: String, quote: String? = nil, images: Int = 0) {
        self.id = id
        self.author = author
        self.text = text
        self.quote = quote
        self.images = images
        contentHash = Self.hash(author, text, quote, images)
    }

    private enum CodingKeys: String, CodingKey { case id, author, text, quote, images }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try container.decode(String.self, forKey: .id),
                  author: try container.decode(String.self, forKey: .author),
                  text: try container.decode(String.self, forKey: .text),
                  quote: try container.decodeIfPresent(String.self, forKey: .quote),
                  images: try container.decode(Int.self, forKey: .images))
    }

    private static func hash(_ author: String, _ text: String, _ quote: String?, _ images: Int) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ string: String) {
            for byte in string.utf8 {
                hash ^= UInt64(byte)
                hash &*= 0x100_0000_01b3
            }
            hash ^= 0xff
            hash &*= 0x100_0000_01b3
        }
        mix(author)
        mix(text)
        mix(quote ?? "\u{0}")
        mix(String(images))
        return hash
    }
}
