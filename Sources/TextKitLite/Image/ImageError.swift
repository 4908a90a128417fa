/// Why an image could not be read, decoded or encoded. Every case names the file (or the
/// name given to in-memory data) it is about.
public struct ImageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Equatable {
        /// The file could not be read: the system's reason ("No such file or directory"), or
        /// that it is not a regular file ("it is a pipe, not a regular file").
        case cannotRead(String)
        /// The file is larger than an image file may be (its size in bytes, the limit).
        case fileTooLarge(bytes: Int, limit: Int)
        /// The data does not start with the PNG signature.
        case notPNG
        /// The data ends before the image does.
        case truncated
        /// A chunk's length runs past the end of the data: its type, the length it declares
        /// and the bytes after its 8-byte header (its data and CRC need `length` + 4). Checked
        /// for every chunk before libpng reads any, so a 2 GB length in a 100-byte file
        /// allocates nothing.
        case chunkPastEnd(chunk: String, length: Int, following: Int)
        /// libpng refused the data: its message ("IDAT: CRC error", "invalid distance too far back").
        case corrupt(String)
        /// The image has more pixels than the bound (read from IHDR, before any pixel is allocated).
        case tooLarge(width: Int, height: Int, limit: Int)
        /// The image cannot be encoded: why ("a PNG cannot be 0 pixels wide").
        case cannotEncode(String)
        /// Memory for the pixels or the encoded bytes could not be had.
        case outOfMemory
        /// The data starts with neither the PNG nor the JPEG signature (a picture file
        /// must be one of the two; the file's name does not matter).
        case notAnImage
        /// The JPEG data ends before the image does (libjpeg's "Premature end of JPEG
        /// file", which libjpeg itself only warns about, drawing the rest gray).
        case truncatedJPEG
        /// libjpeg refused the JPEG data, or warned that it is corrupt: its message
        /// ("Corrupt JPEG data: bad Huffman code", "Bogus marker length"), or "the image
        /// has more than 1000 scans".
        case corruptJPEG(String)
        /// The JPEG image has more pixels than the bound (`limit`), or a side over 65,500
        /// pixels, the most libjpeg decodes (read from the frame header, before any pixel
        /// is allocated).
        case tooLargeJPEG(width: Int, height: Int, limit: Int)
        /// Memory for the JPEG's pixels could not be had, or libjpeg needed more than its
        /// bound (12 bytes a pixel of the pixel bound, plus 32 MB).
        case outOfMemoryJPEG
    }

    /// The path of the file, or the name the caller gave to in-memory data.
    public let path: String
    /// What went wrong.
    public let reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// Why an image file at `path` could not be read, from `FileBytes`'s failure: the
    /// one mapping of every image module.
    package init(path: String, failure: FileBytes.Failure) {
        switch failure {
        case .tooLarge(let bytes, let limit): self.init(path: path, reason: .fileTooLarge(bytes: bytes, limit: limit))
        case .notFound, .isDirectory, .notRegularFile, .cannotRead: self.init(path: path, reason: .cannotRead(failure.description))
        }
    }

    public var description: String {
        switch reason {
        case .cannotRead(let why): "cannot read image file \(path): \(why)"
        case .fileTooLarge(let bytes, let limit): "image file too large: \(path) (\(bytes) bytes, limit \(limit))"
        case .notPNG: "not a PNG file: \(path) (no PNG signature)"
        case .truncated: "truncated PNG file: \(path) (the data ends before the image does)"
        case .chunkPastEnd(let chunk, let length, let following):
            "truncated PNG file: \(path) (its \(chunk) chunk declares \(length) bytes of data, but \(following) bytes follow its header)"
        case .corrupt(let why): "corrupt PNG file: \(path) (\(why))"
        case .tooLarge(let width, let height, let limit): "PNG image too large: \(path) (\(width)×\(height) pixels, limit \(limit))"
        case .cannotEncode(let why): "cannot encode \(path) as PNG: \(why)"
        case .outOfMemory: "out of memory for the PNG image \(path)"
        case .notAnImage: "not a PNG or JPEG file: \(path) (neither signature)"
        case .truncatedJPEG: "truncated JPEG file: \(path) (the data ends before the image does)"
        case .corruptJPEG(let why): "corrupt JPEG file: \(path) (\(why))"
        case .tooLargeJPEG(let width, let height, let limit) where max(width, height) > 65_500:
            "JPEG image too large: \(path) (\(width)×\(height) pixels, more than 65500 a side; limit \(limit) pixels)"
        case .tooLargeJPEG(let width, let height, let limit):
            "JPEG image too large: \(path) (\(width)×\(height) pixels, limit \(limit))"
        case .outOfMemoryJPEG: "out of memory for the JPEG image \(path)"
        }
    }
}
