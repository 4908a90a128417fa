import Foundation
import TextKitLite

extension ExclusionShape {
    /// A shape as an option gives it, in points: `rect:X,Y,W,H`, `circle:X,Y,R` or
    /// `polygon:X1,Y1,X2,Y2,X3,Y3,...` (blanks around the numbers allowed); nil when the
    /// form is not one of those (`optionReason` says what is accepted). The values are
    /// checked by the library (`LayoutOptions.validate()`).
    public init?(option: String) {
        let parts = option.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        var numbers: [Double] = []
        for field in parts[1].split(separator: ",", omittingEmptySubsequences: false) {
            guard let number = Double(field.trimmingCharacters(in: .whitespaces)) else { return nil }
            numbers.append(number)
        }
        switch parts[0] {
        case "rect" where numbers.count == 4:
            self = .rect(Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3]))
        case "circle" where numbers.count == 3:
            self = .circle(center: Point(x: numbers[0], y: numbers[1]), radius: numbers[2])
        case "polygon" where numbers.count >= 6 && numbers.count.isMultiple(of: 2):
            self = .polygon(stride(from: 0, to: numbers.count, by: 2).map { Point(x: numbers[$0], y: numbers[$0 + 1]) })
        default:
            return nil
        }
    }

    /// The forms an exclusion option accepts.
    public static let optionReason = "use rect:X,Y,W,H, circle:X,Y,R or polygon:X1,Y1,X2,Y2,X3,Y3,... (points, layout coordinates)"

    /// The shapes of an option's values (`--exclude`, repeated), each in one of its forms and
    /// within the library's ranges (`problem`).
    ///
    /// - Throws: `OptionValueError` naming the option and the first bad value, and what is accepted.
    public static func shapes(options values: [String], name: String) throws(OptionValueError) -> [ExclusionShape] {
        guard values.count <= maximumCount else {
            throw OptionValueError(description: "too many \(name) options (\(values.count)): at most \(maximumCount)")
        }
        var shapes: [ExclusionShape] = []
        for value in values {
            guard let shape = ExclusionShape(option: value) else {
                throw OptionValueError(description: "invalid \(name) \(value): \(optionReason)")
            }
            if let reason = shape.problem { throw OptionValueError(description: "invalid \(name) \(value): \(reason)") }
            shapes.append(shape)
        }
        return shapes
    }
}

/// An option's value a front end refuses, with the message that names it.
public struct OptionValueError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
}
