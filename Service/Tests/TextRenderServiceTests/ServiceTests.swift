import Foundation
import Testing
import TextKitLite
import TextRenderService

/// The service over real HTTP on loopback: a server in this process on a free port, and a
/// client that writes and reads the bytes on the wire.
@Suite struct ServiceTests {
    static let feed = Array(FileManager.default.contents(atPath: sampleFeed) ?? Data())

    @Test func healthAnswers() async throws {
        let response = try await withServer { port in try await HTTP.send(port: port, "GET", "/health") }
        #expect(response.status == 200)
        #expect(response.text.contains("\"status\":\"ok\""))
    }

    @Test func anotherMethodIs405() async throws {
        let (get, post) = try await withServer { port in
            (try await HTTP.send(port: port, "GET", "/measure"), try await HTTP.send(port: port, "POST", "/health"))
        }
        #expect(get.status == 405)
        #expect(get.headers["allow"] == "POST")
        #expect(get.text == #"{"error":"use POST /measure"}"# + "\n")
        #expect(post.status == 405 && post.headers["allow"] == "GET")
    }

    /// The service's lines are `textrender measure`'s, byte for byte, for the same options.
    @Test(arguments: [
        ("", [String]()),
        ("width=320", ["--width", "320"]),
        ("width=250&layout=text&max-lines=3", ["--width", "250", "--layout", "text", "--max-lines", "3"]),
        ("width=320,375,414,768", ["--width", "320,375,414,768"]),
        ("width=250,320&layout=text&weight=bold&italic=true&letter-spacing=1.5&features=-liga,tnum&lang=ja",
         ["--width", "250,320", "--layout", "text", "--weight", "bold", "--italic", "--letter-spacing", "1.5",
          "--features=-liga,tnum", "--lang", "ja"]),
        ("width=250,320&layout=text&balance=true", ["--width", "250,320", "--layout", "text", "--balance"]),
        // Vertical columns: one length gives "width" in place of "height", several give layouts.
        ("width=300&layout=text&vertical=true&max-lines=4", ["--width", "300", "--layout", "text", "--vertical", "--max-lines", "4"]),
        ("width=200,480&layout=text&vertical=true&lang=ja", ["--width", "200,480", "--layout", "text", "--vertical", "--lang", "ja"]),
        // Exclusion shapes, one exclude parameter a shape (a blank in a polygon sent as %20).
        ("width=300,375&layout=text&exclude=circle:40,40,36&exclude=rect:250,0,50,30&exclude=polygon:300,60,%20220,100,300,140",
         ["--width", "300,375", "--layout", "text", "--exclude", "circle:40,40,36", "--exclude", "rect:250,0,50,30",
          "--exclude", "polygon:300,60, 220,100,300,140"]),
        ("width=400&font-size=20&line-spacing=3&max-lines=0&emoticons=off",
         ["--width", "400", "--font-size", "20", "--line-spacing", "3", "--max-lines", "0", "--emoticons", "none"]),
    ])
    func measureEqualsTheCommandLine(query: String, options: [String]) async throws {
        #expect(!Self.feed.isEmpty, "examples/feed.jsonl not found at \(sampleFeed)")
        let cli = try runTool(textrenderPath, ["measure", sampleFeed] + options)
        try #require(cli.status == 0, "textrender measure failed (build the main package first): \(cli.stderr)")
        let (whole, chunked) = try await withServer { port in
            (try await HTTP.send(port: port, "POST", "/measure?" + query, body: Self.feed),
             try await HTTP.sendChunked(port: port, "/measure?" + query, body: Self.feed, chunkSize: 777))
        }
        #expect(whole.status == 200)
        #expect(whole.headers["content-type"]?.hasPrefix("application/jsonl") == true)
        #expect(whole.body == cli.stdout, "measure?\(query) differs from textrender measure \(options)")
        #expect(chunked.body == cli.stdout, "a chunked upload gives other lines")
        #expect(whole.lines.count == 63)
    }

    /// Bad lines get an error line in their place; the others are measured as the CLI
    /// measures them (it skips the bad ones and reports them on stderr).
    @Test func badLinesAreReportedInPlace() async throws {
        let body = Array("{\"id\":1,\"text\":\"ok\"}\nnot json\n\n{\"id\":2}\n{\"id\":3,\"text\":\"fine\"}".utf8)
        let path = NSTemporaryDirectory() + "service-bad-lines.jsonl"
        try Data(body).write(to: URL(fileURLWithPath: path))
        let cli = try runTool(textrenderPath, ["measure", path])
        #expect(cli.status == 2)
        let response = try await withServer { port in try await HTTP.send(port: port, "POST", "/measure", body: body) }
        #expect(response.status == 200)
        let lines = response.lines
        try #require(lines.count == 4)
        #expect(lines[1] == #"{"error":"bad JSON: Invalid value around character 1","line":2}"#)
        #expect(lines[2] == #"{"error":"missing \"text\"","line":4}"#)
        #expect(Array((lines[0] + "\n" + lines[3] + "\n").utf8) == cli.stdout)
        #expect(cli.stderr.contains(":2: bad JSON: Invalid value around character 1 (line skipped)"))
    }

    @Test func aBodyWithNoPostIsRefused() async throws {
        let (bad, empty) = try await withServer { port in
            (try await HTTP.send(port: port, "POST", "/measure", body: Array("nope\n[1]\n".utf8)),
             try await HTTP.send(port: port, "POST", "/measure", body: []))
        }
        #expect(bad.status == 400)
        #expect(bad.text == #"{"error":"no valid post in the request body (2 bad lines); line 1: bad JSON: Invalid value around character 1"}"# + "\n")
        #expect(empty.status == 200 && empty.body.isEmpty)
    }

    @Test(arguments: [
        ("width=abc", "invalid query parameter width=abc: not a number or a comma-separated list of numbers"),
        ("width=10", "invalid query parameter width=10: a cell must be wider than its padding (24.0 points)"),
        ("width=0&layout=text", "invalid query parameter width=0: must be a positive number of points up to 1000000"),
        ("layout=grid", "invalid query parameter layout=grid: must be cell or text"),
        ("max-lines=-1", "invalid query parameter max-lines=-1: must be from 0 (no limit) to 1000000"),
        ("font-size=0", "invalid query parameter font-size=0: must be in (0, 100000] points"),
        ("emoticons=maybe", "invalid query parameter emoticons=maybe: must be on or off"),
        ("width=300&width=400", "query parameter width given more than once"),
        ("jobs=2", "unknown query parameter jobs (known: width, layout, max-lines, font-size, line-spacing, emoticons, hyphenate, weight, italic, letter-spacing, features, lang, variations, balance, exclude, vertical)"),
        ("layout=text&weight=heavy", "invalid query parameter weight=heavy: must be regular or bold"),
        ("layout=text&italic=yes", "invalid query parameter italic=yes: must be true or false"),
        ("layout=text&balance=1", "invalid query parameter balance=1: must be true or false"),
        ("balance=true", "query parameter balance styles a text alone: give it with layout=text (a cell's texts have the feed's styles)"),
        ("layout=text&letter-spacing=1e9", "invalid query parameter letter-spacing=1e9: must be a finite number of points within ±10000"),
        ("layout=text&features=x", "invalid query parameter features=x: use comma-separated four-letter tags, each optionally with - (off), + (on) or =N, e.g. tnum,-liga"),
        ("layout=text&variations=wght", "invalid query parameter variations=wght: use comma-separated TAG=VALUE settings, a four-letter axis tag and a number of at most ±32767, e.g. wght=650,wdth=80"),
        ("layout=text&variations=wght=700", #"invalid query parameter variations: no font of the chain has a \"wght\" axis (no font of the chain is variable)"#),
        ("layout=text&lang=1", "invalid query parameter lang=1: expected a BCP 47 language tag such as ja, ko, zh-Hans, zh-Hant, en-US"),
        ("lang=ja&letter-spacing=2", "query parameter letter-spacing styles a text alone: give it with layout=text (a cell's texts have the feed's styles)"),
        ("exclude=circle:1,2,3", "query parameter exclude shapes a text alone: give it with layout=text (a cell's texts flow around none)"),
        ("vertical=true", "query parameter vertical sets a text alone: give it with layout=text (a cell's texts are horizontal)"),
        ("layout=text&vertical=yes", "invalid query parameter vertical=yes: must be true or false"),
        ("layout=text&vertical=true&vertical=false", "query parameter vertical given more than once"),
        ("layout=text&exclude=oval:1,2,3", "invalid query parameter exclude=oval:1,2,3: use rect:X,Y,W,H, circle:X,Y,R or polygon:X1,Y1,X2,Y2,X3,Y3,... (points, layout coordinates)"),
        ("layout=text&exclude=rect:0,0,10,10&exclude=circle:1,2,0", "invalid query parameter exclude=circle:1,2,0: a circle's radius must be more than 0"),
        ("layout=text&" + Array(repeating: "exclude=circle:1,2,3", count: 257).joined(separator: "&"),
         "too many query parameter exclude values (257): at most 256"),
        ("layout=text&vertical=true&exclude=circle:1,2,3",
         "invalid query parameter exclude with vertical=true: shapes are placed around horizontal lines; vertical text takes none"),
        ("layout=text&balance=true&exclude=circle:1,2,3",
         "invalid query parameter balance=true with exclude: lines around exclusion shapes each have their own width; balance them without exclusions"),
    ])
    func badQueryParametersAre400(query: String, message: String) async throws {
        let response = try await withServer { port in try await HTTP.send(port: port, "POST", "/measure?" + query, body: Self.feed) }
        #expect(response.status == 400)
        #expect(response.text == "{\"error\":\"\(message)\"}\n")
    }

    /// A body over the limit: 413 before reading when its length says so; a chunked one
    /// that passes the limit once lines were sent ends with an error line.
    @Test func bodiesOverTheLimit() async throws {
        let limit = 4096
        let (declared, render, streamed) = try await withServer({ $0.maxBodyBytes = limit }) { port in
            (try await HTTP.send(port: port, "POST", "/measure", body: Self.feed),
             try await HTTP.send(port: port, "POST", "/render", body: Array(repeating: 0x20, count: limit + 1)),
             try await HTTP.sendChunked(port: port, "/measure", body: Self.feed, chunkSize: 1000))
        }
        let message = "{\"error\":\"request body larger than \(limit) bytes (the server's --max-body-bytes)\"}"
        #expect(declared.status == 413)
        #expect(declared.text == message + "\n")
        #expect(render.status == 413)
        #expect(streamed.status == 200)
        #expect(streamed.lines.last == message)
        #expect(streamed.lines.count > 1)
    }

    /// The answer streams: the first line comes back while the body is still being sent.
    @Test func measureStreams() async throws {
        let lines = Self.feed.split(separator: 0x0A)
        try await withServer { port in
            let connection = try HTTPConnection(port: port)
            // Only the first post is sent; its line must come back before the rest is.
            try await HTTP.onThread { try connection.startMeasure(firstLine: lines[0], marker: "\"id\":\"1001\"") }
            let response = try await HTTP.onThread { try connection.finishMeasure(lines: lines.dropFirst()) }
            #expect(response.status == 200)
            #expect(response.lines.count == 63)
        }
    }

    /// With every slot held, one more request gets 503 (health checks still answer), and
    /// the slot is free again once the response was written.
    @Test func concurrencyIsBounded() async throws {
        try await withServer({ $0.maxConcurrent = 1 }) { port in
            let held = try HTTPConnection(port: port)
            // It is being measured, its body still open.
            try await HTTP.onThread { try held.startMeasure(firstLine: Array("{\"id\":1,\"text\":\"hold\"}".utf8), marker: "\"id\":1,") }
            let busy = try await HTTP.send(port: port, "POST", "/render", body: Array(#"{"text":"x"}"#.utf8))
            #expect(busy.status == 503)
            #expect(busy.headers["retry-after"] == "1")
            #expect(busy.text.contains("--max-concurrent"))
            #expect(try await HTTP.send(port: port, "GET", "/health").status == 200)
            let finished = try await HTTP.onThread { try held.finishMeasure(lines: [[UInt8]]()) }
            #expect(finished.status == 200)
            #expect(try await slotIsFreed(port: port))
        }
    }

    /// A client that stops sending its body gets 408 (or, once the answer streams, an
    /// error line at its end), and its slot is freed.
    @Test func stalledBodiesTimeOut() async throws {
        try await withServer({ $0.bodyTimeout = .milliseconds(300); $0.maxConcurrent = 1 }) { port in
            let message = "no part of the request body came for 0.3 s (the server's --body-timeout)"
            let render = try await HTTP.onThread { () -> HTTPConnection.Response in
                let connection = try HTTPConnection(port: port)
                connection.sendHead("POST", "/render", contentLength: 100)
                connection.send(#"{"text":"#)
                return try connection.readResponse()
            }
            #expect(render.status == 408)
            #expect(render.text == "{\"error\":\"\(message)\"}\n")
            let measure = try await HTTP.onThread { () -> HTTPConnection.Response in
                let connection = try HTTPConnection(port: port)
                try connection.startMeasure(firstLine: Array(#"{"id":1,"text":"stall"}"#.utf8), marker: "\"id\":1,")
                return try connection.readResponse()
            }
            #expect(measure.status == 200)
            #expect(measure.lines.count == 2)
            #expect(measure.lines.last == "{\"error\":\"\(message)\"}")
            #expect(try await slotIsFreed(port: port))
        }
    }

    /// A client that stops reading a long `/measure` answer holds its slot only until the
    /// connection has made no progress for the stall timeout; then it is closed.
    @Test func aClientThatStopsReadingIsCutOff() async throws {
        let body = Array((0..<100_000).map { #"{"id":\#($0),"text":"a post that stays unread, #\#($0)"}"# }.joined(separator: "\n").utf8)
        // 3 s: time enough to see the slot held and a second request refused before the
        // stalled connection is closed (1 s raced the refusal on a loaded machine).
        try await withServer({ $0.stallTimeout = .seconds(3); $0.maxConcurrent = 1 }) { port in
            // A small receive buffer, and no read: the answer (about 10 MB) fills the buffers.
            let stalled = try HTTPConnection(port: port, receiveBuffer: 4096)
            let sending = Task { try await HTTP.onThread { stalled.sendHead("POST", "/measure", contentLength: body.count); stalled.send(body) } }
            // A probe whose request waits unread on a busy machine for the stall timeout is
            // closed unanswered, as any stalled connection is: such a probe is made again.
            func probe(_ method: String, _ path: String, body: [UInt8]? = nil) async throws -> HTTPConnection.Response {
                for _ in 0..<20 {
                    do {
                        return try await HTTP.send(port: port, method, path, body: body)
                    } catch let failure as HTTPConnection.Failure where failure.description.contains("(got 0 bytes)") {
                        try await Task.sleep(for: .milliseconds(50))
                    }
                }
                return try await HTTP.send(port: port, method, path, body: body)
            }
            var held = false
            for _ in 0..<300 where !held {
                try await Task.sleep(for: .milliseconds(50))
                held = try await probe("GET", "/health").text.contains("\"inFlight\":1")
            }
            #expect(held, "the request never took its slot")
            #expect(try await probe("POST", "/render", body: Array(#"{"text":"x"}"#.utf8)).status == 503)
            var freed = false
            for _ in 0..<300 where !freed {
                try await Task.sleep(for: .milliseconds(200))
                freed = try await probe("POST", "/render", body: Array(#"{"text":"x"}"#.utf8)).status == 200
            }
            #expect(freed, "the slot was still held 60 s later")
            try await sending.value
        }
    }

    /// The PNG decodes and is the one `textrender render` writes for the same options.
    @Test func renderAnswersThePNGTheCommandLineWrites() async throws {
        let json = ##"{"text":"Hello, 世界 👋 مرحبا [微笑] @bob #swift","width":200,"scale":2,"highlight":true,"emoticons":true,"maxLines":2,"align":"center","color":"#222","background":"#fffbe6","linkColor":"crimson"}"##
        let response = try await withServer { port in try await HTTP.send(port: port, "POST", "/render", body: Array(json.utf8)) }
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "image/png")
        #expect(response.headers["textkitlite-lines"] == "2")
        let image = try GrayImage(pngData: response.body)
        #expect(image.isColor && image.width == 400)
        #expect(image.rgb.map { Array($0.prefix(3)) } == [0xff, 0xfb, 0xe6])  // the background
        #expect(image.height > 40)
        let path = NSTemporaryDirectory() + "service-render.png"
        let cli = try runTool(textrenderPath, [
            "render", "Hello, 世界 👋 مرحبا [微笑] @bob #swift", "--width", "200", "--scale", "2", "--highlight",
            "--emoticons", repositoryRoot + "/examples/emoticons/emoticons.json", "--max-lines", "2", "--align", "center", "--output", path,
            "--color", "#222", "--background", "#fffbe6", "--link-color", "crimson",
        ])
        try #require(cli.status == 0, "\(cli.stderr)")
        #expect(Array(FileManager.default.contents(atPath: path) ?? Data()) == response.body)
    }

    /// A language and the exact box in gray, as `render --lang --exact-box --gray` draws them.
    @Test func renderTakesLanguageAndExactBox() async throws {
        let json = #"{"text":"骨直 “引号”（《书名》）","lang":"ja","exactBox":true,"scale":2,"gray":true}"#
        let response = try await withServer { port in try await HTTP.send(port: port, "POST", "/render", body: Array(json.utf8)) }
        #expect(response.status == 200)
        let path = NSTemporaryDirectory() + "service-render-ja.png"
        let cli = try runTool(textrenderPath, ["render", "骨直 “引号”（《书名》）", "--lang", "ja", "--exact-box", "--scale", "2", "--gray", "--output", path])
        try #require(cli.status == 0, "\(cli.stderr)")
        #expect(Array(FileManager.default.contents(atPath: path) ?? Data()) == response.body)
    }

    /// Balanced lines, middle truncation over lines, exclusion shapes and vertical columns,
    /// as `render --balance`, `--truncation middle`, `--exclude` and `--vertical` draw them.
    @Test func renderTakesBalanceTruncationExclusionsAndVertical() async throws {
        let title = "City council approves new bike lanes after a long debate"
        // Upright ideographs and punctuation in their vertical forms, Latin and digits sideways.
        let poem = "床前明月光，疑是地上霜。「举头望明月」，低头思故乡。Li Bai 726"
        let shapes = ["circle:40,40,36", "rect:250,0,50,30", "polygon:300,60,220,100,300,140"]
        let cases = [
            (title, "", []), (title, #","balance":true"#, ["--balance"]),
            (title, #","maxLines":2,"truncation":"middle""#, ["--max-lines", "2", "--truncation", "middle"]),
            (title, #","exclude":["\#(shapes.joined(separator: #"",""#))"]"#, shapes.flatMap { ["--exclude", $0] }),
            (title, #","exclude":["\#(shapes[0])"],"maxLines":2"#, ["--exclude", shapes[0], "--max-lines", "2"]),
            (poem, #","vertical":true"#, ["--vertical"]),
            (poem, #","vertical":true,"maxLines":3,"balance":true"#, ["--vertical", "--max-lines", "3", "--balance"]),
        ]
        var answers: [[UInt8]] = []
        for (text, fields, options) in cases {
            let json = #"{"text":"\#(text)","width":300,"fontSize":28,"align":"center"\#(fields)}"#
            let response = try await withServer { port in try await HTTP.send(port: port, "POST", "/render", body: Array(json.utf8)) }
            #expect(response.status == 200, "\(json): \(response.text)")
            if options.contains("--vertical") {
                // The box is turned: 300 points is its height, the columns' length.
                #expect(response.headers["textkitlite-size"]?.hasSuffix("x300.0") == true, "\(response.headers)")
                #expect(try GrayImage(pngData: response.body).height == 300)
            }
            let path = NSTemporaryDirectory() + "service-render-options.png"
            let cli = try runTool(textrenderPath, ["render", text, "--width", "300", "--font-size", "28", "--align", "center", "--output", path] + options)
            try #require(cli.status == 0, "\(cli.stderr)")
            #expect(Array(FileManager.default.contents(atPath: path) ?? Data()) == response.body, "\(options)")
            answers.append(response.body)
        }
        // Each option changed the image: the comparisons above were not of plain renders.
        #expect(Set(answers).count == cases.count)
    }

    @Test(arguments: [
        (#"{"width":200}"#, 400, #"missing \"text\""#),
        ("nope", 400, "bad JSON"),
        ("[1]", 400, "the body must be a JSON object"),
        (#"{"text":"x","width":"wide"}"#, 400, #"\"width\" must be a number of points or \"inf\""#),
        (#"{"text":"x","fontSize":0}"#, 400, #"invalid \"fontSize\" 0.0: must be in (0, 100000] points"#),
        (#"{"text":"x","align":"middle"}"#, 400, #"invalid \"align\" \"middle\": use one of natural, left, center, right, justify"#),
        (#"{"text":"x","italic":"yes"}"#, 400, #"\"italic\" must be true or false"#),
        (#"{"text":"x","colour":1}"#, 400, #"unknown field \"colour\""#),
        (#"{"text":"x","lang":"ja_JP!"}"#, 400, #"invalid \"lang\" \"ja_JP!\": expected a BCP 47 language tag"#),
        (#"{"text":"x","width":-3}"#, 400, #"invalid \"width\" -3.0: must be a positive number of points up to 1000000, or infinity (no wrapping)"#),
        (#"{"text":"x","width":10,"inset":6}"#, 400, #"invalid \"width\" 10.0: leaves no room inside the insets (12.0 points)"#),
        (#"{"text":"x","inset":-5}"#, 400, #"invalid \"inset\" -5.0: must be from 0 to 1000000 points"#),
        (#"{"text":"x","lineHeight":2e7}"#, 400, #"invalid \"lineHeight\" 20000000.0: line height must be in (0, 1e6] points"#),
        (#"{"text":"x","lineHeightMultiple":0}"#, 400, #"invalid \"lineHeightMultiple\" 0.0: must be in (0, 100]"#),
        (#"{"text":"x","scale":500}"#, 400, #"invalid \"scale\" 500.0: must be in (0, 100]"#),
        (#"{"text":"x","maxPixels":100000000}"#, 400, #"invalid \"maxPixels\" 100000000: must be from 1 to 16777216 (the server's --max-pixels)"#),
        (#"{"text":"x","color":"reddish"}"#, 400, #"invalid \"color\" \"reddish\": "# + Color.syntaxReason),
        (#"{"text":"x","variations":"wght"}"#, 400, #"invalid \"variations\" \"wght\": use comma-separated TAG=VALUE settings"#),
        (#"{"text":"x","variations":"wght=700"}"#, 400, #"invalid \"variations\" \"wght=700\": no font of the chain has a \"wght\" axis"#),
        (#"{"text":"x","exclude":"circle:40,40,36"}"#, 400, #"\"exclude\" must be an array of strings such as \"circle:40,40,36\""#),
        (#"{"text":"x","exclude":[40]}"#, 400, #"\"exclude\" must be an array of strings"#),
        (#"{"text":"x","exclude":["oval:1,2,3"]}"#, 400, #"invalid \"exclude\" \"oval:1,2,3\": use rect:X,Y,W,H, circle:X,Y,R or polygon:"#),
        (#"{"text":"x","exclude":["rect:0,0,10,10","circle:1,2,0"]}"#, 400, #"invalid \"exclude\" \"circle:1,2,0\": a circle's radius must be more than 0"#),
        (#"{"text":"x","exclude":["polygon:0,0,1,1"]}"#, 400, #"invalid \"exclude\" \"polygon:0,0,1,1\": use rect:X,Y,W,H"#),
        (#"{"text":"x","exclude":["\#(Array(repeating: "circle:1,2,3", count: 257).joined(separator: #"",""#))"]}"#, 400,
         #"too many \"exclude\" values (257): at most 256"#),
        (#"{"text":"x","exclude":["polygon:\#(Array(repeating: "0,0", count: 600).joined(separator: ","))","polygon:\#(Array(repeating: "0,0", count: 600).joined(separator: ","))"]}"#,
         400, #"invalid \"exclude\" (1200 polygon vertices): at most 1024 polygon vertices in all"#),
        (#"{"text":"x","exclude":["circle:1,2,3"],"balance":true}"#, 400,
         #"invalid \"balance\" true with \"exclude\": lines around exclusion shapes each have their own width"#),
        (#"{"text":"x","exclude":["circle:1,2,3"],"maxLines":2,"truncation":"start"}"#, 400,
         #"invalid \"truncation\" \"start\" with \"exclude\": start truncation over several lines cannot be combined with exclusion shapes"#),
        (#"{"text":"x","vertical":"yes"}"#, 400, #"\"vertical\" must be true or false"#),
        (#"{"text":"x","exclude":["circle:1,2,3"],"vertical":true}"#, 400,
         #"invalid \"exclude\" with \"vertical\": shapes are placed around horizontal lines; vertical text takes none"#),
        (#"{"text":"hello world","maxPixels":100}"#, 422, "bitmap of 375×20 pixels exceeds the limit of 100 pixels"),
    ])
    func badRenderRequests(body: String, status: Int, message: String) async throws {
        let response = try await withServer { port in try await HTTP.send(port: port, "POST", "/render", body: Array(body.utf8)) }
        #expect(response.status == status)
        #expect(response.headers["content-type"]?.hasPrefix("application/json") == true)
        #expect(response.text.hasPrefix("{\"error\":\"" + message), "\(response.text)")
    }

    /// Whether a render is answered 200 within 2 s: a slot is freed when its response was
    /// written and released, a moment after the client has read it.
    private func slotIsFreed(port: Int) async throws -> Bool {
        for _ in 0..<100 {
            if try await HTTP.send(port: port, "POST", "/render", body: Array(#"{"text":"x"}"#.utf8)).status == 200 { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }
}
