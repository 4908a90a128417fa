extension UnsafeBufferPointer<UInt16> {
    /// The Unicode scalar value that starts at UTF-16 offset `i`, reading no unit at or
    /// after `end`, and the offset after it. A lone surrogate reads as its own value.
    @inline(__always)
    func scalar(at i: Int, end: Int) -> (value: UInt32, next: Int) {
        let unit = self[i]
        if UTF16.isLeadSurrogate(unit), i + 1 < end, UTF16.isTrailSurrogate(self[i + 1]) {
            return (0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(self[i + 1]) - 0xDC00), i + 2)
        }
        return (UInt32(unit), i + 1)
    }
}
