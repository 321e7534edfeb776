import Foundation
import Screen
import Testing

/// The OSC 52 sequence the share text is copied with, and where it is not written.
@Suite struct ClipboardTests {
    @Test func theTextGoesBase64InOneSequenceWrappedForTmux() {
        #expect(Clipboard.sequence(copying: "ab", environment: ["TERM": "xterm"], isTerminal: true) == "\u{1B}]52;c;YWI=\u{07}")
        #expect(Clipboard.sequence(copying: "ab", environment: ["TERM": "screen", "TMUX": "/tmp/tmux-1/default,1,0"], isTerminal: true)
                == "\u{1B}Ptmux;\u{1B}\u{1B}]52;c;YWI=\u{07}\u{1B}\\")
    }

    @Test func whatATerminalWouldObeyIsCopiedAsVisibleEscapes() throws {
        let sequence = try #require(Clipboard.sequence(copying: "a\u{1B}b", environment: ["TERM": "xterm"], isTerminal: true))
        let payload = sequence.dropFirst("\u{1B}]52;c;".count).dropLast()
        let copied = try #require(Data(base64Encoded: String(payload)).flatMap { String(data: $0, encoding: .utf8) })
        #expect(!copied.contains("\u{1B}") && copied.hasPrefix("a") && copied.hasSuffix("b"), "\(copied.debugDescription)")
    }

    @Test func nothingIsWrittenOffATerminalOrOnOneThatCannotTakeIt() {
        #expect(Clipboard.sequence(copying: "ab", environment: ["TERM": "xterm"], isTerminal: false) == nil)
        #expect(Clipboard.sequence(copying: "ab", environment: ["TERM": "dumb"], isTerminal: true) == nil)
        #expect(Clipboard.sequence(copying: "ab", environment: [:], isTerminal: true) == nil)
    }
}
