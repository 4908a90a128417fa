import Foundation

extension Bitmap {
    /// The image as binary PGM (P5, maxval 255): a gray bitmap's pixels, an RGBA bitmap's
    /// gray levels (`grayPixels`).
    public func pgmData() -> [UInt8] {
        Array("P5\n\(width) \(height)\n255\n".utf8) + grayPixels
    }

    /// The gray level of each pixel, row by row: a gray bitmap's pixels as they are; an RGBA
    /// bitmap's Rec. 601 luma over white (`Color.grayLevel`, as a gray bitmap draws colors).
    ///
    /// - Complexity: O(pixels).
    public var grayPixels: [UInt8] {
        guard format == .rgba8 else { return pixels }
        return stride(from: 0, to: pixels.count, by: 4).map { i in
            // Premultiplied over white: c + (255 − a), then luma.
            let white = 255 - pixels[i + 3]
            return Color(red: pixels[i] &+ white, green: pixels[i + 1] &+ white, blue: pixels[i + 2] &+ white).grayLevel
        }
    }

    /// The premultiplied R, G, B, A of each pixel, row by row: an RGBA bitmap's pixels as
    /// they are, a gray bitmap's level in each color channel, opaque.
    ///
    /// - Complexity: O(pixels).
    public var premultipliedRGBA: [UInt8] {
        guard format == .gray8 else { return pixels }
        return [UInt8](unsafeUninitializedCapacity: 4 * pixels.count) { rgba, initialized in
            for (i, level) in pixels.enumerated() { (rgba[4 * i], rgba[4 * i + 1], rgba[4 * i + 2], rgba[4 * i + 3]) = (level, level, level, 255) }
            initialized = 4 * pixels.count
        }
    }

    /// Reads a binary PGM (P5, maxval 255) image.
    ///
    /// - Throws: `RenderError.invalidPGM` naming what is wrong.
    public init(pgm data: [UInt8]) throws(RenderError) {
        var index = 0
        func token() -> String? {
            // Skip white space and comments.
            while index < data.count {
                if data[index] == UInt8(ascii: "#") {
                    while index < data.count, data[index] != 0x0A { index += 1 }
                } else if [0x20, 0x09, 0x0A, 0x0D].contains(data[index]) {
                    index += 1
                } else { break }
            }
            let start = index
            while index < data.count, ![0x20, 0x09, 0x0A, 0x0D].contains(data[index]) { index += 1 }
            return start < index ? String(decoding: data[start..<index], as: UTF8.self) : nil
        }
        guard token() == "P5" else { throw .invalidPGM("missing P5 magic number") }
        guard let w = token().flatMap(Int.init), let h = token().flatMap(Int.init), w >= 0, h >= 0 else {
            throw .invalidPGM("bad width or height")
        }
        guard token() == "255" else { throw .invalidPGM("maxval must be 255") }
        index += 1  // the single white-space byte before the raster
        let (count, overflow) = w.multipliedReportingOverflow(by: h)
        guard !overflow, count <= RenderOptions.defaultMaxPixels * 16 else { throw .invalidPGM("image of \(w)×\(h) pixels is too large") }
        guard data.count - index >= count else { throw .invalidPGM("raster has \(max(0, data.count - index)) bytes, expected \(count)") }
        self.init(width: w, height: h, pixels: Array(data[index..<(index + w * h)]))
    }

    /// Writes the image as a binary PGM file, atomically: to a unique temporary name beside
    /// the target, then renamed, so an interrupted write never leaves a partial file under
    /// the final name and concurrent writes never share a temporary file.
    ///
    /// - Throws: `RenderError.cannotWrite` naming the path and the reason (the system's
    ///   words: "No space left on device"); the temporary file is removed.
    public func writePGM(to path: String) throws(RenderError) {
        try write(to: path, format: .pgm)
    }

    /// Writes the image as a PGM, PPM or PNG file, atomically (as `writePGM(to:)`).
    /// A symbolic link is written through: its target is replaced, the link stays. A device,
    /// FIFO or socket is written in place, as `cp` writes it (never replaced by a regular
    /// file); a FIFO that no process reads is an error, not a wait.
    ///
    /// - Throws: `RenderError.cannotWrite` (the system's reason) or `.cannotEncode` (a PNG
    ///   of zero pixels); the temporary file is removed.
    public func write(to path: String, format: ImageFormat) throws(RenderError) {
        switch Self.destination(of: path) {
        case .replace(let target):
            let temporary = try Self.createTemporaryFile(beside: target)
            do throws(RenderError) {
                defer { close(temporary.descriptor) }
                try write(toDescriptor: temporary.descriptor, path: path, format: format)
            } catch {
                unlink(temporary.path)
                throw error
            }
            try Self.moveTemporaryFile(temporary.path, to: target, naming: path)
        case .inPlace(let flags):
            // Non-blocking open: a FIFO without a reader fails (ENXIO) instead of waiting.
            let descriptor = open(path, flags | O_NONBLOCK | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                let reason = String(cString: strerror(errno))
                throw .cannotWrite(path: path, reason: errno == ENXIO ? "nothing reads from it (\(reason))" : reason)
            }
            defer { close(descriptor) }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
            try write(toDescriptor: descriptor, path: path, format: format)
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

    /// Writes the image as binary PGM to an open file descriptor (left open), header and
    /// pixels as they are, without copying the raster.
    ///
    /// - Parameters:
    ///   - descriptor: an open file descriptor to write to.
    ///   - path: names the file in errors.
    /// - Throws: `RenderError.cannotWrite` with the system's reason.
    public func writePGM(toDescriptor descriptor: Int32, path: String) throws(RenderError) {
        try write(toDescriptor: descriptor, path: path, format: .pgm)
    }

    /// The image as a PNG file's bytes: 8-bit gray for a gray bitmap; for an RGBA bitmap,
    /// RGB when every pixel is opaque, else RGBA (straight alpha, as PNG stores it).
    ///
    /// - Throws: `ImageError` from the encoder (a PNG of zero pixels).
    public func pngData() throws(ImageError) -> [UInt8] {
        switch format {
        case .gray8: try GrayImage(width: width, height: height, gray: pixels).pngData()
        case .rgba8: try ColorEncoding.pngData(premultipliedRGBA: pixels, width: width, height: height)
        }
    }

    /// The image as binary PPM (P6, maxval 255): each pixel's R, G, B as they are (a gray
    /// level in each for a gray bitmap). PPM has no alpha: an opaque bitmap is written
    /// exactly, a translucent pixel as if drawn over black.
    public func ppmData() -> [UInt8] {
        ColorEncoding.ppmData(premultipliedRGBA: premultipliedRGBA, width: width, height: height)
    }

    /// Writes the image in a format to an open file descriptor (left open).
    ///
    /// - Parameters:
    ///   - descriptor: an open file descriptor to write to.
    ///   - path: names the file in errors.
    ///   - format: PGM (gray levels), PPM or PNG.
    /// - Throws: `RenderError.cannotWrite` with the system's reason, `.cannotEncode`.
    public func write(toDescriptor descriptor: Int32, path: String, format: ImageFormat) throws(RenderError) {
        let parts: [[UInt8]]
        switch format {
        case .pgm: parts = [Array("P5\n\(width) \(height)\n255\n".utf8), grayPixels]  // a gray raster as it is
        case .ppm: parts = [ppmData()]
        case .png:
            do {
                parts = [try pngData()]
            } catch {
                throw .cannotEncode(path: path, reason: error.description)
            }
        }
        for part in parts {
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

    /// Creates an empty file (mode 0644, closed on exec) with a unique name (`mkstemp`) in the directory of
    /// `path`: ".NAME.XXXXXX".
    ///
    /// - Returns: its open descriptor and its path.
    /// - Throws: `RenderError.cannotWrite` for `path`: its directory is missing or not a
    ///   directory, or no file can be made there (the system's reason).
    public static func createTemporaryFile(beside path: String) throws(RenderError) -> (descriptor: Int32, path: String) {
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
    ///   - temporary: the temporary file (`createTemporaryFile(beside:)`).
    ///   - path: where it goes.
    ///   - name: the path errors name (default `path`).
    /// - Throws: `RenderError.cannotWrite` for `name` with the system's reason.
    public static func moveTemporaryFile(_ temporary: String, to path: String, naming name: String? = nil) throws(RenderError) {
        if rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .cannotWrite(path: name ?? path, reason: reason)
        }
    }
}
