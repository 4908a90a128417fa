#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
internal import CHyphen

// Every call into libhyphen lives in this file.

/// One language's hyphenation patterns: a libhyphen dictionary (TeX patterns converted to
/// `hyph_*.dic` files, Debian's hyphen-* packages) loaded once, found by a BCP 47 tag.
///
/// `@unchecked Sendable`: the dictionary is written only by `hnj_hyphen_load_file` inside
/// `load`, and never again. libhyphen's `hnj_hyphen_hyphenate3` only reads it (its states,
/// transitions and next level): each call allocates its own scratch (`hnj_malloc`) and
/// writes only to the buffers it is given, so threads may hyphenate with one dictionary at
/// once. `deinit` frees it when the last reference goes.
final class HyphenationPatterns: @unchecked Sendable {
    private let dictionary: UnsafeMutablePointer<HyphenDict>
    /// Points found before, by word and minimums: a feed repeats its words, and libhyphen
    /// allocates and runs its automaton on every call.
    private let found = BoundedCache<WordKey, [Int]>(maxCount: 20_000, maxCost: 2 << 20, shards: 4)

    private struct WordKey: Hashable, Sendable {
        var word: [Unicode.Scalar]
        var before: Int
        var after: Int
    }

    /// Where Debian's hyphen-* packages put their patterns.
    static let directory = "/usr/share/hyphen"

    /// The most UTF-8 bytes of a word given to libhyphen. Longer runs of letters are not
    /// words of any language's patterns; they are cut at grapheme boundaries instead, and
    /// the cost of hyphenating stays bounded per line.
    static let maximumWordBytes = 256

    private init(_ dictionary: UnsafeMutablePointer<HyphenDict>) {
        self.dictionary = dictionary
    }

    deinit { hnj_hyphen_free(dictionary) }

    /// The patterns for a language tag ("en", "en-US", "de-1996"), or nil when no file has
    /// them: `hyph_<language>_<REGION>.dic`, then `hyph_<language>.dic`, then the language's
    /// usual region ("en" → en_US). Loaded once per file and kept; answers are remembered.
    static func forLanguage(_ tag: String) -> HyphenationPatterns? {
        let key = tag.lowercased()
        if let known = byTag.withLock({ $0[key] }) { return known }
        let found = candidateNames(key).lazy.compactMap(load).first
        byTag.withLock { memo in
            if memo.count >= 256 { memo.removeAll() }  // bounded, whatever tags a service is sent
            memo[key] = found
        }
        return found
    }

    /// Patterns by lowercased tag (nil: none), and by the real path of their file.
    private static let byTag = Locked<[String: HyphenationPatterns?]>([:])
    private static let byPath = Locked<[String: HyphenationPatterns]>([:])

    /// File names (without directory) a tag's patterns may have, best first.
    private static func candidateNames(_ tag: String) -> [String] {
        let parts = tag.split(separator: "-").map(String.init)
        guard let language = parts.first, (2...3).contains(language.count), language.allSatisfy(\.isLetter) else { return [] }
        var names: [String] = []
        if let region = parts.dropFirst().first(where: { $0.count == 2 && $0.allSatisfy(\.isLetter) }) {
            names.append("hyph_\(language)_\(region.uppercased()).dic")
        }
        names.append("hyph_\(language).dic")
        if let region = usualRegion[language] { names.append("hyph_\(language)_\(region).dic") }
        return names
    }

    /// The region whose patterns a language without one takes.
    private static let usualRegion = [
        "en": "US", "de": "DE", "fr": "FR", "es": "ES", "it": "IT", "pt": "PT", "nl": "NL", "sv": "SE", "da": "DK",
        "nb": "NO", "nn": "NO", "fi": "FI", "pl": "PL", "cs": "CZ", "sk": "SK", "hu": "HU", "ro": "RO", "ru": "RU",
        "uk": "UA", "el": "GR", "hr": "HR", "sl": "SI", "sr": "RS", "bg": "BG", "lt": "LT", "lv": "LV", "et": "EE",
        "ca": "ES", "gl": "ES", "af": "ZA", "id": "ID", "is": "IS", "ga": "IE", "be": "BY", "te": "IN", "hi": "IN",
    ]

    /// Loads a pattern file of `directory` (once per real path); nil when it is missing,
    /// unreadable, not UTF-8 or not patterns.
    private static func load(_ name: String) -> HyphenationPatterns? {
        let path = directory + "/" + name
        guard let real = realpath(path, nil) else { return nil }
        let resolved = String(cString: real)
        free(real)
        return byPath.withLock { loaded -> HyphenationPatterns? in
            if let known = loaded[resolved] { return known }
            // Read as every file is (a regular file only, never blocking), then handed to
            // libhyphen as a memory stream.
            guard var bytes = try? FileBytes.contents(of: resolved, limit: 64 << 20), !bytes.isEmpty else { return nil }
            let count = bytes.count
            let dictionary = bytes.withUnsafeMutableBytes { buffer -> UnsafeMutablePointer<HyphenDict>? in
                guard let stream = fmemopen(buffer.baseAddress, count, "r") else { return nil }
                defer { fclose(stream) }
                return hnj_hyphen_load_file(stream)
            }
            guard let dictionary else { return nil }
            guard dictionary.pointee.utf8 != 0 else {
                hnj_hyphen_free(dictionary)
                return nil
            }
            let patterns = HyphenationPatterns(dictionary)
            loaded[resolved] = patterns
            return patterns
        }
    }

    /// Where a lowercased word may be hyphenated: the indices i of its scalars after which
    /// a break is allowed (odd values of libhyphen's vector), at least `before` scalars from
    /// its start and `after` from its end (or the patterns' own minimums, when larger).
    /// Points of non-standard hyphenation (a spelling change, German "Schiffahrt") are left
    /// out.
    ///
    /// - Complexity: O(n · p) in the word's bytes and the patterns' longest match; nothing
    ///   for a word of more than `maximumWordBytes` bytes.
    func breaks(in word: [Unicode.Scalar], before: Int, after: Int) -> [Int] {
        let key = WordKey(word: word, before: before, after: after)
        if let known = found.value(for: key) { return known }
        let result = hyphenate(word, before: before, after: after)
        found.insert(result, for: key, cost: 64 + 4 * word.count + 8 * result.count)
        return result
    }

    /// `breaks(in:before:after:)` from libhyphen.
    private func hyphenate(_ word: [Unicode.Scalar], before: Int, after: Int) -> [Int] {
        var bytes: [CChar] = []
        bytes.reserveCapacity(word.count * 2 + 8)
        for scalar in word {
            UTF8.encode(scalar) { bytes.append(CChar(bitPattern: $0)) }
        }
        let size = bytes.count
        guard size > 0, size <= Self.maximumWordBytes else { return [] }
        // libhyphen reads a few bytes past the word (its ligature probe): zeros, not the heap.
        bytes += [CChar](repeating: 0, count: 8)
        var hyphens = [CChar](repeating: 0, count: size + 5)
        var rep: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        var pos: UnsafeMutablePointer<Int32>?
        var cut: UnsafeMutablePointer<Int32>?
        let failed = hnj_hyphen_hyphenate3(dictionary, bytes, Int32(size), &hyphens, nil, &rep, &pos, &cut,
                                          Int32(before), Int32(after), 0, 0) != 0
        defer {
            if let rep {
                for i in 0..<size { free(rep[i]) }
                free(rep)
            }
            free(pos)
            free(cut)
        }
        guard !failed else { return [] }
        // The vector is indexed by character (scalar) once libhyphen has normalized it.
        var result: [Int] = []
        for i in 0..<(word.count - 1) where hyphens[i] & 1 == 1 && (rep == nil || rep![i] == nil) {
            result.append(i)
        }
        return result
    }
}
