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
