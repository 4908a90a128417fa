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
