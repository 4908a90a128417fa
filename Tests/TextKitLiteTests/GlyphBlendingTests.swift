import CBlend
@testable import SampleFeed
import Testing
@testable import TextKitLite

/// The renderer's chunked glyph blending (`TextRenderer.blitChunks`, padded rows eight
/// pixels at a time) against the plain per-pixel blending (`blitPixels`): the same bytes.
@Suite struct GlyphBlendingTests {
    /// Blends `glyph` at (x, y) into a copy of `background` both ways.
    static func blended(_ glyph: CachedGlyph, over background: [UInt8], width: Int, height: Int,
                        x: Int, y: Int, ink: UInt8) -> (chunks: [UInt8], pixels: [UInt8]) {
        var chunks = background, pixels = background
        chunks.withUnsafeMutableBufferPointer {
            TextRenderer.blitChunks(glyph, into: $0, width: width, height: height, x: x, y: y, ink: ink)
        }
        pixels.withUnsafeMutableBufferPointer {
            TextRenderer.blitPixels(glyph.image, into: $0, width: width, height: height, x: x, y: y, ink: Color(gray: ink))
        }
        return (chunks, pixels)
    }

    @Test func everyCoverageOverEveryLevelAtEveryInk() {
        // Column c of the mask has coverage c; row d of the bitmap has level d.
        let coverage = (0..<256).flatMap { _ in (0..<256).map { UInt8($0) } }
        let glyph = CachedGlyph.make(GlyphImage(width: 256, height: 256, left: 0, top: 0, coverage: coverage, luminance: nil))
        let width = 264
        let background = (0..<256).flatMap { row in [UInt8](repeating: UInt8(row), count: width) }
        for ink in 0...255 {
            let result = Self.blended(glyph, over: background, width: width, height: 256, x: 3, y: 0, ink: UInt8(ink))
            #expect(result.chunks == result.pixels, "ink \(ink)")
        }
    }

    /// 2,000 random masks, each with a bitmap size and a place in it: rows above and below
    /// the bitmap are clipped, the padded rows stay inside its width. `body` gets the
    /// generator's `next` for what it draws at random besides.
    static func randomPlacements(seed: UInt64, _ body: (_ glyph: CachedGlyph, _ width: Int, _ height: Int, _ x: Int, _ y: Int,
                                                        _ next: (ClosedRange<Int>) -> Int) -> Void) {
        var random = SampleFeed.SplitMix64(state: seed)
        func next(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(random.next() % UInt64(range.count)) }
        for _ in 0..<2_000 {
            let w = next(1...40), h = next(1...24)
            let coverage = (0..<w * h).map { _ in UInt8(next(0...255)) }
            let glyph = CachedGlyph.make(GlyphImage(width: w, height: h, left: 0, top: 0, coverage: coverage, luminance: nil))
            let width = glyph.stride + next(0...20), height = next(1...40)
            body(glyph, width, height, next(0...(width - glyph.stride)), next(-h...height), next)
        }
    }

    @Test func randomMasksAtRandomPlaces() {
        Self.randomPlacements(seed: 20) { glyph, width, height, x, y, next in
            let background = (0..<width * height).map { _ in UInt8(next(0...255)) }
            let ink = UInt8(next(0...255))
            let result = Self.blended(glyph, over: background, width: width, height: height, x: x, y: y, ink: ink)
            #expect(result.chunks == result.pixels, "\(glyph.image.width)×\(glyph.image.height) at (\(x), \(y)) in \(width)×\(height), ink \(ink)")
        }
    }

    /// The RGBA kernels this processor can run: the baseline, and AVX2 when it has it.
    static let rgbaKernels: [(name: String, kernel: tkl_blend_rgba_kernel)] =
        [("baseline", tkl_blend_rgba_baseline)] + (tkl_cpu_has_avx2() != 0 ? [("avx2", tkl_blend_rgba_avx2)] : [])

    /// The RGBA chunks (`blitChunksRGBA`, eight pixels at a time) give the bytes of the
    /// per-pixel RGBA blend (`blitRGBA`), for opaque and translucent inks over any
    /// premultiplied pixels, with each kernel.
    @Test(arguments: rgbaKernels.map(\.name))
    func rgbaChunksEqualRGBAPixels(kernelName: String) throws {
        let kernel = try #require(Self.rgbaKernels.first { $0.name == kernelName }).kernel
        var trial = 0
        Self.randomPlacements(seed: 35) { glyph, width, height, x, y, next in
            trial += 1
            let background: [UInt8] = (0..<width * height).flatMap { _ -> [UInt8] in
                let a = UInt8(next(0...255))
                return [UInt8(next(0...Int(a))), UInt8(next(0...Int(a))), UInt8(next(0...Int(a))), a]
            }
            let ink = Color(red: UInt8(next(0...255)), green: UInt8(next(0...255)), blue: UInt8(next(0...255)),
                            alpha: trial.isMultiple(of: 2) ? 255 : UInt8(next(0...255)))
            var chunks = background, pixels = background
            chunks.withUnsafeMutableBufferPointer {
                TextRenderer.blitChunksRGBA(glyph, into: TextRenderer.Canvas(pixels: $0, width: width, height: height, format: .rgba8),
                                            x: x, y: y, ink: ink, kernel: kernel)
            }
            pixels.withUnsafeMutableBufferPointer {
                TextRenderer.blitRGBA(glyph.image, into: TextRenderer.Canvas(pixels: $0, width: width, height: height, format: .rgba8),
                                      x: x, y: y, ink: ink)
            }
            #expect(chunks == pixels, "\(glyph.image.width)×\(glyph.image.height) at (\(x), \(y)) in \(width)×\(height), ink \(ink)")
        }
    }

    @Test func paddedRowsHoldTheCoverageThenZeros() {
        let image = GlyphImage(width: 9, height: 2, left: 0, top: 0, coverage: Array(1...18), luminance: nil)
        let glyph = CachedGlyph.make(image)
        #expect(glyph.stride == 16)
        #expect(Array(glyph.padded[0..<16]) == Array(1...9) + [UInt8](repeating: 0, count: 7))
        #expect(Array(glyph.padded[16..<32]) == Array(10...18) + [UInt8](repeating: 0, count: 7))
        let color = CachedGlyph.make(GlyphImage(width: 2, height: 1, left: 0, top: 0, coverage: [9, 9], luminance: [1, 1]))
        #expect(color.stride == 0 && color.padded.isEmpty)
    }
}
