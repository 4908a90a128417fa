import ArgumentParser
import Foundation
import Hummingbird
import Logging
import TextKitLite
import TextKitLiteFrontEnd
import TextRenderService

/// `textrender-server`: TextKitLite's measuring and rendering over HTTP.
@main
struct TextRenderServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "textrender-server",
        abstract: "Measure feed posts and render text over HTTP: POST /measure, POST /render, GET /health.",
        discussion: """
            POST /measure takes JSON Lines posts (as `textrender measure` reads them) with measure's
            options as query parameters (width, layout, max-lines, font-size, line-spacing,
            emoticons=on|off) and streams one JSON line per post back, as `textrender measure`
            writes them. POST /render takes {"text": ..., "width": ..., ...} (render's options
            by name, colors included) and answers a PNG: RGBA, or RGB when opaque; 8-bit gray with
            "gray": true. Errors are {"error": MESSAGE} with a 4xx status. SIGTERM or SIGINT
            stops it gracefully: no new connection is taken, requests in flight finish.
            """)

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(parsing: .unconditional, help: "Port to listen on; 0 picks a free port (printed on start).")
    var port = 8080

    @Option(name: .customLong("max-body-bytes"), parsing: .unconditional, help: "Largest request body accepted (413 beyond).")
    var maxBodyBytes = 16 << 20

    @Option(name: .customLong("max-render-bytes"), parsing: .unconditional, help: "Largest POST /render body accepted (413 beyond).")
    var maxRenderBytes = 256 << 10

    @Option(name: .customLong("request-timeout"), parsing: .unconditional, help: ArgumentHelp(
        "Longest time, in seconds, a request may take from its head to the end of its answer (408 for a late body; the connection closed 2 s later).",
        valueName: "seconds"))
    var requestTimeout = 120

    @Option(name: .customLong("body-timeout"), parsing: .unconditional, help: ArgumentHelp(
        "Longest wait, in seconds, for the next part of a request body (408 beyond).", valueName: "seconds"))
    var bodyTimeout = 30

    @Option(name: .customLong("stall-timeout"), parsing: .unconditional, help: ArgumentHelp(
        "Longest time, in seconds, a connection may make no progress (nothing read, no write completed, e.g. a client that stops reading its answer) before it is closed.",
        valueName: "seconds"))
    var stallTimeout = 60

    @Option(name: .customLong("max-concurrent"), parsing: .unconditional, help: "Requests measuring or rendering at once (503 beyond).")
    var maxConcurrent = 8

    @Option(name: .customLong("jobs"), parsing: .unconditional, help: "Worker threads that measure and render (default: the machine's active cores).")
    var jobs: Int?

    @Option(name: .customLong("max-pixels"), parsing: .unconditional, help: "Largest image POST /render draws (422 beyond).")
    var maxPixels = ServiceConfiguration.defaultMaxPixels

    @Option(name: .customLong("font"), help: ArgumentHelp(
        "A font file for the fallback chain, in order, before the bundled fonts (repeatable). PATH or PATH#INDEX.", valueName: "path[#index]"))
    var fonts: [String] = []

    @Option(name: .customLong("font-family"), help: ArgumentHelp(
        "An installed font family for the fallback chain (fontconfig), after the --font files (repeatable). NAME or NAME:STYLE.", valueName: "name[:style]"))
    var families: [String] = []

    @Flag(name: .customLong("no-fallback"), help: "Use only the --font and --font-family fonts.")
    var noFallback = false

    @Option(help: ArgumentHelp("Emoticon table (JSON) for measure (emoticons=on) and render (\"emoticons\": true), or 'none'. Default: the bundled table.",
                               valueName: "file|none"))
    var emoticons: String?

    @Option(name: .customLong("log-level"), help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel = "notice"

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("invalid --port \(port): must be from 0 to 65535") }
        guard maxBodyBytes > 0 else { throw ValidationError("invalid --max-body-bytes \(maxBodyBytes): must be positive") }
        guard maxRenderBytes > 0 else { throw ValidationError("invalid --max-render-bytes \(maxRenderBytes): must be positive") }
        guard (1...86_400).contains(requestTimeout) else { throw ValidationError("invalid --request-timeout \(requestTimeout): must be from 1 to 86400 seconds") }
        guard (1...86_400).contains(bodyTimeout) else { throw ValidationError("invalid --body-timeout \(bodyTimeout): must be from 1 to 86400 seconds") }
        guard (1...86_400).contains(stallTimeout) else { throw ValidationError("invalid --stall-timeout \(stallTimeout): must be from 1 to 86400 seconds") }
        guard (1...10_000).contains(maxConcurrent) else { throw ValidationError("invalid --max-concurrent \(maxConcurrent): must be from 1 to 10000") }
        if let jobs, !(1...256).contains(jobs) { throw ValidationError("invalid --jobs \(jobs): must be from 1 to 256") }
        guard maxPixels > 0 else { throw ValidationError("invalid --max-pixels \(maxPixels): must be positive") }
        if let problem = FontSelection(files: fonts, families: families, fallback: !noFallback).problem { throw ValidationError(problem) }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("invalid --log-level \(logLevel): use trace, debug, info, notice, warning, error or critical")
        }
    }

    func run() async throws {
        var configuration = ServiceConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.maxBodyBytes = maxBodyBytes
        configuration.maxConcurrent = maxConcurrent
        configuration.maxRenderBytes = maxRenderBytes
        configuration.requestTimeout = .seconds(requestTimeout)
        configuration.bodyTimeout = .seconds(bodyTimeout)
        configuration.stallTimeout = .seconds(stallTimeout)
        if let jobs { configuration.jobs = jobs }
        configuration.maxPixels = maxPixels
        configuration.fonts = FontSelection(files: fonts, families: families, fallback: !noFallback)
        configuration.emoticons = emoticons
        let service: TextService
        do { service = try TextService(configuration: configuration) } catch {
            FileHandle.standardError.write(Data("Error: \(error.description)\n".utf8))
            throw ExitCode.failure
        }
        var logger = Logger(label: "textrender-server")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .notice
        let host = host
        let app = service.application(logger: logger) { port in
            // One line on standard output, flushed: scripts wait for it to learn the port.
            FileHandle.standardOutput.write(Data("textrender-server listening on http://\(host):\(port)\n".utf8))
        }
        try await app.runService()
    }
}
