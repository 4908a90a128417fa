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
    package func scalarOffsets(utf16Offsets: [Int]) -> [Int] {
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
    public func scalarOffsets(utf16Offsets: [Int]) -> [Int] { ScalarOffsets(self).of(utf16Offsets) }
}

/// Scalar offsets of ascending UTF-16 offsets into one string, for as many sets of offsets
/// as asked (a post's line starts at each width). In a string with no scalar beyond the
/// BMP (no surrogate pair in UTF-16, no 4-byte sequence in UTF-8), as most are, a UTF-16
/// offset is its scalar offset: that is found once, and the string is not copied.
package struct ScalarOffsets {
    /// The string's UTF-16 units when it has scalars beyond the BMP.
    private let units: [UInt16]?
    private let count: Int

    package init(_ string: String) {
        var string = string
        let (count, pairs) = string.withUTF8 { String.utf16Count($0) }
        units = pairs > 0 ? string.utf16Units : nil
        self.count = count
    }

    /// `String.scalarOffsets(utf16Offsets:)`: each offset clamped to the string, in scalars.
    package func of(_ offsets: [Int]) -> [Int] {
        if let units { return units.scalarOffsets(utf16Offsets: offsets) }
        return offsets.allSatisfy { 0...count ~= $0 } ? offsets : offsets.map { min(max($0, 0), count) }
    }
}

extension String {
    /// The string's UTF-16 code units, as `Array(utf16)`, transcoded from its UTF-8 storage
    /// in two passes, eight bytes at a time where they can be: the UTF-16 view decodes
    /// scalar by scalar through the standard library's generic code.
    var utf16Units: [UInt16] {
        var string = self
        return string.withUTF8 { bytes in
            let high: UInt64 = 0x8080_8080_8080_8080
            let count = Self.utf16Count(bytes).units
            guard count > 0 else { return [] }  // the shared empty storage is never made mutable
            var result = [UInt16](filled: 0, count: count)
            result.withUnsafeMutableBufferPointer { units in
                var i = 0, j = 0
                while i < bytes.count {  // a String's UTF-8 is valid: no checks needed
                    if i &+ 8 <= bytes.count, UnsafeRawPointer(bytes.baseAddress! + i).loadUnaligned(as: UInt64.self) & high == 0 {
                        for k in 0..<8 { units[j &+ k] = UInt16(bytes[i &+ k]) }
                        i &+= 8
                        j &+= 8
                        continue
                    }
                    let byte = bytes[i]
                    if byte < 0x80 {
                        units[j] = UInt16(byte)
                        i &+= 1
                    } else if byte < 0xE0 {
                        units[j] = UInt16(byte & 0x1F) << 6 | UInt16(bytes[i &+ 1] & 0x3F)
                        i &+= 2
                    } else if byte < 0xF0 {
                        units[j] = UInt16(byte & 0x0F) << 12 | UInt16(bytes[i &+ 1] & 0x3F) << 6 | UInt16(bytes[i &+ 2] & 0x3F)
                        i &+= 3
                    } else {
                        let scalar = UInt32(byte & 0x07) << 18 | UInt32(bytes[i &+ 1] & 0x3F) << 12
                            | UInt32(bytes[i &+ 2] & 0x3F) << 6 | UInt32(bytes[i &+ 3] & 0x3F)
                        units[j] = UInt16(truncatingIfNeeded: 0xD7C0 &+ (scalar >> 10))  // 0xD800 + (scalar - 0x10000) >> 10
                        j &+= 1
                        units[j] = UInt16(truncatingIfNeeded: 0xDC00 | (scalar & 0x3FF))
                        i &+= 4
                    }
                    j &+= 1
                }
            }
            return result
        }
    }

    /// The number of UTF-16 units of valid UTF-8 `bytes`, and how many of them are
    /// surrogate pairs' (scalars beyond the BMP), counted eight bytes at a time.
    static func utf16Count(_ bytes: UnsafeBufferPointer<UInt8>) -> (units: Int, pairs: Int) {
        // One unit per byte, less one per continuation byte (10xxxxxx), plus one per
        // four-byte lead (11110xxx: a surrogate pair).
        let high: UInt64 = 0x8080_8080_8080_8080, ones: UInt64 = 0x0101_0101_0101_0101
        var count = bytes.count, pairs = 0, i = 0
        while i &+ 8 <= bytes.count {
            let word = UnsafeRawPointer(bytes.baseAddress! + i).loadUnaligned(as: UInt64.self)
            let continuations = (word & ~(word << 1) & high) >> 7
            let fourByteLeads = (word & word << 1 & word << 2 & word << 3 & high) >> 7
            // Bytes of 0 or 1: the multiplication sums them into the top byte.
            count &-= Int((continuations &* ones) >> 56)
            pairs &+= Int((fourByteLeads &* ones) >> 56)
            i &+= 8
        }
        while i < bytes.count {
            count &-= bytes[i] & 0xC0 == 0x80 ? 1 : 0
            pairs &+= bytes[i] >= 0xF0 ? 1 : 0
            i &+= 1
        }
        return (count &+ pairs, pairs)
    }

    /// A string of UTF-16 units, as `String(decoding: units, as: UTF16.self)` (a lone
    /// surrogate becomes U+FFFD), written as UTF-8 in one pass: the standard library's
    /// decoding of UTF-16 takes its slow generic path.
    init(utf16Units units: UnsafeBufferPointer<UInt16>) {
        // At most 3 bytes per unit: a surrogate pair (two units) takes 4, U+FFFD 3.
        self.init(unsafeUninitializedCapacity: units.count * 3) { bytes in
            var i = 0, j = 0
            while i < units.count {
                var (scalar, next) = units.scalar(at: i, end: units.count)
                if scalar & 0xFFFF_F800 == 0xD800 { scalar = 0xFFFD }  // a lone surrogate
                switch scalar {
                case ..<0x80:
                    bytes[j] = UInt8(scalar)
                    j += 1
                case ..<0x800:
                    bytes[j] = UInt8(0xC0 | scalar >> 6)
                    bytes[j + 1] = UInt8(0x80 | scalar & 0x3F)
                    j += 2
                case ..<0x10000:
                    bytes[j] = UInt8(0xE0 | scalar >> 12)
                    bytes[j + 1] = UInt8(0x80 | scalar >> 6 & 0x3F)
                    bytes[j + 2] = UInt8(0x80 | scalar & 0x3F)
                    j += 3
                default:
                    bytes[j] = UInt8(0xF0 | scalar >> 18)
                    bytes[j + 1] = UInt8(0x80 | scalar >> 12 & 0x3F)
                    bytes[j + 2] = UInt8(0x80 | scalar >> 6 & 0x3F)
                    bytes[j + 3] = UInt8(0x80 | scalar & 0x3F)
                    j += 4
                }
                i = next
            }
            return j
        }
    }
}
