import Screen

extension Canvas {
    /// The rules of the game on the board, then every key by section: the keys in two columns
    /// when the screen is wide enough; scrolled when it all does not fit.
    mutating func drawHelp(_ area: Rect) {
        let game = state.board.game
        let inner = box(area, game == nil ? "Help: every key" : "Help: the rules, every key")
        // The game's rules across the whole width, above the keys: the Rules box beside the
        // board does not fit every screen.
        let rules: [(String, Style)] = game.map { saved in
            [("This game", Style.bold)] + Self.rulesLines(saved, width: inner.width - 3, glyphs: glyphs).map { (" " + $0, Style.plain) } + [("", .plain)]
        } ?? []
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
        let tallest = rules.count + (columns.map(\.count).max() ?? 0)
        let scroll = min(state.helpScroll, max(0, tallest - inner.height))
        for row in 0..<inner.height {
            let index = scroll + row
            if index < rules.count {
                writeCut(rules[index].0, x: inner.x + 1, y: inner.y + row, style: rules[index].1, limit: inner.width - 2)
                continue
            }
            for (c, lines) in columns.enumerated() where lines.indices.contains(index - rules.count) {
                let line = lines[index - rules.count]
                buffer.write(line.0, x: inner.x + 1 + c * columnWidth, y: inner.y + row, style: line.1,
                             limit: (columns.count == 1 ? inner.width : columnWidth) - 1)
            }
        }
        if scroll + inner.height < tallest { buffer.write(String(glyphs.arrowDown), x: inner.maxX - 1, y: inner.maxY - 1, style: .bold) }
        if scroll > 0 { buffer.write(String(glyphs.arrowUp), x: inner.maxX - 1, y: inner.y, style: .bold) }
    }
}
