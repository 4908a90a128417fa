/// A bundled font's bytes and its sfnt table directory, read once, and the damage a fuzz
/// input describes: tables cut short, zeroed, flipped, moved, renamed; glyphs of the text
/// damaged through `loca`/`hmtx`; the file truncated.
struct SFNTFont {
    /// One record of the table directory.
    struct Table {
        let tag: String
        /// Where the record (tag, checksum, offset, length) is in the file.
        let record: Int
        let offset: Int
        let length: Int
    }

    let file: String
    let bytes: [UInt8]
    let tables: [Table]
    /// Where each glyph's outline is (`glyf` through `loca`); empty for CFF and bitmap fonts.
    private let glyphData: [Range<Int>]
    private let locaIsLong: Bool
    private let numberOfHMetrics: Int

    /// Tables a damage names (index `selector % count`); a tag the font lacks picks a
    /// table of the font by index instead.
    static let namedTables = [
        "cmap", "glyf", "loca", "GSUB", "GPOS", "GDEF", "hmtx", "hhea", "head", "maxp",
        "CBDT", "CBLC", "post", "OS/2", "CFF ", "name", "kern", "fpgm", "prep", "cvt ",
    ]

    init(file: String, bytes: [UInt8]) {
        self.file = file
        self.bytes = bytes
        let count = bytes.count >= 12 ? Int(Self.u16(bytes, 4)) : 0
        tables = (0..<count).compactMap { index in
            let record = 12 + 16 * index
            guard record + 16 <= bytes.count else { return nil }
            return Table(tag: String(decoding: bytes[record..<record + 4], as: UTF8.self), record: record,
                         offset: Int(Self.u32(bytes, record + 8)), length: Int(Self.u32(bytes, record + 12)))
        }
        let tables = self.tables
        func table(_ tag: String) -> Table? {
            tables.first { $0.tag == tag && $0.offset + $0.length <= bytes.count }
        }
        let isLong = table("head").map { Self.u16(bytes, $0.offset + 50) != 0 } ?? false
        locaIsLong = isLong
        numberOfHMetrics = table("hhea").map { Int(Self.u16(bytes, $0.offset + 34)) } ?? 0
        if let loca = table("loca"), let glyf = table("glyf") {
            let entry = isLong ? 4 : 2
            let starts = stride(from: loca.offset, to: loca.offset + loca.length - entry + 1, by: entry).map {
                glyf.offset + (isLong ? Int(Self.u32(bytes, $0)) : Int(Self.u16(bytes, $0)) * 2)
            }
            glyphData = zip(starts, starts.dropFirst()).map { $0 <= $1 ? $0..<$1 : $0..<$0 }
        } else {
            glyphData = []
        }
    }

    /// The file after the damages of `input` (8 bytes each; `glyphs` are those of the text,
    /// which glyph damages pick from): its bytes, of which the first `length` are the file.
    /// The bytes are not copied until damaged.
    func damaged(by input: ArraySlice<UInt8>, glyphs: [UInt32]) -> (bytes: [UInt8], length: Int) {
        var damage = Damage(font: self, bytes: bytes, length: bytes.count)
        var rest = input
        while rest.count >= 8 {
            damage.apply(Array(rest.prefix(8)), glyphs: glyphs)
            rest = rest.dropFirst(8)
        }
        return (damage.bytes, damage.length)
    }

    /// The table a selector byte names.
    func table(_ selector: UInt8) -> Table? {
        let tag = Self.namedTables[Int(selector) % Self.namedTables.count]
        return tables.first { $0.tag == tag } ?? (tables.isEmpty ? nil : tables[Int(selector) % tables.count])
    }

    /// The file range of a glyph's outline, of its `loca` entry and of its `hmtx` entry.
    func glyphRanges(_ glyph: Int) -> (outline: Range<Int>?, loca: Range<Int>?, hmtx: Range<Int>?) {
        let outline = glyph < glyphData.count ? glyphData[glyph] : nil
        let loca = tables.first { $0.tag == "loca" }.map { table in
            let size = locaIsLong ? 4 : 2
            return table.offset + glyph * size..<table.offset + glyph * size + size
        }
        let hmtx = tables.first { $0.tag == "hmtx" }.map { table in
            let at = glyph < numberOfHMetrics ? glyph * 4 : numberOfHMetrics * 4 + (glyph - numberOfHMetrics) * 2
            return table.offset + at..<table.offset + at + 2
        }
        return (outline, loca, hmtx)
    }

    static func u16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        at + 2 <= bytes.count ? UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1]) : 0
    }

    static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        at + 4 <= bytes.count ? UInt32(u16(bytes, at)) << 16 | UInt32(u16(bytes, at + 2)) : 0
    }
}

/// The bytes being damaged; writes outside the file are dropped.
private struct Damage {
    let font: SFNTFont
    var bytes: [UInt8]
    /// The file's length once truncated.
    var length: Int

    /// Values that break counts, offsets and flags.
    static let interesting16: [UInt16] = [0, 1, 0xFFFF, 0x8000, 0x7FFF, 0x00FF, 0x0100]

    mutating func set(_ at: Int, _ value: UInt8) {
        if at >= 0, at < bytes.count { bytes[at] = value }
    }

    mutating func set16(_ at: Int, _ value: UInt16) {
        set(at, UInt8(value >> 8))
        set(at + 1, UInt8(value & 0xFF))
    }

    mutating func set32(_ at: Int, _ value: UInt32) {
        set16(at, UInt16(value >> 16))
        set16(at + 2, UInt16(value & 0xFFFF))
    }

    mutating func flip(_ at: Int, count: Int, mask: UInt8) {
        for k in 0..<count where at + k >= 0 && at + k < bytes.count { bytes[at + k] ^= mask }
    }

    /// One damage: [operation, table, position (3 bytes), three values].
    mutating func apply(_ d: [UInt8], glyphs: [UInt32]) {
        let position = Int(d[2]) << 16 | Int(d[3]) << 8 | Int(d[4])
        let (v0, v1, v2) = (d[5], d[6], d[7])
        let word = UInt16(v1) << 8 | UInt16(v2)
        let mask = v0 == 0 ? 0xFF : v0
        let fileSize = font.bytes.count
        guard let table = font.table(d[1]) else {
            length = min(length, fileSize * position >> 24)
            return
        }
        let inside = table.offset + (table.length > 0 ? position % table.length : 0)
        switch d[0] % 11 {
        case 0:  // flip bytes inside the table
            flip(inside, count: Int(v1 % 4) + 1, mask: mask)
        case 1:  // a 16-bit field inside the table set to a count-breaking value
            set16(inside & ~1, v0 % 8 == 7 ? word : Self.interesting16[Int(v0 % 8) % Self.interesting16.count])
        case 2:  // zero the whole table, or a span of it
            let end = v0 < 64 ? table.offset + table.length : inside + Int(word) + 1
            for at in (v0 < 64 ? table.offset : inside)..<min(end, bytes.count) where at >= 0 { bytes[at] = 0 }
        case 3:  // cut the table short in the directory
            set32(table.record + 12, UInt32(table.length * position >> 24))
        case 4:  // a directory length past the table (and the file)
            let lengths = [0, table.length + 1, table.length + Int(word), 0xFFFF_FFFF, fileSize, 0x7FFF_FFFF, fileSize - table.offset + 1]
            set32(table.record + 12, UInt32(truncatingIfNeeded: lengths[Int(v0) % lengths.count]))
        case 5:  // move the table in the directory
            let other = font.tables.isEmpty ? table : font.tables[Int(v1) % font.tables.count]
            let offsets = [0, fileSize, fileSize - 1, position % max(fileSize, 1), other.offset, 0xFFFF_FFF0,
                           table.offset + 1, table.offset + table.length, table.offset - 4]
            set32(table.record + 8, UInt32(truncatingIfNeeded: offsets[Int(v0) % offsets.count]))
        case 6:  // rename the table (it goes missing; the directory is out of order)
            flip(table.record + Int(v0 % 4), count: 1, mask: v1 == 0 ? 0x20 : v1)
        case 7:  // truncate the file
            length = min(length, fileSize * position >> 24)
        case 8:  // damage one glyph of the text: its outline, loca entry or advance
            guard !glyphs.isEmpty else { return flip(inside, count: 1, mask: mask) }
            let ranges = font.glyphRanges(Int(glyphs[Int(v1) % glyphs.count]))
            switch v0 % 4 {
            case 0, 1:
                guard let outline = ranges.outline, !outline.isEmpty else { return flip(inside, count: 1, mask: mask) }
                let at = outline.lowerBound + position % outline.count
                if v0 % 4 == 0 {
                    flip(at, count: Int(v2 % 4) + 1, mask: v2 | 1)
                } else {
                    set16(at, Self.interesting16[Int(v2) % Self.interesting16.count])
                }
            case 2:
                guard let loca = ranges.loca else { return flip(inside, count: 1, mask: mask) }
                loca.count == 4 ? set32(loca.lowerBound, UInt32(word) << (v2 & 1 == 0 ? 0 : 8))
                                : set16(loca.lowerBound, Self.interesting16[Int(v2) % Self.interesting16.count])
            default:
                guard let hmtx = ranges.hmtx else { return flip(inside, count: 1, mask: mask) }
                set16(hmtx.lowerBound, v2 < 128 ? Self.interesting16[Int(v2) % Self.interesting16.count] : word)
            }
        case 9:  // the number of tables
            let counts = [0, font.tables.count - 1, font.tables.count + 1, 0xFFFF, Int(word)]
            set16(4, UInt16(truncatingIfNeeded: counts[Int(v0) % counts.count]))
        default:  // two tables swap places in the directory
            let other = font.tables.isEmpty ? table : font.tables[Int(v1) % font.tables.count]
            set32(table.record + 8, UInt32(other.offset))
            set32(table.record + 12, UInt32(other.length))
            set32(other.record + 8, UInt32(table.offset))
            set32(other.record + 12, UInt32(table.length))
        }
    }
}
