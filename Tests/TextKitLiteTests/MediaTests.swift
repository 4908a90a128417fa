import Foundation
import Synchronization
import Testing
import TextKitLite
@testable import TextKitLiteMedia

/// Pictures for feed cells (`TextKitLiteMedia`): PNG and JPEG headers and decoding (color,
/// EXIF orientation, bounds, damaged files), resampling, aspect-fill, the circle mask and
/// `PictureCache`, against the files scripts/make-media-fixtures.py writes.
@Suite struct MediaTests {
    static func fixture(_ name: String) -> String {
        Fixtures.testsDirectory.appendingPathComponent("Fixtures/media/\(name)").path
    }

    /// The quadrants of the 64 × 48 fixtures as displayed: a point inside each and its color.
    static let quadrants: [(x: Int, y: Int, rgb: [Int])] = [
        (16, 12, [220, 30, 30]), (48, 12, [30, 200, 40]), (16, 36, [30, 40, 210]), (48, 36, [240, 220, 30]),
    ]

    /// The R, G, B at (x, y) of a color image.
    static func rgb(_ image: GrayImage, _ x: Int, _ y: Int) -> [Int] {
        let index = 3 * (y * image.width + x)
        return (image.rgb.map { Array($0[index..<index + 3]) } ?? []).map(Int.init)
    }

    static func expectQuadrants(_ image: GrayImage, _ name: String, tolerance: Int = 16,
                                sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(image.width == 64 && image.height == 48, "\(name): \(image.width)×\(image.height)", sourceLocation: sourceLocation)
        guard image.width == 64, image.height == 48 else { return }
        for (x, y, expected) in quadrants {
            let got = rgb(image, x, y)
            #expect(got.count == 3 && zip(got, expected).allSatisfy { abs($0 - $1) <= tolerance },
                    "\(name) at (\(x), \(y)): \(got), expected \(expected)", sourceLocation: sourceLocation)
        }
    }

    /// The ImageError a call throws (an issue when it succeeds or throws another type).
    static func failure(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) -> ImageError? {
        ErrorTableTests.error(ImageError.self, sourceLocation: sourceLocation, body)
    }

    // MARK: Decoding JPEG

    @Test(arguments: ["baseline.jpg", "progressive.jpg", "cmyk.jpg", "exif-broken.jpg"])
    func colorJPEGs(_ name: String) throws {
        let image = try ImageFiles.decode(file: Self.fixture(name))
        Self.expectQuadrants(image, name, tolerance: name == "cmyk.jpg" ? 24 : 16)
        #expect(image.isOpaque)
        try ColorImageTests.expectGrayIsLuma(image, name)
    }

    @Test func grayJPEGIsGray() throws {
        let image = try ImageFiles.decode(file: Self.fixture("gray.jpg"))
        #expect(image.rgb == nil && image.width == 64 && image.height == 48)
        for (x, y, color) in Self.quadrants {
            let luma = Int(ColorImageTests.luma(UInt8(color[0]), UInt8(color[1]), UInt8(color[2])))
            #expect(abs(Int(image[x, y].gray) - luma) <= 6, "(\(x), \(y)): \(image[x, y].gray), expected \(luma)")
        }
    }

    /// Each orientation's file is stored turned or mirrored so that its EXIF orientation
    /// displays the quadrants upright; 5 to 8 are stored 48 × 64, and report 64 × 48.
    @Test(arguments: 2...8)
    func exifOrientation(_ orientation: Int) throws {
        let path = Self.fixture("orientation-\(orientation).jpg")
        Self.expectQuadrants(try ImageFiles.decode(file: path), "orientation \(orientation)")
        #expect(try ImageFiles.header(ofFile: path) == ImageHeader(format: .jpeg, width: 64, height: 48))
    }

    @Test func storedSizeIsSwappedForOrientationsFiveToEight() throws {
        var data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.fixture("orientation-6.jpg"))))
        let header = try JPEG.header(data, name: "orientation-6")
        #expect(header.orientation == 6 && header.width == 64 && header.height == 48)
        // Without its EXIF block ("Exif" renamed), the file shows its stored 48 × 64 pixels.
        if let start = (0..<data.count - 4).first(where: { data[$0..<$0 + 4].elementsEqual(Array("Exif".utf8)) }) {
            data[start] = UInt8(ascii: "X")
        }
        let plain = try JPEG.decode(data, name: "plain", maxPixels: 1 << 20, atLeast: nil)
        #expect(plain.width == 48 && plain.height == 64)
    }

    // MARK: Headers

    @Test(arguments: ["baseline.jpg", "progressive.jpg", "gray.jpg", "cmyk.jpg", "exif-broken.jpg", "big.jpg",
                      "checker.png", "checker-png.jpg"] + (2...8).map { "orientation-\($0).jpg" })
    func headerIsTheDecodedSize(_ name: String) throws {
        let header = try ImageFiles.header(ofFile: Self.fixture(name))
        let image = try ImageFiles.decode(file: Self.fixture(name))
        #expect(header.width == image.width && header.height == image.height)
        #expect(header.format == (name.hasPrefix("checker") ? .png : .jpeg))
    }

    // MARK: Bounds and damaged files

    @Test func jpegBombIsRefusedFromItsHeader() throws {
        let path = Self.fixture("bomb.jpg")
        let limit = GrayImage.defaultMaxPixels
        #expect(Self.failure { _ = try ImageFiles.decode(file: path) }
            == ImageError(path: path, reason: .tooLargeJPEG(width: 65000, height: 65000, limit: limit)))
        #expect(try ImageFiles.header(ofFile: path) == ImageHeader(format: .jpeg, width: 65000, height: 65000))
        #expect(ImageError(path: path, reason: .tooLargeJPEG(width: 65000, height: 65000, limit: limit)).description
            == "JPEG image too large: \(path) (65000×65000 pixels, limit \(limit))")
    }

    @Test func jpegOverThePixelBoundIsRefused() throws {
        let path = Self.fixture("baseline.jpg")
        #expect(Self.failure { _ = try ImageFiles.decode(file: path, maxPixels: 64 * 48 - 1) }
            == ImageError(path: path, reason: .tooLargeJPEG(width: 64, height: 48, limit: 64 * 48 - 1)))
    }

    @Test func pngBombIsRefusedFromItsHeader() throws {
        let path = Self.fixture("bomb.png")
        #expect(Self.failure { _ = try ImageFiles.decode(file: path) }
            == ImageError(path: path, reason: .tooLarge(width: 100_000, height: 100_000, limit: GrayImage.defaultMaxPixels)))
        #expect(try ImageFiles.header(ofFile: path) == ImageHeader(format: .png, width: 100_000, height: 100_000))
    }

    @Test func truncatedJPEG() throws {
        let path = Self.fixture("truncated.jpg")
        let error = Self.failure { _ = try ImageFiles.decode(file: path) }
        #expect(error == ImageError(path: path, reason: .truncatedJPEG))
        #expect(error?.description == "truncated JPEG file: \(path) (the data ends before the image does)")
        // The header is whole: only the scan is cut.
        #expect(try ImageFiles.header(ofFile: path) == ImageHeader(format: .jpeg, width: 64, height: 48))
    }

    @Test func corruptJPEG() throws {
        let path = Self.fixture("corrupt.jpg")
        let error = Self.failure { _ = try ImageFiles.decode(file: path) }
        guard let error, case .corruptJPEG(let why) = error.reason else {
            Issue.record("expected corruptJPEG, got \(error)")
            return
        }
        #expect(why.contains("Corrupt JPEG data"), "\(why)")
        #expect(error.description == "corrupt JPEG file: \(path) (\(why))")
    }

    @Test func jpegCutInsideItsHeaderIsTruncated() throws {
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.fixture("baseline.jpg"))))
        let path = Fixtures.temporaryPath("cut.jpg")
        try Data(data.prefix(100)).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(Self.failure { _ = try ImageFiles.header(ofFile: path) } == ImageError(path: path, reason: .truncatedJPEG))
        #expect(Self.failure { _ = try ImageFiles.decode(file: path) } == ImageError(path: path, reason: .truncatedJPEG))
    }

    @Test(arguments: [
        ("/nonexistent/picture.jpg", ImageError.Reason.cannotRead("No such file or directory")),
        (Fixtures.testsDirectory.path, .cannotRead("Is a directory")),
        ("/dev/zero", .cannotRead("it is a character device, not a regular file")),
        (MediaTests.fixture("not-an-image.jpg"), .notAnImage),
    ])
    func unreadableFiles(_ path: String, _ reason: ImageError.Reason) {
        let expected = ImageError(path: path, reason: reason)
        #expect(Self.failure { _ = try ImageFiles.decode(file: path) } == expected)
        #expect(Self.failure { _ = try ImageFiles.header(ofFile: path) } == expected)
        #expect(expected.description.contains(path))
    }

    @Test func notAnImageMessage() {
        #expect(ImageError(path: "a.jpg", reason: .notAnImage).description == "not a PNG or JPEG file: a.jpg (neither signature)")
    }

    @Test func formatIsToldBySignature() throws {
        let image = try ImageFiles.decode(file: Self.fixture("checker-png.jpg"))
        #expect(image == (try GrayImage(pngFile: Self.fixture("checker.png"))))
    }

    // MARK: DCT scaling

    @Test func atLeastDecodesAtASmallerDCTScale() throws {
        let path = Self.fixture("big.jpg")
        let full = try ImageFiles.decode(file: path)
        #expect(full.width == 256 && full.height == 192)
        let small = try ImageFiles.decode(file: path, atLeast: (width: 40, height: 30))
        #expect(small.width >= 40 && small.height >= 30)
        #expect(small.width < 256 && small.height < 192)
        #expect(small.width == 64 && small.height == 48)  // 2/8: 1/8 would be 32 × 24
        // Too large a need: full size.
        let same = try ImageFiles.decode(file: path, atLeast: (width: 300, height: 10))
        #expect(same == full)
    }

    @Test func atLeastIsAsDisplayed() throws {
        // Stored 48 × 64, displayed 64 × 48: 32 × 24 displayed is exactly 4/8.
        let image = try ImageFiles.decode(file: Self.fixture("orientation-6.jpg"), atLeast: (width: 32, height: 20))
        #expect(image.width == 32 && image.height == 24)
    }

    // MARK: Resampling

    @Test func checkerboardScaledDownIsFlatGray() throws {
        let checker = try ImageFiles.decode(file: Self.fixture("checker.png"))
        let scaled = checker.scaled(width: 4, height: 4)
        #expect(scaled.width == 4 && scaled.height == 4 && scaled.rgb == nil)
        #expect(scaled.gray.allSatisfy { $0 == 127 || $0 == 128 }, "\(scaled.gray)")
        #expect(scaled.isOpaque)
    }

    @Test func transparentPixelsLendNoColor() {
        // White opaque and black transparent: premultiplied, the average is white, half opaque.
        let image = GrayImage(width: 2, height: 1, gray: [255, 0], alpha: [255, 0])
        let scaled = image.scaled(width: 1, height: 1)
        #expect(scaled.gray == [255] && (scaled.alpha == [127] || scaled.alpha == [128]))
    }

    @Test func fractionalCoverage() {
        // 3 pixels into 2: each output covers 1.5 source pixels.
        let image = GrayImage(width: 3, height: 1, gray: [0, 90, 180])
        #expect(image.scaled(width: 2, height: 1).gray == [30, 150])
    }

    @Test func colorStaysColorAndGrayIsLuma() throws {
        let image = try ImageFiles.decode(file: Self.fixture("baseline.jpg"))
        let scaled = image.scaled(width: 16, height: 12)
        #expect(scaled.width == 16 && scaled.height == 12)
        try ColorImageTests.expectGrayIsLuma(scaled, "scaled")
        let red = Self.rgb(scaled, 4, 3)
        #expect(zip(red, [220, 30, 30]).allSatisfy { abs($0 - $1) <= 16 }, "\(red)")
    }

    @Test func upscalingGivesTheSizeAsked() {
        let image = GrayImage(width: 2, height: 1, gray: [0, 255])
        let scaled = image.scaled(width: 8, height: 3)
        #expect(scaled.width == 8 && scaled.height == 3)
        #expect(scaled[0, 1].gray == 0 && scaled[7, 1].gray == 255)
        #expect(scaled.gray[0..<8].elementsEqual(scaled.gray[0..<8].sorted()))
    }

    @Test func emptySizes() {
        let image = GrayImage(width: 2, height: 1, gray: [0, 255])
        #expect(image.scaled(width: 0, height: 5).gray.isEmpty)
        #expect(image.aspectFilled(width: -3, height: 5).gray.isEmpty)
        let empty = GrayImage(width: 0, height: 0, gray: [])
        #expect(empty.scaled(width: 2, height: 2).alpha == [0, 0, 0, 0])
    }

    /// A 2:1 image whose middle half is white and outer quarters black fills a square with
    /// white only: the crop is the centre, resampled once.
    @Test func aspectFillKeepsTheCentre() {
        let row: [UInt8] = [0, 0, 255, 255, 255, 255, 0, 0]
        let image = GrayImage(width: 8, height: 4, gray: Array([[UInt8]](repeating: row, count: 4).joined()))
        let filled = image.aspectFilled(width: 2, height: 2)
        #expect(filled.width == 2 && filled.height == 2)
        #expect(filled.gray == [255, 255, 255, 255])
        // Scaling the whole image would have mixed in the black sides.
        #expect(image.scaled(width: 2, height: 2).gray != filled.gray)
        // A tall image keeps its middle rows.
        let tall = GrayImage(width: 1, height: 4, gray: [0, 200, 200, 0]).aspectFilled(width: 3, height: 3)
        #expect(tall.gray.allSatisfy { $0 == 200 })
    }

    // MARK: Circle mask

    @Test func circleMask() {
        let size = 32
        let image = GrayImage(width: size, height: size, gray: [UInt8](repeating: 200, count: size * size))
        let masked = image.masked(to: .circle)
        #expect(masked.gray == image.gray)
        #expect(masked[15, 15].alpha == 255 && masked[16, 16].alpha == 255)
        for (x, y) in [(0, 0), (size - 1, 0), (0, size - 1), (size - 1, size - 1)] { #expect(masked[x, y].alpha == 0) }
        let edge = masked.alpha.filter { $0 > 0 && $0 < 255 }
        #expect(edge.count >= 4 * size / 2, "\(edge.count) edge pixels")
        for y in 0..<size {
            for x in 0..<size {
                let a = masked[x, y].alpha
                #expect(a == masked[size - 1 - x, y].alpha && a == masked[x, size - 1 - y].alpha && a == masked[y, x].alpha)
            }
        }
        // From the centre outwards along the diagonal, coverage never grows.
        let diagonal = (16..<size).map { masked[$0, $0].alpha }
        #expect(diagonal.elementsEqual(diagonal.sorted(by: >)))
        #expect(image.masked(to: .rectangle) == image)
    }

    @Test func ellipseMaskOfAWideImage() {
        let image = GrayImage(width: 40, height: 20, gray: [UInt8](repeating: 9, count: 800),
                              rgb: [UInt8](repeating: 9, count: 2400))
        let masked = image.masked(to: .circle)
        #expect(masked.rgb == image.rgb)
        #expect(masked[20, 10].alpha == 255 && masked[0, 10].alpha > 0 && masked[0, 0].alpha == 0 && masked[20, 0].alpha > 0)
        for y in 0..<20 {
            for x in 0..<40 {
                #expect(masked[x, y].alpha == masked[39 - x, y].alpha && masked[x, y].alpha == masked[x, 19 - y].alpha)
            }
        }
    }

    // MARK: PictureCache

    @Test func cacheHitsMissesAndSizes() throws {
        let cache = PictureCache()
        let path = Self.fixture("big.jpg")
        let first = try cache.picture(path: path, width: 24, height: 24, shape: .circle)
        #expect(first.width == 24 && first.height == 24 && first[12, 12].alpha == 255 && first[0, 0].alpha == 0)
        let second = try cache.picture(path: path, width: 24, height: 24, shape: .circle)
        #expect(second == first)
        #expect(cache.statistics.hits == 1 && cache.statistics.misses == 1)
        _ = try cache.picture(path: path, width: 30, height: 24, shape: .circle)
        _ = try cache.picture(path: path, width: 24, height: 24, shape: .rectangle)
        #expect(cache.statistics.hits == 1 && cache.statistics.misses == 3 && cache.statistics.count == 3)
        #expect(cache.statistics.cost >= 3 * 24 * 24 * 5)
    }

    /// The cached picture is the one made by hand from a full decode, within the difference
    /// a DCT-scaled decode makes.
    @Test func cachedPictureMatchesAFullDecode() throws {
        let path = Self.fixture("baseline.jpg")
        let picture = try PictureCache().picture(path: path, width: 16, height: 16, shape: .rectangle)
        let byHand = try ImageFiles.decode(file: path).aspectFilled(width: 16, height: 16)
        #expect(picture.width == 16 && picture.height == 16)
        let differences = zip(picture.rgb ?? [], byHand.rgb ?? []).map { abs(Int($0) - Int($1)) }
        #expect(differences.count == 16 * 16 * 3 && (differences.max() ?? 0) <= 40)
    }

    @Test func brokenFileIsReadOnceAndFailsTheSameTwice() {
        let cache = PictureCache()
        let path = Self.fixture("truncated.jpg")
        let first = Self.failure { _ = try cache.picture(path: path, width: 10, height: 10, shape: .rectangle) }
        let second = Self.failure { _ = try cache.picture(path: path, width: 10, height: 10, shape: .rectangle) }
        #expect(first == ImageError(path: path, reason: .truncatedJPEG) && second == first)
        #expect(cache.statistics.misses == 1 && cache.statistics.hits == 1)
    }

    @Test func byteBoundEvicts() throws {
        // A 16 × 16 color picture costs 16 × 16 × 5 bytes and a little: two do not fit.
        let cache = PictureCache(maxBytes: 2 * 16 * 16 * 5)
        let path = Self.fixture("baseline.jpg")
        _ = try cache.picture(path: path, width: 16, height: 16, shape: .rectangle)
        _ = try cache.picture(path: path, width: 16, height: 16, shape: .circle)
        #expect(cache.statistics.evictions == 1 && cache.statistics.count == 1)
        #expect(cache.statistics.cost <= 2 * 16 * 16 * 5)
    }

    @Test func headersAreCached() throws {
        let cache = PictureCache()
        let path = Self.fixture("orientation-8.jpg")
        #expect(try cache.header(path: path) == ImageHeader(format: .jpeg, width: 64, height: 48))
        #expect(try cache.header(path: path) == ImageHeader(format: .jpeg, width: 64, height: 48))
        let missing = "/nonexistent/a.png"
        #expect(Self.failure { _ = try cache.header(path: missing) } == Self.failure { _ = try cache.header(path: missing) })
    }

    @Test func concurrentRequestsGetEqualPictures() throws {
        let cache = PictureCache()
        let paths = ["baseline.jpg", "progressive.jpg", "checker.png", "orientation-6.jpg"].map(Self.fixture)
        let results = Mutex<[String: [GrayImage]]>([:])
        DispatchQueue.concurrentPerform(iterations: 16) { i in
            let path = paths[i % paths.count]
            let picture = try? cache.picture(path: path, width: 12, height: 12, shape: .circle)
            results.withLock { $0[path, default: []].append(picture ?? GrayImage(width: 0, height: 0, gray: [])) }
        }
        for (path, pictures) in results.withLock({ $0 }) {
            #expect(pictures.count == 4 && pictures.allSatisfy { $0 == pictures[0] && $0.width == 12 }, "\(path)")
        }
        let statistics = cache.statistics
        #expect(statistics.hits + statistics.misses == 16 && statistics.count == 4)
    }
}
