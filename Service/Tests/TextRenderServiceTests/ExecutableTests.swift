import Foundation
import Testing

/// The built `textrender-server` as a user runs it: its start line, its exit on SIGTERM
/// with the request in flight answered whole, its errors on bad options.
@Suite struct ExecutableTests {
    @Test func printsWhereItListensAndStopsGracefullyOnSIGTERM() async throws {
        let server = try await ServerProcess(["--jobs", "1"])
        let (process, port) = (server.process, server.port)
        #expect(server.startLine == "textrender-server listening on http://127.0.0.1:\(port)\n")
        #expect(try await HTTP.send(port: port, "GET", "/health").status == 200)

        // A request in flight (its body still coming) when SIGTERM arrives is answered whole.
        let lines = ServiceTests.feed.split(separator: 0x0A)
        let connection = try HTTPConnection(port: port)
        try await HTTP.onThread { try connection.startMeasure(firstLine: lines[0], marker: "\"id\":\"1001\"") }
        process.terminate()
        // New connections are refused once the listener is closed.
        var refused = false
        for _ in 0..<100 where !refused {
            do { _ = try HTTPConnection(port: port) } catch { refused = true }
            if !refused { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(refused)
        let response = try await HTTP.onThread { try connection.finishMeasure(lines: lines.dropFirst()) }
        #expect(response.status == 200)
        #expect(response.lines.count == 63)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
    }

    @Test func badOptionsAreRefused() throws {
        let port = try runTool(serverPath, ["--port", "70000"])
        #expect(port.status == 64)
        #expect(port.stderr.contains("invalid --port 70000: must be from 0 to 65535"))
        let font = try runTool(serverPath, ["--port", "0", "--font", "/nonexistent/font.ttf"])
        #expect(font.status == 1)
        #expect(font.stderr == "Error: font file not found: /nonexistent/font.ttf\n")
    }
}
