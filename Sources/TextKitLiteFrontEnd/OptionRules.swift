import Foundation
import TextKitLite

/// The ranges the front ends (`textrender`, the HTTP service) accept for their options, kept
/// in one place for both. Each check returns why a value is refused, or nil; the front end
/// names the option its own way (`--max-lines`, `max-lines=`, `"maxLines"`).
///
/// A value the library checks itself (a width, a font size, a line or letter spacing) is
/// checked by the library's own rule, the one `LayoutOptions.validate()` and the style's
/// check apply, so each range is written once; the rules here are the front ends' own (the
/// most lines, the most widths) and how they read a list.
public enum OptionRules {
    /// The most lines a line limit may be: more than any text shows, and far from where the
    /// line-limit arithmetic (one line past the limit) overflows.
    public static let maximumMaxLines = 1_000_000

    /// A line limit: 0 (none) to `maximumMaxLines`.
    public static func maxLines(_ value: Int) -> String? {
        (0...maximumMaxLines).contains(value) ? nil : "must be from 0 (no limit) to \(maximumMaxLines)"
    }

    /// A feed's cell (or text) width: a finite layout width (`LayoutOptions`' rule).
    public static func feedWidth(_ value: Double) -> String? {
        LayoutOptions.finiteWidthProblem(value)
    }

    /// The most widths one measurement takes.
    public static let maximumWidthCount = 64

    /// A list of feed widths, "375" or "320,375,414,768" (blanks around each allowed): the
    /// widths, or why the list is refused.
    public static func feedWidths(_ list: some StringProtocol) -> Result<[Double], WidthListError> {
        var widths: [Double] = []
        for part in list.split(separator: ",", omittingEmptySubsequences: false) {
            guard let width = Double(part.trimmingCharacters(in: .whitespaces)) else { return .failure(.notNumbers) }
            if let reason = feedWidth(width) { return .failure(.outOfRange(width, reason: reason)) }
            widths.append(width)
        }
        guard widths.count <= maximumWidthCount else { return .failure(.tooMany) }
        return .success(widths)
    }

    /// Why a width list is refused.
    public enum WidthListError: Error, Sendable, Equatable {
        /// A part of the list is not a number.
        case notNumbers
        /// More than `maximumWidthCount` widths.
        case tooMany
        /// A width `feedWidth` refuses, and its reason.
        case outOfRange(Double, reason: String)

        /// Why the list is refused, for the front end to put after the option's name.
        public var reason: String {
            switch self {
            case .notNumbers: "not a number or a comma-separated list of numbers"
            case .tooMany: "at most \(OptionRules.maximumWidthCount) widths"
            case .outOfRange(_, let reason): reason
            }
        }
    }

    /// A font size in points: the style's rule.
    public static func fontSize(_ value: Double) -> String? {
        TextStyle.sizeProblem(value)
    }

    /// Extra points between lines: `LayoutOptions`' rule.
    public static func lineSpacing(_ value: Double) -> String? {
        LayoutOptions.lineSpacingProblem(value)
    }

    /// Extra points after each grapheme cluster: the style's rule.
    public static func letterSpacing(_ value: Double) -> String? {
        TextStyle.letterSpacingProblem(value)
    }

    /// A text's language: a well-formed BCP 47 tag (`TextStyle.isWellFormedLanguage`).
    public static func language(_ tag: String) -> String? {
        TextStyle.isWellFormedLanguage(tag) ? nil : "expected a BCP 47 language tag such as ja, ko, zh-Hans, zh-Hant, en-US"
    }

    /// Why a list of OpenType features ("tnum,-liga") is refused.
    public static let featuresReason = "use comma-separated four-letter tags, each optionally with - (off), + (on) or =N, e.g. tnum,-liga"

    /// Why a list of variable-font axis settings ("wght=650,wdth=80") is refused.
    public static let variationsReason = "use comma-separated TAG=VALUE settings, a four-letter axis tag and a number of at most ±32767, e.g. wght=650,wdth=80"

    /// Why axis settings are refused for a fallback chain: a tag that no font of the chain
    /// (nor a style face) has as a variation axis, with the axes its fonts have; nil when
    /// every tag is some font's axis. Values are not refused: each font clamps them to its
    /// axis's range.
    public static func variationsProblem(_ variations: [FontVariation], chain: FontFallbackChain) -> String? {
        let fonts = chain.fonts + chain.styleFaces
        guard let unknown = variations.first(where: { variation in !fonts.contains { $0.hasAxis(variation.tag) } }) else { return nil }
        let variable = fonts.filter { !$0.axes.isEmpty }
        let axes = variable.isEmpty ? "no font of the chain is variable"
            : "the chain's axes: " + variable.map { "\($0.familyName) \($0.styleName) \($0.axes.map(\.description).joined(separator: ", "))" }.joined(separator: "; ")
        return "no font of the chain has a \"\(unknown.tag)\" axis (\(axes))"
    }

    /// Why a line height is refused.
    public static let lineHeightReason = "use natural, uniform or a positive number of points"

    /// The option a library check of layout values refuses (the property it names), the
    /// value as the library states it, and why; nil when every value passes.
    static func refusal(_ check: () throws(LayoutError) -> Void) -> (property: String, value: String, reason: String)? {
        do {
            try check()
            return nil
        } catch {
            switch error {
            case .invalidOption(let property, let value, let reason): return (property, value, reason)
            }
        }
    }

    /// The option a library check of drawing values refuses (the property it names), the
    /// value as the library states it, and why; nil when every value passes.
    static func refusal(_ check: () throws(RenderError) -> Void) -> (property: String, value: String, reason: String)? {
        do {
            try check()
            return nil
        } catch {
            guard case .invalidOption(let property, let value, let reason) = error else {
                return ("render options", "", error.description)
            }
            return (property, value, reason)
        }
    }
}
