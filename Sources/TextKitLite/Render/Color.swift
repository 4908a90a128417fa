import Foundation

/// A color in sRGB, 8 bits a channel, with straight (not premultiplied) alpha: what a user
/// gives and a style stores. `premultiplied` gives the channels an RGBA bitmap stores.
///
/// Written and read as CSS writes it: `#RGB`, `#RGBA`, `#RRGGBB`, `#RRGGBBAA` (hexadecimal,
/// either case) or one of the 148 CSS color names (`red`, `steelblue`, `transparent`). An
/// integer literal is an opaque gray level (`ink: 70`), as gray was written before colors.
public struct Color: Sendable, Hashable, Codable, LosslessStringConvertible, ExpressibleByIntegerLiteral {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    /// 255 opaque, 0 transparent.
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
    }

    /// An opaque gray: the same level in every channel.
    public init(gray level: UInt8) { self.init(red: level, green: level, blue: level) }

    /// An opaque gray level (0 black to 255 white).
    public init(integerLiteral level: UInt8) { self.init(gray: level) }

    public static let black = Color(gray: 0)
    public static let white = Color(gray: 255)
    public static let transparent = Color(red: 0, green: 0, blue: 0, alpha: 0)

    /// Why a color is refused, in the words every front end uses.
    public static let syntaxReason = "use #RGB, #RRGGBB, #RRGGBBAA or a CSS color name such as red or steelblue"

    /// A color as CSS writes it (blanks around it allowed), or nil: see the type's summary.
    public init?(_ text: String) {
        let text = text.trimmingCharacters(in: .whitespaces).lowercased()
        if text == "transparent" {
            self = .transparent
        } else if let rgb = cssColorNames[text] {
            self.init(red: UInt8(rgb >> 16), green: UInt8(truncatingIfNeeded: rgb >> 8), blue: UInt8(truncatingIfNeeded: rgb))
        } else if text.hasPrefix("#"), let digits = Self.hexDigits(text.dropFirst()) {
            switch digits.count {
            case 3, 4:  // each digit doubled: #f80 is #ff8800
                let channels = digits.map { $0 * 17 }
                self.init(red: channels[0], green: channels[1], blue: channels[2], alpha: digits.count == 4 ? channels[3] : 255)
            case 6, 8:
                let channels = stride(from: 0, to: digits.count, by: 2).map { digits[$0] * 16 + digits[$0 + 1] }
                self.init(red: channels[0], green: channels[1], blue: channels[2], alpha: digits.count == 8 ? channels[3] : 255)
            default:
                return nil
            }
        } else {
            return nil
        }
    }

    /// The values of hexadecimal digits, or nil when one is not.
    private static func hexDigits(_ text: Substring) -> [UInt8]? {
        var digits: [UInt8] = []
        for unit in text.utf8 {
            switch unit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits.append(unit - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digits.append(unit - UInt8(ascii: "a") + 10)
            default: return nil
            }
        }
        return digits
    }

    /// `#rrggbb`, or `#rrggbbaa` when not opaque: what `init(_:)` reads back.
    public var description: String {
        let channels = alpha == 255 ? [red, green, blue] : [red, green, blue, alpha]
        return "#" + channels.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// The channels an RGBA bitmap stores: each color channel times alpha / 255, rounded.
    public var premultiplied: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        func scaled(_ channel: UInt8) -> UInt8 { UInt8((UInt32(channel) * UInt32(alpha) + 127) / 255) }
        return (scaled(red), scaled(green), scaled(blue), alpha)
    }

    /// The gray level a gray bitmap draws the color with: the Rec. 601 luma of its
    /// channels, `(19595 R + 38470 G + 7471 B + 32768) >> 16` (as color PNGs and color
    /// glyphs become gray), alpha aside; a gray's own level.
    public var grayLevel: UInt8 {
        let r: UInt32 = 19595 * UInt32(red), g: UInt32 = 38470 * UInt32(green), b: UInt32 = 7471 * UInt32(blue)
        return UInt8((r + g + b + 32768) >> 16)
    }

    /// The gray level of the color over white: what a gray bitmap is filled with.
    var opaqueGrayLevel: UInt8 {
        let a = UInt32(alpha)
        return UInt8(Blend.toward(255, UInt32(grayLevel), by: a))
    }

    /// An opaque gray's level, or nil.
    var opaqueGray: UInt8? { alpha == 255 && red == green && green == blue ? red : nil }

    /// Encoded as its description (`"#1d9bf0"`), except an opaque gray, which is encoded as
    /// its level (`70`), as gray inks and fills were before colors: gray layouts encode as
    /// they did.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        if let level = opaqueGray { try container.encode(level) } else { try container.encode(description) }
    }

    /// Decodes a color written as `init(_:)` reads it, or a gray level (0 to 255).
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming the value and the accepted forms.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            guard let level = UInt8(exactly: number) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                        debugDescription: "invalid gray level \(number): must be an integer from 0 to 255"))
            }
            self.init(gray: level)
            return
        }
        let text = try container.decode(String.self)
        guard let color = Color(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "invalid color \"\(text)\": \(Self.syntaxReason)"))
        }
        self = color
    }
}
