extension UnsafeBufferPointer<UInt16> {
    /// The Unicode scalar value that starts at UTF-16 offset `i`, reading no unit at or
    /// after `end`, and the offset after it. A lone surrogate reads as its own value.
    @inline(__always)
    package func scalar(at i: Int, end: Int) -> (value: UInt32, next: Int) {
        let unit = self[i]
        if UTF16.isLeadSurrogate(unit), i + 1 < end, UTF16.isTrailSurrogate(self[i + 1]) {
            return (0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(self[i + 1]) - 0xDC00), i + 2)
        }
        return (UInt32(unit), i + 1)
    }
}

extension Array<UInt16> {
    /// Scalar offsets of ascending UTF-16 offsets into these units, in one pass.
    ///
    /// - Complexity: O(n + k) for n code units and k offsets.
    func scalarOffsets(utf16Offsets: [Int]) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(utf16Offsets.count)
        var scalars = 0
        var i = 0
        for offset in utf16Offsets {
            let end = Swift.min(Swift.max(offset, 0), count)
            while i < end {
                // A low surrogate after a high one belongs to the same scalar.
                if !(UTF16.isTrailSurrogate(self[i]) && i > 0 && UTF16.isLeadSurrogate(self[i - 1])) { scalars += 1 }
                i += 1
            }
            result.append(scalars)
        }
        return result
    }
}

extension String {
    /// The number of Unicode scalars before each of ascending UTF-16 offsets (line starts
    /// of a `TextMeasurement` as scalar offsets).
    public func scalarOffsets(utf16Offsets: [Int]) -> [Int] { Array(utf16).scalarOffsets(utf16Offsets: utf16Offsets) }
}
