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

    init(path: String) throws(FontError) {
        self.path = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FontError(path: path, reason: .notFound)
        }
        if isDirectory.boolValue { throw FontError(path: path, reason: .isDirectory) }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw FontError(path: path, reason: .unreadable("permission denied or not a regular file"))
        }
        defer { try? handle.close() }
        let data: Data
        do {
            let size = try handle.seekToEnd()
            if size > UInt64(Self.maximumSize) {
                throw FontError(path: path, reason: .tooLarge(bytes: Int(size), limit: Self.maximumSize))
            }
            try handle.seek(toOffset: 0)
            data = try handle.readToEnd() ?? Data()
        } catch let error as FontError {
            throw error
        } catch {
            throw FontError(path: path, reason: .unreadable(error.localizedDescription))
        }
        if data.isEmpty { throw FontError(path: path, reason: .empty) }
        bytes = .allocate(byteCount: data.count, alignment: 16)
        data.withUnsafeBytes { source in bytes.copyMemory(from: source) }
    }

    deinit { bytes.deallocate() }
}
