import Foundation
@testable import SampleFeed
import Testing
@testable import TextKitLite
@testable import TextKitLiteFeed

/// Writes that fail (full disk, closed descriptor, broken pipe, no memory) and `feed`'s
/// output directory (file names from ids, repeated ids, the directory lock, interrupts):
/// each ends in one clear message and a non-zero status, never a trap, and leaves no
/// temporary file. Full disks are `/dev/full` and `ulimit -f` (EFBIG, with SIGXFSZ ignored).
@Suite struct OutputFailureTests {
    /// A feed file of `count` generated posts.
    static func feedFile(_ count: Int) -> String {
        let path = Fixtures.temporaryPath("feed-\(count).jsonl")
        let lines = (0..<count).map { SampleFeed.jsonLine(SampleFeed.post($0)) }.joined(separator: "\n")
        _ = FileManager.default.createFile(atPath: path, contents: Data(lines.utf8))
        return path
    }

    static let smallFeed = feedFile(50)
    static let bigFeed = feedFile(3000)

    /// The entries of a directory whose names start with "." (temporary files).
    static func hiddenFiles(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasPrefix(".") }
    }

    /// No trap or crash report on standard error.
    static func expectNoTrap(_ result: TextRenderTool.Result, sourceLocation: SourceLocation = #_sourceLocation) {
        for sign in ["Fatal error", "Swift runtime failure", "Backtracing", "Illegal instruction"] {
            #expect(!result.stderr.contains(sign), "\(result.stderr)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Standard output and standard error

    @Test(arguments: [
        (#""$T" render x --json >/dev/full"#, "Error: cannot write to standard output: No space left on device"),
        (#""$T" render x --json >&-"#, "Error: cannot write to standard output: Bad file descriptor"),
        (#""$T" measure "$F" >/dev/full"#, "Error: cannot write to standard output: No space left on device"),
        (#""$T" measure "$F" >&-"#, "Error: cannot write to standard output: Bad file descriptor"),
    ])
    func failedWriteToStandardOutput(_ script: String, _ message: String) throws {
        let result = try TextRenderTool.shell("F=\(Self.smallFeed); " + script)
        #expect(result.status == 1)
        #expect(result.stderr == message + "\n", "\(result.stderr)")
    }

    @Test(arguments: [
        #""$T" render x --font /nonexistent.ttf --json 2>/dev/full"#,
        #""$T" render x --font /nonexistent.ttf --json 2>&-"#,
        #"printf 'bad\n' | "$T" measure 2>/dev/full"#,
        #""$T" measure "$F" 2>/dev/full >/dev/null"#,
    ])
    func failedWriteToStandardErrorExitsWithStatusOne(_ script: String) throws {
        // Nothing can be said when standard error itself fails: status 1, no trap.
        let result = try TextRenderTool.shell("F=\(Self.smallFeed); " + script + "; echo \"status $?\"")
        #expect(result.stdout.hasSuffix("status 1\n"), "\(result.stdout)")
    }

    @Test func brokenPipeWithSIGPIPEIgnoredExitsQuietly() throws {
        // 3,000 records (over 64 KB) into a reader that is gone: writes fail with EPIPE.
        let script = #"trap '' PIPE; { "$T" measure "$F"; echo "status $?" >&2; } | true"#
        let result = try TextRenderTool.shell("F=\(Self.bigFeed); " + script)
        Self.expectNoTrap(result)
        #expect(result.stderr == "status 1\n", "\(result.stderr)")
    }

    // MARK: Memory

    @Test func bitmapTooLargeForMemoryUnderARaisedLimit() throws {
        // 100,000,000 × 1,979 pixels (198 GB) is within --max-pixels 10^12 but not this machine.
        let result = try TextRenderTool.run(["render", "x", "--width", "1e6", "--scale", "100", "--max-pixels", "1000000000000",
                                             "--output", Fixtures.temporaryPath("huge.pgm")])
        #expect(result.status == 1)
        #expect(result.stderr == "Error: cannot allocate a bitmap of 100000000×1979 pixels (197900000000 bytes): not enough memory\n")
        #expect(ErrorTableTests.error(RenderError.self) { _ = try Bitmap(width: 1 << 31, height: 1 << 31, maxPixels: .max) }
                == .cannotAllocate(width: 1 << 31, height: 1 << 31, bytes: 1 << 62))
    }

    @Test func bitmapThatMallocRefuses() throws {
        // Under a 1.5 GB address-space limit, a 2 GB bitmap cannot be had: an error, no trap.
        let path = Fixtures.temporaryPath("limited.pgm")
        let result = try TextRenderTool.shell(#"ulimit -v 1500000; "$T" render x --width 1e6 --scale 10 --max-pixels 1000000000000 --output "# + path)
        Self.expectNoTrap(result)
        #expect(result.status == 1)
        #expect(result.stderr == "Error: cannot allocate a bitmap of 10000000×198 pixels (1980000000 bytes): not enough memory\n", "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    // MARK: feed: file names

    @Test func fileNamesFromIDs() {
        // Plain ids are kept; others get a cleaned prefix, "+" and a hash of the exact bytes.
        #expect(FeedPost.fileName(forID: "abc-1_x.y") == "abc-1_x.y.pgm")
        #expect(FeedPost.fileName(forID: "12345") == "12345.pgm")
        #expect(FeedPost.fileName(forID: "小林") == "__+02ec28130da96ef3.pgm")  // stable across runs
        #expect(FeedPost.fileName(forID: "阿杰") != FeedPost.fileName(forID: "小林"))
        #expect(FeedPost.fileName(forID: ".hidden").hasPrefix("_hidden+"))
        #expect(FeedPost.fileName(forID: "../etc/passwd").hasPrefix("_._etc_passwd+"))
        #expect(FeedPost.fileName(forID: "a b") != FeedPost.fileName(forID: "a_b"))
        #expect(FeedPost.fileName(forID: "a_b") == "a_b.pgm")
        let long = String(repeating: "x", count: 101)
        #expect(FeedPost.fileName(forID: long).hasPrefix(String(repeating: "x", count: 48) + "+"))
        #expect(FeedPost.fileName(forID: String(repeating: "x", count: 100)) == String(repeating: "x", count: 100) + ".pgm")
        // Names of distinct ids differ (here: 20,000 ids of one or two CJK characters).
        let ids = (0..<20_000).map { String(UnicodeScalar(0x4E00 + $0 % 1000)!) + ($0 < 1000 ? "" : String(UnicodeScalar(0x4E00 + $0 / 1000)!)) }
        #expect(Set(ids.map { FeedPost.fileName(forID: $0) }).count == Set(ids).count)
    }

    @Test func distinctIDsNeverShareAnImageAndRepeatedOnesEachGetTheirOwn() throws {
        let lines = [#"{"id": "小林", "text": "one"}"#, #"{"id": "阿杰", "text": "two two"}"#, #"{"id": "x", "text": "three"}"#,
                     #"{"id": "x", "text": "\#(String(repeating: "four ", count: 80))"}"#, #"{"id": "x", "text": "five"}"#]
        let directory = Fixtures.temporaryPath("names")
        let result = try TextRenderTool.run(["feed", "--gray", "--out", directory, "--jobs", "2", "--scale", "1"],
                                            stdin: Data(lines.joined(separator: "\n").utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("textrender: warning: id x repeats (its first image is x.pgm); this one is x+2.pgm"))
        #expect(result.stderr.contains("this one is x+3.pgm"))
        let records = try String(contentsOfFile: directory + "/layouts.jsonl", encoding: .utf8).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        let files = records.map { $0["file"] as! String }
        #expect(files == [FeedPost.fileName(forID: "小林"), FeedPost.fileName(forID: "阿杰"), "x.pgm", "x+2.pgm", "x+3.pgm"])
        // Every image is its own post's: its height is the record's.
        for record in records {
            let bitmap = try Bitmap(pgm: Array(Data(contentsOf: URL(fileURLWithPath: directory + "/" + (record["file"] as! String)))))
            #expect(Double(bitmap.height) == (record["height"] as! Double).rounded(.up))
        }
        #expect(Set(records.map { $0["height"] as! Double }).count > 1)
        #expect(Self.hiddenFiles(directory).isEmpty)
    }

    @Test func repeatedIDsUnderTwoJobsKeepEveryPost() throws {
        // 400 posts, 4 ids: every post is recorded and drawn, under names in input order.
        let lines = (0..<400).map { #"{"id": "p\#($0 % 4)", "text": "post \#($0) \#(String(repeating: "word ", count: $0 % 7))"}"# }
        let directory = Fixtures.temporaryPath("repeats")
        let result = try TextRenderTool.run(["feed", "--gray", "--out", directory, "--jobs", "2", "--scale", "0.5"],
                                            stdin: Data(lines.joined(separator: "\n").utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let files = try String(contentsOfFile: directory + "/layouts.jsonl", encoding: .utf8).split(separator: "\n").map {
            (try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any])["file"] as! String
        }
        #expect(files.count == 400 && Set(files).count == 400)
        #expect(files[0] == "p0.pgm" && files[4] == "p0+2.pgm" && files[399] == "p3+100.pgm")
        let images = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".pgm") }
        #expect(images.count == 400)
        #expect(Self.hiddenFiles(directory).isEmpty)
    }

    // MARK: feed: the output directory

    @Test func outputDirectoryInUseIsRefused() throws {
        let directory = Fixtures.temporaryPath("locked")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY)
        #expect(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        let refused = try TextRenderTool.run(["feed", "--gray", Self.smallFeed, "--out", directory])
        #expect(refused.status == 1)
        #expect(refused.stderr == "Error: output directory \(directory) is in use: another textrender feed run is writing into it\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
        close(descriptor)
        let free = try TextRenderTool.run(["feed", "--gray", Self.smallFeed, "--out", directory, "--scale", "0.5"])
        #expect(free.status == 0, "\(free.stderr)")
    }

    @Test func aStaleLayoutsFileIsRemovedWhenARunStarts() throws {
        let directory = Fixtures.temporaryPath("stale")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: directory + "/layouts.jsonl", contents: Data("stale\n".utf8))
        // The run fails at its first image (100 KB file size limit): no layouts.jsonl at all.
        let result = try TextRenderTool.shell(#"trap '' XFSZ; ulimit -f 200; "$T" feed "\#(Self.smallFeed)" --out "\#(directory)" --gray"#)
        #expect(result.status == 1)
        #expect(!FileManager.default.fileExists(atPath: directory + "/layouts.jsonl"))
    }

    @Test func fullDiskStopsTheRunWithOneMessage() throws {
        let directory = Fixtures.temporaryPath("full")
        let result = try TextRenderTool.shell(#"trap '' XFSZ; ulimit -f 200; "$T" feed "\#(Self.bigFeed)" --out "\#(directory)" --jobs 2 --gray"#)
        Self.expectNoTrap(result)
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("Error: cannot write \(directory)/") && lines[0].hasSuffix(".pgm: File too large"),
                "\(result.stderr)")
        #expect(!result.stderr.contains("line skipped"))
        #expect(Self.hiddenFiles(directory).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory + "/layouts.jsonl"))
    }

    @Test func fullDiskWhileWritingLayoutsStopsTheRun() throws {
        // Tiny images (scale 0.05) fit under the 50 KB limit; layouts.jsonl does not.
        let directory = Fixtures.temporaryPath("full-layouts")
        let result = try TextRenderTool.shell(
            #"trap '' XFSZ; ulimit -f 100; "$T" feed "\#(Self.bigFeed)" --out "\#(directory)" --jobs 2 --scale 0.05"#)
        Self.expectNoTrap(result)
        #expect(result.status == 1)
        #expect(result.stderr == "Error: cannot write \(directory)/layouts.jsonl: File too large\n", "\(result.stderr)")
        #expect(Self.hiddenFiles(directory).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory + "/layouts.jsonl"))
    }

    @Test func failedRenameOnAWorkerStopsTheRun() throws {
        // A directory holds the 41st image's name: its rename (on a worker) fails.
        let directory = Fixtures.temporaryPath("rename")
        try FileManager.default.createDirectory(atPath: directory + "/40.pgm/x", withIntermediateDirectories: true)
        let lines = (0..<3000).map { #"{"id": \#($0), "text": "post \#($0)"}"# }.joined(separator: "\n")
        let result = try TextRenderTool.run(["feed", "--gray", "--out", directory, "--jobs", "2", "--scale", "0.5"], stdin: Data(lines.utf8))
        Self.expectNoTrap(result)
        #expect(result.status == 1)
        #expect(result.stderr == "Error: cannot write \(directory)/40.pgm: Is a directory\n", "\(result.stderr)")
        #expect(Self.hiddenFiles(directory).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory + "/layouts.jsonl"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).count < 3000)
    }

    @Test func failedStandardErrorStopsAFeedRunAndCleansUp() throws {
        let directory = Fixtures.temporaryPath("feed-stderr")
        let result = try TextRenderTool.shell(#"printf 'bad\n{"id": 1, "text": "x"}\n' | "$T" feed --out "\#(directory)" 2>/dev/full; echo "status $?""#)
        #expect(result.stdout == "status 1\n")
        #expect(Self.hiddenFiles(directory).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory + "/layouts.jsonl"))
    }

    @Test func interruptReachesAFeedWhoseParentIgnoresIt() throws {
        // A background job of a non-interactive shell starts with SIGINT ignored.
        let directory = Fixtures.temporaryPath("background")
        let script = #"""
            trap '' INT
            "$T" feed "\#(Self.bigFeed)" --out "\#(directory)" --jobs 2 2>/dev/null &
            P=$!
            while kill -0 $P 2>/dev/null && [ "$(ls "\#(directory)" 2>/dev/null | wc -l)" -lt 10 ]; do sleep 0.05; done
            kill -INT $P
            wait $P
            echo "status $?"
            """#
        let result = try TextRenderTool.shell(script)
        #expect(result.stdout == "status 130\n", "\(result.stdout) \(result.stderr)")
        #expect(Self.hiddenFiles(directory).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory + "/layouts.jsonl"))
    }

    @Test func terminatedFeedRemovesItsTemporaryFiles() throws {
        let directory = Fixtures.temporaryPath("terminated")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TextRenderTool.path)
        process.arguments = ["feed", "--gray", Self.bigFeed, "--out", directory, "--jobs", "2"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        func images() -> Int {
            ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).count { $0.hasSuffix(".pgm") && !$0.hasPrefix(".") }
        }
        while images() < 10, process.isRunning { usleep(20_000) }
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 143)
        #expect(Self.hiddenFiles(directory).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory + "/layouts.jsonl"))
    }
}
