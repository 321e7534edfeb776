extension ScreenBuffer {
    /// Draws a box on the edge of `rect` with an optional title in its top border, and returns
    /// the rectangle inside it.
    @discardableResult
    public mutating func drawBox(_ rect: Rect, title: String? = nil, glyphs: Glyphs, style: Style = .plain, titleStyle: Style = .bold) -> Rect {
        guard rect.width >= 2 && rect.height >= 2 else { return Rect(x: rect.x, y: rect.y, width: 0, height: 0) }
        let horizontal = String(repeating: glyphs.horizontal, count: rect.width - 2)
        write(String(glyphs.topLeft) + horizontal + String(glyphs.topRight), x: rect.x, y: rect.y, style: style)
        write(String(glyphs.bottomLeft) + horizontal + String(glyphs.bottomRight), x: rect.x, y: rect.maxY - 1, style: style)
        for y in (rect.y + 1)..<(rect.maxY - 1) {
            write(String(glyphs.vertical), x: rect.x, y: y, style: style)
            write(String(glyphs.vertical), x: rect.maxX - 1, y: y, style: style)
        }
        if let title, rect.width > 6 {
            write(" " + Text.truncate(title, to: rect.width - 6, ellipsis: glyphs.ellipsis) + " ", x: rect.x + 2, y: rect.y, style: titleStyle)
        }
        return rect.inset(dx: 1, dy: 1)
    }

    /// Draws rows of a list, scrolled so the selected row is in view, the selected row in
    /// reverse video with a pointer. Arrows in the right column say more rows are above or below.
    public mutating func drawList(_ rows: [String], selected: Int?, in rect: Rect, glyphs: Glyphs, rowStyle: (Int) -> Style = { _ in .plain }) {
        guard !rect.isEmpty else { return }
        let visible = ListWindow.visible(count: rows.count, selected: selected ?? 0, height: rect.height)
        for (line, index) in visible.enumerated() {
            let row = rect.row(line)
            let isSelected = index == selected
            let text = (isSelected ? "> " : "  ") + rows[index]
            var style = rowStyle(index)
            if isSelected { style.reverse = true }
            write(Text.pad(text, to: row.width - 1), x: row.x, y: row.y, style: style)
        }
        if visible.lowerBound > 0 { write(String(glyphs.arrowUp), x: rect.maxX - 1, y: rect.y, style: .bold) }
        if visible.upperBound < rows.count { write(String(glyphs.arrowDown), x: rect.maxX - 1, y: rect.maxY - 1, style: .bold) }
    }
}

/// Which rows of a long list fit, keeping the selected (or the newest) row in view.
public enum ListWindow {
    /// The rows shown when `height` rows fit: the selected row stays in view, as low as it can
    /// be when the list has to scroll (so the newest of a growing list shows at the bottom).
    public static func visible(count: Int, selected: Int, height: Int) -> Range<Int> {
        guard count > height else { return 0..<count }
        guard height > 0 else { return 0..<0 }
        let chosen = min(max(0, selected), count - 1)
        let start = max(0, min(chosen - height / 2, count - height))
        return start..<(start + height)
    }

    /// The last `height` rows: the newest entries of a list that grows at the bottom.
    public static func tail(count: Int, height: Int) -> Range<Int> {
        max(0, count - max(0, height))..<count
    }
}

/// A horizontal bar of `width` cells, `fraction` of it full.
public enum Bar {
    public static func render(fraction: Double, width: Int, glyphs: Glyphs) -> String {
        guard width > 0 else { return "" }
        let clamped = min(1, max(0, fraction.isFinite ? fraction : 0))
        var full = Int((clamped * Double(width)).rounded())
        if clamped > 0 && full == 0 { full = 1 }
        return String(repeating: glyphs.barFull, count: full) + String(repeating: glyphs.barEmpty, count: width - full)
    }
}
