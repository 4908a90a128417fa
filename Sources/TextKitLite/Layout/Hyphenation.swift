/// Whether words that do not fit a line are hyphenated, and the fewest letters a hyphenated
/// word and its parts hold (`LayoutOptions.hyphenation`; CSS `hyphens` and
/// `hyphenate-limit-chars`).
///
/// With `.auto`, a word that does not fit the rest of its line is cut at the last of its
/// hyphenation points (libhyphen's patterns for the text's language, under
/// /usr/share/hyphen) at which the part before it, with a hyphen, fits; the hyphen is
/// U+2010 from the word's font, or "-" when the font has none, and counts in the line's
/// width. The language is the run's `TextStyle.language`, or for a run with none the one its
/// letters most likely are in (`TextStyle.likelyLanguage(of:)`: English for Latin). A
/// language without patterns is not hyphenated. A word that holds a soft hyphen (U+00AD) is
/// cut at its soft hyphens only.
///
/// Soft hyphens are honoured in every mode: a line broken at one ends with a visible hyphen,
/// and a soft hyphen not at a line's end shows nothing.
public struct Hyphenation: Sendable, Hashable, Codable {
    /// Whether words are hyphenated automatically.
    public enum Mode: String, Sendable, Hashable, Codable, CaseIterable {
        /// Only at soft hyphens (U+00AD) the text holds.
        case none
        /// At the hyphenation points of the text's language, and at soft hyphens.
        case auto
    }

    /// Whether words are hyphenated automatically (soft hyphens apply in either mode).
    public var mode: Mode
    /// The fewest letters a word must have to be hyphenated automatically (5).
    public var minimumWordLength: Int
    /// The fewest letters before a hyphen, from the word's start (2; the patterns' own
    /// minimum when larger: en-US has 2).
    public var minimumBefore: Int
    /// The fewest letters after a hyphen, to the word's end (2; the patterns' own minimum
    /// when larger: en-US has 3).
    public var minimumAfter: Int

    /// - Parameters:
    ///   - mode: whether words are hyphenated automatically.
    ///   - minimumWordLength: the fewest letters of a word hyphenated automatically.
    ///   - minimumBefore: the fewest letters before the hyphen.
    ///   - minimumAfter: the fewest letters after the hyphen.
    public init(mode: Mode, minimumWordLength: Int = 5, minimumBefore: Int = 2, minimumAfter: Int = 2) {
        self.mode = mode
        self.minimumWordLength = minimumWordLength
        self.minimumBefore = minimumBefore
        self.minimumAfter = minimumAfter
    }

    /// Soft hyphens only (the default).
    public static let none = Hyphenation(mode: .none)
    /// Automatic hyphenation with the default minimums (5 letters, 2 before, 2 after).
    public static let auto = Hyphenation(mode: .auto)

    /// The largest minimum accepted: longer than any word libhyphen is given.
    public static let maximumLength = 64

    /// Checks the minimums (each from 1 to `maximumLength`), naming the first bad one.
    func validate() throws(LayoutError) {
        let allowed = 1...Self.maximumLength
        // Checked without building the list: every layout and measurement validates its options.
        guard !allowed.contains(minimumWordLength) || !allowed.contains(minimumBefore) || !allowed.contains(minimumAfter) else { return }
        for (name, value) in [("minimumWordLength", minimumWordLength), ("minimumBefore", minimumBefore),
                              ("minimumAfter", minimumAfter)] where !allowed.contains(value) {
            throw .invalidOption(name: "hyphenation.\(name)", value: "\(value)", reason: "must be from 1 to \(Self.maximumLength) letters")
        }
    }
}
