import Testing
import TextKitLite
import TextKitLiteFrontEnd

/// The width lists `textrender` and the service both parse with `OptionRules.feedWidths`.
@Suite struct OptionRulesTests {
    @Test func widthListsParseOrSayWhy() {
        #expect(OptionRules.feedWidths("375") == .success([375]))
        #expect(OptionRules.feedWidths(" 320, 375 ,414,768") == .success([320, 375, 414, 768]))
        #expect(OptionRules.feedWidths("320,abc") == .failure(.notNumbers))
        #expect(OptionRules.feedWidths("320,,375") == .failure(.notNumbers))
        #expect(OptionRules.feedWidths("") == .failure(.notNumbers))
        #expect(OptionRules.feedWidths("320,0") == .failure(.outOfRange(0, reason: "must be a positive number of points up to 1000000")))
        #expect(OptionRules.feedWidths(Array(repeating: "300", count: 65).joined(separator: ",")) == .failure(.tooMany))
        #expect(OptionRules.feedWidths(Array(repeating: "300", count: 64).joined(separator: ",")).map(\.count) == .success(64))
    }
}
