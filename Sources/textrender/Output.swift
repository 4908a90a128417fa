import ArgumentParser
import Foundation
import TextKitLiteFeed

/// Writing to standard output, standard error and files without trapping: Foundation's
/// `FileHandle.write(_: Data)` traps on a failed write (full disk, closed descriptor, a
/// broken pipe when SIGPIPE is ignored); `write(contentsOf:)` throws, and this turns what
/// it throws into an `Error: ...` message or, for a broken pipe, a quiet exit.
enum Output {
    /// Writes bytes to standard output.
    ///
    /// - Throws: `ExitCode.failure` without a message when the reader went away (broken
    ///   pipe); `CLIError` naming the reason otherwise.
    static func standardOutput(_ bytes: some DataProtocol) throws {
        do {
            try FileHandle.standardOutput.write(contentsOf: bytes)
        } catch {
            if posixCode(of: error) == EPIPE { throw ExitCode.failure }
            throw CLIError("cannot write to standard output: \(describe(error))")
        }
    }

    /// Writes a message to standard error.
    ///
    /// - Throws: `ExitCode.failure` when standard error cannot be written: there is nowhere
    ///   left to say so.
    static func standardError(_ message: String) throws {
        do { try FileHandle.standardError.write(contentsOf: Data(message.utf8)) } catch { throw ExitCode.failure }
    }

    /// The system's words for what a Foundation call threw ("No space left on device"),
    /// instead of "The operation could not be completed. (NSCocoaErrorDomain error 512.)".
    static func describe(_ error: any Error) -> String {
        if let code = posixCode(of: error) { return String(cString: strerror(code)) }
        return (error as NSError).localizedFailureReason ?? "\(error)"
    }

    /// The errno behind a Foundation error: the error itself or its underlying error.
    private static func posixCode(of error: any Error) -> Int32? {
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain { return Int32(error.code) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return Int32(underlying.code)
        }
        return nil
    }
}

/// Writes JSON lines through a buffer to standard output or to a file.
struct JSONLinesWriter {
    private var buffer: [UInt8] = []
    private let file: FileHandle?
    private let name: String

    /// A writer to standard output.
    init() {
        file = nil
        name = "standard output"
    }

    /// A writer to an open file; `name` (its path) names it in errors.
    init(file: FileHandle, name: String) {
        self.file = file
        self.name = name
    }

    mutating func write(_ value: some Encodable) throws {
        try JSONLines.append(value, to: &buffer)
        if buffer.count > 1 << 16 { try flush() }
    }

    /// Writes lines already encoded.
    mutating func write(bytes: [UInt8]) throws {
        buffer += bytes
        if buffer.count > 1 << 16 { try flush() }
    }

    /// - Throws: `CLIError` naming the file and the reason (see `Output.standardOutput`).
    mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        guard let file else { return try Output.standardOutput(buffer) }
        do { try file.write(contentsOf: buffer) } catch { throw CLIError("cannot write \(name): \(Output.describe(error))") }
    }
}
