import Foundation
import Logging
import ServiceLifecycle
import TextKitLite
import TextRenderService

/// The repository's root (this file is Service/Tests/TextRenderServiceTests/TestSupport.swift).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path

/// The sample feed the README measures.
let sampleFeed = repositoryRoot + "/examples/feed.jsonl"

/// Runs `body` against a server started in this process on a free loopback port, then
/// shuts it down gracefully and waits for it to stop.
func withServer<T: Sendable>(_ configure: (inout ServiceConfiguration) -> Void = { _ in },
                             _ body: (Int) async throws -> T) async throws -> T {
    var configuration = ServiceConfiguration()
    configuration.port = 0
    configure(&configuration)
    let service = try TextService(configuration: configuration)
    var logger = Logger(label: "textrender-server-tests")
    logger.logLevel = .critical
    let (ports, portContinuation) = AsyncStream<Int>.makeStream()
    let app = service.application(logger: logger) { port in portContinuation.yield(port) }
    let group = ServiceGroup(services: [app], logger: logger)
    let running = Task { try await group.run() }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next() else { throw HTTPConnection.Failure(description: "the server did not start") }
    do {
        let result = try await body(port)
        await group.triggerGracefulShutdown()
        try await running.value
        return result
    } catch {
        running.cancel()
        throw error
    }
}

/// Runs an executable and collects its standard output and status.
func runTool(_ path: String, _ arguments: [String]) throws -> (status: Int32, stdout: [UInt8], stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let output = out.fileHandleForReading.readDataToEndOfFile()
    let errors = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, Array(output), String(decoding: errors, as: UTF8.self))
}

/// The tests run under a sanitizer (`scripts/service-test.sh` sets `TEXTKITLITE_SANITIZED`).
let isSanitized = ProcessInfo.processInfo.environment["TEXTKITLITE_SANITIZED"] != nil

/// The main package's `textrender` (`TEXTRENDER` overrides): the service must answer as it does.
var textrenderPath: String {
    ProcessInfo.processInfo.environment["TEXTRENDER"] ?? repositoryRoot + "/.build/debug/textrender"
}

/// This package's `textrender-server`, built beside the tests (`TEXTRENDER_SERVER` overrides).
var serverPath: String {
    if let path = ProcessInfo.processInfo.environment["TEXTRENDER_SERVER"] { return path }
    for directory in [Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()] {
        let candidate = directory.appendingPathComponent("textrender-server").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return repositoryRoot + "/Service/.build/debug/textrender-server"
}

/// The built `textrender-server` run as a user runs it, on a free loopback port: a trap
/// ends it where the tests see it, and its memory can be read from /proc.
final class ServerProcess {
    let process = Process()
    /// The line it printed on start.
    let startLine: String
    let port: Int

    init(_ arguments: [String]) async throws {
        process.executableURL = URL(fileURLWithPath: serverPath)
        process.arguments = ["--port", "0"] + arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        startLine = try await HTTP.onThread { () -> String in
            var bytes: [UInt8] = []
            while !bytes.contains(0x0A) {
                let data = out.fileHandleForReading.availableData
                if data.isEmpty { break }
                bytes += data
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        let match = startLine.firstMatch(of: /^textrender-server listening on http:\/\/127\.0\.0\.1:(\d+)\n/)
        guard let port = match.flatMap({ Int($0.1) }) else {
            process.terminate()
            throw HTTPConnection.Failure(description: "start line: \(startLine)")
        }
        self.port = port
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// A memory figure of the process in bytes: `VmRSS` (resident now) or `VmHWM` (its peak).
    func memory(_ field: String) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
              let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            throw HTTPConnection.Failure(description: "no \(field) in /proc status")
        }
        return kilobytes * 1024
    }
}
