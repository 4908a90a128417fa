/// The extended grapheme cluster boundaries (UAX #29) of a paragraph after its start, as
/// text offsets, ascending, ending with the paragraph's end.
///
/// Most text (Latin, CJK, kana) has a boundary after every UTF-16 unit: such a paragraph
/// keeps no array at all, only its start and length.
struct GraphemeBoundaries: RandomAccessCollection, Sendable {
    /// Boundaries relative to `base`; nil when there is one after every unit.
    private let relative: [Int32]?
    /// Text offset of the paragraph's start.
    private let base: Int32
    let endIndex: Int

    var startIndex: Int { 0 }

    /// There is a boundary after every unit: boundary `i` is `base + i + 1`.
    var isEveryUnit: Bool { relative == nil }

    /// A boundary after every unit of a paragraph of `length` units.
    init(everyUnitOf length: Int, base: Int32 = 0) {
        relative = nil
        self.base = base
        endIndex = length
    }

    /// Boundaries `offsets` (relative to the paragraph's start, ascending).
    init(_ offsets: [Int32], base: Int32 = 0) {
        relative = offsets
        self.base = base
        endIndex = offsets.count
    }

    /// The same boundaries for the paragraph starting at text offset `base`.
    func offset(by base: Int32) -> GraphemeBoundaries {
        relative.map { GraphemeBoundaries($0, base: base) } ?? GraphemeBoundaries(everyUnitOf: endIndex, base: base)
    }

    subscript(position: Int) -> Int32 {
        guard let relative else { return base + Int32(position) + 1 }
        return base + relative[position]
    }

    /// Index of the first boundary at or after `offset`.
    ///
    /// - Complexity: O(1) when every unit is a boundary, O(log n) otherwise.
    func firstIndex(atOrAfter offset: Int32) -> Int {
        guard relative != nil else { return Int(Swift.min(Swift.max(offset - base - 1, 0), Int32(endIndex))) }
        var low = 0, high = endIndex
        while low < high {
            let mid = (low + high) / 2
            if self[mid] < offset { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
