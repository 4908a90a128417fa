/// Why a font could not be loaded. Every case names the file it is about.
public struct FontError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong with the file.
    public enum Reason: Sendable, Equatable {
        /// No file exists at the path.
        case notFound
        /// The path names a directory, not a file.
        case isDirectory
        /// The file exists but could not be read (permissions, I/O error).
        case unreadable(String)
        /// The path names a device, pipe or socket (which kind, in words), not a file.
        case notRegularFile(String)
        /// The file is empty.
        case empty
        /// FreeType or HarfBuzz does not recognise the bytes as a font.
        case notAFont(String)
        /// The face index is beyond the number of faces in the file.
        case faceIndexOutOfRange(index: Int, faceCount: Int)
        /// The named instance (a face index's bits 16 and up) is beyond the variable font's
        /// named instances (none for a font that is not variable).
        case namedInstanceOutOfRange(instance: Int, instanceCount: Int)
        /// The "#INDEX" of a font specification is not a number ≥ 0.
        case invalidFaceIndex(String)
        /// The file is larger than the loader accepts.
        case tooLarge(bytes: Int, limit: Int)
        /// A font of the bundled chain is missing: the library's fonts folder was not found.
        case bundledFontNotFound
    }

    /// The path of the font file.
    public let path: String
    /// What went wrong.
    public let reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .notFound: "font file not found: \(path)"
        case .isDirectory: "font path is a directory, not a font file: \(path)"
        case .unreadable(let why): "cannot read font file \(path): \(why)"
        case .notRegularFile(let kind): "font path is \(kind), not a font file: \(path)"
        case .empty: "font file is empty: \(path)"
        case .notAFont(let why): "not a usable font file: \(path) (\(why))"
        case .faceIndexOutOfRange(let index, let count):
            "face index \(index) out of range for \(path): the file has \(count) face\(count == 1 ? "" : "s") (0...\(max(0, count - 1)))"
        case .namedInstanceOutOfRange(let instance, let count):
            "named instance \(instance) out of range for \(path): the face has \(count) named instance\(count == 1 ? "" : "s")"
                + (count == 0 ? "" : " (1...\(count))")
        case .invalidFaceIndex(let text): "invalid face index \"\(text)\" for \(path): expected a number ≥ 0 after \"#\""
        case .tooLarge(let bytes, let limit): "font file too large: \(path) (\(bytes) bytes, limit \(limit))"
        case .bundledFontNotFound:
            "bundled font not found: \(path) (set \(BundledFonts.environmentVariable) to the folder holding the bundled fonts,"
                + " or install them beside the executable with scripts/install.sh)"
        }
    }
}
