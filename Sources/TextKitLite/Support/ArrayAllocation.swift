extension Array where Element: BitwiseCopyable {
    /// `count` copies of `value`: `Array(repeating:count:)` for the arrays made per text,
    /// paragraph or shaped word (code units, line breaks, bidi levels, glyphs).
    ///
    /// Why not `Array(repeating:count:)` or `Array(unsafeUninitializedCapacity:initializingWith:)`:
    /// both allocate through a standard-library entry point (`_allocateBufferUninitialized`)
    /// that is not inlinable, so not specialized for the element type, and asks the runtime
    /// for the storage class's metadata on every call: a hash-map lookup of about 95
    /// instructions and 5 instruction-cache misses (callgrind: 57,000 such lookups in two
    /// passes of the warm measuring benchmark). `reserveCapacity` allocates through code
    /// specialized for the element type, which keeps that metadata in a global after the
    /// first call.
    init(filledWith value: Element, count: Int) {
        self.init()
        guard count > 0 else { return }
        reserveCapacity(count)
        append(contentsOf: repeatElement(value, count: count))
    }
}
