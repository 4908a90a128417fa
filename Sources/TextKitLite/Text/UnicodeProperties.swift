internal import CUnicode

// Every call into ICU (through the CUnicode C target) lives in this file.

/// Unicode segmentation and properties from ICU: UAX #14 line breaks, UAX #29 grapheme
/// clusters, UAX #9 bidi levels and reordering, UTS #51 emoji properties.
enum UnicodeProperties {
    /// UAX #14 break opportunities in `text` (UTF-16 offsets after the start, ascending),
    /// using ICU's rules for `locale` ("zh", "ja", "" for root). The last opportunity is
    /// always at `text.count`.
    ///
    /// ICU's iterator is shown runs of letters (ASCII, Arabic, Hebrew) and of CJK text
    /// (ideographs and the CJK commas, stops, exclamation and question marks) shortened to
    /// their ends, whose inner boundaries UAX #14 fixes (none between letters; in CJK text,
    /// one before each ideograph); `icuLineBreaks` runs it on the whole text.
    static func lineBreaks(_ text: UnsafeBufferPointer<UInt16>, locale: String) -> [Int32] {
        lineBreaks(text, locale: locale, tkl_line_breaks)
    }

    /// `lineBreaks` from ICU's iterator on the whole text.
    static func icuLineBreaks(_ text: UnsafeBufferPointer<UInt16>, locale: String) -> [Int32] {
        lineBreaks(text, locale: locale, tkl_line_breaks_icu)
    }

    private static func lineBreaks(
        _ text: UnsafeBufferPointer<UInt16>, locale: String,
        _ find: (UnsafePointer<UInt16>?, Int32, UnsafePointer<CChar>?, UnsafeMutablePointer<Int32>?, Int32) -> Int32
    ) -> [Int32] {
        // A small string (every break locale is one) gives its C string on the stack; passed
        // as an argument, it would be copied into a new array.
        locale.withCString { locale in boundaries(text) { find(text.baseAddress, Int32(text.count), locale, $0, $1) } }
    }

    /// The boundaries a C finder writes, given room for one per unit (`find(offsets,
    /// capacity)` returns how many, or a negative count when it fails): none for an empty
    /// text, and the text's end alone when the finder fails. Inlined: a call through the
    /// closure measured 0.4% more instructions for warm measuring.
    @inline(__always)
    private static func boundaries(
        _ text: UnsafeBufferPointer<UInt16>, _ find: (UnsafeMutablePointer<Int32>?, Int32) -> Int32
    ) -> [Int32] {
        guard !text.isEmpty else { return [] }
        var offsets = [Int32](filled: 0, count: text.count)
        let count = offsets.withUnsafeMutableBufferPointer { find($0.baseAddress, Int32(text.count)) }
        guard count > 0 else { return [Int32(text.count)] }
        offsets.removeSubrange(Int(count)...)
        return offsets
    }

    /// Extended grapheme cluster boundaries (UAX #29) after the start, ending with `text.count`.
    ///
    /// - Complexity: O(n); text made only of `isOwnGraphemeUnit` units (most Latin and CJK
    ///   text) does not go through ICU's break iterator, and other text only around the
    ///   scalars that may join others (marks, joiners, emoji modifiers, jamo, flags).
    static func graphemeBoundaries(_ text: UnsafeBufferPointer<UInt16>) -> GraphemeBoundaries {
        graphemeBoundaries(text, everyUnitOwnGrapheme: text.allSatisfy(isOwnGraphemeUnit))
    }

    /// The same, when whether every unit `isOwnGraphemeUnit` is known.
    static func graphemeBoundaries(_ text: UnsafeBufferPointer<UInt16>, everyUnitOwnGrapheme: Bool) -> GraphemeBoundaries {
        if everyUnitOwnGrapheme { return GraphemeBoundaries(everyUnitOf: text.count) }
        return GraphemeBoundaries(spanGraphemeBoundaries(text))
    }

    /// Boundaries between two scalars whose Grapheme_Cluster_Break is Other or Control
    /// (UAX #29 breaks there whatever surrounds them: GB4, GB5, GB999; every rule that joins
    /// or looks back needs CR, LF, Extend, ZWJ, SpacingMark, Prepend, a Hangul jamo or a
    /// regional indicator on one side, and GB11's emoji sequences a ZWJ), and ICU's within
    /// each span between two such sure boundaries: the text ICU sees starts and ends where
    /// the whole text's clusters do, so it gives the whole text's boundaries. A text with a
    /// few marks or emoji modifiers goes through ICU for those few scalars alone.
    private static func spanGraphemeBoundaries(_ text: UnsafeBufferPointer<UInt16>) -> [Int32] {
        boundaries(text) { out, capacity -> Int32 in
            let out = out!
            var count = 0
            var spanStart = -1  // the sure boundary where the current span starts; -1: none
            var lastSure = 0
            var previousAlone = true
            /// ICU's boundaries of `spanStart..<end` (the end alone if it fails).
            func closeSpan(at end: Int) {
                let span = UnsafeBufferPointer(rebasing: text[spanStart..<end])
                let found = Int(tkl_grapheme_breaks(span.baseAddress, Int32(span.count), out + count, capacity - Int32(count)))
                if found > 0 {
                    for k in count..<(count + found) { out[k] += Int32(spanStart) }
                    count += found
                } else {
                    out[count] = Int32(end)
                    count += 1
                }
                spanStart = -1
            }
            var i = 0
            while i < text.count {
                let start = i
                let alone: Bool
                if isOwnGraphemeUnit(text[i]) {
                    i += 1
                    alone = true
                } else {
                    let scalar: UInt32
                    (scalar, i) = text.scalar(at: i, end: text.count)
                    let property = graphemeClusterBreak(scalar)
                    alone = property == 0 || property == 1
                }
                if start > 0 {
                    if previousAlone && alone {
                        if spanStart >= 0 {
                            closeSpan(at: start)
                        } else {
                            out[count] = Int32(start)
                            count += 1
                        }
                        lastSure = start
                    } else if spanStart < 0 {
                        spanStart = lastSure
                    }
                }
                previousAlone = alone
            }
            if spanStart >= 0 {
                closeSpan(at: text.count)
            } else {
                out[count] = Int32(text.count)
                count += 1
            }
            return Int32(count)
        }
    }

    /// Grapheme cluster boundaries from ICU's break iterator alone.
    static func icuGraphemeBoundaries(_ text: UnsafeBufferPointer<UInt16>) -> [Int32] {
        boundaries(text) { tkl_grapheme_breaks(text.baseAddress, Int32(text.count), $0, $1) }
    }

    /// True for a UTF-16 unit whose Grapheme_Cluster_Break is Other or Control (never CR
    /// or LF): ASCII printable and tab, Latin-1 and Latin Extended letters, general
    /// punctuation, CJK symbols, kana (without the combining voiced marks), CJK ideographs
    /// and full-width forms. Between two such units UAX #29 always breaks (GB4, GB5,
    /// GB999; GB6-GB13 need Hangul jamo, Extend, ZWJ, SpacingMark, Prepend or regional
    /// indicators), so a text of them has a boundary after every unit.
    /// `graphemeFastPathUnitsAreOtherOrControl` checks every unit against ICU.
    @inline(__always)  // in `UnitScan.add`, which every unit of every text goes through
    static func isOwnGraphemeUnit(_ unit: UInt16) -> Bool {
        switch unit {
        case 0x09, 0x20...0x7E, 0xA0...0x2FF, 0x2010...0x2027, 0x2030...0x205E, 0x3000...0x3029, 0x3030...0x3098,
             0x309B...0x30FF, 0x4E00...0x9FFF, 0xFF01...0xFF9D:
            true
        default:
            false
        }
    }

    /// The Grapheme_Cluster_Break property value (ICU numbering: 0 Other, 1 Control, ...).
    static func graphemeClusterBreak(_ scalar: UInt32) -> Int32 { tkl_grapheme_cluster_break(scalar) }

    /// Resolved bidi levels (UAX #9) of one paragraph, and its paragraph level.
    ///
    /// - Parameter paragraphLevel: 0 (LTR), 1 (RTL), or nil for rules P2–P3 (first strong
    ///   character, LTR when there is none).
    static func bidiLevels(_ text: UnsafeBufferPointer<UInt16>, paragraphLevel: UInt8?) -> (levels: [UInt8], paragraphLevel: UInt8) {
        var levels = [UInt8](filled: paragraphLevel ?? 0, count: text.count)
        let requested: Int32 = paragraphLevel.map { Int32($0 & 1) } ?? -1
        let resolved = tkl_bidi_levels(text.baseAddress, Int32(text.count), requested, &levels)
        return (levels, resolved < 0 ? (paragraphLevel ?? 0) : UInt8(resolved))
    }

    /// True when the text may hold right-to-left characters or explicit bidi controls, so
    /// that bidi resolution is needed (a fast scan that may say yes when it need not).
    static func mayNeedBidi(_ text: UnsafeBufferPointer<UInt16>) -> Bool { text.contains(where: mayNeedBidi) }

    /// True for a unit of a right-to-left script or a bidi control (see `mayNeedBidi`).
    static func mayNeedBidi(_ unit: UInt16) -> Bool {
        switch unit {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0xD802, 0xD803, 0xD83A, 0xD83B,
             0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
            true
        default:
            false
        }
    }

    /// A C0 or C1 control (tab included).
    static func isControl(_ unit: UInt16) -> Bool { unit < 0x20 || (0x7F...0x9F).contains(unit) }

    /// What a paragraph's itemization needs to know about its units, found in one pass
    /// (`Paragraphs.split` makes it while it looks for the paragraphs' ends).
    struct UnitScan: Sendable, Hashable {
        /// A C0 or C1 control (tab included), which the shaper is not shown.
        var hasControl = false
        /// `mayNeedBidi` of some unit.
        var mayNeedBidi = false
        /// Every unit `isOwnGraphemeUnit`: each unit is a grapheme cluster.
        var everyUnitOwnGrapheme = true
        /// Han, kana or a fullwidth form: CJK line-break rules apply.
        var hasHanOrKana = false
        /// A soft hyphen (U+00AD): a hyphenation point rather than a break opportunity.
        var hasSoftHyphen = false

        init() {}

        init(_ text: UnsafeBufferPointer<UInt16>) {
            for unit in text { add(unit) }
        }

        /// Printable ASCII (0x20...0x7E): a unit the scan notes nothing of, in one comparison.
        @inline(__always)
        static func isPlain(_ unit: UInt16) -> Bool { unit &- 0x20 < 0x5F }

        /// Takes one more unit into the scan. A printable ASCII unit or a CJK ideograph (most
        /// units of most text) costs two comparisons.
        @inline(__always)
        mutating func add(_ unit: UInt16) {
            if Self.isPlain(unit) { return }
            if unit &- 0x4E00 < 0x5200 {  // 0x4E00...0x9FFF: own grapheme, Han
                hasHanOrKana = true
                return
            }
            if UnicodeProperties.isControl(unit) { hasControl = true }
            if unit == 0xAD { hasSoftHyphen = true }
            if UnicodeProperties.mayNeedBidi(unit) { mayNeedBidi = true }
            if !isOwnGraphemeUnit(unit) { everyUnitOwnGrapheme = false }
            if (0x3040...0x9FFF).contains(unit) || (0xFF00...0xFFEF).contains(unit) { hasHanOrKana = true }
        }
    }

    /// Visual order of items with the given levels (UAX #9 rule L2):
    /// element v is the logical index displayed at visual position v.
    static func visualOrder(levels: [UInt8]) -> [Int] {
        guard levels.count > 1 else { return Array(0..<levels.count) }
        var map = [Int32](filled: 0, count: levels.count)
        _ = tkl_reorder_visual(levels, Int32(levels.count), &map)
        return map.map(Int.init)
    }

    /// True when the last paragraph of `units` holds a strong character (L, R, AL) outside
    /// isolates, so that its direction (rules P2–P3) is the same however the text goes on.
    static func lastParagraphHasStrongCharacter(_ units: [UInt16]) -> Bool {
        let start = Paragraphs.split(units).last?.content.lowerBound ?? 0
        return ParagraphDirection.ofFirstStrongCharacter(in: String(decoding: units[start...], as: UTF16.self).unicodeScalars) != nil
    }

    /// The bidi class of a scalar, in ICU's numbering (0 L, 1 R, 13 AL, 9 WS, 18 BN, …).
    static func bidiClass(_ scalar: UInt32) -> Int32 { tkl_bidi_class(scalar) }

    /// True for a cluster shown with emoji presentation (UTS #51): it holds U+FE0F or a
    /// keycap, or starts with an Emoji_Presentation character not followed by U+FE0E.
    static func isEmojiPresentation(_ cluster: UnsafeBufferPointer<UInt32>) -> Bool {
        guard let first = cluster.first else { return false }
        if cluster.contains(0xFE0E) { return false }
        if cluster.contains(0xFE0F) || cluster.contains(0x20E3) { return true }
        return first >= 0x2300 && tkl_is_emoji_presentation(first) != 0
    }

    /// Scalars a font need not map for it to cover a cluster: default-ignorable code
    /// points (ZWJ, variation selectors, tags, bidi controls) and C0/C1 controls, which
    /// the shaper hides.
    static func isIgnorableForCoverage(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x00...0x1F, 0x7F...0x9F, 0xAD, 0x34F, 0x61C, 0x115F, 0x1160, 0x17B4, 0x17B5,
             0x180B...0x180F, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x206F, 0x3164,
             0xFE00...0xFE0F, 0xFEFF, 0xFFA0, 0xFFF0...0xFFF8, 0x1BCA0...0x1BCA3,
             0x1D173...0x1D17A, 0xE0000...0xE0FFF:
            return true
        default:
            return false
        }
    }

    /// White space that hangs past the end of a line and is not counted in its width
    /// (space separators that allow a break, and tab).
    @inline(__always)
    static func isHangingSpace(_ unit: UInt16) -> Bool {
        switch unit {
        case 0x09, 0x20, 0x1680, 0x2000...0x2006, 0x2008...0x200A, 0x205F, 0x3000: true
        default: false
        }
    }

    /// Punctuation that looks wrong right before a truncation token: opening brackets and
    /// quotes, dashes, connectors and other punctuation (",", "、", ":", "…"), but not
    /// closing brackets and quotes.
    static func isTrimmedBeforeToken(_ scalar: UInt32) -> Bool {
        // ICU UCharCategory: 19 Pd, 20 Ps, 22 Pc, 23 Po, 28 Pi.
        switch tkl_general_category(scalar) {
        case 19, 20, 22, 23, 28: true
        default: false
        }
    }

    /// The character stands upright in vertical text (UAX #50's Vertical_Orientation U, Tu
    /// or Tr: shaped top to bottom with its vertical forms); else a vertical line turns it
    /// sideways with its run.
    static func isUprightInVertical(_ scalar: UInt32) -> Bool { tkl_is_upright_in_vertical(scalar) != 0 }

    /// The ICU version in use.
    static var icuVersion: String { String(cString: tkl_icu_version()) }
}
