import Foundation

/// The bytes of one font file, read once and shared by HarfBuzz and FreeType.
///
/// `@unchecked Sendable`: the buffer is written only inside `init` and never again; after
/// that every access is a read, and the memory is freed only in `deinit`, when no reader
/// (HarfBuzz blob, FreeType face) holds this object any more — both keep a strong reference.
final class FontData: @unchecked Sendable {
    let bytes: UnsafeMutableRawBufferPointer
    let path: String

    /// The largest font file accepted (a font collection of CJK faces is about 20 MB).
    static let maximumSize = 256 << 20

    /// Reads a font file whole (through `FileBytes.open`).
    ///
    /// - Throws: `FontError`: `.notFound`, `.isDirectory`, `.notRegularFile` (a device, pipe
    ///   or socket, refused before reading and without waiting: `/dev/zero` would never end,
    ///   a FIFO would block), `.tooLarge` (from the size `fstat` gives, before reading),
    ///   `.empty`, `.unreadable` with the system's reason.
    init(path: String) throws(FontError) {
        self.path = path
        let file: FileBytes.RegularFile
        do {
            file = try FileBytes.open(path, limit: Self.maximumSize)
        } catch {
            throw FontError(path: path, reason: Self.reason(error))
        }
        if file.size == 0 { throw FontError(path: path, reason: .empty) }
        // Read at most the size fstat gave: a file that grows meanwhile is cut there.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: file.size, alignment: 16)
        let count: Int
        do {
            count = try file.read(into: buffer)
        } catch {
            buffer.deallocate()
            throw FontError(path: path, reason: Self.reason(error))
        }
        guard count > 0 else {
            buffer.deallocate()
            throw FontError(path: path, reason: .empty)
        }
        bytes = UnsafeMutableRawBufferPointer(rebasing: buffer[..<count])
    }

    /// A font's words for why `FileBytes` did not read the file.
    private static func reason(_ failure: FileBytes.Failure) -> FontError.Reason {
        switch failure {
        case .notFound: .notFound
        case .isDirectory: .isDirectory
        case .notRegularFile(let kind): .notRegularFile(kind)
        case .cannotRead(let why): .unreadable(why)
        case .tooLarge(let bytes, let limit): .tooLarge(bytes: bytes, limit: limit)
        }
    }

    deinit { bytes.deallocate() }
}
