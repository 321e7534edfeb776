import QiktionaryCore
import Screen

/// Width of the notepad panel beside the guesses: 7 letters of 4 columns, borders and margins.
private let notepadPanelWidth = AppState.notepadColumns * 4 + 4
/// Four rows of letters, a blank line, three lines of legend, and the borders.
private let notepadPanelHeight = 10

extension Canvas {
    /// The game: guesses, the notepad, the input line and, once over, the fact card. The input
    /// line and the newest guess are placed first, so they are never the ones that do not fit.
    mutating func drawGame(_ area: Rect) {
        guard let saved = state.board.game else {
            drawEmpty(area, state.board.waitingForGame ? "Getting your game ready" + glyphs.ellipsis : "No game on the board: Enter starts one, 2 chooses a pack.")
            return
        }
        let (inputRect, board) = area.sliceBottom(area.height >= 10 ? 3 : 1)
        drawInput(saved.game, inputRect)
        var left = board
        if board.width >= 66 {
            let (column, rest) = board.sliceRight(notepadPanelWidth)
            let (panel, below) = column.sliceTop(notepadPanelHeight)
            drawNotepad(saved.game, box(panel, "Notepad"))
            if below.height >= 4 { drawRules(saved, box(below, "Rules")) }
            left = rest
        } else if !saved.game.isFinished || board.height >= 24 {
            // Narrow: the notepad under the guesses, unless the game is over and the fact card
            // needs the room.
            let perRow = max(1, (board.width - 4) / 4)
            var height = (Notepad.alphabet.count + perRow - 1) / perRow + 2
            // The legend in one line under the letters, where the guesses keep room for five.
            let legend = board.height - height - 1 >= 7
            if legend { height += 1 }
            if board.height - height >= 3 {
                let (panel, rest) = board.sliceBottom(height)
                drawNotepad(saved.game, box(panel, "Notepad"), perRow: perRow, oneLineLegend: legend)
                left = rest
            }
        }
        if saved.game.isFinished {
            // Too low for the card and three guesses: the card alone (the guesses are in History).
            left = drawFactCard(saved, in: left, actions: true, keepGuesses: left.height >= 10)
        }
        // A game of a match: the opponent's progress on the same word, beside the title.
        drawGuesses(saved, box(left, boardMatchLine.map { "Guesses" + glyphs.separator + $0 } ?? "Guesses"))
    }

    /// The guesses, numbered, with feedback as pips and words; the newest at the bottom, in bold,
    /// always in view.
    mutating func drawGuesses(_ saved: SavedGame, _ area: Rect) {
        let game = saved.game
        guard !area.isEmpty else { return }
        // Played on more than one machine: each guess says where. A guess played after the win
        // (at the same time, on the other machine) says so: it does not count.
        let devices = saved.playedOnSeveralDevices ? saved.guessDevices : []
        let win = game.winningIndex
        var inner = area
        if let hint = state.board.currentHint, area.height >= 3 {
            let line: Rect
            (line, inner) = area.sliceBottom(1)
            // The average left is a count of the pack's words: the coach's alone.
            let figure = hint.counts(at: game.assist).map { " (\(Review.format($0.expectedLeft)) left on average)" } ?? ""
            buffer.write(" Hint: \(hint.word.uppercased())\(figure)", in: line, style: Style(color: .cyan, bold: true))
        }
        if game.guesses.isEmpty {
            let text = game.rules == .classic
                ? "Find the \(game.length)-letter word. Each guess scores the letters it shares with it (\(glyphs.pipInPlace)), wherever they stand. No repeated letters."
                : "Find the \(game.length)-letter word. Each guess shows letters in the right place (\(glyphs.pipInPlace)) and letters elsewhere in the word (\(glyphs.pipInWord))."
            let lines = Text.wrap(text, width: inner.width - 2)
            for (i, line) in lines.prefix(inner.height).enumerated() {
                // Cut short by a low screen: the last line shown says more follows, and where.
                let cut = i == inner.height - 1 && lines.count > inner.height
                let more = " \(glyphs.ellipsis) F1 rules"
                var start = Text.truncate(line, to: inner.width - 2 - more.columns, ellipsis: "")
                if start != line, let space = start.lastIndex(of: " ") { start = String(start[..<space]) }
                buffer.write(cut ? start + more : line,
                             x: inner.x + 1, y: inner.y + i, style: .dim)
            }
            return
        }
        // During play on the board, Up/PgUp scroll to older guesses; arrows on the border say
        // more is above or below.
        let count = game.guesses.count
        let scrollable = state.pane == .guess && saved.id == state.board.game?.id && !game.isFinished
        let scroll = scrollable ? min(state.board.guessScroll, max(0, count - inner.height)) : 0
        let shown = ListWindow.tail(count: count - scroll, height: inner.height)
        let arrow = Style(bold: true)
        if shown.lowerBound > 0 && inner.height > 0 { buffer.write(String(glyphs.arrowUp), x: inner.maxX, y: inner.y, style: arrow) }
        if scroll > 0 && inner.height > 0 { buffer.write(String(glyphs.arrowDown), x: inner.maxX, y: inner.maxY - 1, style: arrow) }
        for (line, index) in shown.enumerated() {
            let guess = game.guesses[index]
            let newest = index == game.guesses.count - 1
            let y = inner.y + line
            let number = index + 1 < 10 ? " \(index + 1)" : "\(index + 1)"
            var x = buffer.write(" \(number)  ", x: inner.x, y: y, style: .dim, limit: inner.width)
            x = buffer.write(guess.word.uppercased(), x: x, y: y, style: Style(bold: newest), limit: inner.maxX - x)
            x = buffer.write("  ", x: x, y: y, limit: inner.maxX - x)
            for (pip, style) in pips(guess.feedback, length: game.length) {
                x = buffer.write(String(pip), x: x, y: y, style: style, limit: inner.maxX - x)
            }
            let summary = "  " + guess.feedback.summary
            let whole = summary.columns <= inner.maxX - x
            x = writeCut(summary, x: x, y: y, style: Style(bold: newest), limit: inner.maxX - x)
            guard whole else { continue }
            var note: [String] = []
            if let anagram = guess.fullScoreNote(secret: game.secret) { note.append(anagram) }
            if devices.indices.contains(index) { note.append("on \(devices[index])") }
            if let win, index > win { note.append("after the win") }
            if !note.isEmpty { writeCut("  (" + note.joined(separator: ", ") + ")", x: x, y: y, style: .dim, limit: inner.maxX - x) }
        }
    }

    /// The rule set in a few lines, with the game's limits: a reminder beside the board. Cut
    /// short by a low screen, its last line says F1 shows them all (the help screen starts with
    /// them, and scrolls), with an arrow on the border.
    mutating func drawRules(_ saved: SavedGame, _ inner: Rect) {
        let lines = Self.rulesLines(saved, width: inner.width - 2, glyphs: glyphs)
        for (i, line) in lines.prefix(inner.height).enumerated() {
            let cut = i == inner.height - 1 && lines.count > inner.height
            writeCut(cut ? glyphs.ellipsis + " F1: all the rules" : line, x: inner.x + 1, y: inner.y + i, style: .dim, limit: inner.width - 2)
            if cut { buffer.write(String(glyphs.arrowDown), x: inner.maxX, y: inner.y + i, style: .bold) }
        }
    }

    /// The game's rules wrapped to `width`: the rule set, then its limit and where it started.
    /// The Rules box beside the board and the help screen both show these lines.
    static func rulesLines(_ saved: SavedGame, width: Int, glyphs: Glyphs) -> [String] {
        let game = saved.game
        let text = game.rules == .classic
            ? "Classic: a guess scores the letters it shares with the word, wherever they stand. No repeated letters."
            : "Mastermind: \(glyphs.pipInPlace) right letter in the right place, \(glyphs.pipInWord) right letter elsewhere. Letters may repeat."
        return Text.wrap(text, width: width) + [""] + Text.wrap("Win in \(game.maxGuesses) guesses or fewer.", width: width)
            + Text.wrap("Started on \(saved.startedOn).", width: width)
    }

    /// One pip per letter: shared or in place, in the word elsewhere, or a miss.
    func pips(_ feedback: Feedback, length: Int) -> [(Character, Style)] {
        let hit = Style(color: .green, bold: true), near = Style(color: .yellow, bold: true), miss = Style.dim
        switch feedback {
        case .common(let n):
            return (0..<length).map { $0 < n ? (glyphs.pipInPlace, hit) : (glyphs.pipMiss, miss) }
        case .mastermind(let inPlace, let inWord):
            return (0..<length).map {
                $0 < inPlace ? (glyphs.pipInPlace, hit) : $0 < inPlace + inWord ? (glyphs.pipInWord, near) : (glyphs.pipMiss, miss)
            }
        }
    }

    /// The alphabet with each letter's mark; a proven mark in brackets, so it reads apart from
    /// the player's own marks without colour. The cursor shows in reverse when the pane has focus.
    /// `oneLineLegend`: the legend in one line right under the letters (the narrow layout),
    /// else in three after a blank line.
    mutating func drawNotepad(_ game: Game, _ inner: Rect, perRow: Int = AppState.notepadColumns, oneLineLegend: Bool = false) {
        guard !inner.isEmpty else { return }
        let focused = state.pane == .notepad && !state.helpOpen
        // Proof first, then the player's mark, during the game and after it: a mark proven in
        // play keeps its brackets once the game is over.
        for (i, entry) in game.notepad(candidates: state.board.currentCandidates).entries.enumerated() {
            let y = inner.y + i / perRow
            guard y < inner.maxY else { break }
            let symbol = entry.shown.map { $0 == .in ? glyphs.check : glyphs.cross } ?? glyphs.unknown
            let letter = entry.letter.uppercased()
            let text = entry.deduced != nil ? "[\(letter)\(symbol)]" : " \(letter)\(symbol) "
            var style: Style = switch entry.shown {
            case .in?: Style(color: .green, bold: entry.deduced != nil)
            case .out?: Style(color: .red, dim: entry.deduced == nil)
            case nil: .plain
            }
            if focused && i == state.board.notepadCursor { style.reverse = true }
            buffer.write(text, x: inner.x + 1 + (i % perRow) * 4, y: y, style: style, limit: inner.maxX - inner.x - 1 - (i % perRow) * 4)
        }
        let rows = (Notepad.alphabet.count + perRow - 1) / perRow
        let key = "\(glyphs.check) in  \(glyphs.cross) out  \(glyphs.unknown) unknown"
        if oneLineLegend {
            let whole = key + "   " + Self.legend(of: game, glyphs: glyphs)
            let line = whole.columns <= inner.width - 2 ? whole : Self.legend(of: game, glyphs: glyphs)
            if inner.y + rows < inner.maxY { writeCut(line, x: inner.x + 1, y: inner.y + rows, style: .dim, limit: inner.width - 2) }
            return
        }
        let legend = [key, Self.legend(of: game, glyphs: glyphs), focused ? "Space, -, + to mark" : "Tab here to mark letters"]
        for (i, line) in legend.enumerated() where inner.y + rows + 1 + i < inner.maxY {
            writeCut(line, x: inner.x + 1, y: inner.y + rows + 1 + i, style: .dim, limit: inner.width - 1)
        }
    }

    /// What the notepad's bracketed marks come from, at the game's help level; once the game is
    /// over, from its word, told.
    static func legend(of game: Game, glyphs: Glyphs) -> String {
        if game.isFinished { return "[A\(glyphs.check)] the word, now told" }
        return game.assist == .noHelp ? "Your marks only (help: none)" : "[A\(glyphs.check)] \(game.assist.legend)"
    }

    /// The help the game had, for its card's title: its level, and the hints asked for.
    static func helpLine(_ saved: SavedGame) -> String {
        let hints = saved.hints.count
        return saved.game.assist.shareLabel + (hints == 0 ? "" : hints == 1 ? ", 1 hint" : ", \(hints) hints")
    }

    /// The guess being typed as letter slots, with the guesses left; or, once the game is
    /// over, what to do next.
    mutating func drawInput(_ game: Game, _ rect: Rect) {
        let focused = state.pane == .guess && !state.helpOpen
        let line: Rect
        if rect.height >= 3 {
            var title = game.isFinished ? "Game over" : "Guess \(game.guesses.count + 1) of \(game.maxGuesses)"
            // The count of words still possible is the coach's: shown only when it is on.
            if !game.isFinished, game.assist == .coach, let candidates = state.board.currentCandidates {
                let longer = title + glyphs.separator + GameCoach.stillPossible(candidates.count)
                if longer.columns + 4 <= rect.width { title = longer }
            }
            line = buffer.drawBox(rect, title: title, glyphs: glyphs, style: focused ? .bold : .dim)
        } else {
            line = rect
        }
        if game.isFinished {
            // A game of a match: n plays the player's next game of it.
            let next = state.boardMatch.flatMap { board in board.overview.state.nextGame(for: board.overview.viewer).map { "game \($0) of the match" } }
            buffer.write(" n \(next ?? "next game") \(glyphs.separator) b bookmark \(glyphs.separator) Tab other screens", in: line, style: .plain)
            return
        }
        let typed = Array(state.board.input.uppercased())
        var x = buffer.write(" > ", x: line.x, y: line.y, style: .bold)
        for i in 0..<game.length {
            var style: Style = i < typed.count ? .bold : .dim
            if focused && i == typed.count { style.reverse = true }
            x = buffer.write(i < typed.count ? String(typed[i]) : "_", x: x, y: line.y, style: style, limit: line.maxX - x)
            x = buffer.write(" ", x: x, y: line.y, limit: line.maxX - x)
        }
        // Letters typed past the end are counted where the next would go: Enter will not send.
        if state.board.inputOverflow > 0 {
            x = buffer.write("+\(state.board.inputOverflow)", x: x, y: line.y, style: Style(color: .red, bold: true), limit: line.maxX - x)
        }
        let left = "\(game.guessesLeft) of \(game.maxGuesses) left "
        if line.maxX - x >= left.columns + 1 {
            buffer.write(left, x: line.maxX - left.columns, y: line.y, style: game.guessesLeft <= 3 ? Style(color: .yellow, bold: true) : .plain)
        }
    }

    /// The card shown when a game is over: the word, how it went, its fact and, on the game
    /// screen, the actions. Drawn at the bottom of `rect`; returns what is left above it, at
    /// least three rows so the newest guess stays in view.
    /// `scroll`: the card's scroll where it is not the board's (an open History game).
    mutating func drawFactCard(_ saved: SavedGame, in rect: Rect, actions: Bool, keepGuesses: Bool = true, scroll scrolled: Int? = nil) -> Rect {
        let width = rect.width - 4
        let reserve = keepGuesses ? 3 : 0
        guard width > 4, rect.height - reserve >= 3 else { return rect }
        var lines = Text.wrap(endLine(saved, here: state.device), width: width)
        // The game ended elsewhere while in play here: said first, with the key that goes on.
        let notice = actions && saved.id == state.board.game?.id ? state.board.notice : nil
        if let notice { lines = Text.wrap("\(notice). Enter or Esc to go on.", width: width) + lines }
        let bold = lines.count
        lines += [""] + Text.wrap(saved.fact.isEmpty ? Practice.noFact : saved.fact, width: width)
        // After a daily game: the time to the next one, at local midnight.
        if saved.daily != nil, let clock = state.dailyClock { lines += ["", "Next daily word in \(clock.untilNextDayText)"] }
        var firstAction = Int.max
        if actions {
            if let code = state.challengeCodes[saved.id] { lines += ["", "Challenge a friend: \(code)"] }
            let keep = saved.fact.isEmpty ? [] : [saved.bookmarked ? "\(glyphs.star) on your reading list (b removes it)" : "b bookmark"]
            firstAction = lines.count + 1
            lines += [""] + Text.wrap((keep + ["r review", "s share", "n next game"]).joined(separator: glyphs.separator), width: width)
        }
        let height = min(lines.count + 2, rect.height - reserve)
        let (cardRect, rest) = rect.sliceBottom(height)
        let star = saved.bookmarked ? "\(glyphs.star) " : ""
        let title = star + saved.game.secret.uppercased() + glyphs.separator + Self.helpLine(saved)
        let inner = buffer.drawBox(cardRect, title: title, glyphs: glyphs, style: Style(color: .cyan), titleStyle: Style(color: .cyan, bold: true))
        // Longer than the room: Up/Down scroll it (on the game screen), arrows on the border say
        // more is above or below, and the last line shown ends in an ellipsis.
        let scroll = min(scrolled ?? (actions ? state.board.cardScroll : 0), max(0, lines.count - inner.height))
        if scroll > 0 { buffer.write(String(glyphs.arrowUp), x: cardRect.maxX - 1, y: inner.y, style: Style(color: .cyan, bold: true)) }
        if lines.count - scroll > inner.height {
            buffer.write(String(glyphs.arrowDown), x: cardRect.maxX - 1, y: inner.maxY - 1, style: Style(color: .cyan, bold: true))
        }
        for (row, text) in lines.dropFirst(scroll).prefix(inner.height).enumerated() {
            let i = row + scroll
            let cut = row == inner.height - 1 && lines.count - scroll > inner.height && !text.isEmpty
            var style: Style = i < bold ? .bold : (i >= firstAction ? .dim : .plain)
            if notice != nil && i < bold - 1 { style = Style(color: .yellow, bold: true) }
            buffer.write(cut ? Text.truncate(text + " " + glyphs.ellipsis, to: width, ellipsis: glyphs.ellipsis) : text,
                         x: inner.x + 1, y: inner.y + row, style: style, limit: width)
        }
        return rest
    }
}
