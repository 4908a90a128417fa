#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads whole files through POSIX calls. Every file the library and its front ends read
/// whole (fonts, images, emoticon tables) goes through `open(_:limit:)`: only a regular file
/// is read, and anything else is refused before a byte is read or a buffer allocated, without
/// blocking (a FIFO with no writer would make a plain `open` wait for ever).
package enum FileBytes {
    /// Why a file could not be read.
    package enum Failure: Error, Equatable, CustomStringConvertible {
        /// No file exists at the path.
        case notFound
        /// The path names a directory.
        case isDirectory
        /// The path names a device, a FIFO or a socket (which kind, in words: "a pipe").
        case notRegularFile(String)
        /// The system's reason ("Permission denied", "Input/output error").
        case cannotRead(String)
        /// The file is larger than the limit (`bytes`, from `fstat`).
        case tooLarge(bytes: Int, limit: Int)

        /// The reason in words, without the path.
        package var description: String {
            switch self {
            case .notFound: String(cString: strerror(ENOENT))
            case .isDirectory: String(cString: strerror(EISDIR))
            case .notRegularFile(let kind): "it is \(kind), not a regular file"
            case .cannotRead(let why): why
            case .tooLarge(let bytes, let limit): "\(bytes) bytes, larger than \(limit) bytes"
            }
        }
    }

    /// A regular file open for reading; closed when it goes away.
    package struct RegularFile: ~Copyable {
        /// The file's size when it was opened (`fstat`).
        package let size: Int
        private let descriptor: Int32

        fileprivate init(descriptor: Int32, size: Int) {
            self.descriptor = descriptor
            self.size = size
        }

        deinit { close(descriptor) }

        /// Reads from the file's current position until `buffer` is full or the file ends.
        ///
        /// - Returns: the number of bytes read (fewer than `buffer.count` at the file's end).
        /// - Throws: `Failure.cannotRead` with the system's reason.
        package func read(into buffer: UnsafeMutableRawBufferPointer) throws(Failure) -> Int {
            var count = 0
            while count < buffer.count {
                let got = systemRead(descriptor, buffer.baseAddress! + count, buffer.count - count)
                if got > 0 {
                    count += got
                } else if got == 0 {
                    break
                } else if errno != EINTR {
                    throw .cannotRead(String(cString: strerror(errno)))
                }
            }
            return count
        }
    }

    /// Opens a regular file for reading, refusing anything else before reading it.
    ///
    /// The file is opened with `O_NONBLOCK` (a FIFO then opens at once instead of waiting
    /// for a writer, and is refused by its kind), which is cleared once `fstat` shows a
    /// regular file; a socket, which cannot be opened at all, is named by `stat`.
    ///
    /// - Throws: `Failure.notFound`, `.isDirectory`, `.notRegularFile` (a character or
    ///   block device, a pipe, a socket), `.tooLarge` (the size `fstat` gives over `limit`),
    ///   `.cannotRead` with the system's reason.
    package static func open(_ path: String, limit: Int) throws(Failure) -> RegularFile {
        let descriptor = systemOpen(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { throw openFailure(path, code: errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw .cannotRead(reason)
        }
        if let failure = refusal(mode: status.st_mode) {
            close(descriptor)
            throw failure
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        let file = RegularFile(descriptor: descriptor, size: Int(status.st_size))
        guard file.size <= limit else { throw .tooLarge(bytes: file.size, limit: limit) }
        return file
    }

    /// Why `open(2)` refused a path, `code` its errno: a socket, which `open` refuses with
    /// `ENXIO`, is named by `stat`.
    package static func openFailure(_ path: String, code: Int32) -> Failure {
        var status = stat()
        if code == ENXIO, stat(path, &status) == 0, let failure = refusal(mode: status.st_mode) { return failure }
        return code == ENOENT ? .notFound : .cannotRead(String(cString: strerror(code)))
    }

    /// Why a file of this mode is not read, or nil for a regular file.
    private static func refusal(mode: mode_t) -> Failure? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: .isDirectory
        case S_IFCHR: .notRegularFile("a character device")
        case S_IFBLK: .notRegularFile("a block device")
        case S_IFIFO: .notRegularFile("a pipe")
        case S_IFSOCK: .notRegularFile("a socket")
        default: .notRegularFile("an unknown kind of file")
        }
    }

    /// The bytes of a regular file (`open(_:limit:)`), at most the size `fstat` gave when it
    /// was opened: a file that grows meanwhile is cut there.
    ///
    /// - Throws: as `open(_:limit:)`; `.cannotRead` when reading fails.
    /// - Complexity: O(file size).
    package static func contents(of path: String, limit: Int) throws(Failure) -> [UInt8] {
        let file = try open(path, limit: limit)
        var bytes = [UInt8](repeating: 0, count: file.size)
        let count = try bytes.withUnsafeMutableBytes { buffer in Result { () throws(Failure) in try file.read(into: buffer) } }.get()
        bytes.removeSubrange(count...)
        return bytes
    }
}

// The system calls under their own names: inside `FileBytes`, `open` and `read` are its own.
private func systemOpen(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(descriptor, buffer, count) }
