import Foundation
import Testing
@testable import TextKitLite

/// Colors as a user types them (CSS hex forms and names), written back, premultiplied and
/// coded.
@Suite struct ColorTests {
    @Test(arguments: [
        ("#f80", Color(red: 255, green: 136, blue: 0)),
        ("#F80A", Color(red: 255, green: 136, blue: 0, alpha: 170)),
        ("#1d9bf0", Color(red: 29, green: 155, blue: 240)),
        ("#1D9BF080", Color(red: 29, green: 155, blue: 240, alpha: 128)),
        ("red", Color(red: 255, green: 0, blue: 0)),
        (" SteelBlue ", Color(red: 70, green: 130, blue: 180)),
        ("rebeccapurple", Color(red: 102, green: 51, blue: 153)),
        ("grey", Color(gray: 128)),
        ("transparent", Color.transparent),
        ("#000", Color.black),
        ("white", Color.white),
    ])
    func parses(_ text: String, _ expected: Color) {
        #expect(Color(text) == expected)
    }

    @Test(arguments: ["", "#", "#12", "#12345", "#1234567", "#123456789", "#gggggg", "#12 34 56", "red;", "rebecca purple",
                      "0xff0000", "rgb(1,2,3)", "#ｆｆｆ", "blue\0"])
    func refuses(_ text: String) {
        #expect(Color(text) == nil, "\(text)")
    }

    @Test func everyNameParsesAndEveryColorReadsBackItsDescription() {
        #expect(cssColorNames.count == 148)
        for (name, rgb) in cssColorNames {
            let color = Color(name.uppercased())
            #expect(color.map { UInt32($0.red) << 16 | UInt32($0.green) << 8 | UInt32($0.blue) } == rgb, "\(name)")
            #expect(color.flatMap { Color($0.description) } == color, "\(name)")
        }
        #expect(Color(red: 1, green: 2, blue: 254, alpha: 16).description == "#0102fe10")
        #expect(Color(red: 1, green: 2, blue: 254).description == "#0102fe")
    }

    /// Premultiplied channels: each color channel × alpha / 255, rounded to nearest.
    @Test func premultipliedChannels() {
        #expect(Color(red: 255, green: 128, blue: 0, alpha: 128).premultiplied == (128, 64, 0, 128))
        #expect(Color(red: 29, green: 155, blue: 240).premultiplied == (29, 155, 240, 255))
        #expect(Color(red: 200, green: 100, blue: 1, alpha: 0).premultiplied == (0, 0, 0, 0))
        #expect(Color(red: 255, green: 255, blue: 255, alpha: 1).premultiplied == (1, 1, 1, 1))
    }

    @Test func codedAsItsDescription() throws {
        let colors = [Color(red: 29, green: 155, blue: 240), Color(red: 0, green: 0, blue: 0, alpha: 128)]
        let data = try JSONEncoder().encode(colors)
        #expect(String(decoding: data, as: UTF8.self) == ##"["#1d9bf0","#00000080"]"##)
        #expect(try JSONDecoder().decode([Color].self, from: data) == colors)
        #expect(try JSONDecoder().decode([Color].self, from: Data(#"["navy"]"#.utf8)) == [Color(red: 0, green: 0, blue: 128)])
        do {
            _ = try JSONDecoder().decode([Color].self, from: Data(##"["#12"]"##.utf8))
            Issue.record("a bad color decoded")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.debugDescription == "invalid color \"#12\": " + Color.syntaxReason)
        }
    }
}
