internal import CJPEG
import TextKitLite

// Every call into libjpeg lives in CJPEG.c (under its own setjmp, so that libjpeg's longjmp
// never crosses a Swift frame); every call into CJPEG lives in this file.

/// JPEG headers and decoding over CJPEG.
enum JPEG {
    /// What a JPEG's markers up to its first scan say.
    struct Header: Sendable, Hashable {
        /// The size as displayed (sides swapped for EXIF orientations 5 to 8).
        var width: Int
        var height: Int
        /// The EXIF orientation, 1 to 8 (1 without EXIF or with a broken one).
        var orientation: Int
    }

    /// Reads the markers up to the first scan, never pixel data.
    ///
    /// - Parameters:
    ///   - data: the start of a JPEG file (the whole file, or enough to reach its first scan).
    ///   - name: what errors call the data.
    ///   - maxPixels: the pixel bound an error for a side over 65,500 pixels reports
    ///     (the header itself is not checked against it).
    /// - Throws: `ImageError` naming `name`: `.notAnImage` without the JPEG signature,
    ///   `.truncatedJPEG` when the data ends before the first scan, `.corruptJPEG`,
    ///   `.tooLargeJPEG` for a side over 65,500 pixels, `.outOfMemoryJPEG`.
    /// - Complexity: O(bytes up to the first scan).
    static func header(_ data: [UInt8], name: String, maxPixels: Int = GrayImage.defaultMaxPixels) throws(ImageError) -> Header {
        var image = tkl_jpeg_image()
        let code = data.withUnsafeBufferPointer { tkl_jpeg_header($0.baseAddress, $0.count, &image) }
        guard code == TKL_JPEG_OK else { throw error(code, image, name: name, maxPixels: maxPixels) }
        return Header(width: Int(image.width), height: Int(image.height), orientation: Int(image.orientation))
    }

    /// Decodes a JPEG, color kept (a grayscale JPEG gives a gray image, `rgb` nil), EXIF
    /// orientation applied, opaque.
    ///
    /// - Parameters:
    ///   - data: the whole JPEG file.
    ///   - name: what errors call the data.
    ///   - maxPixels: the largest stored `width × height`, checked from the frame header
    ///     before any pixel is allocated.
    ///   - atLeast: the size needed (as displayed): decoded at the smallest DCT scale
    ///     (1/8 to 8/8) still at least that large in both dimensions; nil for full size.
    /// - Throws: `ImageError` naming `name`: `.notAnImage`, `.truncatedJPEG`,
    ///   `.corruptJPEG` with libjpeg's message, `.tooLargeJPEG`, `.outOfMemoryJPEG`.
    /// - Complexity: O(data + pixels), the pixels at the chosen scale.
    static func decode(_ data: [UInt8], name: String, maxPixels: Int, atLeast: (width: Int, height: Int)?) throws(ImageError) -> GrayImage {
        var image = tkl_jpeg_image()
        let minimum = atLeast.map { (UInt32(clamping: max(0, $0.width)), UInt32(clamping: max(0, $0.height))) } ?? (0, 0)
        let code = data.withUnsafeBufferPointer {
            tkl_jpeg_decode($0.baseAddress, $0.count, UInt64(max(0, maxPixels)), minimum.0, minimum.1, &image)
        }
        defer { tkl_jpeg_free(image.pixels) }
        guard code == TKL_JPEG_OK, let pixels = image.pixels else { throw error(code, image, name: name, maxPixels: maxPixels) }
        let count = Int(image.width) * Int(image.height)
        return GrayImage(
            width: Int(image.width), height: Int(image.height),
            gray: Array(UnsafeBufferPointer(start: pixels, count: count)),
            rgb: image.has_rgb == 0 ? nil : Array(UnsafeBufferPointer(start: pixels + count, count: 3 * count)))
    }

    /// The `ImageError` for a failed call.
    private static func error(_ code: tkl_jpeg_code, _ image: tkl_jpeg_image, name: String, maxPixels: Int) -> ImageError {
        let reason: ImageError.Reason = switch code {
        case TKL_JPEG_NOT_JPEG: .notAnImage
        case TKL_JPEG_TRUNCATED: .truncatedJPEG
        case TKL_JPEG_TOO_LARGE: .tooLargeJPEG(width: Int(image.stored_width), height: Int(image.stored_height), limit: maxPixels)
        case TKL_JPEG_NO_MEMORY: .outOfMemoryJPEG
        default: .corruptJPEG(message(image.message))
        }
        return ImageError(path: name, reason: reason)
    }
}

/// The text of a NUL-terminated C message held in a fixed-size array.
private func message<Storage>(_ storage: Storage) -> String {
    withUnsafeBytes(of: storage) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
}
