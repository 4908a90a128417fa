import Foundation
import TextKitLite

/// Reading text input: from a file or stdin, as strict UTF-8.
enum TextInput {
    /// Most bytes read as one text (guards memory against a runaway input).
    static let maximumBytes = 64 << 20

    /// The text of a file: a regular file, or a pipe or device read to its end (`--file
    /// <(command)` is a pipe).
    ///
    /// - Throws: `CLIError` naming the file: it does not exist, is a directory or a socket,
    ///   cannot be opened (the system's reason) or read, is over `maximumBytes`, or is not
    ///   UTF-8.
    static func read(file path: String) throws -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let message = switch FileBytes.openFailure(path, code: errno) {
            case .notFound: "\(path): no such file"
            case .notRegularFile(let kind): "\(path): is \(kind), not a text file"
            case let failure: "\(path): cannot open (\(failure))"
            }
            throw CLIError(message)
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { throw CLIError("\(path): is a directory, not a text file") }
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
