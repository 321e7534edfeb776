import Foundation
/// The characters the interface draws with: Unicode when the terminal's locale is UTF-8,
/// plain ASCII otherwise, so a board never turns into question marks.
public struct Glyphs: Sendable, Equatable {
    public var topLeft: Character
    public var topRight: Character
    public var bottomLeft: Character
    public var bottomRight: Character
    public var horizontal: Character
    public var vertical: Character
    /// Notepad and legend symbols.
    public var check: Character
    public var cross: Character
    public var unknown: Character
    /// Bars: progress and the guess-distribution chart.
    public var barFull: Character
    public var barEmpty: Character
    /// Feedback pips: a letter in place, a letter elsewhere in the word, a miss.
    public var pipInPlace: Character
    public var pipInWord: Character
    public var pipMiss: Character
    public var star: Character
    public var ellipsis: String
    public var separator: String
    public var arrowUp: Character
    public var arrowDown: Character

    public static let unicode = Glyphs(
        topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘", horizontal: "─", vertical: "│",
        check: "✓", cross: "✗", unknown: "·", barFull: "█", barEmpty: "░",
        pipInPlace: "●", pipInWord: "○", pipMiss: "·", star: "★", ellipsis: "…", separator: " · ",
        arrowUp: "↑", arrowDown: "↓"
    )

    public static let ascii = Glyphs(
        topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+", horizontal: "-", vertical: "|",
        check: "+", cross: "-", unknown: ".", barFull: "#", barEmpty: ".",
        pipInPlace: "*", pipInWord: "o", pipMiss: ".", star: "*", ellipsis: "...", separator: " | ",
        arrowUp: "^", arrowDown: "v"
    )
}

extension Glyphs {
    /// `text` for a terminal whose locale is not UTF-8: each Unicode glyph of the interface as
    /// its ASCII stand-in (✓ +, ✗ -, ● *, ★ *, █ #, … ...), accents dropped, and any other
    /// character beyond ASCII as `?`.
    public static func asciiText(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            if character.isASCII { out.append(character); continue }
            if let stand = asciiStandIns[character] { out += stand; continue }
            let folded = String(character).folding(options: [.diacriticInsensitive, .widthInsensitive], locale: nil)
            out += folded.allSatisfy(\.isASCII) && !folded.isEmpty ? folded : "?"
        }
        return out
    }

    /// One character for a terminal whose locale is not UTF-8, in one column: the character's
    /// ASCII stand-in when it is one character (– -, ✓ +, é e), else `?` (a wide character's
    /// second column becomes a space).
    public static func asciiCharacter(_ character: Character) -> Character {
        if character.isASCII { return character }
        let text = asciiText(String(character))
        return text.count == 1 ? text.first! : text == "..." ? "." : "?"
    }

    private static let asciiStandIns: [Character: String] = {
        var table: [Character: String] = [:]
        let (u, a) = (Glyphs.unicode, Glyphs.ascii)
        for (from, to) in [(u.topLeft, a.topLeft), (u.topRight, a.topRight), (u.bottomLeft, a.bottomLeft), (u.bottomRight, a.bottomRight),
                           (u.horizontal, a.horizontal), (u.vertical, a.vertical), (u.check, a.check), (u.cross, a.cross),
                           (u.unknown, a.unknown), (u.barFull, a.barFull), (u.barEmpty, a.barEmpty), (u.pipInPlace, a.pipInPlace),
                           (u.pipInWord, a.pipInWord), (u.star, a.star), (u.arrowUp, a.arrowUp), (u.arrowDown, a.arrowDown)] {
            table[from] = String(to)
        }
        table["…"] = "..."
        for (from, to) in [("→", "->"), ("←", "<-"), ("×", "x"), ("—", "-"), ("–", "-"), ("’", "'"), ("‘", "'"), ("“", "\""), ("”", "\""),
                           ("−", "-"), ("²", "2"), ("≈", "~"), ("°", " deg")] as [(Character, String)] {
            table[from] = to
        }
        return table
    }()
}
