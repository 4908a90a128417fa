import Foundation

extension Bitmap {
    /// The image as binary PGM (P5, maxval 255).
    public func pgmData() -> [UInt8] {
        Array("P5\n\(width) \(height)\n255\n".utf8) + pixels
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

    /// Writes the image as a binary PGM file, atomically: to a temporary name beside the
    /// target, then renamed, so an interrupted write never leaves a partial file under
    /// the final name.
    ///
    /// - Throws: `RenderError.cannotWrite` naming the path and the reason.
    public func writePGM(to path: String) throws(RenderError) {
        try Self.writeAtomically(pgmData(), to: path)
    }

    /// Writes bytes to `path` through a temporary file and a rename.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(RenderError) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw .cannotWrite(path: path, reason: "directory \(directory) does not exist")
        }
        guard isDirectory.boolValue else { throw .cannotWrite(path: path, reason: "\(directory) is not a directory") }
        let temporary = directory + "/." + url.lastPathComponent + ".tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else {
            throw .cannotWrite(path: path, reason: "cannot create a file in \(directory) (permission denied or disk full)")
        }
        if rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .cannotWrite(path: path, reason: reason)
        }
    }
}
