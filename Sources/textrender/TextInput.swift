import Foundation
import TextKitLite

/// Reading text input: from a file or stdin, as strict UTF-8.
enum TextInput {
    /// Most bytes read as one text (guards memory against a runaway input).
    static let maximumBytes = 64 << 20

    static func read(file path: String) throws -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CLIError("\(path): no such file")
        }
        guard !isDirectory.boolValue else { throw CLIError("\(path): is a directory, not a text file") }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw CLIError("\(path): cannot open (permission denied)") }
        defer { try? handle.close() }
        return try decode(readAll(handle, source: path), source: path)
    }

    static func readStandardInput() throws -> String {
        try decode(readAll(FileHandle.standardInput, source: "stdin"), source: "stdin")
    }

    private static func readAll(_ handle: FileHandle, source: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        while true {
            let chunk: Data?
            do { chunk = try handle.read(upToCount: 1 << 20) } catch { throw CLIError("\(source): read failed: \(Output.describe(error))") }
            guard let chunk, !chunk.isEmpty else { break }
            bytes += chunk
            if bytes.count > maximumBytes {
                throw CLIError("\(source): input larger than \(maximumBytes) bytes")
            }
        }
        return bytes
    }

    /// Strict UTF-8 decoding; an invalid sequence is an error naming its line and byte offset.
    static func decode(_ bytes: [UInt8], source: String) throws -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        let offset = UTF8Validation.firstInvalidOffset(bytes) ?? 0
        let line = bytes[..<offset].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        throw CLIError("\(source):\(line): invalid UTF-8 at byte offset \(offset) (\(UTF8Validation.describeByte(bytes, at: offset)))")
    }
}
