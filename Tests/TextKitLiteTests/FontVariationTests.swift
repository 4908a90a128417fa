import Foundation
import Testing
@testable import TextKitLite

/// Variable fonts: a style's axis values reach HarfBuzz (advances) and FreeType (outlines),
/// each instance a font of its own for every cache, and a bold style takes a variable face's
/// `wght` axis. Inter's variable font comes from Debian's fonts-inter-variable, which
/// `scripts/setup.sh --test` installs; without it these tests are skipped, saying so.
@Suite struct FontVariationTests {
    static let interPath = "/usr/share/fonts/truetype/inter-vf/Inter-roman.var.ttf"
    /// Inter with its `slnt` axis beside `wght`.
    static let interSlantedPath = "/usr/share/fonts/truetype/inter-vf/Inter.var.ttf"
    static let hasInter = (try? Font.load(path: interPath)) != nil && (try? Font.load(path: interSlantedPath)) != nil
    static let interMissing = "Inter's variable font is not installed (apt-get install fonts-inter-variable)"

    static let sample = "Hamburgefonstiv quick brown fox"

    private static func engine(_ path: String = interPath) throws -> TextEngine {
        TextEngine(fonts: FontFallbackChain(primary: try Font.load(path: path)))
    }

    private static func style(_ variations: String = "", size: Double = 24, weight: TextStyle.Weight = .regular,
                              italic: Bool = false) -> TextStyle {
        var style = TextStyle(size: size, weight: weight, isItalic: italic)
        style.variations = FontVariation.list(variations) ?? []
        return style
    }

    private static func layout(_ engine: TextEngine, _ style: TextStyle, _ text: String = sample) throws -> TextLayout {
        try engine.layout(AttributedText(text, style: style), options: LayoutOptions(width: .infinity))
    }

    private static func pixels(_ layout: TextLayout, cache: GlyphCache = .shared) throws -> [UInt8] {
        try #require(try TextRenderer(glyphCache: cache).render(layout, options: RenderOptions(scale: 2, format: .gray8)).bitmap).pixels
    }

    private static func ink(_ pixels: [UInt8]) -> Int { pixels.reduce(0) { $0 + Int(255 - $1) } }

    // MARK: Parsing

    @Test func settingsParseAsTagEqualsValue() throws {
        let list = try #require(FontVariation.list("wght=650, wdth=87.5"))
        #expect(list.map(\.tag) == ["wght", "wdth"] && list.map(\.value) == [650, 87.5])
        #expect(list.map(\.description) == ["wght=650", "wdth=87.5"])
        for bad in ["wght", "wght=", "wght=abc", "wg=1", "wghtx=1", "wght=1e9", "wght=nan", "wght=inf", "wght=1,", ",wght=1", "w ht=1"] {
            #expect(FontVariation.list(bad) == nil, "\(bad)")
        }
        #expect(FontVariation(tag: "wght", value: -32767) != nil && FontVariation(tag: "wght", value: 32768) == nil)
    }

    @Test func decodingRefusesWhatParsingRefuses() throws {
        let good = try JSONDecoder().decode(FontVariation.self, from: Data(#"{"tag":"wght","value":700}"#.utf8))
        #expect(good == FontVariation(tag: "wght", value: 700))
        for bad in [#"{"tag":"wght","value":1e300}"#, #"{"tag":"weight","value":700}"#] {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(FontVariation.self, from: Data(bad.utf8)) }
        }
    }

    // MARK: Inter

    @Test(.enabled(if: hasInter, Comment(rawValue: interMissing)))
    func interHasAWeightAxis() throws {
        let inter = try Font.load(path: Self.interPath)
        #expect(inter.axes == [Font.Axis(tag: "wght", minimum: 100, defaultValue: 400, maximum: 900)])
        #expect(inter.variations.isEmpty && inter.hasAxis("wght") && !inter.hasAxis("wdth"))
    }

    @Test(.enabled(if: hasInter, Comment(rawValue: interMissing)))
    func widthsAndInkGrowAlongTheWeightAxis() throws {
        let engine = try Self.engine()
        var widths: [Double] = [], inks: [Int] = [], inkWidths: [Double] = []
        for weight in [100, 400, 700, 900] {
            let layout = try Self.layout(engine, Self.style("wght=\(weight)"))
            widths.append(layout.measuredWidth)
            inks.append(Self.ink(try Self.pixels(layout)))
            inkWidths.append(try #require(layout.inkBounds).width)
        }
        #expect(zip(widths, widths.dropFirst()).allSatisfy { $0 + 1 < $1 }, "\(widths)")
        #expect(zip(inks, inks.dropFirst()).allSatisfy { $0 * 11 / 10 < $1 }, "\(inks)")
        #expect(zip(inkWidths, inkWidths.dropFirst()).allSatisfy { $0 < $1 }, "\(inkWidths)")
    }

    @Test(.enabled(if: hasInter, Comment(rawValue: interMissing)))
    func valuesAreClampedAndTheDefaultIsTheFaceItself() throws {
        let engine = try Self.engine()
        let inter = try Font.load(path: Self.interPath)
        let heaviest = try Self.layout(engine, Self.style("wght=900"))
        let beyond = try Self.layout(engine, Self.style("wght=2000"))
        #expect(beyond.measuredWidth == heaviest.measuredWidth)
        #expect(beyond.allRuns.first?.font === heaviest.allRuns.first?.font)
        #expect(beyond.allRuns.first?.font.variations == [FontVariation(tag: "wght", value: 900)!])
        // The default value, and an axis Inter lacks, leave the face as it is.
        let atDefault = try Self.layout(engine, Self.style("wght=400,wdth=50"))
        #expect(atDefault.allRuns.first?.font === inter)
        #expect(try Self.pixels(atDefault) == Self.pixels(Self.layout(engine, Self.style())))
    }

    @Test(.enabled(if: hasInter, Comment(rawValue: interMissing)))
    func eachInstanceHasItsOwnCacheEntries() throws {
        // One engine (one shaped-word cache) and one glyph cache for everything.
        let engine = try Self.engine()
        let cache = GlyphCache()
        let light = try Self.layout(engine, Self.style("wght=300"))
        let heavy = try Self.layout(engine, Self.style("wght=800"))
        #expect(light.measuredWidth < heavy.measuredWidth)
        #expect(light.allRuns.first?.font != heavy.allRuns.first?.font)
        let heavyPixels = try Self.pixels(heavy, cache: cache)
        let lightPixels = try Self.pixels(light, cache: cache)
        #expect(heavyPixels != lightPixels)
        // Again after the other weight: the same widths and pixels as a fresh font, engine and
        // glyph cache give.
        let again = try Self.layout(engine, Self.style("wght=300"))
        #expect(again.measuredWidth == light.measuredWidth)
        let measured = try engine.measure(AttributedText(Self.sample, style: Self.style("wght=300")), options: LayoutOptions(width: 120))
        #expect(measured == TextMeasurement(try engine.layout(AttributedText(Self.sample, style: Self.style("wght=300")),
                                                              options: LayoutOptions(width: 120))))
        let freshFont = try Font(path: Self.interPath, faceIndex: 0)
        let fresh = try TextEngine(fonts: FontFallbackChain(primary: freshFont))
            .layout(AttributedText(Self.sample, style: Self.style("wght=300")), options: LayoutOptions(width: .infinity))
        #expect(fresh.measuredWidth == again.measuredWidth)
        #expect(try Self.pixels(again, cache: cache) == Self.pixels(fresh, cache: GlyphCache()))
        #expect(try Self.pixels(again, cache: cache) == lightPixels)
    }

    @Test(.enabled(if: hasInter, Comment(rawValue: interMissing)))
    func boldTakesTheWeightAxisNotSyntheticEmboldening() throws {
        let engine = try Self.engine()
        let bold = try Self.layout(engine, Self.style(weight: .bold))
        let axis = try Self.layout(engine, Self.style("wght=700"))
        let font = try #require(bold.allRuns.first?.font)
        #expect(!font.isSyntheticBold && font.variations == [FontVariation(tag: "wght", value: 700)!])
        #expect(bold.measuredWidth == axis.measuredWidth)
        #expect(try Self.pixels(bold) == Self.pixels(axis))
        // An explicit setting wins over the weight, as CSS's font-variation-settings does.
        let light = try Self.layout(engine, Self.style("wght=300", weight: .bold))
        #expect(light.allRuns.first?.font.variations == [FontVariation(tag: "wght", value: 300)!])
        #expect(light.allRuns.first?.font.isSyntheticBold == false)
    }

    @Test(.enabled(if: hasInter, Comment(rawValue: interMissing)))
    func italicTakesTheSlantAxis() throws {
        let engine = try Self.engine(Self.interSlantedPath)
        let upright = try Self.layout(engine, Self.style())
        let italic = try Self.layout(engine, Self.style(weight: .bold, italic: true))
        let font = try #require(italic.allRuns.first?.font)
        #expect(!font.isSyntheticItalic && !font.isSyntheticBold)
        #expect(font.variations == [FontVariation(tag: "wght", value: 700)!, FontVariation(tag: "slnt", value: -10)!])
        let ink = try #require(italic.inkBounds), uprightInk = try #require(upright.inkBounds)
        #expect(ink.width > uprightInk.width)
    }

    @Test(.enabled(if: hasInter, Comment(rawValue: interMissing)))
    func codableRoundTripDrawsPixelIdentical() throws {
        let engine = try Self.engine()
        var text = AttributedText("Light and heavy", style: Self.style("wght=250"))
        text.updateStyle(in: 10..<15) { $0.variations = [FontVariation(tag: "wght", value: 850)!] }
        let layout = try engine.layout(text, options: LayoutOptions(width: 120))
        let data = try JSONEncoder().encode(layout)
        let decoded = try JSONDecoder().decode(TextLayout.self, from: data)
        #expect(decoded.text == text)
        #expect(decoded.allRuns.map(\.font) == layout.allRuns.map(\.font))
        #expect(Set(layout.allRuns.map(\.font.variations)).count == 2)
        #expect(try Self.pixels(decoded) == Self.pixels(layout))
        // A damaged value is clamped to the decoding face's axis, never handed to FreeType as is.
        let hostile = String(decoding: data, as: UTF8.self).replacingOccurrences(of: #""value":850"#, with: #""value":30000"#)
        let clamped = try JSONDecoder().decode(TextLayout.self, from: Data(hostile.utf8))
        #expect(clamped.allRuns.contains { $0.font.variations == [FontVariation(tag: "wght", value: 900)!] })
    }

    @Test(.enabled(if: hasInter, Comment(rawValue: interMissing)))
    func namedInstancesAreFacesAtTheirAxisValues() throws {
        // Bits 16 and up of a face index name an instance, as FreeType and fontconfig number them.
        let bold = try Font.load(path: Self.interPath, faceIndex: 7 << 16)
        #expect(bold.variations == [FontVariation(tag: "wght", value: 700)!])
        #expect(bold === (try Font.load(path: Self.interPath)).variant(FontSynthesis(), features: [], variations: bold.variations))
        let engine = TextEngine(fonts: FontFallbackChain(primary: bold))
        let plain = try Self.layout(engine, Self.style())
        #expect(plain.allRuns.first?.font === bold)
        #expect(try Self.pixels(plain) == Self.pixels(Self.layout(Self.engine(), Self.style("wght=700"))))
        // A style's settings start from the instance's values; bold leaves it as it is.
        #expect(try Self.layout(engine, Self.style(weight: .bold)).allRuns.first?.font === bold)
        let light = try Self.layout(engine, Self.style("wght=300"))
        #expect(light.allRuns.first?.font.variations == [FontVariation(tag: "wght", value: 300)!])
        let atDefault = try Self.layout(engine, Self.style("wght=400"))
        #expect(atDefault.allRuns.first?.font.variations == [])
        #expect(try Self.pixels(atDefault) == Self.pixels(Self.layout(Self.engine(), Self.style())))
        let thin = try Font.load(path: Self.interPath, faceIndex: 1 << 16)
        #expect(thin.variations == [FontVariation(tag: "wght", value: 100)!])
        #expect(try Self.layout(TextEngine(fonts: FontFallbackChain(primary: thin)), Self.style(weight: .bold)).allRuns.first?.font.variations
                == [FontVariation(tag: "wght", value: 700)!])
        #expect(throws: FontError(path: Self.interPath, reason: .namedInstanceOutOfRange(instance: 10, instanceCount: 9))) {
            try Font.load(path: Self.interPath, faceIndex: 10 << 16)
        }
        #expect(throws: FontError(path: BundledFonts.path(BundledFonts.sans), reason: .namedInstanceOutOfRange(instance: 1, instanceCount: 0))) {
            try Font.load(path: BundledFonts.path(BundledFonts.sans), faceIndex: 1 << 16)
        }
        // fontconfig's match for a family and style is the instance.
        let face = try #require(SystemFonts.face(family: "Inter", style: "Bold"))
        #expect(face.namedInstance == 7 && face.spec.hasSuffix("#458752"))
    }

    @Test(.enabled(if: hasInter, Comment(rawValue: interMissing)))
    func weightsMadeAndDrawnOnManyThreadsAgreeWithOneThread() throws {
        // A fresh font: its instances are made while other threads draw.
        let font = try Font(path: Self.interPath, faceIndex: 0)
        let engine = TextEngine(fonts: FontFallbackChain(primary: font))
        let weights = [150, 350, 550, 750, 850, 150, 350, 550, 750, 850]
        let results = Locked<[Int: (Double, [UInt8])]>([:])
        DispatchQueue.concurrentPerform(iterations: weights.count) { i in
            guard let layout = try? Self.layout(engine, Self.style("wght=\(weights[i])")),
                  let pixels = try? Self.pixels(layout, cache: GlyphCache()) else { return }
            results.withLock { $0[i] = (layout.measuredWidth, pixels) }
        }
        let parallel = results.withLock { $0 }
        #expect(parallel.count == weights.count)
        for (i, weight) in weights.enumerated() {
            let serial = try Self.layout(Self.engine(), Self.style("wght=\(weight)"))
            #expect(parallel[i]?.0 == serial.measuredWidth, "wght \(weight)")
            #expect(try parallel[i]?.1 == Self.pixels(serial, cache: GlyphCache()), "wght \(weight)")
        }
    }

    @Test(.enabled(if: hasInter, Comment(rawValue: interMissing)))
    func aFontKeepsABoundedNumberOfInstances() throws {
        let font = try Font(path: Self.interPath, faceIndex: 0)
        func instance(_ weight: Int) -> Font { font.variant(FontSynthesis(), features: [], variations: [FontVariation(tag: "wght", value: Double(weight))!]) }
        let kept = (0..<64).map { instance(101 + $0) }
        #expect(kept.enumerated().allSatisfy { $1 === instance(101 + $0) })
        // Past the bound an instance is made for each call, drawn alike, and not kept.
        let first = instance(800), second = instance(800)
        #expect(first !== second && first.variations == second.variations)
        #expect(first.inkBox(glyph: 40, size: 20) == second.inkBox(glyph: 40, size: 20))
    }

    // MARK: Fonts that are not variable

    @Test func aNonVariableFontIgnoresVariations() throws {
        let engine = Fixtures.engine
        #expect(Fixtures.sans.axes.isEmpty)
        for weight in [TextStyle.Weight.regular, .bold] {
            let plain = try Self.layout(engine, Self.style(weight: weight))
            let varied = try Self.layout(engine, Self.style("wght=900,wdth=75", weight: weight))
            #expect(plain.allRuns.map(\.font) == varied.allRuns.map(\.font))
            #expect(plain.measuredWidth == varied.measuredWidth)
            #expect(try Self.pixels(plain) == Self.pixels(varied))
        }
    }
}

/// `--variations` through `textrender`: what it accepts and the usage errors it gives.
@Suite struct VariationOptionTests {
    @Test func badSettingsAreUsageErrorsNamingTheValue() throws {
        for bad in ["wght=abc", "wght", "weight=700", "wght=1e9"] {
            let result = try TextRenderTool.run(["render", "a", "--variations", bad, "--json"])
            #expect(result.status == 64, "\(bad): \(result.stderr)")
            #expect(result.stderr.contains("Error: invalid --variations \(bad): use comma-separated TAG=VALUE"), "\(result.stderr)")
        }
        // The bundled fonts have no axes: the tag is refused, naming why.
        let bundled = try TextRenderTool.run(["render", "a", "--variations", "wght=700", "--json"])
        #expect(bundled.status == 64 && bundled.stderr.contains(#"no font of the chain has a "wght" axis (no font of the chain is variable)"#),
                "\(bundled.stderr)")
        #expect(bundled.stderr.contains("Usage: textrender render"))
    }

    @Test(.enabled(if: FontVariationTests.hasInter, Comment(rawValue: FontVariationTests.interMissing)))
    func interTakesItsAxisByPathOrFamily() throws {
        let font = ["--font", FontVariationTests.interPath]
        let unknown = try TextRenderTool.run(["render", "a", "--variations", "wdth=80", "--json"] + font)
        #expect(unknown.status == 64 && unknown.stderr.contains(#"no font of the chain has a "wdth" axis (the chain's axes: Inter Regular wght 100–900)"#),
                "\(unknown.stderr)")
        func width(_ arguments: [String]) throws -> Double {
            let result = try TextRenderTool.run(["render", "Hamburgefonstiv", "--json"] + arguments)
            #expect(result.status == 0, "\(result.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let lines = try #require(json["lines"] as? [[String: Any]])
            return try #require((lines.first?["frame"] as? [String: Any])?["width"] as? Double)
        }
        let light = try width(font + ["--variations", "wght=200"])
        let heavy = try width(font + ["--variations", "wght=800"])
        #expect(light < heavy)
        #expect(try width(["--font-family", "Inter", "--variations", "wght=800"]) == heavy)
        #expect(try width(font + ["--weight", "bold"]) == width(font + ["--variations", "wght=700"]))
        #expect(try width(["--font-family", "Inter:Bold"]) == width(font + ["--variations", "wght=700"]))
        let measured = try TextRenderTool.run(["measure", "--layout", "text", "--width", "60", "--variations", "wght=900"] + font,
                                              stdin: Data(#"{"id":1,"text":"Hamburgefonstiv heavy"}"#.utf8))
        #expect(measured.status == 0 && measured.stdout.contains(#""lines":"#), "\(measured.stderr)")
    }
}
