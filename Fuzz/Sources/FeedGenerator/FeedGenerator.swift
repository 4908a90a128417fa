import Foundation
import SampleFeed

/// `FeedGenerator COUNT [SEED]`: writes the first COUNT posts of `SampleFeed` (seed SEED,
/// default 1) as JSON Lines to standard output, one post at a time, so memory stays flat
/// for any count.
@main
struct FeedGenerator {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard (1...2).contains(arguments.count), let count = Int(arguments[0]), count >= 0 else {
            fail("usage: FeedGenerator COUNT [SEED]  (COUNT ≥ 0 posts as JSON Lines on stdout)")
        }
        var seed: UInt64 = 1
        if arguments.count == 2 {
            guard let value = UInt64(arguments[1]) else { fail("FeedGenerator: invalid SEED \(arguments[1]): must be an unsigned integer") }
            seed = value
        }
        var buffer = ""
        buffer.reserveCapacity(1 << 17)
        for post in SampleFeed.posts(count: count, seed: seed) {
            buffer += SampleFeed.jsonLine(post)
            buffer += "\n"
            if buffer.utf8.count >= 1 << 16 {
                FileHandle.standardOutput.write(Data(buffer.utf8))
                buffer.removeAll(keepingCapacity: true)
            }
        }
        FileHandle.standardOutput.write(Data(buffer.utf8))
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(64)
    }
}
