import TextSafety

/// An in-memory grid of cells that a view draws into. The terminal adapter copies it to the
/// screen; tests compare its `text` with string literals.
public struct ScreenBuffer: Sendable, Equatable {
    public let size: Size
    public private(set) var cells: [Cell]

    public init(size: Size) {
        self.size = size
        cells = Array(repeating: .blank, count: size.width * size.height)
    }

    public var bounds: Rect { Rect(size) }

    public subscript(x: Int, y: Int) -> Cell {
        get { contains(x, y) ? cells[y * size.width + x] : .blank }
        set { if contains(x, y) { cells[y * size.width + x] = newValue } }
    }

    private func contains(_ x: Int, _ y: Int) -> Bool {
        x >= 0 && y >= 0 && x < size.width && y < size.height
    }

    /// Writes `text` from column `x` of row `y`, clipped to the buffer and to `limit` columns
    /// (the rest of the row when nil). A wide character that does not fit is left out.
    /// Characters a terminal would obey (an escape sequence in a fact from a file) are drawn as
    /// visible escapes (`\x1b`), never sent. Returns the column after the last one written.
    @discardableResult
    public mutating func write(_ text: some StringProtocol, x: Int, y: Int, style: Style = .plain, limit: Int? = nil) -> Int {
        guard y >= 0 && y < size.height else { return x }
        let end = min(size.width, limit.map { x + max(0, $0) } ?? size.width)
        var column = x
        for character in oneLine(String(text)) {
            let width = character.columns
            if width == 0 { continue }
            if column + width > end { break }
            if column >= 0 {
                self[column, y] = Cell(character, style: style)
                if width == 2 { self[column + 1, y] = Cell(" ", style: style, isContinuation: true) }
            }
            column += width
        }
        return column
    }

    /// Every cell as a terminal outside UTF-8 can show it: a character beyond ASCII becomes its
    /// one-column stand-in (`Glyphs.asciiCharacter`), so a dash in a score or an accent in a
    /// fact never vanishes, and the layout stays as drawn.
    public mutating func makeASCII() {
        for i in cells.indices where !cells[i].character.isASCII {
            cells[i].character = cells[i].isContinuation ? " " : Glyphs.asciiCharacter(cells[i].character)
        }
    }

    /// Writes `text` into a one-row rectangle, aligned and padded to its width with the style.
    public mutating func write(_ text: String, in rect: Rect, style: Style = .plain, align: Alignment = .left) {
        guard !rect.isEmpty else { return }
        fill(rect.row(0), style: style)
        let fitted = Text.truncate(text, to: rect.width)
        let offset = switch align {
        case .left: 0
        case .center: (rect.width - fitted.columns) / 2
        case .right: rect.width - fitted.columns
        }
        write(fitted, x: rect.x + offset, y: rect.y, style: style, limit: rect.width - offset)
    }

    /// Fills a rectangle with one character.
    public mutating func fill(_ rect: Rect, _ character: Character = " ", style: Style = .plain) {
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX { self[x, y] = Cell(character, style: style) }
        }
    }

    /// Changes the style of every cell of a rectangle, keeping the characters.
    public mutating func restyle(_ rect: Rect, _ change: (inout Style) -> Void) {
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX where contains(x, y) {
                var cell = self[x, y]
                change(&cell.style)
                self[x, y] = cell
            }
        }
    }

    /// One row as text, continuation cells left out.
    public func line(_ y: Int) -> String {
        String((0..<size.width).compactMap { x in
            let cell = self[x, y]
            return cell.isContinuation ? nil : cell.character
        })
    }

    /// The whole screen as text, one line per row, trailing spaces trimmed.
    public var text: String {
        (0..<size.height).map { y in
            var line = line(y)
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }
}

public enum Alignment: Sendable {
    case left, center, right
}
