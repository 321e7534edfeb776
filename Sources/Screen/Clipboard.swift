import Foundation
import TextSafety

/// Putting text on the clipboard of the terminal the program runs in, through OSC 52 (a
/// terminal that does not understand the sequence ignores it).
public enum Clipboard {
    /// What the program says after writing the sequence.
    public static let note = "(copied to the clipboard where your terminal allows)"

    /// The sequence that copies `text` (escaped as `visible` escapes it), or nil when the output
    /// is no terminal (`isTerminal`) or one that cannot take it (`TERM` unset or `dumb`). Inside
    /// tmux it is wrapped, which tmux passes on to the outer terminal.
    public static func sequence(copying text: String, environment: [String: String], isTerminal: Bool) -> String? {
        let term = environment["TERM"] ?? ""
        guard isTerminal, !term.isEmpty, term != "dumb" else { return nil }
        let encoded = Data(visible(text).utf8).base64EncodedString()
        return environment["TMUX"] != nil ? "\u{1B}Ptmux;\u{1B}\u{1B}]52;c;\(encoded)\u{07}\u{1B}\\" : "\u{1B}]52;c;\(encoded)\u{07}"
    }
}
