#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads small files whole through POSIX calls: images here, and (being `package`) the
/// feed layer's emoticon table.
package enum FileBytes {
    /// Why a file could not be read.
    package enum Failure: Error, Equatable, CustomStringConvertible {
        /// The system's reason ("No such file or directory", "Is a directory").
        case cannotRead(String)
        /// The file goes on past the limit (at least `bytes` bytes).
        case tooLarge(bytes: Int, limit: Int)

        /// The reason in words, without the path.
        package var description: String {
            switch self {
            case .cannotRead(let why): why
            case .tooLarge(_, let limit): "larger than \(limit) bytes"
            }
        }
    }

    /// The bytes of a file, read in chunks until its end, so that a pipe or a device is read
    /// as far as it goes and no further than the limit.
    ///
    /// - Throws: `Failure.cannotRead` with the system's reason, `.tooLarge` past `limit`.
    /// - Complexity: O(file size).
    package static func contents(of path: String, limit: Int) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotRead(String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if got == 0 { return bytes }
            if got < 0 {
                if errno == EINTR { continue }
                throw .cannotRead(String(cString: strerror(errno)))
            }
            guard bytes.count + got <= limit else { throw .tooLarge(bytes: bytes.count + got, limit: limit) }
            bytes.append(contentsOf: chunk[0..<got])
        }
    }
}
