/// `{"width": W, "height": H, "gray": BASE64, "alpha": BASE64, "rgb": BASE64}`: each plane's
/// bytes in base64 (RFC 4648, with padding); `alpha` is left out when the image is opaque,
/// `rgb` for a gray image (so encodings made before images had color still decode, and a
/// color image's encoding still gives its gray to a reader that knows no `rgb`).
extension GrayImage: Codable {
    private enum CodingKeys: String, CodingKey {
        case width, height, gray, alpha, rgb
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(Base64.encode(gray), forKey: .gray)
        if !isOpaque { try container.encode(Base64.encode(alpha), forKey: .alpha) }
        if let rgb { try container.encode(Base64.encode(rgb), forKey: .rgb) }
    }

    /// - Throws: `DecodingError.dataCorrupted` for a negative size, a size above
    ///   `defaultMaxPixels`, text that is not base64, or a plane of the wrong length
    ///   (`width × height` bytes, three times as many for `rgb`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let width = try container.decode(Int.self, forKey: .width)
        let height = try container.decode(Int.self, forKey: .height)
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        guard width >= 0, height >= 0, !overflow, count <= Self.defaultMaxPixels else {
            throw DecodingError.dataCorruptedError(
                forKey: .width, in: container, debugDescription: "invalid image size \(width)×\(height) (at most \(Self.defaultMaxPixels) pixels)")
        }
        func plane(_ key: CodingKeys, bytesPerPixel: Int = 1) throws -> [UInt8]? {
            guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
            guard let bytes = Base64.decode(text), bytes.count == bytesPerPixel * count else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "\(key.rawValue) is not base64 of \(bytesPerPixel * count) bytes")
            }
            return bytes
        }
        guard let gray = try plane(.gray) else {
            throw DecodingError.keyNotFound(CodingKeys.gray, .init(codingPath: container.codingPath, debugDescription: "no gray plane"))
        }
        self.init(width: width, height: height, gray: gray, alpha: try plane(.alpha), rgb: try plane(.rgb, bytesPerPixel: 3))
    }
}

/// Base64 (RFC 4648 section 4, with padding), for the planes of `GrayImage`'s Codable form.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The value of each ASCII byte, 255 for bytes outside the alphabet.
    private static let values: [UInt8] = {
        var values = [UInt8](repeating: 255, count: 256)
        for (value, byte) in alphabet.enumerated() { values[Int(byte)] = UInt8(value) }
        return values
    }()

    /// - Complexity: O(bytes).
    static func encode(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group = UInt32(bytes[index]) << 16
            if count > 1 { group |= UInt32(bytes[index + 1]) << 8 }
            if count > 2 { group |= UInt32(bytes[index + 2]) }
            for digit in 0..<4 {
                text.append(digit <= count ? alphabet[Int(group >> (18 - 6 * digit)) & 63] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes, or nil when the text is not padded base64 (a length not a multiple of
    /// four, a byte outside the alphabet, padding anywhere but at the end).
    ///
    /// - Complexity: O(text).
    static func decode(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 4 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 4 * 3)
        var index = 0
        while index < digits.count {
            let isLast = index + 4 == digits.count
            let padding = isLast ? digits[(index + 2)...].count { $0 == UInt8(ascii: "=") } : 0
            guard padding < 2 || digits[index + 2] == UInt8(ascii: "=") else { return nil }
            var group: UInt32 = 0
            for offset in 0..<4 {
                let value = offset < 4 - padding ? values[Int(digits[index + offset])] : 0
                guard value != 255 else { return nil }
                group = group << 6 | UInt32(value)
            }
            for offset in 0..<(3 - padding) { bytes.append(UInt8(truncatingIfNeeded: group >> (16 - 8 * offset))) }
            index += 4
        }
        return bytes
    }
}
