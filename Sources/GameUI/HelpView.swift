import Screen

extension Canvas {
    /// Every key, by section: two columns when the screen is wide enough, scrolled when not.
    mutating func drawHelp(_ area: Rect) {
        let inner = box(area, "Help: every key")
        let keyWidth = HelpKeys.sections.flatMap(\.entries).map(\.keys.columns).max() ?? 0
        let sectionLines = HelpKeys.sections.map { section in
            [(section.title, Style.bold)] + section.entries.map { (" " + Text.pad($0.keys, to: keyWidth) + "  " + $0.action, Style.plain) }
        }
        let half = sectionLines.count / 2
        let columnWidth = (inner.width - 1) / 2
        let longest = sectionLines.flatMap { $0 }.map(\.0.columns).max() ?? 0
        // One column, narrow: an action too long for the line wraps under itself.
        let indent = String(repeating: " ", count: keyWidth + 3)
        let narrow = HelpKeys.sections.map { section in
            [(section.title, Style.bold)] + section.entries.flatMap { entry -> [(String, Style)] in
                let room = max(8, inner.width - 2 - indent.count)
                let wrapped = Text.wrap(entry.action, width: room)
                return wrapped.enumerated().map { i, part in ((i == 0 ? " " + Text.pad(entry.keys, to: keyWidth) + "  " : indent) + part, Style.plain) }
            }
        }
        let columns: [[(String, Style)]] = columnWidth >= longest + 1
            ? [Array(sectionLines[..<half].joined(separator: [("", .plain)])), Array(sectionLines[half...].joined(separator: [("", .plain)]))]
            : [Array(narrow.joined(separator: [("", .plain)]))]
        let tallest = columns.map(\.count).max() ?? 0
        let scroll = min(state.helpScroll, max(0, tallest - inner.height))
        for (c, lines) in columns.enumerated() {
            let x = inner.x + 1 + c * columnWidth
            for (row, line) in lines.dropFirst(scroll).prefix(inner.height).enumerated() {
                buffer.write(line.0, x: x, y: inner.y + row, style: line.1, limit: (columns.count == 1 ? inner.width : columnWidth) - 1)
            }
        }
        if scroll + inner.height < tallest { buffer.write(String(glyphs.arrowDown), x: inner.maxX - 1, y: inner.maxY - 1, style: .bold) }
        if scroll > 0 { buffer.write(String(glyphs.arrowUp), x: inner.maxX - 1, y: inner.y, style: .bold) }
    }
}
