extension Array {
    /// An array of `count` copies of `value`, as `Array(repeating:count:)` makes.
    ///
    /// Copied from a collection, which the compiler specializes for the element type:
    /// `Array(repeating:count:)` and `Array(unsafeUninitializedCapacity:initializingWith:)`
    /// allocate through an unspecialized entry point of the standard library that looks
    /// the storage class up in the runtime's metadata cache on every call. Shaping a new
    /// word makes six arrays; a feed of new words spent a sixth of its time there.
    @inline(__always)
    init(filled value: Element, count: Int) {
        self.init(repeatElement(value, count: count))
    }
}

extension Array {
    /// Makes room for `count` more elements, growing by at least half: `reserveCapacity`
    /// allocates exactly what it is asked for, so asking once per part of a growing array
    /// (a text's paragraphs) would copy it once per part.
    mutating func reserveCapacity(adding count: Int) {
        let needed = self.count + count
        guard needed > capacity else { return }
        reserveCapacity(Swift.max(needed, capacity + capacity / 2))
    }
}
