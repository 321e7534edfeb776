/// The colours a view may ask for. The terminal decides how (or whether) to show them.
public enum Color: Sendable, Hashable, CaseIterable {
    case red, green, yellow, blue, magenta, cyan
}

/// How a cell looks. Meaning never rests on colour alone: views pair it with a symbol or an
/// attribute, so a monochrome terminal or NO_COLOR still reads the same.
public struct Style: Sendable, Hashable {
    public var color: Color?
    public var bold: Bool
    public var dim: Bool
    public var reverse: Bool
    public var underline: Bool

    public init(color: Color? = nil, bold: Bool = false, dim: Bool = false, reverse: Bool = false, underline: Bool = false) {
        self.color = color
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
    }

    public static let plain = Style()
    public static let bold = Style(bold: true)
    public static let dim = Style(dim: true)
    public static let reverse = Style(reverse: true)

    public static func colored(_ color: Color, bold: Bool = false) -> Style { Style(color: color, bold: bold) }
}

/// One position of the screen: a character and its style. A wide character fills its own cell
/// and marks the next one as its continuation.
public struct Cell: Sendable, Hashable {
    public var character: Character
    public var style: Style
    public var isContinuation: Bool

    public init(_ character: Character = " ", style: Style = .plain, isContinuation: Bool = false) {
        self.character = character
        self.style = style
        self.isContinuation = isContinuation
    }

    public static let blank = Cell()
}

extension Character {
    /// Columns the character takes in a terminal: 2 for East Asian wide and emoji, 0 for
    /// control characters, else 1. A short table, like wcwidth's, for the common ranges.
    public var columns: Int {
        guard let scalar = unicodeScalars.first else { return 0 }
        let v = scalar.value
        if v < 0x20 || (0x7F..<0xA0).contains(v) { return 0 }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD,
        ]
        return wide.contains { $0.contains(v) } ? 2 : 1
    }
}

extension StringProtocol {
    /// Columns the text takes in a terminal.
    public var columns: Int { reduce(0) { $0 + $1.columns } }
}
