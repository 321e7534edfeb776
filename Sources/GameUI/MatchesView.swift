import QiktionaryCore
import Screen

/// A piece of a line drawn in one style.
typealias Segment = (text: String, style: Style)

/// What a player has published of one game, in words: guesses so far while on, never a letter.
func progressText(_ progress: MatchPlay.Progress?) -> String {
    switch progress {
    case nil: return "not started"
    case .playing(let guesses)?: return guesses == 0 ? "started" : guesses == 1 ? "1 guess" : "\(guesses) guesses"
    case .finished(let result)?:
        switch result.status {
        case .won: return "won in \(result.guesses)"
        case .lost: return "lost"
        default: return "gave up"
        }
    }
}

/// "you" for the player looking, else the name.
private func who(_ name: String, _ overview: MatchOverview) -> String { name == overview.viewer ? "you" : name }

/// The header's part for a game of a match: whom against, and which game.
func matchHeader(_ overview: MatchOverview, index: Int) -> String { overview.gameTitle(index: index) }

extension Canvas {
    /// The opponent's progress on the board's game of a match, for the guesses' title.
    var boardMatchLine: String? {
        guard let (overview, index) = state.boardMatch, let opponent = overview.state.match.opponent(of: overview.viewer) else { return nil }
        return "\(opponent): \(progressText(overview.state.progress(of: opponent)[index - 1]))"
    }

    /// The score with the player looking first: "1–0".
    func score(_ overview: MatchOverview) -> String {
        let score = overview.state.score
        let opponent = overview.state.match.opponent(of: overview.viewer) ?? ""
        return "\(score[overview.viewer, default: 0])–\(score[opponent, default: 0])"
    }

    /// The Matches screen: every match, newest first, with what it waits for, the score and the
    /// opponent's progress in each game; under it the selected match game by game. Opened
    /// (Enter on a match that is not waiting on the player), the match whole: both grids.
    mutating func drawMatches(_ area: Rect) {
        let matches = state.matches.items
        let selected = state.matches.selected
        if state.matches.open, let selected {
            drawMatchWhole(selected, area)
            return
        }
        let opponents = matches.map { "vs " + ($0.state.match.opponent(of: $0.viewer) ?? "?") }
        let packs = matches.map { packTitle($0.state.match.pack) }
        let summaries = matches.map { $0.summary }
        let opponentWidth = min(20, opponents.map(\.columns).max() ?? 0)
        let packWidth = min(20, packs.map(\.columns).max() ?? 0)
        let summaryWidth = min(20, summaries.map(\.columns).max() ?? 0)
        let rows = matches.indices.map { i in
            let overview = matches[i]
            let opponent = overview.state.match.opponent(of: overview.viewer) ?? "?"
            let games = overview.state.progress(of: opponent).map(progressText).joined(separator: glyphs.separator)
            let declined = overview.state.status.calledOff
            return [Text.pad(opponents[i], to: opponentWidth), Text.pad(packs[i], to: packWidth), Text.pad(summaries[i], to: summaryWidth),
                    // A finished match's summary already says the score ("you lost 0–3").
                    declined ? "" : overview.state.status == .finished ? Text.pad("", to: score(overview).columns) : score(overview),
                    declined ? "" : "\(opponent): \(games)"].joined(separator: "  ")
        }
        let empty = state.matchesProblem.map { "Matches cannot be shown: \($0)" }
            ?? "No matches yet. Make one with: qiktionary match new --against NAME (a player of your shared folder)."
        drawListScreen(area, title: "Matches", rows: rows, selected: state.matches.selection, empty: empty,
                       detailTitle: selected.map { "vs " + ($0.state.match.opponent(of: $0.viewer) ?? "?") + glyphs.separator + packTitle($0.state.match.pack) },
                       detail: selected.map(matchDetail))
    }

    /// The selected match in a few sentences: its rules, then each game.
    func matchDetail(_ overview: MatchOverview) -> String {
        let state = overview.state, match = state.match
        let opponent = match.opponent(of: overview.viewer) ?? "?"
        let level = match.assist.map { ", help \($0.rawValue)" } ?? ""
        var parts = ["\(match.rules.rawValue), \(match.length) letters\(match.hard ? ", hard" : "")\(level), \(match.maxGuesses) guesses a game, made by \(who(match.createdBy, overview))."]
        for index in Match.games {
            let word = overview.words.indices.contains(index - 1) ? overview.words[index - 1] : nil
            let mine = progressText(state.progress(of: overview.viewer)[index - 1])
            let theirs = progressText(state.progress(of: opponent)[index - 1])
            let winner = state.winner(game: index).map { winner -> String in
                switch winner {
                case .tie: "; a tie"
                case .player(let name): "; \(who(name, overview)) won"
                }
            } ?? ""
            parts.append("Game \(index)\(word.map { " (\($0.uppercased()))" } ?? ""): you: \(mine), \(opponent): \(theirs)\(winner).")
        }
        if let next = state.nextGame(for: overview.viewer) {
            parts.append("Enter plays game \(next).")
        } else if !state.status.calledOff {
            parts.append("Enter shows both grids.")
        }
        return parts.joined(separator: " ")
    }

    /// A match whole: the score and winner, then each game with its word (once both finished it),
    /// its winner and both players' grids side by side; three games across when they fit, else
    /// one under another. Up/Down scroll it.
    mutating func drawMatchWhole(_ overview: MatchOverview, _ area: Rect) {
        let state = overview.state, match = state.match
        let opponent = match.opponent(of: overview.viewer) ?? "?"
        let title = "vs \(opponent)\(glyphs.separator)\(packTitle(match.pack))\(glyphs.separator)\(overview.summary)"
        let inner = box(area, title)
        guard inner.width > 2, inner.height > 0 else { return }
        let players = [overview.viewer, opponent]
        // A column as wide as what it shows: a grid row, a name, how far a player has got or how
        // their game ended, the hints.
        let shown = Match.games.flatMap { index in
            players.map { player in
                state.bothFinished(game: index)
                    ? state.result(of: player, game: index).map { progressText(.finished($0)) } ?? ""
                    : progressText(state.progress(of: player)[index - 1])
            }
        }
        let column = ([match.length + 2, opponent.columns, "you".columns, "9 hints".columns] + shown.map(\.columns)).max() ?? 0
        let blocks = Match.games.map { gameBlock(overview, index: $0, players: players, column: column) }
        // The help level where it fits beside the score (the score first).
        let rules = "\(match.rules.rawValue), \(match.length) letters\(match.hard ? ", hard" : "")"
        let level = match.assist.map { ", help \($0.rawValue)" } ?? ""
        let scoreText = "   you \(score(overview)) \(opponent)"
        let head = (rules + level + scoreText).columns <= inner.width - 2 ? rules + level : rules
        var lines: [[Segment]] = [[(head, .dim), (scoreText, .bold)], []]
        let blockWidth = column * 2 + 2, gap = 3
        if blockWidth * blocks.count + gap * (blocks.count - 1) <= inner.width - 2 {
            // Across: row by row, each game's block padded to its width.
            for row in 0..<(blocks.map(\.count).max() ?? 0) {
                var line: [Segment] = []
                for (b, block) in blocks.enumerated() {
                    let part = row < block.count ? block[row] : []
                    let width = part.map(\.text.columns).reduce(0, +)
                    line += part
                    if b < blocks.count - 1 { line.append((String(repeating: " ", count: max(0, blockWidth - width) + gap), .plain)) }
                }
                lines.append(line)
            }
        } else {
            lines += blocks.joined(separator: [[]])
        }
        if state.status == .playing, let next = state.nextGame(for: overview.viewer) {
            lines += [[], [("Esc back to the list, then Enter plays game \(next).", .dim)]]
        }
        drawScrolled(lines, in: inner, scroll: self.state.matches.scroll)
    }

    /// One game of a match as lines: its number and word, its winner, the players' names, and
    /// both grids (once both finished it) or how far each has got.
    private func gameBlock(_ overview: MatchOverview, index: Int, players: [String], column: Int) -> [[Segment]] {
        let state = overview.state, match = state.match
        let word = overview.words.indices.contains(index - 1) ? overview.words[index - 1] : nil
        var lines: [[Segment]] = [[("Game \(index)" + (word.map { glyphs.separator + $0.uppercased() } ?? ""), .bold)]]
        let verdict: String = switch state.winner(game: index) {
        case .tie?: "a tie"
        case .player(let name)?: name == overview.viewer ? "you won" : "\(name) won"
        case nil where state.status == .declined: "declined"
        case nil where state.status == .cancelled: "cancelled"
        case nil where state.nextGame(for: overview.viewer) == index: "your turn"
        // Neither player has opened the game yet.
        case nil where players.allSatisfy({ state.progress(of: $0)[index - 1] == nil }): "not started"
        case nil: "being played"
        }
        lines.append([(verdict, state.winner(game: index) == .player(overview.viewer) ? Style(color: .green, bold: true) : .plain)])
        lines.append(players.map { (Text.pad(who($0, overview), to: column), Style.dim) }.interspersed(("  ", .plain)))
        let results = players.map { state.result(of: $0, game: index) }
        if state.bothFinished(game: index) {
            let grids = results.map { result in result.map { $0.grid.lines(length: match.length, won: $0.status == .won) } ?? [] }
            for row in 0..<(grids.map(\.count).max() ?? 0) {
                let cells = grids.map { row < $0.count ? gridRow($0[row], width: column) : [(String(repeating: " ", count: column), .plain)] }
                lines.append(Array(cells.interspersed([("  ", .plain)]).joined()))
            }
            // Under each grid its result: a give-up before any guess has no grid at all.
            lines.append(results.map { (Text.pad($0.map { progressText(.finished($0)) } ?? "", to: column), Style.dim) }
                .interspersed(("  ", .plain)))
            if results.contains(where: { ($0?.hints ?? 0) > 0 }) {
                lines.append(results.map { result in
                    (Text.pad(result.map { $0.hints == 0 ? "" : $0.hints == 1 ? "1 hint" : "\($0.hints) hints" } ?? "", to: column), Style.dim)
                }.interspersed(("  ", .plain)))
            }
        } else {
            // Before both have finished, no grid: how far each has got.
            lines.append(players.map { (Text.pad(progressText(state.progress(of: $0)[index - 1]), to: column), Style.plain) }
                .interspersed(("  ", .plain)))
        }
        return lines
    }

    /// A share-style grid row in the terminal's glyphs and colours, padded to `width`.
    private func gridRow(_ line: String, width: Int) -> [Segment] {
        let hit = Style(color: .green, bold: true), near = Style(color: .yellow, bold: true)
        var segments: [Segment] = []
        for character in line {
            switch character {
            case "●": segments.append((String(glyphs.pipInPlace), hit))
            case "○": segments.append((String(glyphs.pipInWord), near))
            case "·": segments.append((String(glyphs.pipMiss), .dim))
            case "✓": segments.append((String(glyphs.check), .bold))
            default: segments.append((String(character), .plain))
            }
        }
        let used = segments.map(\.text.columns).reduce(0, +)
        return segments + [(String(repeating: " ", count: max(0, width - used)), .plain)]
    }

    /// Lines of segments in a box's inside, scrolled; a line too long ends in an ellipsis, and
    /// arrows on the right say more is above or below.
    mutating func drawScrolled(_ lines: [[Segment]], in inner: Rect, scroll wanted: Int) {
        let scroll = min(wanted, max(0, lines.count - inner.height))
        let width = inner.width - 2
        for (row, line) in lines.dropFirst(scroll).prefix(inner.height).enumerated() {
            let y = inner.y + row
            let total = line.map(\.text.columns).reduce(0, +)
            let room = total > width ? width - glyphs.ellipsis.columns : width
            var x = inner.x + 1
            for segment in line where x < inner.x + 1 + room {
                x = buffer.write(segment.text, x: x, y: y, style: segment.style, limit: inner.x + 1 + room - x)
            }
            if total > width { buffer.write(glyphs.ellipsis, x: x, y: y, style: .dim) }
        }
        if scroll > 0 { buffer.write(String(glyphs.arrowUp), x: inner.maxX - 1, y: inner.y, style: .bold) }
        if lines.count - scroll > inner.height { buffer.write(String(glyphs.arrowDown), x: inner.maxX - 1, y: inner.maxY - 1, style: .bold) }
    }
}

extension Array {
    /// The elements with `separator` between each two.
    func interspersed(_ separator: Element) -> [Element] {
        var out: [Element] = []
        for (i, element) in enumerated() {
            if i > 0 { out.append(separator) }
            out.append(element)
        }
        return out
    }
}
