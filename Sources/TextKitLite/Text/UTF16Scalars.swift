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

extension String {
    /// The string's UTF-16 code units, transcoded straight from its contiguous UTF-8
    /// storage: two tight passes (count, then decode) instead of one `UTF16View` index
    /// step per unit. (`withUTF8` first makes a string without contiguous UTF-8 storage
    /// contiguous.)
    var utf16Units: [UInt16] {
        guard !isEmpty else { return [] }
        var copy = self
        return copy.withUTF8 { bytes -> [UInt16] in
            // Units: one per scalar (per byte that is not a continuation byte 10xxxxxx), and
            // one more for each 4-byte sequence (lead byte 11110xxx: a surrogate pair).
            // Eight bytes at a time: the top bit of each byte lane says what the lane is.
            let high: UInt64 = 0x8080_8080_8080_8080
            var count = 0
            var i = 0
            let raw = UnsafeRawBufferPointer(bytes)
            while i &+ 8 <= bytes.count {
                let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let continuation = word & ~(word << 1) & high
                let fourByteLead = word & (word << 1) & (word << 2) & (word << 3) & high
                count &+= 8 &- continuation.nonzeroBitCount &+ fourByteLead.nonzeroBitCount
                i &+= 8
            }
            while i < bytes.count {
                let byte = bytes[i]
                count &+= (byte & 0xC0 != 0x80 ? 1 : 0) &+ (byte >= 0xF0 ? 1 : 0)
                i &+= 1
            }
            var result = [UInt16](repeating: 0, count: count)
            result.withUnsafeMutableBufferPointer { units in
                // `self` is valid UTF-8 (Swift guarantees it), so each lead byte is followed
                // by exactly its continuation bytes.
                var i = 0, o = 0
                let n = bytes.count
                while i < n {
                    // Eight ASCII bytes at once (most of Latin text).
                    if i &+ 8 <= n, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & high == 0 {
                        for k in 0..<8 { units[o &+ k] = UInt16(bytes[i &+ k]) }
                        i &+= 8
                        o &+= 8
                        continue
                    }
                    let b0 = UInt32(bytes[i])
                    if b0 < 0x80 {
                        units[o] = UInt16(b0)
                        i &+= 1
                        o &+= 1
                    } else if b0 < 0xE0 {
                        units[o] = UInt16((b0 & 0x1F) << 6 | UInt32(bytes[i &+ 1]) & 0x3F)
                        i &+= 2
                        o &+= 1
                    } else if b0 < 0xF0 {
                        units[o] = UInt16((b0 & 0x0F) << 12 | (UInt32(bytes[i &+ 1]) & 0x3F) << 6 | UInt32(bytes[i &+ 2]) & 0x3F)
                        i &+= 3
                        o &+= 1
                    } else {
                        let scalar = (b0 & 0x07) << 18 | (UInt32(bytes[i &+ 1]) & 0x3F) << 12
                            | (UInt32(bytes[i &+ 2]) & 0x3F) << 6 | UInt32(bytes[i &+ 3]) & 0x3F
                        units[o] = UInt16(0xD800 | (scalar &- 0x10000) >> 10)
                        units[o &+ 1] = UInt16(0xDC00 | scalar & 0x3FF)
                        i &+= 4
                        o &+= 2
                    }
                }
            }
            return result
        }
    }
}

extension String {
    /// The string of UTF-16 code units, as `String(decoding: units, as: UTF16.self)` makes
    /// it (a lone surrogate reads as U+FFFD), written straight as UTF-8: the standard
    /// library decodes UTF-16 through a generic path that costs about 1,600 instructions
    /// for a short link (callgrind), six times this.
    package init(utf16Units units: UnsafeBufferPointer<UInt16>) {
        self.init(unsafeUninitializedCapacity: units.count * 3) { bytes in
            var i = 0, o = 0
            while i < units.count {
                var value: UInt32
                (value, i) = units.scalar(at: i, end: units.count)
                if value & 0xFFFF_F800 == 0xD800 { value = 0xFFFD }  // a lone surrogate
                if value < 0x80 {
                    bytes[o] = UInt8(value)
                    o &+= 1
                } else if value < 0x800 {
                    bytes[o] = UInt8(0xC0 | value >> 6)
                    bytes[o &+ 1] = UInt8(0x80 | value & 0x3F)
                    o &+= 2
                } else if value < 0x10000 {
                    bytes[o] = UInt8(0xE0 | value >> 12)
                    bytes[o &+ 1] = UInt8(0x80 | value >> 6 & 0x3F)
                    bytes[o &+ 2] = UInt8(0x80 | value & 0x3F)
                    o &+= 3
                } else {  // a surrogate pair: two units, four bytes
                    bytes[o] = UInt8(0xF0 | value >> 18)
                    bytes[o &+ 1] = UInt8(0x80 | value >> 12 & 0x3F)
                    bytes[o &+ 2] = UInt8(0x80 | value >> 6 & 0x3F)
                    bytes[o &+ 3] = UInt8(0x80 | value & 0x3F)
                    o &+= 4
                }
            }
            return o
        }
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
    public func scalarOffsets(utf16Offsets: [Int]) -> [Int] { utf16Units.scalarOffsets(utf16Offsets: utf16Offsets) }
}
