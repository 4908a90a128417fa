/// One post of a feed: the input of a feed cell.
public struct FeedPost: Sendable, Hashable, Codable {
    /// The post's identity (a JSON string or integer, kept as text).
    public var id: String
    public var author: String
    public var text: String
    /// The text of a reposted post, shown in a nested box.
    public var quote: String?
    /// Number of attached images, drawn as placeholder boxes in a grid.
    public var images: Int

    public init(id: String, author: String, text: String, quote: String? = nil, images: Int = 0) {
        self.id = id
        self.author = author
        self.text = text
        self.quote = quote
        self.images = images
    }

    /// A 64-bit FNV-1a hash of everything that is drawn, so that an edited post with the
    /// same id never hits a stale cache entry.
    public var contentHash: UInt64 {
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
