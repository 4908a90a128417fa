/// An 8-bit gray image with 8-bit alpha: what an inline image (an emoticon) is drawn from.
///
/// Two row-major planes of `width × height` bytes: `gray` (0 black to 255 white, not
/// premultiplied: a transparent pixel keeps its gray level) and `alpha` (0 transparent to 255
/// opaque). Decoded from PNG by `init(pngFile:maxPixels:)` and `init(pngData:name:maxPixels:)`,
/// encoded by `pngData()`; `Codable` as width, height and the two planes in base64.
public struct GrayImage: Sendable, Hashable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Gray level of each pixel, row by row.
    public let gray: [UInt8]
    /// Opacity of each pixel, row by row.
    public let alpha: [UInt8]

    /// The bound on `width × height` that decoding applies unless told otherwise: 4096 × 4096
    /// pixels (32 MB decoded).
    public static let defaultMaxPixels = 1 << 24

    /// An image from its planes.
    ///
    /// - Parameters:
    ///   - width: width in pixels.
    ///   - height: height in pixels.
    ///   - gray: `width × height` gray levels, row by row.
    ///   - alpha: `width × height` opacities, or nil for an opaque image.
    /// - Precondition: `width` and `height` are not negative and each plane holds
    ///   `width × height` bytes.
    public init(width: Int, height: Int, gray: [UInt8], alpha: [UInt8]? = nil) {
        precondition(width >= 0 && height >= 0, "negative image size \(width)×\(height)")
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        precondition(!overflow && gray.count == count, "gray plane of \(gray.count) bytes for \(width)×\(height) pixels")
        precondition(alpha == nil || alpha?.count == count, "alpha plane of \(alpha?.count ?? 0) bytes for \(width)×\(height) pixels")
        self.width = width
        self.height = height
        self.gray = gray
        self.alpha = alpha ?? [UInt8](repeating: 255, count: count)
    }

    /// The gray level and opacity at (x, y).
    public subscript(x: Int, y: Int) -> (gray: UInt8, alpha: UInt8) {
        (gray[y * width + x], alpha[y * width + x])
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
