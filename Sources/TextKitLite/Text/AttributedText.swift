/// A string with attribute runs, the input of layout.
///
/// Offsets are in UTF-16 code units (the unit ICU and HarfBuzz index by);
/// `scalarOffset(utf16Offset:)` converts to Unicode scalar offsets.
public struct AttributedText: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// A range of the text with one style. Runs are contiguous and cover the whole text.
    public struct Run: Sendable, Hashable, Codable {
        public var range: Range<Int>
        public var style: TextStyle
    }

    /// The text.
    public var string: String { storage.string }
    /// Style runs in text order, covering `0..<utf16Count` without gaps.
    public var runs: [Run] { storage.runs }
    /// The text's UTF-16 code units.
    public var utf16: [UInt16] { storage.utf16 }
    /// The style of an empty text, and the default for appended text.
    public var baseStyle: TextStyle { storage.baseStyle }
    /// Highlighted ranges (mentions, topics, URLs, …): ascending, disjoint, not empty,
    /// within the text. Appending another attributed text keeps its highlights.
    public var highlights: [AttributedText.Highlight] { storage.highlights }
    /// Inline attachments by UTF-16 offset, ascending; each offset holds U+FFFC. A U+FFFC
    /// without one is ordinary text.
    public var attachments: [Attachment] { storage.attachments }

    /// The fields behind one reference, copied on write: a text is copied into every
    /// itemizer, layout, measurement and truncation option that holds it, and a copy then
    /// costs one retain instead of one per string and array.
    private var storage: Storage

    /// `@unchecked Sendable`: a storage is written only by `AttributedText`'s mutating
    /// methods, each after `makeUnique()`; so a storage that two values (and so possibly
    /// two threads) hold is only ever read. Unchecked exclusivity: the fields are read in
    /// itemizing's loops, and a text's own methods never overlap two accesses to one field.
    private final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) var string: String
        @exclusivity(unchecked) var runs: [Run]
        @exclusivity(unchecked) var utf16: [UInt16]
        @exclusivity(unchecked) var baseStyle: TextStyle
        @exclusivity(unchecked) var highlights: [AttributedText.Highlight] = []
        @exclusivity(unchecked) var attachments: [Attachment] = []

        init(string: String, runs: [Run], utf16: [UInt16], baseStyle: TextStyle) {
            self.string = string
            self.runs = runs
            self.utf16 = utf16
            self.baseStyle = baseStyle
        }

        func copy() -> Storage {
            let copy = Storage(string: string, runs: runs, utf16: utf16, baseStyle: baseStyle)
            copy.highlights = highlights
            copy.attachments = attachments
            return copy
        }
    }

    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    /// An attachment and where it is.
    public struct Attachment: Sendable, Hashable, Codable {
        /// UTF-16 offset of its U+FFFC.
        public var offset: Int
        public var attachment: TextAttachment
    }

    /// Text with one style.
    public init(_ string: String, style: TextStyle = TextStyle()) {
        let utf16 = string.utf16Units
        storage = Storage(string: string, runs: utf16.isEmpty ? [] : [Run(range: 0..<utf16.count, style: style)],
                          utf16: utf16, baseStyle: style)
    }

    public init(stringLiteral value: String) { self.init(value) }

    /// Text built from pieces, each with its own style.
    public init(_ pieces: [(String, TextStyle)]) {
        self.init("", style: pieces.first?.1 ?? TextStyle())
        for (string, style) in pieces { append(string, style: style) }
    }

    /// Number of UTF-16 code units.
    public var utf16Count: Int { utf16.count }

    /// Appends a string with a style (adjacent equal styles merge into one run).
    public mutating func append(_ string: String, style: TextStyle) {
        let units = string.utf16Units
        guard !units.isEmpty else { return }
        makeUnique()
        let start = storage.utf16.count
        storage.string += string
        storage.utf16 += units
        let end = storage.utf16.count
        if let last = storage.runs.last, last.style == style, last.range.upperBound == start {
            storage.runs[storage.runs.count - 1].range = last.range.lowerBound..<end
        } else {
            storage.runs.append(Run(range: start..<end, style: style))
        }
    }

    /// Appends another attributed text, keeping its styles, attachments and highlights.
    public mutating func append(_ other: AttributedText) {
        append(other, range: 0..<other.utf16Count)
    }

    /// Appends a UTF-16 range of another text (clamped to it) with its styles (adjacent
    /// equal styles merge into one run), attachments and highlights (cut at the range's
    /// ends): what `append(other.slice(range))` appends, without making the slice.
    ///
    /// - Complexity: O(log n) to find the range's first run, highlight and attachment, then
    ///   linear in what the range holds: appending the parts between n codes (an emoticon
    ///   table's) costs O(text), not O(n) allocations of texts.
    public mutating func append(_ other: AttributedText, range: Range<Int>) {
        let range = range.clamped(to: 0..<other.utf16Count)
        guard !range.isEmpty else { return }
        makeUnique()
        let shift = storage.utf16.count - range.lowerBound
        // The highlights the range overlaps, from the first that ends inside it.
        var low = 0, high = other.highlights.count
        while low < high {
            let mid = (low + high) / 2
            if other.highlights[mid].range.upperBound <= range.lowerBound { low = mid + 1 } else { high = mid }
        }
        for var highlight in other.highlights[low...] {
            guard highlight.range.lowerBound < range.upperBound else { break }
            let part = highlight.range.clamped(to: range)
            highlight.range = (part.lowerBound + shift)..<(part.upperBound + shift)
            storage.highlights.append(highlight)
        }
        for run in other.runs[(other.runIndex(at: range.lowerBound) ?? 0)...] {
            let part = run.range.clamped(to: range)
            guard !part.isEmpty else { break }
            let start = storage.utf16.count
            storage.utf16 += other.utf16[part]
            let end = storage.utf16.count
            if let last = storage.runs.last, last.style == run.style, last.range.upperBound == start {
                storage.runs[storage.runs.count - 1].range = last.range.lowerBound..<end
            } else {
                storage.runs.append(Run(range: start..<end, style: run.style))
            }
        }
        storage.string += other.utf16.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF16.self) }
        for attachment in other.attachments[other.attachmentIndex(from: range.lowerBound)...] {
            guard attachment.offset < range.upperBound else { break }
            storage.attachments.append(Attachment(offset: attachment.offset + shift, attachment: attachment.attachment))
        }
    }

    /// The text of a UTF-16 range (clamped to the text), with its styles, attachments and
    /// highlights (cut at the range's ends).
    public func slice(_ range: Range<Int>) -> AttributedText {
        var result = AttributedText("", style: style(at: range.clamped(to: 0..<utf16.count).lowerBound))
        result.append(self, range: range)
        return result
    }

    /// Appends an attachment: a U+FFFC in `style` (whose font places it on the line).
    public mutating func append(_ attachment: TextAttachment, style: TextStyle) {
        let offset = utf16.count
        append(String(TextAttachment.character), style: style)
        makeUnique()
        storage.attachments.append(Attachment(offset: offset, attachment: attachment))
    }

    /// Puts an attachment on the U+FFFC at UTF-16 `offset`, or removes it (nil).
    ///
    /// - Precondition: the unit at `offset` is U+FFFC.
    public mutating func setAttachment(_ attachment: TextAttachment?, at offset: Int) {
        precondition(offset >= 0 && offset < utf16.count && utf16[offset] == TextAttachment.unit,
                     "an attachment needs a U+FFFC at offset \(offset)")
        makeUnique()
        let index = attachmentIndex(from: offset)
        if index < storage.attachments.count, storage.attachments[index].offset == offset { storage.attachments.remove(at: index) }
        if let attachment { storage.attachments.insert(Attachment(offset: offset, attachment: attachment), at: index) }
    }

    /// The attachment at a UTF-16 offset, if any.
    ///
    /// - Complexity: O(log n) in the attachments.
    public func attachment(at offset: Int) -> TextAttachment? {
        attachmentIndex(at: offset).map { attachments[$0].attachment }
    }

    /// Index into `attachments` of the one at `offset`, if any.
    func attachmentIndex(at offset: Int) -> Int? {
        let index = attachmentIndex(from: offset)
        return index < attachments.count && attachments[index].offset == offset ? index : nil
    }

    /// Index into `attachments` of the first at `offset` or after it (binary search).
    func attachmentIndex(from offset: Int) -> Int {
        var low = 0, high = attachments.count
        while low < high {
            let mid = (low + high) / 2
            if attachments[mid].offset < offset { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Applies `transform` to the style of every code unit in `range` (UTF-16 offsets,
    /// clamped to the text), splitting runs at the range's ends.
    ///
    /// - Complexity: O(r) for r runs. To restyle many ranges, pass them all at once to
    ///   `updateStyles(in:_:)`: one call per range costs O(r) each.
    public mutating func updateStyle(in range: Range<Int>, _ transform: (inout TextStyle) -> Void) {
        updateStyles(in: [range], transform)
    }

    /// Applies `transform` to the style of every code unit in any of `ranges` (UTF-16
    /// offsets, clamped to the text), in one pass over the runs; a unit in several ranges
    /// is changed once.
    ///
    /// - Complexity: O(r + k) for r runs and k ranges in ascending order of their starts;
    ///   O(k log k) more to sort them otherwise.
    public mutating func updateStyles(in ranges: [Range<Int>], _ transform: (inout TextStyle) -> Void) {
        let ascending = zip(ranges, ranges.dropFirst()).allSatisfy { $0.lowerBound <= $1.lowerBound }
        restyle(ascending ? ranges : ranges.sorted { $0.lowerBound < $1.lowerBound }) { _, style in transform(&style) }
    }

    /// Changes the style of every code unit in `ranges` by `transform`, given the index of
    /// the range, in one pass over the runs and the ranges; adjacent runs of equal styles
    /// merge. The ranges are taken by ascending start; each is clamped to the text and to
    /// start where the one before it ends.
    ///
    /// - Complexity: O(r + k) for r runs and k ranges.
    mutating func restyle(_ ranges: [Range<Int>], _ transform: (Int, inout TextStyle) -> Void) {
        var result: [Run] = []
        result.reserveCapacity(runs.count + 2 * ranges.count)
        func add(_ range: Range<Int>, _ style: TextStyle) {  // adjacent equal styles merge
            guard !range.isEmpty else { return }
            if let last = result.last, last.style == style { result[result.count - 1].range = last.range.lowerBound..<range.upperBound }
            else { result.append(Run(range: range, style: style)) }
        }
        var k = 0
        for run in runs {
            var start = run.range.lowerBound  // what is before it is in `result`
            while start < run.range.upperBound {
                while k < ranges.count, ranges[k].upperBound <= start { k += 1 }
                guard k < ranges.count, ranges[k].lowerBound < run.range.upperBound else { break }
                let lower = max(ranges[k].lowerBound, start), upper = min(ranges[k].upperBound, run.range.upperBound)
                add(start..<lower, run.style)
                var changed = run.style
                transform(k, &changed)
                add(lower..<upper, changed)
                start = upper
            }
            add(start..<run.range.upperBound, run.style)
        }
        makeUnique()
        storage.runs = result
    }

    /// Replaces the highlights. Each range is clamped to the text; empty ones are dropped,
    /// the rest sorted by start, and one that overlaps an earlier one is dropped.
    ///
    /// - Complexity: O(k log k) for k highlights.
    public mutating func setHighlights(_ highlights: [AttributedText.Highlight]) {
        let bounds = 0..<utf16.count
        var kept: [AttributedText.Highlight] = []
        kept.reserveCapacity(highlights.count)
        let startsBefore: (AttributedText.Highlight, AttributedText.Highlight) -> Bool = { $0.range.lowerBound < $1.range.lowerBound }
        // Already in order when they come from `Highlighter`: no sorted copy.
        let ordered = zip(highlights, highlights.dropFirst()).allSatisfy(startsBefore)
        for var highlight in ordered ? highlights : highlights.sorted(by: startsBefore) {
            highlight.range = highlight.range.clamped(to: bounds)
            guard !highlight.range.isEmpty, highlight.range.lowerBound >= (kept.last?.range.upperBound ?? 0) else { continue }
            kept.append(highlight)
        }
        makeUnique()
        storage.highlights = kept
    }

    /// The style at a UTF-16 offset (the last run's style at the end, `baseStyle` when empty).
    public func style(at offset: Int) -> TextStyle {
        runIndex(at: offset).map { runs[$0].style } ?? baseStyle
    }

    /// A prefix that surely holds `lines` lines at `width` points when the text is longer,
    /// or nil when the whole text is short enough anyway. It assumes no character narrower
    /// than a twentieth of an em (the caller checks the prefix really overflowed) and ends on
    /// a scalar boundary.
    func prefixForLines(_ lines: Int, width: Double) -> AttributedText? {
        var smallest = runs.isEmpty ? baseStyle.size : .infinity
        for run in runs { smallest = min(smallest, run.style.size) }
        smallest = max(1, smallest)
        let perLine = Int(min(Double(1 << 20), width / (smallest / 20))) + 16  // clamped before converting
        let (limit, overflow) = perLine.multipliedReportingOverflow(by: lines)
        guard !overflow, limit < utf16.count / 2 else { return nil }
        // A scalar boundary (not a grapheme one: a cluster of any length costs nothing more).
        var end = limit
        if UTF16.isTrailSurrogate(utf16[end]) { end += 1 }
        return slice(0..<end)
    }

    /// Index of the run holding `offset` (binary search), nil for an empty text.
    func runIndex(at offset: Int) -> Int? {
        guard !runs.isEmpty else { return nil }
        var low = 0, high = runs.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if runs[mid].range.lowerBound <= offset { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// The number of Unicode scalars before a UTF-16 offset.
    public func scalarOffset(utf16Offset: Int) -> Int { scalarOffsets(utf16Offsets: [utf16Offset])[0] }

    /// Scalar offsets of ascending UTF-16 offsets, in one pass over the text.
    ///
    /// - Complexity: O(n + k) for n code units and k offsets.
    public func scalarOffsets(utf16Offsets: [Int]) -> [Int] { utf16.scalarOffsets(utf16Offsets: utf16Offsets) }

    public var description: String { string }

    public static func == (a: AttributedText, b: AttributedText) -> Bool {
        a.storage === b.storage
            || a.utf16 == b.utf16 && a.runs == b.runs && a.baseStyle == b.baseStyle && a.attachments == b.attachments
            && a.highlights == b.highlights
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(utf16)
        hasher.combine(runs)
        hasher.combine(attachments.count)
        hasher.combine(highlights)
    }
}
