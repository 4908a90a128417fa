import Testing
@testable import TextKitLite

/// Color glyphs from the font side: the premultiplied RGBA plane of bitmap (CBDT) glyphs
/// (`GlyphImage.color`, made by `BGRAImage.scaled(by:left:top:)`) and COLRv0 layers
/// (`Font.colorLayers(of:)`).
@Suite struct ColorGlyphTests {
    /// 👍 THUMBS UP SIGN: yellow, with hard outlines and soft shading.
    static let thumbsUp: UInt32 = 0x1F44D

    /// 👍 from the bundled Noto Color Emoji (one 109 ppem strike) at `pixelSize`: with its
    /// color plane (for an RGBA bitmap), or with `color` false its luminance (for a gray one).
    static func thumbsUpImage(pixelSize: Double, bold: Bool = false, color: Bool = true) throws -> GlyphImage {
        let glyph = try #require(Fixtures.emoji.harfBuzz.glyph(for: thumbsUp))
        return Fixtures.emoji.withRasterizer {
            $0.rasterize(glyph: glyph, pixelSize: pixelSize, phase: 0, synthesis: FontSynthesis(emboldened: bold), color: color)
        }
    }

    /// FNV-1a (64-bit) of the bytes.
    static func digest(_ bytes: [UInt8]) -> UInt64 {
        bytes.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    /// The largest difference between horizontally, then vertically, adjacent values of one
    /// channel of an RGBA plane.
    static func largestSteps(_ rgba: [UInt8], width: Int, height: Int, channel: Int) -> (x: Int, y: Int) {
        func value(_ x: Int, _ y: Int) -> Int { Int(rgba[(y * width + x) * 4 + channel]) }
        var steps = (x: 0, y: 0)
        for y in 0..<height {
            for x in 0..<width {
                if x + 1 < width { steps.x = max(steps.x, abs(value(x + 1, y) - value(x, y))) }
                if y + 1 < height { steps.y = max(steps.y, abs(value(x, y + 1) - value(x, y))) }
            }
        }
        return steps
    }

    static let sizesAndScales: [(size: Double, scale: Double)] = [12, 15, 17, 40].flatMap { size in [(size, 1), (size, 3)] }

    @Test(arguments: sizesAndScales)
    func thumbsUpHasAYellowPremultipliedColorPlane(size: Double, scale: Double) throws {
        for bold in [false, true] {
            let image = try Self.thumbsUpImage(pixelSize: size * scale, bold: bold)
            let color = try #require(image.color, "\(size) pt × \(scale), bold \(bold)")
            #expect(color.count == image.width * image.height * 4)
            #expect(image.width * image.height <= FreeTypeFace.maximumGlyphPixels)
            #expect(image.byteCount >= image.coverage.count * 5 && image.luminance == nil)  // coverage and RGBA
            var sums = (red: 0, blue: 0, inked: 0)
            for pixel in stride(from: 0, to: color.count, by: 4) {
                let (r, g, b, a) = (color[pixel], color[pixel + 1], color[pixel + 2], color[pixel + 3])
                #expect(r <= a && g <= a && b <= a, "pixel \(pixel / 4): \(r) \(g) \(b) \(a)")
                guard a > 0 else { continue }
                sums = (sums.red + Int(r), sums.blue + Int(b), sums.inked + 1)
            }
            // Yellow: mean premultiplied red about 200 to 240, blue about 25.
            #expect(sums.inked > image.width * image.height / 3)
            #expect(sums.red > sums.blue + sums.inked * 120, "\(size) pt × \(scale): red \(sums.red), blue \(sums.blue)")
            if size * scale <= 109 {
                // Shrunk with the coverage's own area weights: the same alpha, byte for byte.
                #expect((0..<image.coverage.count).allSatisfy { color[$0 * 4 + 3] == image.coverage[$0] })
            }
        }
    }

    /// The gray planes as the scaler made them before it made color (commit 1f14b9b): size,
    /// bearings and FNV-1a of coverage then luminance, plain and synthetic bold.
    static let grayBeforeColor: [(size: Double, scale: Double, bold: Bool, width: Int, height: Int, left: Int, top: Int, digest: UInt64)] = [
        (12, 1, false, 15, 15, 0, 11, 0xba7d_d391_be39_5d5c), (12, 3, false, 45, 43, 0, 33, 0xdafe_6ec6_f28a_10ea),
        (15, 1, false, 19, 18, 0, 14, 0x2738_28b2_0503_7091), (15, 3, false, 57, 53, 0, 42, 0x51c2_6445_300d_b4a8),
        (17, 1, false, 22, 20, 0, 16, 0xa4ca_1c6a_e4ef_a784), (17, 3, false, 64, 60, 0, 47, 0x9c8d_0ff6_9bca_b0c2),
        (40, 1, false, 50, 47, 0, 37, 0xc157_a4cf_320c_115a), (40, 3, false, 150, 141, 0, 111, 0xaa60_17db_d07d_e873),
        (12, 1, true, 16, 16, 0, 12, 0x4d47_0226_e65d_82a8), (12, 3, true, 47, 45, 0, 35, 0xac93_ba80_127c_21cb),
        (15, 1, true, 20, 19, 0, 15, 0x2b51_1ace_52d6_f483), (15, 3, true, 59, 55, 0, 44, 0x203c_1bb6_fcbb_4d27),
        (17, 1, true, 23, 21, 0, 17, 0xa065_6656_6aee_bd53), (17, 3, true, 66, 62, 0, 49, 0x56ed_84dc_ebb0_41e2),
        (40, 1, true, 52, 49, 0, 39, 0x5779_9b24_62b9_426f), (40, 3, true, 155, 146, 0, 116, 0x2f49_43d7_706b_db97),
    ]

    @Test func grayPlanesAreByteIdenticalToBeforeColor() throws {
        for expected in Self.grayBeforeColor {
            let image = try Self.thumbsUpImage(pixelSize: expected.size * expected.scale, bold: expected.bold, color: false)
            let luminance = try #require(image.luminance)
            #expect(image.color == nil)
            #expect((image.width, image.height, image.left, image.top) == (expected.width, expected.height, expected.left, expected.top),
                    "\(expected.size) pt × \(expected.scale), bold \(expected.bold)")
            #expect(Self.digest(image.coverage + luminance) == expected.digest,
                    "\(expected.size) pt × \(expected.scale), bold \(expected.bold)")
        }
    }

    /// Enlarged, the color plane is interpolated, not copied: adjacent output pixels are
    /// 1/scale source pixels apart, so with bilinear interpolation no step between them is
    /// larger than the largest step of the strike over the scale (plus one for rounding).
    /// Nearest-neighbour or box filtering repeats the strike's own largest step.
    @Test(arguments: [40.0, 80.0])
    func enlargedColorPlaneIsInterpolated(size: Double) throws {
        let strike = try Self.thumbsUpImage(pixelSize: 109)  // the strike's own size: its pixels as they are
        let image = try Self.thumbsUpImage(pixelSize: size * 3)
        let scale = size * 3 / 109
        #expect(scale > 1)
        let source = try #require(strike.color), color = try #require(image.color)
        for channel in 0..<4 {
            let before = Self.largestSteps(source, width: strike.width, height: strike.height, channel: channel)
            let after = Self.largestSteps(color, width: image.width, height: image.height, channel: channel)
            #expect(Double(after.x) <= Double(before.x) / scale + 1, "channel \(channel): \(after.x), strike \(before.x)")
            #expect(Double(after.y) <= Double(before.y) / scale + 1, "channel \(channel): \(after.y), strike \(before.y)")
        }
        // Not shifted: on average the interpolated alpha sits where the box-filtered coverage does.
        let drift = (0..<image.coverage.count).reduce(0) { $0 + Int(color[$1 * 4 + 3]) - Int(image.coverage[$1]) }
        #expect(abs(Double(drift) / Double(image.coverage.count)) < 0.5)
    }

    /// Emboldening's two one-dimensional passes pick, for every pixel, the pixel a scan of its
    /// whole window picks (the most opaque; of equals, the topmost, then the rightmost), with
    /// its luminance and color, over random images with many ties.
    @Test func emboldeningPassesEqualAWindowScan() {
        var generator = HostileInputTests.SplitMix64(state: 39)
        for trial in 0..<60 {
            let width = 1 + Int(generator.next() % 13), height = 1 + Int(generator.next() % 11), r = 1 + trial % 6
            let coverage = (0..<width * height).map { _ in UInt8([0, 0, 80, 255][Int(generator.next() % 4)]) }
            let luminance = (0..<width * height).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let color = (0..<width * height * 4).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let image = GlyphImage(width: width, height: height, left: 0, top: 0, coverage: coverage, luminance: luminance, color: color)
            let bold = image.emboldened(by: r)
            for y in 0..<height + r {
                for x in 0..<width + r {
                    var best = -1, bestAlpha: UInt8 = 0
                    for oy in y - r...y where oy >= 0 && oy < height {
                        for ox in stride(from: x, through: x - r, by: -1) where ox >= 0 && ox < width {
                            let i = oy * width + ox
                            if coverage[i] > bestAlpha || best < 0 { (best, bestAlpha) = (i, coverage[i]) }
                        }
                    }
                    let o = y * (width + r) + x
                    #expect(bold.coverage[o] == bestAlpha && bold.luminance?[o] == luminance[best], "trial \(trial) at \(x),\(y)")
                    #expect(bold.color.map { Array($0[o * 4..<o * 4 + 4]) } == Array(color[best * 4..<best * 4 + 4]))
                }
            }
        }
    }

    @Test func emboldenedColorGlyphCarriesItsColor() throws {
        let plain = try Self.thumbsUpImage(pixelSize: 17)
        let bold = try Self.thumbsUpImage(pixelSize: 17, bold: true)
        let color = try #require(bold.color), plainColor = try #require(plain.color)
        #expect((bold.width, bold.height) == (plain.width + 1, plain.height + 1))
        #expect(color.count == bold.width * bold.height * 4)
        // Every pixel's color is a pixel of the plain image, with the coverage beside it.
        let plainPixels = Set(stride(from: 0, to: plainColor.count, by: 4).map { Array(plainColor[$0..<$0 + 4]) })
        for i in 0..<bold.width * bold.height {
            let pixel = Array(color[i * 4..<i * 4 + 4])
            #expect(plainPixels.contains(pixel))
            #expect(pixel[3] == bold.coverage[i])
        }
    }

    @Test func glyphOverThePixelLimitDrawsNothing() throws {
        // 1,800 px: 2,246 × 2,114 pixels, over the limit of 4 Mi.
        let image = try Self.thumbsUpImage(pixelSize: 1_800)
        #expect(image.width == 0 && image.color == nil)
    }

    @Test func outlineGlyphsHaveNoColorPlane() throws {
        let glyph = try #require(Fixtures.sans.harfBuzz.glyph(for: 0x41))
        let image = Fixtures.sans.withRasterizer { $0.rasterize(glyph: glyph, pixelSize: 17, phase: 0) }
        #expect(image.width > 0 && image.color == nil)
    }

    // MARK: COLRv0

    /// Tests/TextKitLiteTests/Fixtures/ColorLayers.ttf (scripts/make-colr-font.py).
    static func colorLayersFont() throws -> Font {
        try Font.load(path: Fixtures.testsDirectory.appendingPathComponent("Fixtures/ColorLayers.ttf").path)
    }

    /// U+E000's layers, bottom first, with palette 0's colors (glyph IDs as the script lists them).
    static let squareLayers = [
        ColorLayer(glyph: 4, color: Color(red: 0xE0, green: 0x30, blue: 0x1A)),
        ColorLayer(glyph: 5, color: Color(red: 0x20, green: 0xA0, blue: 0x40)),
        ColorLayer(glyph: 6, color: Color(red: 0x10, green: 0x30, blue: 0xC0, alpha: 0x80)),
        ColorLayer(glyph: 7, color: nil),
    ]

    @Test func colorGlyphLayersComeInPaintOrderWithPaletteZero() throws {
        let font = try Self.colorLayersFont()
        #expect(font.hasColorLayers)
        #expect(!font.isColor)  // not a bitmap font
        let square = try #require(font.harfBuzz.glyph(for: 0xE000))
        #expect(square == 3)
        #expect(font.colorLayers(of: square) == Self.squareLayers)
        // A variant (synthetic bold) shares the face and the palette.
        #expect(font.variant(FontSynthesis(emboldened: true), features: []).colorLayers(of: square) == Self.squareLayers)
    }

    @Test func ordinaryGlyphsHaveNoLayers() throws {
        let font = try Self.colorLayersFont()
        let a = try #require(font.harfBuzz.glyph(for: 0x41))
        #expect(font.colorLayers(of: a) == nil)
        #expect(font.colorLayers(of: 4) == nil)  // a layer is an ordinary glyph itself
        #expect(font.colorLayers(of: 0) == nil)
        #expect(font.colorLayers(of: 60_000) == nil)  // beyond the font's glyphs
        #expect(!Fixtures.sans.hasColorLayers)
        #expect(Fixtures.sans.colorLayers(of: try #require(Fixtures.sans.harfBuzz.glyph(for: 0x41))) == nil)
        // Noto Color Emoji is CBDT bitmaps only, no COLR.
        #expect(!Fixtures.emoji.hasColorLayers)
        #expect(Fixtures.emoji.colorLayers(of: try #require(Fixtures.emoji.harfBuzz.glyph(for: Self.thumbsUp))) == nil)
    }

    @Test func colorLayersFromManyThreadsAtOnce() async throws {
        let font = try Self.colorLayersFont()
        let agreeing = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask { (0..<200).allSatisfy { _ in font.colorLayers(of: 3) == Self.squareLayers } }
            }
            return await group.reduce(true) { $0 && $1 }
        }
        #expect(agreeing)
    }
}
