import Foundation
import Synchronization
import Testing
import TextKitLite
@testable import TextKitLiteFrontEnd

/// The front ends' file output (`OutputFile`): what it writes into besides a new or
/// regular file. Its errors are in `ErrorTableTests`.
@Suite struct OutputFileTests {
    /// An image written to a symbolic link replaces the link's target and keeps the link; one
    /// written to a FIFO or a device goes into it, which stays what it was; a FIFO that no
    /// process reads is an error at once, not a wait.
    @Test func writingThroughLinksIntoFIFOsAndDevices() throws {
        let bitmap = try Bitmap(width: 3, height: 2, fill: 7)
        let expected = try bitmap.pngData()
        let directory = Fixtures.temporaryPath("destinations")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func kind(_ path: String) -> mode_t {
            var status = stat()
            return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
        }

        // A link to a file, and a dangling link: the target is written, the link stays.
        let (target, link) = (directory + "/target.png", directory + "/link.png")
        _ = FileManager.default.createFile(atPath: target, contents: Data("old".utf8))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.png")
        try OutputFile.write(bitmap, to: link, format: .png)
        #expect(kind(link) == S_IFLNK)
        #expect(kind(target) == S_IFREG)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: target))) == expected)
        let dangling = directory + "/dangling.png"
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "made.png")
        try OutputFile.write(bitmap, to: dangling, format: .png)
        #expect(kind(dangling) == S_IFLNK)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/made.png"))) == expected)

        // A FIFO without a reader, then with one (a link to it alike).
        let fifo = directory + "/fifo.png"
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(throws: RenderError.cannotWrite(path: fifo, reason: "nothing reads from it (No such device or address)")) {
            try OutputFile.write(bitmap, to: fifo, format: .png)
        }
        let fifoLink = directory + "/fifo-link.png"
        try FileManager.default.createSymbolicLink(atPath: fifoLink, withDestinationPath: "fifo.png")
        for path in [fifo, fifoLink] {
            let received = Mutex<[UInt8]?>(nil)
            let reader = Thread {
                let bytes = FileHandle(forReadingAtPath: fifo).map { [UInt8]($0.readDataToEndOfFile()) }
                received.withLock { $0 = bytes }
            }
            reader.start()
            var written = false
            for _ in 0..<200 where !written {  // until the reader has the FIFO open
                do {
                    try OutputFile.write(bitmap, to: path, format: .png)
                    written = true
                } catch {
                    usleep(10_000)
                }
            }
            #expect(written)
            for _ in 0..<5_000 where received.withLock({ $0 }) == nil { usleep(1_000) }  // at most 5 s
            #expect(received.withLock { $0 } == expected)
            #expect(kind(fifo) == S_IFIFO)
        }

        // A character device (made only where the tests may make one: as root).
        if geteuid() == 0 {
            let device = directory + "/null.png"
            #expect(mknod(device, S_IFCHR | 0o644, dev_t(1 << 8 | 3)) == 0)  // 1:3, as /dev/null
            try OutputFile.write(bitmap, to: device, format: .png)
            #expect(kind(device) == S_IFCHR)
        }
    }
}
