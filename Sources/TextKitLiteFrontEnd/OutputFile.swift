import Foundation
import TextKitLite

/// Files as the front ends write them (`textrender render --output`, the images and
/// layouts.jsonl of `textrender feed`): atomically, to a unique temporary name beside the
/// target (`mkstemp`) that is then renamed, so an interrupted write never leaves a partial
/// file under the final name and concurrent writes never share a temporary file. A symbolic
/// link is written through: its target is replaced, the link stays. A device, FIFO or
/// socket is written in place, as `cp` writes it (never replaced by a regular file); a FIFO
/// that no process reads is an error, not a wait.
///
/// Errors are `RenderError.cannotWrite` naming the path and the reason (the system's words:
/// "No space left on device"), or `.cannotEncode` (a PNG of zero pixels); a temporary file
/// is removed when a write fails.
public enum OutputFile {
    /// Writes an image as a PGM, PPM or PNG file, atomically (see `OutputFile`).
    ///
    /// - Parameters:
    ///   - bitmap: the image.
    ///   - path: the file.
    ///   - format: PGM (gray levels), PPM or PNG.
    /// - Throws: `RenderError.cannotWrite` (the system's reason) or `.cannotEncode`; the
    ///   temporary file is removed.
    public static func write(_ bitmap: Bitmap, to path: String, format: Bitmap.FileFormat) throws(RenderError) {
        switch destination(of: path) {
        case .replace(let target):
            let temporary = try createTemporary(beside: target)
            do throws(RenderError) {
                defer { close(temporary.descriptor) }
                try write(bitmap, toDescriptor: temporary.descriptor, path: path, format: format)
            } catch {
                unlink(temporary.path)
                throw error
            }
            try moveTemporary(temporary.path, to: target, naming: path)
        case .inPlace(let flags):
            // Non-blocking open: a FIFO without a reader fails (ENXIO) instead of waiting.
            let descriptor = open(path, flags | O_NONBLOCK | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                let reason = String(cString: strerror(errno))
                throw .cannotWrite(path: path, reason: errno == ENXIO ? "nothing reads from it (\(reason))" : reason)
            }
            defer { close(descriptor) }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
            try write(bitmap, toDescriptor: descriptor, path: path, format: format)
        }
    }

    /// How a file is written to `path`.
    enum Destination: Equatable {
        /// Atomically: a temporary file beside `target`, renamed over it.
        case replace(target: String)
        /// Opened and written as it is, with these `open` flags.
        case inPlace(flags: Int32)
    }

    /// A new path or a regular file is replaced; a symbolic link's final target is (or, when
    /// the link dangles, written through the link); anything else (a device, a FIFO, a
    /// socket) is written in place. A directory is left to the rename, which names it.
    static func destination(of path: String) -> Destination {
        var status = stat()
        guard lstat(path, &status) == 0 else { return .replace(target: path) }
        switch status.st_mode & S_IFMT {
        case S_IFREG, S_IFDIR:
            return .replace(target: path)
        case S_IFLNK:
            guard let resolved = realpath(path, nil) else { return .inPlace(flags: O_WRONLY | O_CREAT | O_TRUNC) }
            defer { free(resolved) }
            return destination(of: String(cString: resolved))
        default:
            return .inPlace(flags: O_WRONLY)
        }
    }

    /// Writes an image in a format to an open file descriptor (left open): a PGM's header
    /// and gray levels as they are, without copying the raster.
    ///
    /// - Parameters:
    ///   - bitmap: the image.
    ///   - descriptor: an open file descriptor to write to.
    ///   - path: names the file in errors.
    ///   - format: PGM (gray levels), PPM or PNG.
    /// - Throws: `RenderError.cannotWrite` with the system's reason, `.cannotEncode`.
    public static func write(_ bitmap: Bitmap, toDescriptor descriptor: Int32, path: String, format: Bitmap.FileFormat) throws(RenderError) {
        for part in try bitmap.fileParts(format, path: path) {
            let failure = part.withUnsafeBytes { bytes -> Int32? in
                var offset = 0
                while offset < bytes.count {
                    let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    if written >= 0 {
                        offset += written
                    } else if errno != EINTR {
                        return errno
                    }
                }
                return nil
            }
            if let failure { throw .cannotWrite(path: path, reason: String(cString: strerror(failure))) }
        }
    }

    /// Creates an empty file (mode 0644, closed on exec) with a unique name (`mkstemp`) in
    /// the directory of `path`: ".NAME.XXXXXX".
    ///
    /// - Parameter path: the file the temporary one stands in for.
    /// - Returns: its open descriptor and its path.
    /// - Throws: `RenderError.cannotWrite` for `path`: its directory is missing or not a
    ///   directory, or no file can be made there (the system's reason).
    public static func createTemporary(beside path: String) throws(RenderError) -> (descriptor: Int32, path: String) {
        // The template sits beside `path` (its directory as written, relative or not), so that
        // a feed's thousands of files cost no URL or stat; why a directory fails is found
        // only when `mkstemp` does.
        let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))
        var name = slash.map { path[path.utf8.index(after: $0)...] } ?? path[...]
        var directory = slash.map { String(path[...$0]) } ?? ""
        if name.isEmpty || name == "." || name == ".." {
            let url = URL(fileURLWithPath: path)
            (directory, name) = (url.deletingLastPathComponent().path + "/", url.lastPathComponent[...])
        }
        var template = Array((directory + "." + name.prefix(200) + ".XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
                throw .cannotWrite(path: path, reason: "directory \(directory) does not exist")
            }
            guard isDirectory.boolValue else { throw .cannotWrite(path: path, reason: "\(directory) is not a directory") }
            throw .cannotWrite(path: path, reason: "cannot create a file in \(directory): \(reason)")
        }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        fchmod(descriptor, 0o644)
        return (descriptor, template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
    }

    /// Renames a temporary file to its final path (replacing what was there); on failure the
    /// temporary file is removed.
    ///
    /// - Parameters:
    ///   - temporary: the temporary file (`createTemporary(beside:)`).
    ///   - path: where it goes.
    ///   - name: the path errors name (default `path`).
    /// - Throws: `RenderError.cannotWrite` for `name` with the system's reason.
    public static func moveTemporary(_ temporary: String, to path: String, naming name: String? = nil) throws(RenderError) {
        if rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .cannotWrite(path: name ?? path, reason: reason)
        }
    }
}
