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
