import Foundation

/// A plain HTTP/1.1 client over a blocking loopback socket: what the tests send is what
/// goes over the wire (chunked uploads, bodies cut short, a request left open), and every
/// byte of the answer is seen. Blocking calls run on threads of their own (`HTTP.send`),
/// never on Swift's cooperative pool, which the in-process server needs.
// `@unchecked Sendable`: a test hands a connection from one thread to the next (`HTTP.onThread`),
// awaiting each call before it makes another, so no two threads ever use it at once.
final class HTTPConnection: @unchecked Sendable {
    struct Response {
        var status: Int
        /// Header names in lower case.
        var headers: [String: String]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
        /// The body's JSON Lines.
        var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let socket: Int32
    private var received: [UInt8] = []
    private var readOffset = 0

    /// - Parameter receiveBuffer: the socket's receive buffer in bytes (nil: the system's), small
    ///   for a client that reads slowly.
    init(port: Int, timeout: Int = 60, receiveBuffer: Int32? = nil) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        if var receiveBuffer { setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &receiveBuffer, socklen_t(MemoryLayout<Int32>.size)) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        // No close here: an initializer that throws once every property is set still runs
        // `deinit`, which closes the socket; a second close could close a descriptor the
        // server has been given since.
        guard connected == 0 else { throw Failure(description: "connect to port \(port): \(String(cString: strerror(errno)))") }
    }

    deinit { if socket >= 0 { close(socket) } }

    /// Sends bytes; a peer that closed early (it answered before reading the body) is not an error.
    ///
    /// - Returns: whether every byte was sent (false: the peer closed or reset the connection).
    @discardableResult
    func send(_ bytes: some Collection<UInt8>) -> Bool {
        let bytes = Array(bytes)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 { if errno == EINTR { continue } else { return false } }
            offset += sent
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Sends a request head: with `chunked`, the body follows in `sendChunk` calls.
    func sendHead(_ method: String, _ path: String, contentLength: Int? = nil, chunked: Bool = false, headers: [String: String] = [:]) {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if let contentLength { head += "Content-Length: \(contentLength)\r\n" }
        if chunked { head += "Transfer-Encoding: chunked\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        send(head + "\r\n")
    }

    @discardableResult
    func sendChunk(_ bytes: some Collection<UInt8>) -> Bool {
        guard !bytes.isEmpty else { return true }
        return send(String(bytes.count, radix: 16) + "\r\n") && send(bytes) && send("\r\n")
    }

    func finishChunks() { send("0\r\n\r\n") }

    /// Reads one full response (the head, then the body by its length, its chunks, or to the end).
    func readResponse() throws -> Response {
        let headEnd = try readUntil([13, 10, 13, 10])
        let head = String(decoding: received[readOffset..<headEnd], as: UTF8.self)
        readOffset = headEnd + 4
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure(description: "bad status line in \(head)") }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body: [UInt8] = []
        if headers["transfer-encoding"]?.lowercased() == "chunked" {
            while true {
                let lineEnd = try readUntil([13, 10])
                let sizeText = String(decoding: received[readOffset..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
                guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { throw Failure(description: "bad chunk size \(sizeText)") }
                readOffset = lineEnd + 2
                if size == 0 {
                    _ = try readUntil([13, 10])  // no trailers are sent
                    break
                }
                try fill(upTo: readOffset + size + 2)
                body += received[readOffset..<readOffset + size]
                readOffset += size + 2
            }
        } else if let length = headers["content-length"].flatMap({ Int($0) }) {
            try fill(upTo: readOffset + length)
            body = Array(received[readOffset..<readOffset + length])
            readOffset += length
        } else if status != 204, status != 304 {
            while try readMore() {}
            body = Array(received[readOffset...])
            readOffset = received.count
        }
        return Response(status: status, headers: headers, body: body)
    }

    /// Waits until `text` has come (head or body), without consuming anything: for
    /// watching a streamed answer arrive.
    func waitFor(_ text: String) throws {
        _ = try readUntil(Array(text.utf8))
    }

    /// Starts a chunked `POST /measure` with one line and waits for its answer to begin
    /// (`marker` in it): the request is then in flight, its body still open.
    func startMeasure(firstLine: some Collection<UInt8>, marker: String) throws {
        sendHead("POST", "/measure", chunked: true)
        sendChunk(Array(firstLine) + [0x0A])
        try waitFor(marker)
    }

    /// Sends the rest of a chunked body, line by line, ends it and reads the response.
    func finishMeasure(lines: some Sequence<some Collection<UInt8>>) throws -> Response {
        for line in lines { sendChunk(Array(line) + [0x0A]) }
        finishChunks()
        return try readResponse()
    }

    /// Reads at most `count` bytes of what has come (a client that reads slowly).
    ///
    /// - Returns: false once the server closed the connection.
    func readSome(_ count: Int) throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: count)
        let got = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if got > 0 { received += chunk[0..<got] }
        if got < 0, errno != EINTR, errno != EAGAIN, errno != ECONNRESET {
            throw Failure(description: "recv: \(String(cString: strerror(errno)))")
        }
        return got > 0 || (got < 0 && errno != ECONNRESET)
    }

    private func readUntil(_ marker: [UInt8]) throws -> Int {
        var from = readOffset
        while true {
            if received.count - from >= marker.count {
                for index in from...(received.count - marker.count) where received[index..<index + marker.count].elementsEqual(marker) {
                    return index
                }
                from = received.count - marker.count + 1
            }
            guard try readMore() else { throw Failure(description: "connection closed before \(marker) (got \(received.count) bytes)") }
        }
    }

    private func fill(upTo count: Int) throws {
        while received.count < count {
            guard try readMore() else { throw Failure(description: "connection closed after \(received.count) of \(count) bytes") }
        }
    }

    private func readMore() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += chunk[0..<count]
                return true
            }
            if count == 0 { return false }
            if errno == EINTR { continue }
            if errno == ECONNRESET { return false }
            throw Failure(description: "recv: \(String(cString: strerror(errno)))")
        }
    }
}

enum HTTP {
    /// Runs blocking socket work on a thread of its own.
    static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    /// One request with a whole body (Content-Length) and its response.
    static func send(port: Int, _ method: String, _ path: String, body: [UInt8]? = nil,
                     headers: [String: String] = [:]) async throws -> HTTPConnection.Response {
        try await onThread {
            let connection = try HTTPConnection(port: port)
            connection.sendHead(method, path, contentLength: body?.count ?? (method == "GET" ? nil : 0), headers: headers)
            if let body { connection.send(body) }
            return try connection.readResponse()
        }
    }

    /// One request whose body goes in chunks of `chunkSize` bytes (no Content-Length).
    static func sendChunked(port: Int, _ path: String, body: [UInt8], chunkSize: Int = 1000) async throws -> HTTPConnection.Response {
        try await onThread {
            let connection = try HTTPConnection(port: port)
            connection.sendHead("POST", path, chunked: true)
            var offset = 0
            while offset < body.count {
                connection.sendChunk(body[offset..<min(body.count, offset + chunkSize)])
                offset += chunkSize
            }
            connection.finishChunks()
            return try connection.readResponse()
        }
    }
}
