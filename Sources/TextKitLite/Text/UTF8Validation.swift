/// Where UTF-8 input goes wrong, for error messages that name the offending byte
/// (text files, standard input, feed lines).
package enum UTF8Validation {
    /// Byte offset of the first ill-formed UTF-8 sequence, nil when all of `bytes` is valid.
    ///
    /// - Complexity: O(n); valid input takes the standard library's fast check only.
    package static func firstInvalidOffset(_ bytes: [UInt8]) -> Int? {
        if String(validating: bytes, as: UTF8.self) != nil { return nil }
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// "byte 0xff": the byte at `offset` (the last byte when past the end), for a message.
    package static func describeByte(_ bytes: [UInt8], at offset: Int) -> String {
        guard !bytes.isEmpty else { return "no bytes" }
        return "byte 0x" + String(bytes[min(max(offset, 0), bytes.count - 1)], radix: 16)
    }
}
