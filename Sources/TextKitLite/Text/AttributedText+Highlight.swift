extension AttributedText {
    /// A highlighted range of a text: an @mention, a topic, a hashtag, a URL, or an expand
    /// token, with the value a tap on it stands for. Highlights are data, not style: how one
    /// looks is its runs' ordinary style (see `HighlightStyle`).
    public struct Highlight: Sendable, Hashable, Codable {
        /// What a highlight stands for (encoded as its lowercase name).
        public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
            /// "@name".
            case mention
            /// A Weibo topic, "#话题#": between two "#" on one line.
            case topic
            /// A Twitter hashtag, "#tag": "#" and a word.
            case hashtag
            /// An http or https URL.
            case url
            /// A truncation token that expands the text ("…全文").
            case expand
        }

        public var kind: Kind
        /// What the highlight stands for: the entity as written ("@name", "#话题#", "#tag"),
        /// the URL (also when a short label shows it), or what the caller chose (a post id).
        public var value: String
        /// UTF-16 offsets in the text that holds it.
        public var range: Range<Int>

        public init(kind: Kind, value: String, range: Range<Int>) {
            self.kind = kind
            self.value = value
            self.range = range
        }
    }
}
