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

    /// The system's words for what a Foundation call threw ("No space left on device",
    /// "Not a directory"), never "The operation could not be completed" nor an
    /// "Error Domain=NSCocoaErrorDomain Code=512 …" dump: the errno behind it (the error's
    /// own or its underlying error's), else the errno a Cocoa file error stands for, else
    /// the error's own description when it is not a Foundation error.
    static func describe(_ error: any Error) -> String {
        if let code = posixCode(of: error) { return String(cString: strerror(code)) }
        let error = error as NSError
        guard error.domain == NSCocoaErrorDomain || error.domain == NSPOSIXErrorDomain else { return "\(error)" }
        return "an unexplained \(error.domain == NSCocoaErrorDomain ? "Foundation" : "system") error (code \(error.code))"
    }

    /// The errno behind a Foundation error: the error itself, its underlying error (however
    /// Foundation holds it), or the one a Cocoa file error stands for.
    private static func posixCode(of error: any Error) -> Int32? {
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain { return Int32(error.code) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? any Error, let code = posixCode(of: underlying) { return code }
        guard error.domain == NSCocoaErrorDomain else { return nil }
        return switch CocoaError.Code(rawValue: error.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: ENOENT
        case .fileReadNoPermission, .fileWriteNoPermission: EACCES
        case .fileWriteFileExists: EEXIST
        case .fileWriteOutOfSpace: ENOSPC
        case .fileWriteVolumeReadOnly: EROFS
        case .fileReadTooLarge: EFBIG
        case .fileReadUnknown, .fileWriteUnknown, .fileReadCorruptFile: EIO
        default: nil
        }
    }

    /// An error thrown out of a command, worded: a Foundation error becomes a `CLIError`
    /// with the system's reason (`describe`); the command's own errors, usage errors and
    /// exit codes pass as they are.
    static func worded(_ error: any Error) -> any Error {
        let domain = (error as NSError).domain
        guard domain == NSCocoaErrorDomain || domain == NSPOSIXErrorDomain else { return error }
        return CLIError(describe(error))
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
