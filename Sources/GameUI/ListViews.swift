import QiktionaryCore
import Screen

extension Canvas {
    /// A list screen: a box of rows with the selection, and under it a box about the selected row.
    mutating func drawListScreen(_ area: Rect, title: String, rows: [String], selected: Int, empty: String,
                                 detailTitle: String? = nil, detail: String? = nil, detailWhenLow: Bool = false) {
        guard !rows.isEmpty else {
            drawEmpty(box(area, title), empty)
            return
        }
        var listRect = area
        // Low (40x12), where the detail is what the list is for (a fact on the reading list): the
        // list keeps one row, the chosen one, and the detail has the rest.
        if let detail, area.height >= 10 || (detailWhenLow && area.height >= 7) {
            let lines = Text.wrap(detail, width: area.width - 4)
            let height = area.height >= 10 ? min(lines.count + 2, area.height - 5, max(4, area.height / 2)) : min(lines.count + 2, area.height - 3)
            let (detailRect, rest) = area.sliceBottom(height)
            let inner = box(detailRect, detailTitle)
            for (i, line) in lines.prefix(inner.height).enumerated() {
                // Cut short: the last line shown ends in an ellipsis, an arrow on the border.
                let cut = i == inner.height - 1 && lines.count > inner.height
                writeCut(cut ? line + " " + glyphs.ellipsis : line, x: inner.x + 1, y: inner.y + i, limit: inner.width - 2)
                if cut { buffer.write(String(glyphs.arrowDown), x: inner.maxX, y: inner.y + i, style: .bold) }
            }
            listRect = rest
        }
        let inner = box(listRect, "\(title) (\(rows.count))")
        buffer.drawList(rows, selected: selected, in: inner, glyphs: glyphs)
    }

    mutating func drawPacks(_ area: Rect) {
        let titleWidth = min(24, state.packs.items.map(\.title.columns).max() ?? 0)
        let counts = state.packs.items.map { "\($0.solved)/\($0.words)" }
        let countWidth = counts.map(\.columns).max() ?? 0
        // "> " + title + length + rules + bar + count, two spaces between; the bar takes what is left.
        let fixed = 2 + titleWidth + 2 + 9 + 2 + 10 + 2 + 2 + countWidth + 3
        let barWidth = max(4, min(40, area.width - fixed))
        let rows = zip(state.packs.items, counts).map { pack, count in
            [Text.pad(pack.title, to: titleWidth), "\(pack.length) letters", Text.pad(pack.rules.rawValue, to: 10),
             Bar.render(fraction: pack.words == 0 ? 0 : Double(pack.solved) / Double(pack.words), width: barWidth, glyphs: glyphs),
             String(repeating: " ", count: countWidth - count.columns) + count].joined(separator: "  ")
        }
        let pack = state.packs.selected
        drawListScreen(area, title: "Packs · help: \(state.assist.shareLabel)", rows: rows, selected: state.packs.selection,
                       empty: "No packs installed.", detailTitle: pack?.title,
                       detail: pack.map { "\($0.description) \($0.maxGuesses) guesses a game. Enter starts one." })
    }

    mutating func drawInProgress(_ area: Rect) {
        let games = state.inProgress.items
        let titles = games.map { game in packTitle(game.game.packID) }
        let titleWidth = min(24, titles.map(\.columns).max() ?? 0)
        let rows = zip(games, titles).map { saved, title in
            let game = saved.game
            let here = saved.id == state.board.game?.id ? "  (current)" : ""
            return [Text.pad(title, to: titleWidth), Text.pad(game.rules.rawValue, to: 10),
                    Text.pad("\(game.guesses.count)/\(game.maxGuesses) guesses", to: 13),
                    shortDate(saved.updatedAt), "on " + saved.lastChangedOn + here].joined(separator: "  ")
        }
        let selected = state.inProgress.selected
        drawListScreen(area, title: "Games in progress", rows: rows, selected: state.inProgress.selection,
                       empty: "No games in progress. Press 2 to choose a pack.",
                       detailTitle: "Guesses so far",
                       detail: selected.map { saved in
                           saved.game.guesses.isEmpty ? "No guesses yet. Enter resumes the game."
                               : saved.game.guesses.map { "\($0.word.uppercased()) \($0.feedback.summary)" }
                                   .joined(separator: glyphs.separator)
                       })
    }

    mutating func drawReadingList(_ area: Rect) {
        let list = state.readingList.items
        let wordWidth = list.map(\.word.count).max() ?? 0
        let rows = list.map { bookmark in
            [Text.pad(bookmark.word.uppercased(), to: wordWidth), Text.pad(packTitle(bookmark.packID), to: 16),
             "added " + shortDate(bookmark.addedAt)].joined(separator: "  ")
        }
        let selected = state.readingList.selected
        if state.readingList.open, let selected {
            // The fact whole: Up/Down scroll it when it is longer than the screen.
            let inner = box(area, selected.word.uppercased() + glyphs.separator + packTitle(selected.packID))
            guard !inner.isEmpty else { return }
            let lines = Text.wrap(selected.fact, width: inner.width - 2) + ["", "added " + shortDate(selected.addedAt)]
            let scroll = min(state.readingList.scroll, max(0, lines.count - inner.height))
            for (row, line) in lines.dropFirst(scroll).prefix(inner.height).enumerated() {
                buffer.write(line, x: inner.x + 1, y: inner.y + row, limit: inner.width - 2)
            }
            if scroll + inner.height < lines.count { buffer.write(String(glyphs.arrowDown), x: inner.maxX, y: inner.maxY - 1, style: .bold) }
            if scroll > 0 { buffer.write(String(glyphs.arrowUp), x: inner.maxX, y: inner.y, style: .bold) }
            return
        }
        drawListScreen(area, title: "Reading list", rows: rows, selected: state.readingList.selection,
                       empty: "Your reading list is empty. When a game ends, b bookmarks its fact.",
                       detailTitle: selected.map { $0.word.uppercased() }, detail: selected?.fact, detailWhenLow: true)
    }

    mutating func drawHistory(_ area: Rect) {
        let games = state.history.items
        let selected = state.history.selected
        if state.history.open, let selected {
            let rest = drawFactCard(selected, in: area, actions: false, scroll: state.history.scroll)
            let title = [packTitle(selected.game.packID), selected.game.rules.rawValue + (selected.game.hard ? ", hard" : ""),
                         "finished \(shortDate(selected.finishedAt)) on \(selected.lastChangedOn)"]
            drawGuesses(selected, box(rest, title.joined(separator: glyphs.separator)))
            return
        }
        let wordWidth = games.map(\.game.length).max() ?? 0
        let rows = games.map { saved in
            let game = saved.game
            return [(saved.bookmarked ? String(glyphs.star) : " ") + " " + Text.pad(game.secret.uppercased(), to: wordWidth),
                    Text.pad(game.status.rawValue, to: 7), Text.pad(guessCount(game.guesses.count), to: 10),
                    shortDate(saved.finishedAt), saved.lastChangedOn, coachNote(saved)].joined(separator: "  ")
        }
        drawListScreen(area, title: "History", rows: rows, selected: state.history.selection,
                       empty: "No finished games yet.",
                       detailTitle: selected.map { "The fact of \($0.game.secret.uppercased())" }, detail: selected?.fact)
    }

    func guessCount(_ n: Int) -> String { n == 1 ? "1 guess" : "\(n) guesses" }

    /// "hard", "coach", "1 hint", "hard, no help, 2 hints" or nothing: how the game was played,
    /// and how the coach took part (the standard help level goes unsaid).
    func coachNote(_ saved: SavedGame) -> String {
        let hints = saved.hints.count
        let level = saved.game.assist == .standard ? nil : saved.game.assist.shareLabel
        return ([saved.game.hard ? "hard" : nil, level, hints == 0 ? nil : hints == 1 ? "1 hint" : "\(hints) hints"].compactMap { $0 })
            .joined(separator: ", ")
    }

    /// A pack's title when packs are loaded, else its id.
    func packTitle(_ id: String) -> String {
        state.packs.items.first { $0.id == id }?.title ?? id
    }
}
