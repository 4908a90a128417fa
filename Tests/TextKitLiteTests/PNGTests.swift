import Foundation
import Testing
@testable import TextKitLite

/// PNG decoding and encoding (`GrayImage`), against files written by
/// scripts/make-png-fixtures.py with Python's zlib, not by libpng.
@Suite struct PNGTests {
    static func fixture(_ name: String) -> String {
        Fixtures.testsDirectory.appendingPathComponent("Fixtures/png/\(name)").path
    }

    static func decode(_ name: String) throws -> GrayImage {
        try GrayImage(pngFile: fixture(name))
    }

    @Test func gray8() throws {
        let image = try Self.decode("gray8.png")
        #expect(image.width == 4 && image.height == 2)
        #expect(image.gray == [0, 64, 128, 255, 1, 2, 254, 253])
        #expect(image.isOpaque)
        #expect(image[2, 1].gray == 254 && image[2, 1].alpha == 255)
    }

    @Test func gray1BitExpandsToFullRange() throws {
        let image = try Self.decode("gray1.png")
        #expect(image.gray == [255, 0, 255, 255, 0, 0, 255, 0])
        #expect(image.isOpaque)
    }

    @Test func grayWithTRNSBecomesAlpha() throws {
        let image = try Self.decode("gray8-trns.png")
        #expect(image.gray == [0, 64, 200])
        #expect(image.alpha == [255, 0, 255])
    }

    @Test func grayAlpha8() throws {
        let image = try Self.decode("gray-alpha8.png")
        #expect(image.gray == [10, 128, 250])
        #expect(image.alpha == [0, 128, 255])
    }

    /// Rec. 601 luma rounded: 0.299 × 255 = 76.2, 0.587 × 255 = 149.7, 0.114 × 255 = 29.1.
    @Test func rgb8IsRec601Luma() throws {
        let image = try Self.decode("rgb8.png")
        #expect(image.gray == [76, 150, 29, 255, 90])
        #expect(image.isOpaque)
    }

    @Test func rgba8() throws {
        let image = try Self.decode("rgba8.png")
        #expect(image.width == 2 && image.height == 2)
        // (40, 80, 120): 0.299 × 40 + 0.587 × 80 + 0.114 × 120 = 72.6.
        #expect(image.gray == [76, 150, 29, 73])
        #expect(image.alpha == [255, 128, 0, 200])
    }

    @Test func paletteWithTRNS() throws {
        let image = try Self.decode("palette2-trns.png")
        #expect(image.gray == [76, 150, 29, 255, 150])
        // tRNS covers entries 0 and 1; the entries after it are opaque.
        #expect(image.alpha == [0, 128, 255, 255, 128])
    }

    @Test func sixteenBitScalesToEightBits() throws {
        let gray = try Self.decode("gray16.png")
        #expect(gray.gray == [0, 200, 18])
        let rgba = try Self.decode("rgba16.png")
        #expect(rgba.gray == [76, 255])
        #expect(rgba.alpha == [128, 255])
    }

    @Test func interlacedEqualsProgressive() throws {
        let interlaced = try Self.decode("rgb8-interlaced.png")
        let progressive = try Self.decode("rgb8-progressive.png")
        #expect(interlaced == progressive)
        #expect(interlaced.width == 9 && interlaced.height == 9)
        // Pixel (x, y) has R, G, B = (29x + 7y + 50c) mod 256 for c = 0, 1, 2.
        for (x, y) in [(0, 0), (8, 8), (3, 5), (7, 1)] {
            let r = (x * 29 + y * 7) % 256, g = (r + 50) % 256, b = (r + 100) % 256
            let luma = (19595 * r + 38470 * g + 7471 * b + 32768) >> 16
            #expect(Int(interlaced[x, y].gray) == luma, "pixel \(x), \(y)")
        }
    }

    @Test func decodingFromBytesNamesTheData() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.fixture("gray8.png"))))
        #expect(try GrayImage(pngData: bytes) == Self.decode("gray8.png"))
        #expect(throws: ImageError(path: "avatar 7", reason: .chunkPastEnd(chunk: "IHDR", length: 13, following: 14))) {
            try GrayImage(pngData: Array(bytes.prefix(30)), name: "avatar 7")
        }
        #expect(throws: ImageError(path: "PNG data", reason: .notPNG)) { try GrayImage(pngData: []) }
        // A prefix of the signature is a truncated PNG, not another format.
        #expect(throws: ImageError(path: "PNG data", reason: .truncated)) { try GrayImage(pngData: Array(bytes.prefix(5))) }
    }

    // MARK: Broken files: each a typed error whose message names the file.

    /// Decodes a fixture expecting an error, checks that its message names the file, and returns its reason.
    static func failure(_ path: String, maxPixels: Int = GrayImage.defaultMaxPixels) -> ImageError.Reason? {
        do {
            let image = try GrayImage(pngFile: path, maxPixels: maxPixels)
            Issue.record("\(path) decoded: \(image.width)×\(image.height)")
            return nil
        } catch {
            #expect(error.path == path)
            #expect(error.description.contains(path), "\(error)")
            return error.reason
        }
    }

    @Test func notAPNG() {
        #expect(Self.failure(Self.fixture("not-a-png.png")) == .notPNG)
    }

    @Test func truncated() {
        #expect(Self.failure(Self.fixture("truncated.png")) == .chunkPastEnd(chunk: "IDAT", length: 18, following: 6))
    }

    /// A PNG of 148 bytes: a 1×1 image whose text chunk (before IDAT) declares 2 GB of data.
    static func pngWithChunk(_ type: String, declaring length: UInt32) -> [UInt8] {
        func chunk(_ type: String, _ data: [UInt8], length: UInt32? = nil) -> [UInt8] {
            let body = Array(type.utf8) + data
            return withUnsafeBytes(of: (length ?? UInt32(data.count)).bigEndian, Array.init) + body
                + withUnsafeBytes(of: UInt32(Self.crc32(body)).bigEndian, Array.init)
        }
        let header = chunk("IHDR", [0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0])
        let idat = chunk("IDAT", [0x78, 0x9C, 0x63, 0x68, 0x00, 0x00, 0x00, 0x82, 0x00, 0x81])  // zlib of [0, 0x80]
        let text = chunk(type, Array("Comment".utf8) + [0, 0] + [UInt8](repeating: 0x78, count: 60), length: length)
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + header + text + idat + chunk("IEND", [])
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// libpng 1.6 allocates a text chunk's declared length before reading it (and past its
    /// chunk limit only warns): a 148-byte file made it allocate 2 GB. Every chunk's length is
    /// checked against the bytes that remain first, and the chunk is named.
    @Test(arguments: ["zTXt", "iTXt", "tEXt", "iCCP"])
    func chunkLengthPastTheEndIsRefusedBeforeLibpngReadsIt(_ type: String) throws {
        let honest = Self.pngWithChunk(type, declaring: 69)
        #expect(try GrayImage(pngData: honest).width == 1)
        let bytes = Self.pngWithChunk(type, declaring: 0x7FFF_FFF0)
        #expect(bytes.count == 148)
        #expect(throws: ImageError(path: "PNG data", reason: .chunkPastEnd(chunk: type, length: 0x7FFF_FFF0, following: 107))) {
            try GrayImage(pngData: bytes)
        }
        #expect(ImageError(path: "x.png", reason: .chunkPastEnd(chunk: type, length: 0x7FFF_FFF0, following: 107)).description
                == "truncated PNG file: x.png (its \(type) chunk declares 2147483632 bytes of data, but 107 bytes follow its header)")
    }

    @Test func badCRC() {
        #expect(Self.failure(Self.fixture("bad-crc.png")) == .corrupt("IDAT: CRC error"))
    }

    @Test func corruptData() {
        guard case .corrupt(let why) = Self.failure(Self.fixture("corrupt-data.png")) else {
            Issue.record("not reported as corrupt")
            return
        }
        #expect(!why.isEmpty)
    }

    @Test func tooLargeFromTheHeaderAlone() throws {
        // The file has no pixel data: the bound is checked before any is read or allocated.
        #expect(Self.failure(Self.fixture("huge.png")) == .tooLarge(width: 100_000, height: 100_000, limit: GrayImage.defaultMaxPixels))
        #expect(Self.failure(Self.fixture("gray8.png"), maxPixels: 7) == .tooLarge(width: 4, height: 2, limit: 7))
        #expect(try GrayImage(pngFile: Self.fixture("gray8.png"), maxPixels: 8).width == 4)
    }

    @Test func missingFileAndDirectory() {
        #expect(Self.failure("/nonexistent/smile.png") == .cannotRead("No such file or directory"))
        #expect(Self.failure(Fixtures.testsDirectory.path) == .cannotRead("Is a directory"))
    }

    @Test func fileLargerThanTheLimit() throws {
        // A sparse file of 65 MB: refused from its size, before reading.
        let path = Fixtures.temporaryPath("huge-file.png")
        try Fixtures.makeSparseFile(path, size: 65 << 20)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: ImageError(path: path, reason: .fileTooLarge(bytes: 65 << 20, limit: 64 << 20))) {
            try GrayImage(pngFile: path)
        }
        #expect(throws: FileBytes.Failure.tooLarge(bytes: 65 << 20, limit: 1000)) {
            try FileBytes.contents(of: path, limit: 1000)
        }
    }

    /// A device is not read (`/dev/zero` would be read to the limit): refused by its kind.
    @Test func deviceIsNotAnImageFile() {
        #expect(throws: ImageError(path: "/dev/zero", reason: .cannotRead("it is a character device, not a regular file"))) {
            try GrayImage(pngFile: "/dev/zero")
        }
        #expect(throws: FileBytes.Failure.notRegularFile("a character device")) {
            try FileBytes.contents(of: "/dev/zero", limit: 1000)
        }
    }

    // MARK: Encoding

    @Test func encodeDecodeRoundTrip() throws {
        let gray = (0..<(7 * 5)).map { UInt8($0 * 7 % 256) }
        let alpha = (0..<(7 * 5)).map { UInt8(255 - $0 * 5) }
        for image in [GrayImage(width: 7, height: 5, gray: gray), GrayImage(width: 7, height: 5, gray: gray, alpha: alpha)] {
            let bytes = try image.pngData()
            #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            #expect(bytes[25] == (image.isOpaque ? 0 : 4), "IHDR color type")
            #expect(try GrayImage(pngData: bytes) == image)
            #expect(try image.pngData() == bytes, "same pixels, same bytes")
        }
        // A larger image, in many rows.
        let large = GrayImage(width: 300, height: 200, gray: (0..<60_000).map { UInt8(truncatingIfNeeded: $0 * 31 / 7) })
        #expect(try GrayImage(pngData: large.pngData()) == large)
    }

    @Test func emptyImageCannotBeEncoded() {
        #expect(throws: ImageError(path: "0×3 image", reason: .cannotEncode("a PNG has at least one pixel"))) {
            try GrayImage(width: 0, height: 3, gray: []).pngData()
        }
    }

    // MARK: Compositing and Codable

    @Test func compositedOverABackground() {
        let image = GrayImage(width: 4, height: 1, gray: [0, 0, 200, 100], alpha: [255, 0, 128, 51])
        #expect(image.composited(over: 255) == [0, 255, 227, 224])
        #expect(image.composited(over: 0) == [0, 0, 100, 20])
    }

    @Test func codableRoundTrip() throws {
        let image = GrayImage(width: 3, height: 2, gray: [0, 1, 2, 250, 251, 252], alpha: [255, 0, 9, 255, 255, 7])
        let json = try JSONEncoder().encode(image)
        #expect(try JSONDecoder().decode(GrayImage.self, from: json) == image)
        let opaque = GrayImage(width: 2, height: 1, gray: [65, 66])
        let text = try String(decoding: JSONEncoder().encode(opaque), as: UTF8.self)
        #expect(!text.contains("alpha"))
        #expect(text.contains(#""gray":"QUI=""#))
        #expect(try JSONDecoder().decode(GrayImage.self, from: Data(text.utf8)) == opaque)
    }

    @Test func codableRejectsBadPlanes() {
        for json in [
            #"{"width": 2, "height": 1, "gray": "QUJD"}"#,  // three bytes for two pixels
            #"{"width": 2, "height": 1, "gray": "QU=I"}"#,  // padding inside
            #"{"width": -2, "height": 1, "gray": ""}"#,
            #"{"width": 100000, "height": 100000, "gray": ""}"#,
            #"{"width": 1, "height": 1, "gray": "QQ==", "alpha": "!!!!"}"#,
        ] {
            #expect(throws: DecodingError.self, "\(json)") { try JSONDecoder().decode(GrayImage.self, from: Data(json.utf8)) }
        }
    }

    @Test func base64MatchesFoundation() {
        for count in 0..<10 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 * 97 + 13) }
            let text = Base64.encode(bytes)
            #expect(text == Data(bytes).base64EncodedString())
            #expect(Base64.decode(text) == bytes)
        }
        #expect(Base64.decode("abc") == nil)
        #expect(Base64.decode("a===") == nil)
    }
}
