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

    /// The shapes of an option's values (`--exclude` repeated, the HTTP service's `"exclude"`
    /// array), each in one of its forms and within the library's ranges (`problem`), at most
    /// `maximumCount`: the shapes, or the first value refused and why. Each front end names
    /// the option its own way (`OptionListError.message`).
    public static func shapes(options values: [String]) -> Result<[ExclusionShape], OptionListError> {
        guard values.count <= maximumCount else { return .failure(.tooMany(values.count, limit: maximumCount)) }
        var shapes: [ExclusionShape] = []
        for value in values {
            guard let shape = ExclusionShape(option: value) else { return .failure(.invalid(value, reason: optionReason)) }
            if let reason = shape.problem { return .failure(.invalid(value, reason: reason)) }
            shapes.append(shape)
        }
        return .success(shapes)
    }
}

/// Why the values of a repeated option (or the strings of a JSON array) are refused.
public enum OptionListError: Error, Sendable, Equatable {
    /// More values than the option takes.
    case tooMany(Int, limit: Int)
    /// A value refused, and why.
    case invalid(String, reason: String)

    /// The message, naming the option as the front end writes it (`--exclude`, `"exclude"`)
    /// and each value as it shows values (quoted in JSON).
    public func message(option name: String, value show: (String) -> String = { $0 }) -> String {
        switch self {
        case .tooMany(let count, let limit): "too many \(name) values (\(count)): at most \(limit)"
        case .invalid(let value, let reason): "invalid \(name) \(show(value)): \(reason)"
        }
    }
}

/// What the library refuses of exclusion shapes beside the other options
/// (`LayoutOptions.validate()`, whose refusal names the property "exclusions" or
/// "lineBalance"), by the options' names as every front end spells them in its own syntax:
/// the option refused, and the option it may not go with (nil when the shapes themselves
/// are refused: the library's value then says which, or how many).
public struct ExclusionConflict: Sendable, Equatable {
    /// The option refused: "exclude" or "balance".
    public let option: String
    /// The option it may not go with: "vertical" or "exclude".
    public let other: String?

    /// The conflict a refusal of `property` means (nil for any other property), when the
    /// text's lines are `vertical` columns or not.
    public init?(property: String, vertical: Bool) {
        switch property {
        case "exclusions": (option, other) = ("exclude", vertical ? "vertical" : nil)
        case "lineBalance": (option, other) = ("balance", "exclude")
        default: return nil
        }
    }

    /// Whether an option of the conflict is a flag, on when given ("balance", "vertical"):
    /// a syntax that gives values shows it as set to true.
    public static func isFlag(_ option: String) -> Bool {
        option == "balance" || option == "vertical"
    }
}
