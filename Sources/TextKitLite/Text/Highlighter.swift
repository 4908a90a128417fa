/// Finds @mentions, Weibo topics (`#话题#`), Twitter hashtags (`#tag`) and http(s) URLs in
/// text, as the Weibo demo's text parser and twitter-text do, and styles them.
///
/// - Mention: "@" and a name of letters (any script), digits, "_" and "-".
/// - Topic: "#", text on one line that neither starts nor ends with white space, "#"; at
///   most 64 scalars before the closing "#" (the opening "#" included). Weibo style.
/// - Hashtag: "#" not after a letter, digit, mark, "_" or "&", then letters, marks,
///   digits and "_", at least one a letter: "#running #nofilter" is two. Twitter style.
///   Where both are asked for, a "#" that opens a topic is a topic.
/// - URL: "http://" or "https://" and what follows up to white space or CJK text, without
///   trailing sentence punctuation.
///
/// A highlight's value is the entity as written ("@name", "#话题#", "#tag", the URL).
public struct Highlighter: Sendable, Hashable {
    /// The kinds looked for (`expand` is never found in text).
    public let kinds: Set<AttributedText.Highlight.Kind>
    /// Shown in place of each URL by `attributed(_:style:highlightStyle:)` (Weibo shows
    /// "网页链接"); the highlight keeps the URL as its value. Nil or empty: URLs as written.
    public let urlLabel: String?

    private let mentions, topics, hashtags, urls: Bool

    public init(kinds: Set<AttributedText.Highlight.Kind> = [.mention, .topic, .hashtag, .url], urlLabel: String? = nil) {
        self.kinds = kinds
        self.urlLabel = urlLabel?.isEmpty == true ? nil : urlLabel
        mentions = kinds.contains(.mention)
        topics = kinds.contains(.topic)
        hashtags = kinds.contains(.hashtag)
        urls = kinds.contains(.url)
    }

    /// The highlights in a string, ascending and disjoint, ranges in its UTF-16 offsets.
    ///
    /// - Complexity: O(n) over the string's UTF-16 units: every entity starts with an ASCII
    ///   "@", "#" or "h", a topic is looked for over at most 64 scalars, and no other scan
    ///   passes the next "@" (mention), "#" (hashtag) or white space (URL).
    public func highlights(in string: String) -> [AttributedText.Highlight] {
        string.utf16Units.withUnsafeBufferPointer { highlights(in: $0) }
    }

    /// The string as an attributed text: `style` for plain text, `style` changed by
    /// `highlightStyle` for each highlight, which the text keeps (`highlights`). With a URL
    /// label, each URL is replaced by the label.
    ///
    /// - Complexity: O(n), as `highlights(in:)`.
    public func attributed(_ string: String, style: TextStyle, highlightStyle: HighlightStyle) -> AttributedText {
        var result = AttributedText(string, style: style)
        var found = result.utf16.withUnsafeBufferPointer { highlights(in: $0) }
        if let urlLabel, found.contains(where: { $0.kind == .url }) {
            // Rebuild the text with each URL replaced by the label, shifting what follows.
            let units = result.utf16
            var replaced: [UInt16] = []
            replaced.reserveCapacity(units.count)
            var position = 0
            for i in found.indices {
                replaced += units[position..<found[i].range.lowerBound]
                let start = replaced.count
                if found[i].kind == .url { replaced += urlLabel.utf16 } else { replaced += units[found[i].range] }
                position = found[i].range.upperBound
                found[i].range = start..<replaced.count
            }
            replaced += units[position...]
            result = AttributedText(String(decoding: replaced, as: UTF16.self), style: style)
        }
        result.restyle(found.map(\.range)) { k, style in style = highlightStyle.applied(to: style, kind: found[k].kind) }
        result.setHighlights(found)
        return result
    }

    /// The highlights in UTF-16 units.
    func highlights(in units: UnsafeBufferPointer<UInt16>) -> [AttributedText.Highlight] {
        var result: [AttributedText.Highlight] = []
        var i = 0
        while i < units.count {
            let unit = units[i]
            // Most "h"s start a word, not a URL: an "h" is looked at only before a "t".
            guard unit == 0x40 || unit == 0x23 || unit == 0x68 && i + 1 < units.count && units[i + 1] == 0x74,
                  let (kind, end) = entity(units, at: i) else {
                i += 1
                continue
            }
            result.append(AttributedText.Highlight(kind: kind, value: String(utf16Units: UnsafeBufferPointer(rebasing: units[i..<end])),
                                        range: i..<end))
            i = end
        }
        return result
    }

    /// The kind and end (UTF-16 offset) of an entity starting at `i`, or nil.
    private func entity(_ units: UnsafeBufferPointer<UInt16>, at i: Int) -> (AttributedText.Highlight.Kind, Int)? {
        switch units[i] {
        case 0x40:  // "@" and a name
            guard mentions else { return nil }
            var j = i + 1
            while let (scalar, next) = Self.scalar(units, at: j), Self.isNameCharacter(scalar) { j = next }
            return j > i + 1 ? (.mention, j) : nil
        case 0x23:  // "#"
            if topics, let end = topicEnd(units, at: i) { return (.topic, end) }
            if hashtags, let end = hashtagEnd(units, at: i) { return (.hashtag, end) }
            return nil
        case 0x68:  // "h": http:// or https://
            guard urls, let end = urlEnd(units, at: i) else { return nil }
            return (.url, end)
        default:
            return nil
        }
    }

    /// A topic runs to the next "#" on the same line, at most 64 scalars from its "#", and
    /// its text neither starts nor ends with white space.
    private func topicEnd(_ units: UnsafeBufferPointer<UInt16>, at i: Int) -> Int? {
        var j = i + 1, scalars = 1
        var last: Unicode.Scalar?
        while let (scalar, next) = Self.scalar(units, at: j), scalar != "#", !Self.isLineBreak(scalar), scalars < 64 {
            if last == nil, Self.isWhiteSpace(scalar) { return nil }
            last = scalar
            j = next
            scalars += 1
        }
        guard j < units.count, units[j] == 0x23, let last, !Self.isWhiteSpace(last) else { return nil }
        return j + 1
    }

    /// A hashtag: "#" not after a hashtag character or "&", then hashtag characters, at
    /// least one a letter.
    private func hashtagEnd(_ units: UnsafeBufferPointer<UInt16>, at i: Int) -> Int? {
        if i > 0 {
            let before = i > 1 && UTF16.isTrailSurrogate(units[i - 1]) && UTF16.isLeadSurrogate(units[i - 2]) ? i - 2 : i - 1
            if let (scalar, _) = Self.scalar(units, at: before), scalar == "&" || Self.isHashtagCharacter(scalar) { return nil }
        }
        var j = i + 1
        var hasLetter = false
        while let (scalar, next) = Self.scalar(units, at: j), Self.isHashtagCharacter(scalar) {
            hasLetter = hasLetter || Self.isLetter(scalar)
            j = next
        }
        return hasLetter ? j : nil
    }

    /// "http://" or "https://", then anything up to white space or CJK text, less trailing
    /// sentence punctuation.
    private func urlEnd(_ units: UnsafeBufferPointer<UInt16>, at i: Int) -> Int? {
        guard Self.matches(units, at: i, "http") else { return nil }
        var schemeEnd = i + 4
        if schemeEnd < units.count, units[schemeEnd] == 0x73 { schemeEnd += 1 }
        guard Self.matches(units, at: schemeEnd, "://") else { return nil }
        let start = schemeEnd + 3
        var j = start
        while let (scalar, next) = Self.scalar(units, at: j), scalar.value < 0x3000, !Self.isWhiteSpace(scalar) {
            j = next
        }
        // A URL does not end with sentence punctuation (all ASCII).
        while j > i, let last = Unicode.Scalar(units[j - 1]), ".,;:!?)".unicodeScalars.contains(last) { j -= 1 }
        return j > start ? j : nil
    }

    /// The scalar at UTF-16 offset `i` and the offset after it; nil at the end. A lone
    /// surrogate reads as U+FFFD.
    private static func scalar(_ units: UnsafeBufferPointer<UInt16>, at i: Int) -> (Unicode.Scalar, Int)? {
        guard i < units.count else { return nil }
        let (value, next) = units.scalar(at: i, end: units.count)
        return (Unicode.Scalar(value) ?? "\u{FFFD}", next)
    }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F, 0x2D: true  // ASCII letters, digits, "_", "-"
        case 0x00...0x7F: false
        case 0x4E00...0x9FFF: true  // CJK ideographs: Alphabetic
        default: scalar.properties.isAlphabetic || scalar.properties.numericType != nil
        }
    }

    /// Letters, marks, decimal digits and "_" (twitter-text's hashtag characters).
    private static func isHashtagCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F: true
        case 0x00...0x7F: false
        case 0x4E00...0x9FFF: true
        default:
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber: true
            default: isLetter(scalar)
            }
        }
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x41...0x5A, 0x61...0x7A, 0x4E00...0x9FFF: true
        case 0x00...0x7F: false
        default:
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: true
            default: false
            }
        }
    }

    /// White_Space, without the property table for ASCII (most of a URL) and CJK ideographs.
    static func isWhiteSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20: true
        case 0x00...0x7F, 0x4E00...0x9FFF: false
        default: scalar.properties.isWhitespace
        }
    }

    /// A scalar that ends a line (a topic stays on one).
    private static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }

    /// The units at `i` are the ASCII string `prefix`.
    private static func matches(_ units: UnsafeBufferPointer<UInt16>, at i: Int, _ prefix: StaticString) -> Bool {
        prefix.withUTF8Buffer { bytes in
            i + bytes.count <= units.count && bytes.indices.allSatisfy { units[i + $0] == UInt16(bytes[$0]) }
        }
    }
}

/// How highlighted text differs from the text around it: its ink (one for every kind, or
/// one per kind), weight, underline and background.
public struct HighlightStyle: Sendable, Hashable, Codable {
    /// The ink of every kind without its own in `kindInks`.
    public var ink: Color
    /// Inks by kind (a mention in one blue, a URL in another), over `ink`.
    public var kindInks: [AttributedText.Highlight.Kind: Color]
    public var weight: TextStyle.Weight
    public var underline: Bool
    /// A background behind highlighted runs (a tapped highlight's); nil for none.
    public var background: Color?

    /// A style; the default ink, 70, is the gray feed cell's link ink.
    public init(ink: Color = 70, kindInks: [AttributedText.Highlight.Kind: Color] = [:], weight: TextStyle.Weight = .regular,
                underline: Bool = false, background: Color? = nil) {
        self.ink = ink
        self.kindInks = kindInks
        self.weight = weight
        self.underline = underline
        self.background = background
    }

    /// The ink of a kind of highlight.
    public func ink(for kind: AttributedText.Highlight.Kind) -> Color { kindInks[kind] ?? ink }

    /// `style` as a highlight of `kind` shows it: with this style's ink for the kind, weight,
    /// underline and background.
    public func applied(to style: TextStyle, kind: AttributedText.Highlight.Kind) -> TextStyle {
        var result = style
        result.ink = ink(for: kind)
        result.weight = weight
        result.underline = underline
        result.background = background
        return result
    }
}
