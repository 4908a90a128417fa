@testable import SampleFeed
import Testing
@testable import TextKitLite

/// The itemizer's one-pass unit scan agrees with the per-property predicates it replaces.
@Suite struct UnitScanTests {
    @Test func agreesWithThePredicatesOnRandomUnits() {
        var random = SampleFeed.SplitMix64(state: 3)
        // Edges of every range the scan or its fast paths test.
        let edges: [UInt16] = [0x00, 0x09, 0x1F, 0x20, 0x7E, 0x7F, 0x9F, 0xA0, 0x2FF, 0x300, 0x590, 0x8FF, 0x900,
                               0x200E, 0x2010, 0x2066, 0x3000, 0x3040, 0x4DFF, 0x4E00, 0x9FFF, 0xA000, 0xD802,
                               0xD83D, 0xDC00, 0xFB1D, 0xFE70, 0xFEFF, 0xFF00, 0xFF9D, 0xFFEF, 0xFFFF]
        for round in 0..<2000 {
            let count = random.below(12)
            let units: [UInt16] = (0..<count).map { _ in
                switch random.below(4) {
                case 0: edges[random.below(edges.count)]
                case 1: UInt16(0x20 + random.below(0x5F))
                case 2: UInt16(0x4E00 + random.below(0x5200))
                default: UInt16(random.below(0x10000))
                }
            }
            units.withUnsafeBufferPointer { text in
                let scan = UnicodeProperties.UnitScan(text)
                #expect(scan.hasControl == text.contains(where: UnicodeProperties.isControl), "round \(round): \(units)")
                #expect(scan.mayNeedBidi == UnicodeProperties.mayNeedBidi(text), "round \(round): \(units)")
                #expect(scan.everyUnitOwnGrapheme == text.allSatisfy(UnicodeProperties.isOwnGraphemeUnit), "round \(round): \(units)")
                #expect(scan.hasHanOrKana == text.contains { (0x3040...0x9FFF).contains($0) || (0xFF00...0xFFEF).contains($0) },
                        "round \(round): \(units)")
            }
        }
    }

    /// Splitting scans each paragraph as a scan of its content alone would, and cuts at
    /// exactly the mandatory-break characters UAX #14 lists (BK, CR, LF, NL).
    @Test func splittingScansEachParagraphAndCutsAtTheTerminators() {
        var random = SampleFeed.SplitMix64(state: 5)
        let terminators: Set<UInt16> = [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029]
        for unit in UInt16.min...UInt16.max {
            #expect(Paragraphs.isTerminator(unit) == terminators.contains(unit), "\(unit)")
            // `split` skips plain units: they must be no terminator and change no scan.
            if UnicodeProperties.UnitScan.isPlain(unit) {
                var scan = UnicodeProperties.UnitScan()
                scan.add(unit)
                #expect(!terminators.contains(unit) && scan == UnicodeProperties.UnitScan(), "\(unit)")
            }
        }
        let pool: [UInt16] = [0x0A, 0x0D, 0x85, 0x2028, 0x2029, 0x09, 0x41, 0x20, 0x5D0, 0x4E2D, 0x3042, 0x301, 0xD83D, 0xDE00]
        for round in 0..<2000 {
            let units = (0..<random.below(16)).map { _ in pool[random.below(pool.count)] }
            let paragraphs = Paragraphs.split(units)
            var position = 0
            units.withUnsafeBufferPointer { text in
                for paragraph in paragraphs {
                    #expect(paragraph.content.lowerBound == position, "round \(round): \(units)")
                    #expect(!text[paragraph.content].contains(where: terminators.contains), "round \(round): \(units)")
                    #expect(paragraph.scan == UnicodeProperties.UnitScan(UnsafeBufferPointer(rebasing: text[paragraph.content])),
                            "round \(round): \(units)")
                    position = paragraph.end
                }
            }
            #expect(position == units.count, "round \(round): \(units)")
        }
    }
}
