import TextKitLite

/// The kinds of picture file read: told apart by their signature, never by their name.
public enum ImageFileFormat: String, Sendable, Hashable {
    /// PNG (signature 89 50 4E 47 0D 0A 1A 0A), decoded by libpng.
    case png
    /// JPEG (SOI FF D8 and the next marker's FF), decoded by libjpeg-turbo.
    case jpeg

    /// The format whose signature `bytes` start with, or nil for neither.
    init?(signatureOf bytes: some Collection<UInt8>) {
        if bytes.starts(with: Self.pngSignature) {
            self = .png
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else {
            return nil
        }
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
}

/// What a picture file's header says.
public struct ImageHeader: Sendable, Hashable {
    public var format: ImageFileFormat
    /// Size in pixels as the image is displayed: a JPEG's EXIF orientation 5–8 swaps them.
    public var width: Int
    public var height: Int

    public init(format: ImageFileFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }
}

/// Reading picture files (PNG or JPEG): their headers, and their pixels with color and
/// orientation. Every file is opened through the core's `FileBytes`: only a regular file is
/// read, anything else (a directory, a device, a FIFO) is refused without blocking, and no
/// file over `GrayImage.maximumFileSize` (64 MB) is read.
public enum ImageFiles {
    /// Reads only the header of a PNG or JPEG file (never pixel data; a bounded number of bytes
    /// for PNG; for JPEG up to the start of scan), e.g. for measuring a cell's height.
    ///
    /// A PNG's size comes from its IHDR chunk, within the first 33 bytes. A JPEG's comes from
    /// libjpeg's `jpeg_read_header` and its EXIF orientation (APP1): the file is read 64 KB
    /// at a time (doubling) until the first scan is reached, so scan data is read only as
    /// far as the last block read goes, and never decoded.
    ///
    /// - Parameter path: the file.
    /// - Returns: the format and the size as displayed.
    /// - Throws: `ImageError` naming `path`: `.cannotRead` (missing, a directory, a device,
    ///   unreadable), `.fileTooLarge`, `.notAnImage`; for PNG `.truncated` (fewer than 33
    ///   bytes) or `.corrupt` (no IHDR first, a side of 0 or over 2³¹ − 1); for JPEG
    ///   `.truncatedJPEG`, `.corruptJPEG`, `.tooLargeJPEG` (a side over 65,500).
    /// - Complexity: O(1) for PNG; O(bytes before the first scan) for JPEG.
    public static func header(ofFile path: String) throws(ImageError) -> ImageHeader {
        let file = try open(path)
        var bytes: [UInt8] = []
        try read(file, upTo: pngHeaderSize, into: &bytes, path: path)
        switch ImageFileFormat(signatureOf: bytes) {
        case .png?:
            return try pngHeader(bytes, path: path)
        case .jpeg?:
            // Ends: every turn reads more of the file, or the error is thrown.
            var chunk = jpegHeaderChunk
            while true {
                let before = bytes.count
                try read(file, upTo: min(chunk, file.size), into: &bytes, path: path)
                do {
                    let header = try JPEG.header(bytes, name: path)
                    return ImageHeader(format: .jpeg, width: header.width, height: header.height)
                } catch where error.reason == .truncatedJPEG && bytes.count < file.size && bytes.count > before {
                    chunk *= 2
                }
            }
        case nil:
            throw ImageError(path: path, reason: .notAnImage)
        }
    }

    /// Decodes a PNG (core's GrayImage(pngData:...)) or JPEG file (chosen by signature, not by
    /// name), color kept (GrayImage.rgb, gray = Rec.601 luma as the PNG decoder computes it),
    /// EXIF orientation applied. `maxPixels` is checked from the header before any pixel is
    /// allocated. `atLeast`: the caller only needs this many pixels (after orientation); a JPEG
    /// may then be decoded with libjpeg's DCT scaling (scale_num/8) at the smallest scale still
    /// ≥ that size in both dimensions — a big speed win for thumbnails.
    ///
    /// A grayscale JPEG gives a gray image (`rgb` nil); YCbCr, RGB, CMYK and YCCK JPEGs give
    /// a color one (CMYK converted, Adobe's inverted CMYK understood). A JPEG image is opaque.
    /// Every warning of libjpeg about missing or corrupt data is an error: an image decoded
    /// with gray fill or garbage is never returned.
    ///
    /// - Parameters:
    ///   - path: the file, a regular file read whole (at most 64 MB).
    ///   - maxPixels: the largest `width × height` (as stored, at full size) accepted.
    ///   - atLeast: the size needed, as displayed; nil (or 0 × 0) for full size. A PNG is
    ///     always decoded at full size.
    /// - Throws: `ImageError` naming `path`: `.cannotRead`, `.fileTooLarge`, `.notAnImage`;
    ///   for PNG what `GrayImage(pngData:name:maxPixels:)` throws; for JPEG `.truncatedJPEG`,
    ///   `.corruptJPEG` with libjpeg's message (or "the image has more than 1000 scans"),
    ///   `.tooLargeJPEG`, `.outOfMemoryJPEG`.
    /// - Complexity: O(file size + pixels decoded).
    public static func decode(file path: String, maxPixels: Int = GrayImage.defaultMaxPixels,
                              atLeast: (width: Int, height: Int)? = nil) throws(ImageError) -> GrayImage {
        try decode(file: path, maxPixels: maxPixels) { _ in atLeast }
    }

    /// `decode(file:maxPixels:atLeast:)` with the size needed computed from the header (as
    /// displayed) once the file is read: the file is read once.
    static func decode(file path: String, maxPixels: Int,
                       atLeast: (ImageHeader) -> (width: Int, height: Int)?) throws(ImageError) -> GrayImage {
        let data: [UInt8]
        do {
            data = try FileBytes.contents(of: path, limit: GrayImage.maximumFileSize)
        } catch {
            throw ImageError(path: path, failure: error)
        }
        switch ImageFileFormat(signatureOf: data) {
        case .png?:
            return try GrayImage(pngData: data, name: path, maxPixels: maxPixels)
        case .jpeg?:
            let header = try JPEG.header(data, name: path, maxPixels: maxPixels)
            let needed = atLeast(ImageHeader(format: .jpeg, width: header.width, height: header.height))
            return try JPEG.decode(data, name: path, maxPixels: maxPixels, atLeast: needed)
        case nil:
            throw ImageError(path: path, reason: .notAnImage)
        }
    }

    /// The PNG signature, IHDR's length and type, its 13 bytes of data and its CRC.
    static let pngHeaderSize = 33
    /// The first read of a JPEG's header; doubled until the first scan is reached.
    static let jpegHeaderChunk = 64 << 10

    /// A PNG's size from its first 33 bytes: IHDR must come first (PNG 1.2, 5.6), its
    /// width and height from 1 to 2³¹ − 1. The CRC is left to the decoder.
    static func pngHeader(_ bytes: [UInt8], path: String) throws(ImageError) -> ImageHeader {
        guard bytes.count >= 24 else { throw ImageError(path: path, reason: .truncated) }
        guard bytes[8..<16].elementsEqual([0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]) else {
            throw ImageError(path: path, reason: .corrupt("the first chunk is not a 13-byte IHDR"))
        }
        func read32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        let width = read32(16), height = read32(20)
        guard (1...Int(Int32.max)).contains(width), (1...Int(Int32.max)).contains(height) else {
            throw ImageError(path: path, reason: .corrupt("IHDR: invalid image size \(width)×\(height)"))
        }
        return ImageHeader(format: .png, width: width, height: height)
    }

    /// Opens a regular file for reading (`FileBytes.open`), its failures as `ImageError`.
    private static func open(_ path: String) throws(ImageError) -> FileBytes.RegularFile {
        do {
            return try FileBytes.open(path, limit: GrayImage.maximumFileSize)
        } catch {
            throw ImageError(path: path, failure: error)
        }
    }

    /// Reads on from the file's position until `bytes` holds `count` bytes or the file ends.
    private static func read(_ file: borrowing FileBytes.RegularFile, upTo count: Int, into bytes: inout [UInt8],
                             path: String) throws(ImageError) {
        let start = bytes.count
        guard count > start else { return }
        bytes.append(contentsOf: repeatElement(0, count: count - start))
        let result = bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(FileBytes.Failure) in try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[start...])) }
        }
        switch result {
        case .success(let got): bytes.removeSubrange((start + got)...)
        case .failure(let failure): throw ImageError(path: path, failure: failure)
        }
    }
}
