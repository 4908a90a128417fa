import Foundation
import Testing
@testable import TextKitLite

/// Color in images: the RGB plane decoded from color PNGs (`GrayImage.rgb`), its Codable
/// form and PNG encoding, and the encoders of premultiplied RGBA bitmaps (`ColorEncoding`).
@Suite struct ColorImageTests {
    static func decode(_ name: String) throws -> GrayImage {
        try GrayImage(pngFile: PNGTests.fixture(name))
    }

    /// Rec. 601 luma as the decoder computes it, for checking gray against RGB.
    static func luma(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        let sum: Int = 19595 * Int(r) + 38470 * Int(g) + 7471 * Int(b)
        return UInt8((sum + 32768) >> 16)
    }

    /// Checks that a color image's gray plane is the luma of its RGB plane.
    static func expectGrayIsLuma(_ image: GrayImage, _ name: String) throws {
        let rgb = try #require(image.rgb, "\(name) has no RGB")
        let luma = (0..<image.gray.count).map { Self.luma(rgb[3 * $0], rgb[3 * $0 + 1], rgb[3 * $0 + 2]) }
        #expect(image.gray == luma, "\(name)")
    }

    // MARK: Decoding

    @Test(arguments: ["gray8.png", "gray1.png", "gray8-trns.png", "gray-alpha8.png", "gray16.png"])
    func grayPNGsHaveNoColor(_ name: String) throws {
        let image = try Self.decode(name)
        #expect(image.rgb == nil)
        #expect(!image.isColor)
    }

    /// Each color type gives the RGB and alpha written by scripts/make-png-fixtures.py.
    @Test(arguments: [
        ("rgb8.png", [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255, 90, 90, 90], [255, 255, 255, 255, 255]),
        ("rgba8.png", [255, 0, 0, 0, 255, 0, 0, 0, 255, 40, 80, 120], [255, 128, 0, 200]),
        ("rgb8-trns.png", [10, 20, 30, 10, 20, 31, 200, 100, 50], [0, 255, 255]),
        ("palette8.png", [250, 5, 128, 12, 34, 56, 78, 90, 123, 250, 5, 128], [255, 255, 255, 255]),
        ("palette2-trns.png", [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255, 0, 255, 0], [0, 128, 255, 255, 128]),
        // 16 bits scaled to 8, rounded: 0x8080 → 128, 0x1234 → 18, 0xFF7F → 255, 771 → 3.
        ("rgb16.png", [255, 128, 0, 18, 255, 3], [255, 255]),
        ("rgba16.png", [255, 0, 0, 255, 255, 255], [128, 255]),
    ] as [(String, [UInt8], [UInt8])])
    func colorPNGsDecodeToTheirRGBAndAlpha(_ name: String, rgb: [UInt8], alpha: [UInt8]) throws {
        let image = try Self.decode(name)
        #expect(image.isColor)
        #expect(image.rgb == rgb)
        #expect(image.alpha == alpha)
        try Self.expectGrayIsLuma(image, name)
    }

    @Test func interlacedColorEqualsProgressive() throws {
        let interlaced = try Self.decode("rgb8-interlaced.png")
        #expect(interlaced == (try Self.decode("rgb8-progressive.png")))
        let rgb = try #require(interlaced.rgb)
        // Pixel (x, y) has R, G, B = (29x + 7y + 50c) mod 256 for c = 0, 1, 2.
        for y in 0..<9 {
            for x in 0..<9 {
                let r = (x * 29 + y * 7) % 256
                #expect(rgb[(3 * (y * 9 + x))...].prefix(3).elementsEqual([r, (r + 50) % 256, (r + 100) % 256].map(UInt8.init)))
            }
        }
        try Self.expectGrayIsLuma(interlaced, "rgb8-interlaced.png")
    }

    /// CRC-32 of gray then alpha for each fixture, as the decoder gave them before it decoded
    /// color (commit 1f14b9b): decoding color leaves the gray planes byte-identical.
    @Test func grayAndAlphaPlanesAreAsBeforeColor() throws {
        let before: [String: UInt32] = [
            "gray-alpha8.png": 0x5EE5_B352, "gray1.png": 0x468D_C114, "gray16.png": 0x9209_BBBF,
            "gray8-trns.png": 0xC952_E463, "gray8.png": 0x764E_3E50, "palette2-trns.png": 0x4D69_D3FC,
            "rgb8-interlaced.png": 0x2FD4_ACD4, "rgb8-progressive.png": 0x2FD4_ACD4, "rgb8.png": 0x12C1_16D8,
            "rgba16.png": 0x589F_7BB2, "rgba8.png": 0xD72C_3743,
        ]
        for (name, crc) in before {
            let image = try Self.decode(name)
            #expect(PNGTests.crc32(image.gray + image.alpha) == crc, "\(name)")
        }
    }

    // MARK: Premultiplied pixels

    @Test func premultipliedRGBA() {
        let gray = GrayImage(width: 2, height: 1, gray: [200, 100], alpha: [255, 51])
        #expect(gray.premultipliedRGBA(x: 0, y: 0) == (200, 200, 200, 255))
        #expect(gray.premultipliedRGBA(x: 1, y: 0) == (20, 20, 20, 51))
        let color = GrayImage(width: 3, height: 1, gray: [76, 150, 29], alpha: [255, 128, 0],
                              rgb: [255, 0, 0, 10, 255, 200, 0, 0, 255])
        #expect(color.isColor)
        // 255 × 128 / 255 = 128; 10 × 128 / 255 = 5.02; 200 × 128 / 255 = 100.39.
        #expect(color.premultipliedRGBA(x: 1, y: 0) == (5, 128, 100, 128))
        #expect(color.premultipliedRGBA(x: 2, y: 0) == (0, 0, 0, 0))
        #expect(color.premultipliedRGBA() == [255, 0, 0, 255, 5, 128, 100, 128, 0, 0, 0, 0])
        #expect(gray.premultipliedRGBA() == [200, 200, 200, 255, 20, 20, 20, 51])
    }

    // MARK: Codable

    @Test func codableRoundTripWithAndWithoutRGB() throws {
        let color = GrayImage(width: 2, height: 1, gray: [66, 69], alpha: [255, 200], rgb: [65, 66, 67, 68, 69, 70])
        let text = try String(decoding: JSONEncoder().encode(color), as: UTF8.self)
        #expect(text.contains(#""rgb":"QUJDREVG""#))
        #expect(try JSONDecoder().decode(GrayImage.self, from: Data(text.utf8)) == color)
        let gray = GrayImage(width: 2, height: 1, gray: [65, 66])
        let grayText = try String(decoding: JSONEncoder().encode(gray), as: UTF8.self)
        #expect(!grayText.contains("rgb"))
        #expect(try JSONDecoder().decode(GrayImage.self, from: Data(grayText.utf8)) == gray)
    }

    /// An encoding made before images had color (no `rgb` key) decodes to a gray image.
    @Test func encodingWithoutRGBDecodesAsGray() throws {
        let json = #"{"width": 2, "height": 1, "gray": "QUI=", "alpha": "/wA="}"#
        let image = try JSONDecoder().decode(GrayImage.self, from: Data(json.utf8))
        #expect(image == GrayImage(width: 2, height: 1, gray: [65, 66], alpha: [255, 0]))
        #expect(!image.isColor)
    }

    @Test func codableRejectsAnRGBPlaneOfTheWrongLength() {
        for json in [
            #"{"width": 2, "height": 1, "gray": "QUI=", "rgb": "QUJD"}"#,  // 3 bytes for 2 pixels
            #"{"width": 1, "height": 1, "gray": "QQ==", "rgb": "QQ=="}"#,  // 1 byte for 1 pixel
            #"{"width": 1, "height": 1, "gray": "QQ==", "rgb": "!!!!"}"#,
        ] {
            #expect(throws: DecodingError.self, "\(json)") { try JSONDecoder().decode(GrayImage.self, from: Data(json.utf8)) }
        }
    }

    // MARK: Encoding a color image

    @Test(arguments: ["rgb8.png", "rgba8.png", "palette2-trns.png", "rgb16.png", "rgb8-interlaced.png"])
    func colorImageRoundTripsThroughPNG(_ name: String) throws {
        let image = try Self.decode(name)
        let bytes = try image.pngData()
        #expect(bytes[25] == (image.isOpaque ? 2 : 6), "IHDR color type")
        #expect(try GrayImage(pngData: bytes) == image)
        #expect(try image.pngData() == bytes, "same pixels, same bytes")
    }

    // MARK: Encoding premultiplied RGBA

    /// Every valid premultiplied pair (c ≤ a) once: 32,896 pixels (257 × 128) of (c, c, c, a).
    static let everyPremultipliedPair: [UInt8] = (0...255).flatMap { a in
        (0...a).flatMap { c in [UInt8(c), UInt8(c), UInt8(c), UInt8(a)] }
    }

    @Test func translucentPremultipliedRGBAIsWrittenUnpremultiplied() throws {
        let rgba = Self.everyPremultipliedPair
        #expect(rgba.count == 257 * 128 * 4)
        let bytes = try ColorEncoding.pngData(premultipliedRGBA: rgba, width: 257, height: 128)
        #expect(bytes[25] == 6, "IHDR color type RGBA")
        let image = try GrayImage(pngData: bytes)
        #expect(image.alpha == stride(from: 3, to: rgba.count, by: 4).map { rgba[$0] })
        let straight: [UInt8] = stride(from: 0, to: rgba.count, by: 4).flatMap { index in
            let c = Int(rgba[index]), a = Int(rgba[index + 3])
            let value = UInt8(a == 0 ? 0 : (c * 255 + a / 2) / a)
            return [value, value, value]
        }
        #expect(image.rgb == straight)
        // Premultiplying again gives every input back: the unpremultiplied values are within rounding.
        #expect(image.premultipliedRGBA() == rgba)
    }

    @Test func opaquePremultipliedRGBAIsWrittenAsRGB() throws {
        let rgba: [UInt8] = (0..<(5 * 3)).flatMap { (pixel: Int) -> [UInt8] in
            [UInt8(pixel * 17), UInt8(255 - pixel * 3), UInt8(pixel * 7), 255]
        }
        let bytes = try ColorEncoding.pngData(premultipliedRGBA: rgba, width: 5, height: 3)
        #expect(bytes[25] == 2, "IHDR color type RGB")
        let image = try GrayImage(pngData: bytes)
        #expect(image.isOpaque)
        #expect(image.rgb == stride(from: 0, to: rgba.count, by: 4).flatMap { rgba[$0..<($0 + 3)] })
        #expect(try ColorEncoding.pngData(premultipliedRGBA: rgba, width: 5, height: 3) == bytes)
    }

    /// A color above its alpha is not premultiplied; it is written as 255, not wrapped.
    @Test func colorAboveAlphaIsClamped() throws {
        let bytes = try ColorEncoding.pngData(premultipliedRGBA: [200, 10, 0, 100], width: 1, height: 1)
        #expect(try GrayImage(pngData: bytes).rgb == [255, 26, 0])
    }

    @Test func emptyBitmapCannotBeEncoded() {
        #expect(throws: ImageError(path: "0×2 image", reason: .cannotEncode("a PNG has at least one pixel"))) {
            try ColorEncoding.pngData(premultipliedRGBA: [], width: 0, height: 2)
        }
    }

    // MARK: PPM

    @Test func ppmHeaderAndBytes() throws {
        let rgba: [UInt8] = [255, 0, 0, 255, 0, 128, 0, 255, 10, 20, 30, 40, 0, 0, 0, 0]
        let ppm = ColorEncoding.ppmData(premultipliedRGBA: rgba, width: 2, height: 2)
        #expect(ppm == Array("P6\n2 2\n255\n".utf8) + [255, 0, 0, 0, 128, 0, 10, 20, 30, 0, 0, 0])
        let read = try #require(ColorEncoding.rgb(ppm: ppm))
        #expect(read.width == 2 && read.height == 2)
        #expect(read.rgb == [255, 0, 0, 0, 128, 0, 10, 20, 30, 0, 0, 0])
        let commented = Array("P6 # made by hand\n1\t1 255\n".utf8) + [7, 8, 9]
        #expect(ColorEncoding.rgb(ppm: commented)?.rgb == [7, 8, 9])
    }

    @Test func malformedPPMIsRefused() {
        for data in [
            Array("P5\n1 1\n255\n".utf8) + [0, 0, 0],  // gray, not color
            Array("P6\n1 1\n65535\n".utf8) + [0, 0, 0, 0, 0, 0],
            Array("P6\n2 1\n255\n".utf8) + [0, 0, 0, 0, 0],  // raster short by one byte
            Array("P6\n-1 1\n255\n".utf8),
            Array("P6\n3037000500 3037000500\n255\n".utf8) + [0],  // width × height overflows
            Array("P6\n1 1\n255".utf8),
        ] {
            #expect(ColorEncoding.rgb(ppm: data) == nil, "\(String(decoding: data, as: UTF8.self))")
        }
    }

    // MARK: Hostile headers

    /// A color PNG whose IHDR claims the largest sides PNG allows (each 2³¹ − 1) is refused
    /// from its header even with no pixel bound: its planes could not be counted in memory.
    @Test func hugeColorHeaderIsRefusedWithoutABound() throws {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return withUnsafeBytes(of: UInt32(data.count).bigEndian, Array.init) + body
                + withUnsafeBytes(of: PNGTests.crc32(body).bigEndian, Array.init)
        }
        let side: [UInt8] = [0x7F, 0xFF, 0xFF, 0xFF]
        let bytes = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", side + side + [8, 6, 0, 0, 0]) + chunk("IEND", [])
        #expect(throws: ImageError(path: "PNG data", reason: .tooLarge(width: 0x7FFF_FFFF, height: 0x7FFF_FFFF, limit: .max))) {
            try GrayImage(pngData: bytes, maxPixels: .max)
        }
        #expect(throws: ImageError(path: "PNG data", reason: .tooLarge(width: 0x7FFF_FFFF, height: 0x7FFF_FFFF, limit: GrayImage.defaultMaxPixels))) {
            try GrayImage(pngData: bytes)
        }
    }

    /// An image drawn at its own size is copied pixel for pixel (`drawUnscaled`): the same
    /// pixels as the box filter over one pixel each (`drawScaled`), on gray and RGBA bitmaps,
    /// for color and gray images with every kind of alpha, clipped at every edge.
    @Test func unscaledImagesDrawAsTheBoxFilterDoes() {
        var random = SystemRandomNumberGenerator()
        for trial in 0..<200 {
            let (w, h) = (Int.random(in: 1...9, using: &random), Int.random(in: 1...9, using: &random))
            let alphas: [UInt8] = [0, 255, 1, 128, 254]
            let alpha = (0..<w * h).map { _ in Bool.random(using: &random) ? alphas.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random) }
            let gray = (0..<w * h).map { _ in UInt8.random(in: 0...255, using: &random) }
            let rgb = trial % 2 == 0 ? (0..<3 * w * h).map { _ in UInt8.random(in: 0...255, using: &random) } : nil
            let image = GrayImage(width: w, height: h, gray: gray, alpha: alpha, rgb: rgb)
            for format in [Bitmap.PixelFormat.gray8, .rgba8] {
                let background = Color(red: .random(in: 0...255), green: .random(in: 0...255), blue: .random(in: 0...255),
                                       alpha: Bool.random(using: &random) ? 255 : .random(in: 0...255))
                guard var a = try? Bitmap(width: 8, height: 8, format: format, background: background) else { continue }
                var b = a
                let (x, y) = (Int.random(in: -4...6, using: &random), Int.random(in: -4...6, using: &random))
                a.drawUnscaled(image, x: x, y: y)
                b.drawScaled(image, x: x, y: y, width: w, height: h)
                #expect(a.pixels == b.pixels, "trial \(trial) \(format) \(w)×\(h) at \(x),\(y)")
            }
        }
    }
}
