import Foundation
import QiktionaryCore
import Testing
import TextSafety

/// The one rule of which characters text from data may not hold, the check every gate applies,
/// and the escaping every output applies (Sources/TextSafety).
@Suite struct TerminalTextTests {
    /// The rule, spelled out scalar by scalar: C0, DEL, C1, bidirectional controls, line separators.
    static func expectedUnsafe(_ value: UInt32) -> Bool {
        value < 0x20 || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
            || (0x2066...0x2069).contains(value) || value == 0x2028 || value == 0x2029
    }

    @Test func theByteCheckAgreesWithTheRuleForEveryScalarOfTheFirstPlanes() {
        for value in UInt32(0)...0x3000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(TerminalText.isUnsafe(scalar) == Self.expectedUnsafe(value), "U+\(String(value, radix: 16))")
            for text in ["\(scalar)", "ab\(scalar)", "\(scalar)cd", "é\(scalar)字"] {
                #expect(TerminalText.isSafe(text) == !Self.expectedUnsafe(value), "U+\(String(value, radix: 16)) in \(text.debugDescription)")
            }
        }
        #expect(TerminalText.isSafe("plain text, 字 and 😀 and é"))
        #expect(TerminalText.isSafe(""))
    }

    @Test func outputsShowEveryUnsafeCharacterAsAVisibleEscape() {
        let text = "Stripes \u{1B}[31mRED\u{1B}[0m \u{1B}]0;T\u{07} \u{202E}abc \u{9B}2J \u{7F}\nnext\tline"
        #expect(oneLine(text) == #"Stripes \x1b[31mRED\x1b[0m \x1b]0;T\x07 \u202eabc \x9b2J \x7f\nnext\tline"#)
        #expect(visible(text) == "Stripes \\x1b[31mRED\\x1b[0m \\x1b]0;T\\x07 \\u202eabc \\x9b2J \\x7f\nnext\tline")
        #expect(TerminalText.isSafe(oneLine(text)))
        #expect(!oneLine(text).contains("\n"))
        #expect(visible("nothing to do, 字") == "nothing to do, 字")
    }

    @Test func jsonStaysTheSameValueWithNothingATerminalObeys() throws {
        let value = ["fact": "a\u{1B}[31m b\u{9B} c\u{202E} d\u{7F} e\u{2066}\nf"]
        let encoded = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        let safe = TerminalText.jsonSafe(encoded)
        #expect(TerminalText.isSafe(safe))
        let decoded = try JSONDecoder().decode([String: String].self, from: Data(safe.utf8))
        #expect(decoded == value)
    }

    @Test func theGateSaysWhatAndShowsItEscapedInOneLine() throws {
        #expect(TerminalText.problem("a fine fact", field: "fact") == nil)
        let problem = try #require(TerminalText.problem(String(repeating: "x", count: 50) + "\u{1B}]0;TITLE\u{07}" + String(repeating: "y", count: 50), field: "fact"))
        #expect(problem.hasPrefix("fact holds a control character: '…"))
        #expect(problem.contains(#"\x1b]0;TITLE\x07"#))
        #expect(problem.hasSuffix("…'"))
        #expect(TerminalText.isSafe(problem))
    }

    @Test func aPackRefusesControlCharactersInItsTitleDescriptionAndFacts() {
        let lexicon = Lexicon(text: "tiger\n")
        let good = Pack(id: "p", version: 1, title: "Title", description: "About", length: 5, rules: .classic,
                        words: [.init(word: "tiger", fact: "Striped.")])
        #expect(good.problems(lexicon: lexicon) == [])
        for hostile in ["\u{1B}[31m", "\u{202E}", "\u{9B}", "\u{7}"] {
            var pack = good
            pack.title += hostile
            #expect(pack.problems(lexicon: lexicon).contains { $0.hasPrefix("title holds a control character") })
            pack = good
            pack.description += hostile
            #expect(pack.problems(lexicon: lexicon).contains { $0.hasPrefix("description holds a control character") })
            pack = good
            pack.words[0].fact += hostile
            #expect(pack.problems(lexicon: lexicon).contains { $0.hasPrefix("the fact of 'tiger' holds a control character") })
        }
    }
}
