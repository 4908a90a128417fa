/// An 8-bit gray image with 8-bit alpha and, for a color source, the 8-bit RGB it was
/// decoded from: what an inline image (an emoticon) is drawn from.
///
/// Two row-major planes of `width × height` bytes: `gray` (0 black to 255 white, not
/// premultiplied: a transparent pixel keeps its gray level) and `alpha` (0 transparent to 255
/// opaque); gray outputs draw these. A color image also has `rgb`, `width × height × 3` bytes
/// (R, G, B of each pixel, sRGB as stored, straight like `gray`), which color outputs draw;
/// its `gray` is the Rec. 601 luma of `rgb` when it was decoded from a PNG. Decoded from PNG by
/// `init(pngFile:maxPixels:)` and `init(pngData:name:maxPixels:)`, encoded by `pngData()`;
/// `Codable` as width, height and the planes in base64.
public struct GrayImage: Sendable, Hashable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Gray level of each pixel, row by row.
    public let gray: [UInt8]
    /// Opacity of each pixel, row by row.
    public let alpha: [UInt8]
    /// Color of each pixel, row by row: R, G, B, not premultiplied; nil for a gray image.
    public let rgb: [UInt8]?

    /// The bound on `width × height` that decoding applies unless told otherwise: 4096 × 4096
    /// pixels (32 MB decoded from a gray PNG, 80 MB from a color one).
    public static let defaultMaxPixels = 1 << 24

    /// An image from its planes.
    ///
    /// - Parameters:
    ///   - width: width in pixels.
    ///   - height: height in pixels.
    ///   - gray: `width × height` gray levels, row by row.
    ///   - alpha: `width × height` opacities, or nil for an opaque image.
    ///   - rgb: `width × height × 3` bytes, the R, G, B of each pixel, row by row, not
    ///     premultiplied; nil for a gray image. Not checked against `gray`: a color output
    ///     draws `rgb`, a gray one `gray`.
    /// - Precondition: `width` and `height` are not negative, `gray` and `alpha` hold
    ///   `width × height` bytes and `rgb` three times as many.
    public init(width: Int, height: Int, gray: [UInt8], alpha: [UInt8]? = nil, rgb: [UInt8]? = nil) {
        precondition(width >= 0 && height >= 0, "negative image size \(width)×\(height)")
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        precondition(!overflow && gray.count == count, "gray plane of \(gray.count) bytes for \(width)×\(height) pixels")
        precondition(alpha == nil || alpha?.count == count, "alpha plane of \(alpha?.count ?? 0) bytes for \(width)×\(height) pixels")
        precondition(rgb == nil || rgb?.count == 3 * count, "RGB plane of \(rgb?.count ?? 0) bytes for \(width)×\(height) pixels")
        self.width = width
        self.height = height
        self.gray = gray
        self.alpha = alpha ?? [UInt8](repeating: 255, count: count)
        self.rgb = rgb
    }

    /// The gray level and opacity at (x, y).
    public subscript(x: Int, y: Int) -> (gray: UInt8, alpha: UInt8) {
        (gray[y * width + x], alpha[y * width + x])
    }

    /// True when the image has an RGB plane (it was decoded from a color PNG or given one).
    public var isColor: Bool { rgb != nil }

    /// The premultiplied R, G, B and A at (x, y), as a color output blends them: each color
    /// component × alpha / 255, rounded to the nearest; for a gray image R = G = B = gray.
    ///
    /// - Complexity: O(1).
    public func premultipliedRGBA(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let index = y * width + x
        let a = alpha[index]
        func premultiplied(_ value: UInt8) -> UInt8 { UInt8((UInt32(value) * UInt32(a) + 127) / 255) }
        guard let rgb else {
            let gray = premultiplied(gray[index])
            return (gray, gray, gray, a)
        }
        return (premultiplied(rgb[3 * index]), premultiplied(rgb[3 * index + 1]), premultiplied(rgb[3 * index + 2]), a)
    }

    /// The whole image as premultiplied RGBA: `width × height × 4` bytes, R, G, B, A of each
    /// pixel, row by row, each as `premultipliedRGBA(x:y:)` gives it.
    ///
    /// - Complexity: O(pixels).
    public func premultipliedRGBA() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(4 * gray.count)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b, a) = premultipliedRGBA(x: x, y: y)
                bytes.append(r)
                bytes.append(g)
                bytes.append(b)
                bytes.append(a)
            }
        }
        return bytes
    }

    /// True when every pixel is fully opaque.
    ///
    /// - Complexity: O(pixels).
    public var isOpaque: Bool { alpha.allSatisfy { $0 == 255 } }

    /// The image drawn over a uniform background: `width × height` gray levels, row by row,
    /// each `(gray × alpha + background × (255 − alpha)) / 255` rounded to the nearest.
    ///
    /// - Complexity: O(pixels).
    public func composited(over background: UInt8) -> [UInt8] {
        let background = Int(background)
        return zip(gray, alpha).map { gray, alpha in
            let alpha = Int(alpha)
            return UInt8((Int(gray) * alpha + background * (255 - alpha) + 127) / 255)
        }
    }
}
