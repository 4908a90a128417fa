import Synchronization

/// Remembers, per code point, which font of a fallback chain a one-scalar cluster resolves
/// to, so that text seen before costs one load instead of a cmap lookup in each font
/// tried (for Chinese text behind a Latin primary font: two lookups per character).
///
/// Covers the Basic Multilingual and Supplementary Multilingual Planes (emoji included);
/// code points above them are resolved each time. Also remembers what each mark Latin shares
/// with Chinese and Japanese resolves to inside such text (`CJKPunctuation.SharedMark`: the
/// CJK font when it has the mark), which costs a cmap lookup to find. Filled lazily and
/// concurrently: each slot is written at most with the one answer `FontFallbackChain.resolve`
/// gives for it, so a racing writer stores the same value.
final class FallbackMemo: @unchecked Sendable {
    // @unchecked: `slots` is allocated and initialized in `init`, never reassigned, freed in
    // `deinit`; every read and write of its elements (and of `sharedMarks`) goes through
    // `Atomic`, so threads sharing a memo never race.
    /// Code points below this are remembered.
    static let capacity = 0x2_0000

    /// 0: not resolved yet; k: the chain's font at index k − 1.
    private let slots: UnsafeMutablePointer<Atomic<UInt8>>

    /// A byte per `CJKPunctuation.SharedMark` (by raw value; seven of eight bytes used),
    /// numbered as `slots`.
    private let sharedMarks = Atomic<UInt64>(0)

    init() {
        slots = .allocate(capacity: Self.capacity)
        for i in 0..<Self.capacity { (slots + i).initialize(to: Atomic(0)) }
    }

    deinit {
        slots.deinitialize(count: Self.capacity)
        slots.deallocate()
    }

    /// The remembered font index for `scalar`, nil when not known (or not rememberable).
    @inline(__always)
    func fontIndex(for scalar: UInt32) -> Int? {
        guard scalar < Self.capacity else { return nil }
        let value = slots[Int(scalar)].load(ordering: .relaxed)
        return value == 0 ? nil : Int(value) - 1
    }

    /// Remembers that `scalar` resolves to font `index` (indices from 254 on are not kept).
    @inline(__always)
    func remember(_ index: Int, for scalar: UInt32) {
        guard scalar < Self.capacity, index >= 0, index < 254 else { return }
        slots[Int(scalar)].store(UInt8(index + 1), ordering: .relaxed)
    }

    /// The remembered font index for a shared mark inside Chinese or Japanese text, nil when
    /// not known.
    @inline(__always)
    func fontIndex(for mark: CJKPunctuation.SharedMark) -> Int? {
        let value = sharedMarks.load(ordering: .relaxed) >> (8 * mark.rawValue) & 0xFF
        return value == 0 ? nil : Int(value) - 1
    }

    /// Remembers that a shared mark inside Chinese or Japanese text resolves to font `index`
    /// (indices from 254 on are not kept).
    func remember(_ index: Int, for mark: CJKPunctuation.SharedMark) {
        guard index >= 0, index < 254 else { return }
        // Or-ing sets the mark's byte alone, and only ever to this one value.
        sharedMarks.bitwiseOr(UInt64(index + 1) << (8 * mark.rawValue), ordering: .relaxed)
    }
}
