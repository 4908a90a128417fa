#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads image files whole, through POSIX calls.
enum ImageFile {
    /// The largest image file read: 64 MB (a PNG of 4096 × 4096 RGBA pixels stored without
    /// compression is that size).
    static let maximumSize = 64 << 20

    /// The bytes of a file, read in chunks until its end, so that a pipe or a device is read
    /// as far as it goes and no further than the limit.
    ///
    /// - Throws: `ImageError` naming `path`: `.cannotRead` with the system's reason (a
    ///   directory gives "Is a directory"), `.fileTooLarge` past `maximumSize`.
    /// - Complexity: O(file size).
    static func contents(of path: String, limit: Int = maximumSize) throws(ImageError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ImageError(path: path, reason: .cannotRead(String(cString: strerror(errno)))) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if got == 0 { return bytes }
            if got < 0 {
                if errno == EINTR { continue }
                throw ImageError(path: path, reason: .cannotRead(String(cString: strerror(errno))))
            }
            guard bytes.count + got <= limit else { throw ImageError(path: path, reason: .fileTooLarge(bytes: bytes.count + got, limit: limit)) }
            bytes.append(contentsOf: chunk[0..<got])
        }
    }
}
