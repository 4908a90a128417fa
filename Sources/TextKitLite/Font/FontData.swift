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

    /// Reads a font file whole.
    ///
    /// - Throws: `FontError`: `.notFound`, `.isDirectory`, `.notRegularFile` (a device, pipe
    ///   or socket: `/dev/zero` would never end), `.tooLarge` (from the size `fstat` gives,
    ///   before reading), `.empty`, `.unreadable` with the system's reason.
    init(path: String) throws(FontError) {
        self.path = path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw FontError(path: path, reason: errno == ENOENT ? .notFound : .unreadable(String(cString: strerror(errno))))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw FontError(path: path, reason: .unreadable(String(cString: strerror(errno)))) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw FontError(path: path, reason: .isDirectory)
        case S_IFCHR: throw FontError(path: path, reason: .notRegularFile("a character device"))
        case S_IFBLK: throw FontError(path: path, reason: .notRegularFile("a block device"))
        case S_IFIFO: throw FontError(path: path, reason: .notRegularFile("a pipe"))
        case S_IFSOCK: throw FontError(path: path, reason: .notRegularFile("a socket"))
        default: throw FontError(path: path, reason: .notRegularFile("an unknown kind of file"))
        }
        let size = Int(status.st_size)
        if size > Self.maximumSize { throw FontError(path: path, reason: .tooLarge(bytes: size, limit: Self.maximumSize)) }
        if size == 0 { throw FontError(path: path, reason: .empty) }
        // Read at most the size fstat gave: a file that grows meanwhile is cut there.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        var count = 0
        while count < size {
            let got = read(descriptor, buffer.baseAddress! + count, size - count)
            if got > 0 {
                count += got
            } else if got == 0 {
                break
            } else if errno != EINTR {
                let reason = String(cString: strerror(errno))
                buffer.deallocate()
                throw FontError(path: path, reason: .unreadable(reason))
            }
        }
        guard count > 0 else {
            buffer.deallocate()
            throw FontError(path: path, reason: .empty)
        }
        bytes = UnsafeMutableRawBufferPointer(rebasing: buffer[..<count])
    }

    deinit { bytes.deallocate() }
}
