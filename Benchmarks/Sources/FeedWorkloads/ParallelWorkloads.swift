import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import TextKitLite
import TextKitLiteFeed

/// The feed on one worker versus two: the same work through `RenderQueuePool`s of
/// different sizes.
public enum ParallelWorkloads {
    /// Precompute of the feed: `FeedPrecomputer.layout` on `pool`'s workers,
    /// delivered in order to this thread. With a new precomputer over a new engine
    /// (`Feed.precomputer(Feed.coldEngine())`, made before timing) the caches are cold.
    /// The precomputer outlives the call, as in a service that keeps it: freeing its caches
    /// is a separate, single-threaded cost (`teardown`), not part of precomputing.
    ///
    /// - Returns: the sum of the cell heights.
    public static func precompute(_ posts: [FeedPost] = Feed.posts, pool: RenderQueuePool,
                                  with precomputer: FeedPrecomputer) -> Double {
        var total = 0.0
        pool.orderedMap(posts, priority: .prefetch, window: 256, transform: { post in
            (post.id, Result { () throws(LayoutError) -> CellLayout in
                try precomputer.layout(post, width: Feed.width, scale: Feed.scale)
            })
        }, consume: { id, result in
            switch result {
            case .success(let cell): total += cell.height
            case .failure(let error): fatalError("layout of \(id): \(error)")
            }
        })
        return total
    }

    /// Precompute with cold caches, then the precomputer and engine freed: both costs, for
    /// `--profile` loops.
    public static func precomputeCold(_ posts: [FeedPost] = Feed.posts, pool: RenderQueuePool) -> Double {
        precompute(posts, pool: pool, with: Feed.precomputer(Feed.coldEngine()))
    }

    /// Layout and render throughput: one pool job per post lays it out and draws the cell
    /// at 2× (warm glyph cache). Waits for all jobs. With a fresh precomputer over a warm
    /// engine (`Feed.precomputer(engine)`, made before timing), words are cached and lines
    /// and cells computed; freeing the precomputer afterwards is not part of the figure (as
    /// for `precompute`).
    ///
    /// - Returns: a checksum of the bitmaps.
    public static func layoutAndRender(_ posts: [FeedPost] = Feed.posts, pool: RenderQueuePool,
                                       precomputer: FeedPrecomputer, renderer: CellRenderer) -> Int {
        let options = RenderOptions(scale: Feed.scale)
        return eachJob(posts.count, pool: pool) { index in
            let post = posts[index]
            do {
                let cell = try precomputer.layout(post, width: Feed.width, scale: Feed.scale)
                guard let bitmap = try renderer.render(cell, options: options) else { fatalError("cancelled") }
                return bitmap.width &+ bitmap.height &+ Int(bitmap.pixels[bitmap.pixels.count / 2])
            } catch {
                fatalError("\(post.id): \(error)")
            }
        }
    }

    /// The machine's own ceiling for the 1-vs-2-worker ratios: one pool job per post that
    /// only does arithmetic in registers (an xorshift loop of `iterations` steps, about as
    /// long as laying out a post), no allocation, no shared memory. Its speedup on two
    /// workers is what the machine gives two busy threads; the library's speedups are read
    /// against it.
    ///
    /// - Returns: a checksum of the loops.
    public static func arithmetic(jobs: Int = Feed.posts.count, iterations: Int = 100_000, pool: RenderQueuePool) -> Int {
        eachJob(jobs, pool: pool) { job in
            var x = UInt64(job &+ 1) &* 0x9E37_79B9_7F4A_7C15
            for _ in 0..<iterations {
                xorshift(&x)
            }
            return Int(truncatingIfNeeded: x & 0xff)
        }
    }

    /// A second ceiling, for memory-bound work: one pool job per post that chases pointers
    /// through a table of its own worker (384 KB: each fits a core's L2 cache alone, two do
    /// not fit one), `steps` dependent loads. On two separate cores its speedup is about 2×;
    /// on two hardware threads of one core (SMT siblings, sharing L1 and L2) much less, while
    /// the arithmetic ceiling stays near 2× either way: the pair tells the two apart.
    ///
    /// - Returns: a checksum of the walks.
    public static func memoryWalk(jobs: Int = Feed.posts.count, steps: Int = 12_000, pool: RenderQueuePool) -> Int {
        eachJob(jobs, pool: pool) { job in
            let table = WalkTables.shared.table(forThread: UInt(bitPattern: Int(bitPattern: pthread_self())))
            var index = (job &* 7919) % table.count
            for _ in 0..<steps { index = Int(table[index]) }
            return index
        }
    }

    /// One pointer-chasing table per worker thread, each a single random cycle.
    final class WalkTables: Sendable {
        static let shared = WalkTables()
        private let tables: [[UInt32]]
        private let owners = Mutex<[UInt: Int]>([:])

        private init(count: Int = 2, bytes: Int = 384 << 10) {
            let n = bytes / 4
            tables = (0..<count).map { t in
                // Sattolo's algorithm: a random permutation that is one cycle.
                var next = Array(0..<UInt32(n))
                var random = UInt64(t + 1) &* 0x9E37_79B9_7F4A_7C15
                for i in stride(from: n - 1, to: 0, by: -1) {
                    xorshift(&random)
                    next.swapAt(i, Int(random % UInt64(i)))
                }
                return next
            }
        }

        /// The table of the calling thread: the first thread to ask gets table 0, the next 1, …
        func table(forThread thread: UInt) -> [UInt32] {
            let index = owners.withLock { owners in
                if let index = owners[thread] { return index }
                let index = owners.count % tables.count
                owners[thread] = index
                return index
            }
            return tables[index]
        }
    }

    /// One step of Marsaglia's xorshift64 generator (13, 7, 17).
    @inline(__always)
    static func xorshift(_ x: inout UInt64) {
        x ^= x << 13
        x ^= x >> 7
        x ^= x << 17
    }

    /// Runs `body(0..<count)` as one visible-priority pool job each and waits for all.
    ///
    /// - Returns: the wrapping sum of what the jobs return (a checksum).
    ///
    /// The jobs reach `body` unretained, so that what it captures (a precomputer, say) is
    /// freed on this thread when the caller lets go of it, not later on a worker (a job's
    /// closure is released after `group.leave()`) while the next workload is being timed.
    /// Safe: `body` is kept alive until every job has run it (`group.wait()`).
    static func eachJob(_ count: Int, pool: RenderQueuePool, _ body: @escaping @Sendable (Int) -> Int) -> Int {
        let group = DispatchGroup()
        let sink = Sink()
        let context = JobBody(body)
        let unretained = Unmanaged.passUnretained(context)
        for index in 0..<count {
            group.enter()
            pool.submit(priority: .visible) {
                sink.add(unretained.takeUnretainedValue().body(index))
                group.leave()
            }
        }
        group.wait()
        withExtendedLifetime(context) {}
        return sink.value
    }

    /// The body every job of one `eachJob` runs.
    final class JobBody: Sendable {
        let body: @Sendable (Int) -> Int
        init(_ body: @escaping @Sendable (Int) -> Int) { self.body = body }
    }

    /// A thread-safe checksum accumulator.
    final class Sink: Sendable {
        private let total = Atomic<Int>(0)
        func add(_ value: Int) { total.wrappingAdd(value, ordering: .relaxed) }
        var value: Int { total.load(ordering: .relaxed) }
    }
}
