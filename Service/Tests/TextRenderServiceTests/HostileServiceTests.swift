import Foundation
import Testing
import TextKitLite
import TextRenderService

/// What an attacker or a careless client sends, over real HTTP on loopback: the server never
/// dies (the built executable, so a trap ends a process the test watches), its memory is
/// bounded by the request and returns after it, and no client holds a request slot for
/// longer than the request deadline.
@Suite struct HostileServiceTests {
    /// Every numeric `/render` field at extreme values, alone and with each alignment and
    /// direction that moves lines: each answered (400, 413 or 422 when refused), and the
    /// server still up. A width of 1e300 once killed it (SIGILL).
    @Test func extremeRenderValuesNeverEndTheServer() async throws {
        let server = try await ServerProcess(["--jobs", "1"])
        let fields = ["width", "fontSize", "lineSpacing", "letterSpacing", "lineHeight", "lineHeightMultiple", "inset", "scale",
                      "maxPixels", "maxLines"]
        let values = ["1e300", "-1e300", "1e39", "8e18", "-8e18", "5e-324", "-0.0", "1.7976931348623157e308", "1e6", "1000001"]
        let layouts = ["\"align\":\"left\"", "\"align\":\"center\"", "\"align\":\"right\"", "\"align\":\"justify\"",
                       "\"direction\":\"rightToLeft\"", "\"maxLines\":1", "\"width\":\"inf\""]
        var statuses: [Int: Int] = [:]
        for field in fields {
            for value in values {
                for layout in layouts where !(layout.contains("maxLines") && field == "maxLines")
                    && !(layout.contains("width") && field == "width") {
                    let body = #"{"text":"Hello مرحبا 世界 👋 a long enough line to wrap once or twice","\#(field)":\#(value),\#(layout)}"#
                    let response = try await HTTP.send(port: server.port, "POST", "/render", body: Array(body.utf8))
                    statuses[response.status, default: 0] += 1
                    #expect([200, 400, 413, 422].contains(response.status), "\(body): \(response.status) \(response.text)")
                }
            }
        }
        #expect(server.process.isRunning)
        #expect(try await HTTP.send(port: server.port, "GET", "/health").status == 200)
        #expect(statuses[400, default: 0] > 100 && statuses[200, default: 0] > 50, "\(statuses)")
    }

    /// The costliest `/render` a body of the limit can ask for (a line per byte: a layout
    /// holds about 300 bytes a line) raises the server's resident memory by no more than
    /// 400 times its body, and the memory goes back near where it was afterwards.
    @Test(.disabled(if: isSanitized, "a sanitizer's shadow memory counts in the resident size"))
    func renderMemoryIsBoundedByItsBodyAndReturned() async throws {
        let server = try await ServerProcess(["--jobs", "1", "--max-concurrent", "1"])
        let small = try await HTTP.send(port: server.port, "POST", "/render", body: Array(#"{"text":"warm up 世界 مرحبا"}"#.utf8))
        #expect(small.status == 200)
        let baseline = try server.memory("VmRSS")
        #expect(try server.memory("VmHWM") < baseline + (8 << 20), "the start-up peak is the baseline's")
        let newlines = (256 << 10) / 2 - 40
        let lines = String(repeating: #"\n"#, count: newlines)
        let body = Array(#"{"text":"\#(lines)","fontSize":0.01}"#.utf8)
        #expect(body.count <= 256 << 10)
        let response = try await HTTP.send(port: server.port, "POST", "/render", body: body)
        #expect(response.status == 200, "\(response.text.prefix(300))")
        #expect(response.headers["textkitlite-lines"] == "\(newlines)")
        let peak = try server.memory("VmHWM") - baseline
        #expect(peak <= 400 * body.count, "peak \(peak >> 20) MB over the baseline for a \(body.count >> 10) KB body")
        #expect(peak > 20 * body.count, "the request did not lay out (peak \(peak >> 10) KB)")
        let after = try server.memory("VmRSS") - baseline
        #expect(after <= 16 << 20, "\(after >> 20) MB still held after the request (peak \(peak >> 20) MB)")
        #expect(server.process.isRunning)
    }

    /// A `/render` body over its own limit (`--max-render-bytes`, below `--max-body-bytes`)
    /// is refused whether its length is declared or it comes in chunks.
    @Test func renderBodiesHaveTheirOwnLimit() async throws {
        let (declared, chunked, measure) = try await withServer({ $0.maxRenderBytes = 1000 }) { port in
            let body = Array(#"{"id":1,"text":"\#(String(repeating: "x", count: 1000))"}"#.utf8)
            return (try await HTTP.send(port: port, "POST", "/render", body: body),
                    try await HTTP.sendChunked(port: port, "/render", body: body, chunkSize: 100),
                    try await HTTP.sendChunked(port: port, "/measure", body: body + [0x0A], chunkSize: 100))
        }
        let message = "{\"error\":\"render request body larger than 1000 bytes (the server's --max-render-bytes)\"}\n"
        #expect(declared.status == 413 && declared.text == message)
        #expect(chunked.status == 413 && chunked.text == message)
        #expect(measure.status == 200, "/measure keeps --max-body-bytes")
    }

    /// A client that sends its body a byte at a time, never pausing as long as the body
    /// timeout, is cut off at the request deadline: `/render` with 408 and holding no slot
    /// meanwhile (its body is read before a slot is taken), `/measure` with an error line.
    @Test func tricklingClientsAreCutOffAtTheDeadline() async throws {
        try await withServer({ $0.requestTimeout = .seconds(2); $0.bodyTimeout = .seconds(10); $0.maxConcurrent = 1 }) { port in
            let message = "the request body did not all come within 2 s (the server's --request-timeout)"
            let trickler = Task {
                try await HTTP.onThread { () -> HTTPConnection.Response in
                    let connection = try HTTPConnection(port: port)
                    connection.sendHead("POST", "/render", contentLength: 100)
                    for byte in #"{"text":"a slow one"#.utf8 {
                        connection.send([byte])
                        Thread.sleep(forTimeInterval: 0.3)
                    }
                    return try connection.readResponse()
                }
            }
            try await Task.sleep(for: .milliseconds(500))
            // The only slot is free while the trickler sends.
            let other = try await HTTP.send(port: port, "POST", "/render", body: Array(#"{"text":"x"}"#.utf8))
            #expect(other.status == 200)
            let render = try await trickler.value
            #expect(render.status == 408)
            #expect(render.text == "{\"error\":\"\(message)\"}\n")

            let measure = try await HTTP.onThread { () -> HTTPConnection.Response in
                let connection = try HTTPConnection(port: port)
                try connection.startMeasure(firstLine: Array(#"{"id":1,"text":"trickle"}"#.utf8), marker: "\"id\":1,")
                for byte in #"{"id":2,"text":"slowly"}"#.utf8 {
                    connection.sendChunk([byte])
                    Thread.sleep(forTimeInterval: 0.3)
                }
                return try connection.readResponse()
            }
            // The body never ends, and no pause reaches the body timeout: the deadline ends it.
            #expect(measure.status == 200)
            #expect(measure.lines.last == "{\"error\":\"\(message)\"}")
            #expect(try await HTTP.send(port: port, "POST", "/render", body: Array(#"{"text":"x"}"#.utf8)).status == 200)
        }
    }

    /// A client that reads a long `/measure` answer a little at a time (so the connection
    /// never stalls) is reset at the request deadline (what the kernel held for it is
    /// dropped), and its slot is freed.
    @Test func aClientThatReadsSlowlyLosesItsSlotAtTheDeadline() async throws {
        let body = Array((0..<50_000).map { #"{"id":\#($0),"text":"a post read slowly, #\#($0)"}"# }.joined(separator: "\n").utf8)
        try await withServer({ $0.requestTimeout = .seconds(2); $0.maxConcurrent = 1 }) { port in
            let slow = try HTTPConnection(port: port, receiveBuffer: 4096)
            // Told when the answer began: the slow request holds the only slot from then on.
            let (answering, answered) = AsyncStream<Void>.makeStream()
            let reading = Task {
                try await HTTP.onThread { () -> Int in
                    defer { answered.finish() }
                    slow.sendHead("POST", "/measure", contentLength: body.count)
                    slow.send(body)
                    var reads = 0
                    while try slow.readSome(256), reads < 1000 {
                        if reads == 0 { answered.yield() }
                        reads += 1
                        Thread.sleep(forTimeInterval: 0.05)
                    }
                    return reads
                }
            }
            var began = answering.makeAsyncIterator()
            #expect(await began.next() != nil, "no answer came")
            #expect(try await HTTP.send(port: port, "POST", "/render", body: Array(#"{"text":"x"}"#.utf8)).status == 503)
            let reads = try await reading.value
            #expect(reads < 1000, "the connection was not reset")
            // Freed as soon as the server sees the reset; a loaded machine may take seconds.
            var freed = false
            for _ in 0..<300 where !freed {
                freed = try await HTTP.send(port: port, "POST", "/render", body: Array(#"{"text":"x"}"#.utf8)).status == 200
                if !freed { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(freed)
        }
    }

    /// A client that sends a whole large `/measure` body before it reads anything (what
    /// most HTTP clients do) gets the whole answer, and one whose body passes the limit gets
    /// the answer up to it and the error line, never a reset: the server drains the body
    /// (past the limit, dropping it) while the answer waits, rather than each side waiting
    /// for the other until the stall timeout. The answers (four widths a post, about 14 MB)
    /// are more than the kernel's buffers hold (4 MB at most for the server's sends, 6 MB for
    /// this client's receives); the body past the limit is more than the server's receives
    /// hold once it stops reading. (A 4 KB receive window would throttle the answer to tens
    /// of KB a second, which under a sanitizer stalled past the stall timeout.)
    @Test func aClientThatSendsItsWholeBodyFirstGetsTheWholeAnswer() async throws {
        func post(_ n: Int) -> String { #"{"id":\#(n),"text":"sent before any answer is read, #\#(n)"}"# }
        func sendThenRead(port: Int, _ body: [UInt8]) async throws -> HTTPConnection.Response {
            try await HTTP.onThread { () -> HTTPConnection.Response in
                let connection = try HTTPConnection(port: port)
                connection.sendHead("POST", "/measure?width=320,375,414,768", chunked: true)
                var offset = 0
                while offset < body.count {
                    connection.sendChunk(body[offset..<min(body.count, offset + 65536)])
                    offset += 65536
                }
                connection.finishChunks()
                return try connection.readResponse()
            }
        }
        let count = 40_000
        let whole = Array((0..<count).map(post).joined(separator: "\n").utf8)
        try await withServer({ $0.stallTimeout = .seconds(30) }) { port in
            let response = try await sendThenRead(port: port, whole)
            #expect(response.status == 200)
            #expect(response.lines.count == count)
            #expect(response.lines.last?.contains("\"id\":\(count - 1),") == true, "\(response.lines.last ?? "")")
            #expect(response.body.count > 8 << 20)
        }
        let limit = 2 << 20
        let over = Array((0..<700_000).map(post).joined(separator: "\n").utf8)  // 40 MB: past what the server's receives hold
        try await withServer({ $0.stallTimeout = .seconds(30); $0.maxBodyBytes = limit }) { port in
            let response = try await sendThenRead(port: port, over)
            #expect(response.status == 200)
            #expect(response.lines.last == "{\"error\":\"request body larger than \(limit) bytes (the server's --max-body-bytes)\"}")
            #expect(response.lines.count > 20_000 && response.body.count > 4 << 20, "\(response.lines.count) lines")
        }
    }

    /// A body over the limit sent whole before reading, on a connection the client closes
    /// after one request (`Connection: close`, which every request of these tests asks for):
    /// the answer is the refusal, read after the body, never a reset. The server reads the
    /// rest of the body and drops it before closing (8 MB over a 1 MB limit: more than the
    /// kernel's buffers hold once it stops reading).
    @Test func aBodyOverTheLimitSentWholeGetsItsRefusal() async throws {
        let body = [UInt8](repeating: 0x20, count: 8 << 20)
        try await withServer({ $0.maxBodyBytes = 1 << 20; $0.maxRenderBytes = 1 << 20; $0.stallTimeout = .seconds(30) }) { port in
            for (path, chunked) in [("/measure", false), ("/measure", true), ("/render", false), ("/render", true)] {
                let (sent, response) = try await HTTP.onThread { () -> (Bool, HTTPConnection.Response) in
                    let connection = try HTTPConnection(port: port, receiveBuffer: 4096)
                    var sent = true
                    if chunked {
                        connection.sendHead("POST", path, chunked: true)
                        for offset in stride(from: 0, to: body.count, by: 65536) where sent {
                            sent = connection.sendChunk(body[offset..<offset + 65536])
                        }
                        sent = sent && connection.send("0\r\n\r\n")
                    } else {
                        connection.sendHead("POST", path, contentLength: body.count)
                        sent = connection.send(body)
                    }
                    return (sent, try connection.readResponse())
                }
                #expect(sent, "\(path) chunked \(chunked): the body was cut off")
                #expect(response.status == 413 || (response.status == 200 && response.lines.last?.contains("larger than") == true),
                        "\(path) chunked \(chunked): \(response.status) \(response.text.suffix(200))")
            }
        }
    }
}
