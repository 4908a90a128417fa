import Dispatch
@testable import SampleFeed
import Synchronization
import Testing
@testable import TextKitLite

/// The extents memo answers only for its exact key, forgets by replacement, never hands a
/// torn entry to a reader, and measurements read from it equal layouts.
@Suite struct WordExtentsMemoTests {
    static let seed: (UInt64, UInt64, UInt64, UInt64) = (1, 2, 3, 4)

    static func key(_ text: String, font: Int = 7, script: UInt32 = 0x4C61_746E, rightToLeft: Bool = false,
                    language: String? = nil) -> ShapeCache.Key {
        Array(text.utf16).withUnsafeBufferPointer {
            ShapeCache.Key(font: font, script: script, rightToLeft: rightToLeft, language: language, text: $0, seed: seed)
        }
    }

    static func extents(_ n: Int64, length: Int32) -> WordExtents {
        WordExtents(totalAdvance: 1000 + n, hangingAdvance: n, length: length, trailingSpaceStart: length - 1)
    }

    @Test func answersOnlyItsExactKey() {
        let word = Self.extents(250, length: 6)
        // Also in a memo of one pair, where every key lands on the same entries.
        for entries in [16_384, 2] {
            let memo = WordExtentsMemo(entries: entries)
            memo.insert(word, for: Self.key("hello "))
            #expect(memo.extents(for: Self.key("hello ")) == word)
            for other in [Self.key("hello!"), Self.key("hello"), Self.key("hello  "), Self.key("hello ", font: 8),
                          Self.key("hello ", script: 0x4772_656B), Self.key("hello ", rightToLeft: true),
                          Self.key("hello ", language: "en"), Self.key("hellp ")] {
                #expect(memo.extents(for: other) == nil, "\(entries)")
            }
        }
        let memo = WordExtentsMemo()
        memo.insert(word, for: Self.key("hello "))
        // Words it does not take: with a language, or longer than 12 units.
        memo.insert(word, for: Self.key("hello ", language: "en"))
        #expect(memo.extents(for: Self.key("hello ", language: "en")) == nil)
        let long = Self.extents(1, length: 13)
        memo.insert(long, for: Self.key("thirteen unit"))
        #expect(memo.extents(for: Self.key("thirteen unit")) == nil)
        let twelve = Self.extents(2, length: 12)
        memo.insert(twelve, for: Self.key("twelve units"))
        #expect(memo.extents(for: Self.key("twelve units")) == twelve)
        memo.removeAll()
        #expect(memo.extents(for: Self.key("hello ")) == nil)
        #expect(memo.extents(for: Self.key("twelve units")) == nil)
    }

    @Test func aThirdWordReplacesOneOfThePair() {
        let memo = WordExtentsMemo(entries: 2)  // one pair: every key competes for it
        let words = ["one", "two", "three"]
        for (k, word) in words.enumerated() {
            memo.insert(Self.extents(Int64(k), length: Int32(word.utf16.count)), for: Self.key(word))
        }
        #expect(memo.extents(for: Self.key("three")) == Self.extents(2, length: 5))
        let kept = words.prefix(2).filter { memo.extents(for: Self.key($0)) != nil }
        #expect(kept.count == 1)
    }

    /// Two threads writing and reading the words of a memo of two pairs at once: every
    /// answer is the whole entry of the key asked (the extents are a function of the word),
    /// never a mix of two (Thread Sanitizer runs this suite).
    @Test func readersNeverSeeATornEntry() {
        let words = (0..<16).map { "w\($0)x\($0 * 7919)" }
        let keys = words.map { Self.key($0) }
        let memo = WordExtentsMemo(entries: 4)
        let arrived = Atomic(0)
        let wrong = Locked(0), found = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            arrived.add(1, ordering: .relaxed)
            // Both run the whole loop together (bounded: Dispatch may run the two in turn).
            var spins = 0
            while arrived.load(ordering: .relaxed) < 2, spins < 50_000_000 { spins += 1 }
            var wrongHere = 0, foundHere = 0
            for round in 0..<50_000 {
                let write = (round * (thread == 0 ? 7 : 13) + thread) % keys.count
                memo.insert(Self.extents(Int64(write), length: Int32(words[write].utf16.count)), for: keys[write])
                let read = (round * 5 + 3 * thread) % keys.count
                if let answer = memo.extents(for: keys[read]) {
                    foundHere += 1
                    if answer != Self.extents(Int64(read), length: Int32(words[read].utf16.count)) { wrongHere += 1 }
                }
            }
            wrong.withLock { $0 += wrongHere }
            found.withLock { $0 += foundHere }
        }
        #expect(wrong.withLock { $0 } == 0)
        #expect(found.withLock { $0 } > 0)
    }

    /// A fresh engine measures every text twice: the first fills the memo, the second reads
    /// it. Both measurements equal the layout of an engine that never measured.
    @Test func measurementsFromTheMemoEqualLayouts() throws {
        let measuring = TextEngine(fonts: Fixtures.engine.fonts)
        let laying = TextEngine(fonts: Fixtures.engine.fonts)
        var texts = SampleFeed.posts(count: 60, seed: 5).map(\.text)
        texts += ["trailing spaces   then more words  ", "עברית ועוד מילים בעברית  ", "tab\tseparated\twords\t"]
        var compared = 0
        for text in texts {
            let attributed = AttributedText(text, style: TextStyle(size: 15))
            for options in [LayoutOptions(width: 200, lineHeightMode: .uniform),
                            LayoutOptions(width: 143.5, maxLines: 3, lineHeightMode: .natural)] {
                let layout = try laying.layout(attributed, options: options)
                for _ in 0..<2 {
                    let measured = try measuring.measure(attributed, options: options)
                    #expect(measured == TextMeasurement(layout), "\(text)")
                    compared += 1
                }
            }
        }
        #expect(compared == texts.count * 4)
        // The second pass shaped nothing and was answered by value.
        let shapings = measuring.shapeCache.shapingCount
        let stored = measuring.shapeCache.statistics
        for text in texts {
            _ = try measuring.measure(AttributedText(text, style: TextStyle(size: 15)), options: LayoutOptions(width: 200))
        }
        #expect(measuring.shapeCache.shapingCount == shapings)
        #expect(measuring.shapeCache.statistics.hits > stored.hits)
    }
}
