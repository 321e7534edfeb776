import Foundation
import QiktionaryCore
import Screen

/// Draws the whole interface for a terminal of `size`. Pure: the same state and size always
/// give the same buffer.
public func view(_ state: AppState, size: Size) -> ScreenBuffer {
    var buffer = ScreenBuffer(size: size)
    guard size.fits(AppState.minimumSize) else {
        drawTooSmall(size, glyphs: state.glyphs, &buffer)
        return buffer
    }
    var canvas = Canvas(buffer: buffer, state: state)
    var (header, rest) = buffer.bounds.sliceTop(1)
    canvas.drawHeader(header)
    let footer: Rect, statusLine: Rect
    (footer, rest) = rest.sliceBottom(1)
    // A long status (a refusal, what a finished game's keys do) wraps onto up to four lines
    // rather than being cut.
    let statusRows = min(4, max(1, canvas.statusLines(width: size.width).count))
    (statusLine, rest) = rest.sliceBottom(statusRows)
    canvas.drawFooter(footer)
    canvas.drawStatus(statusLine)
    if size.height >= 16 {
        let tabs: Rect
        (tabs, rest) = rest.sliceTop(1)
        canvas.drawTabs(tabs)
    }
    if let pairing = state.pairing {
        canvas.drawPairing(pairing, rest)
    } else if state.helpOpen {
        canvas.drawHelp(rest)
    } else if let review = state.review {
        canvas.drawReview(review, rest)
    } else {
        switch state.pane {
        case .guess, .notepad: canvas.drawGame(rest)
        case .packs: canvas.drawPacks(rest)
        case .inProgress: canvas.drawInProgress(rest)
        case .readingList: canvas.drawReadingList(rest)
        case .history: canvas.drawHistory(rest)
        case .stats: canvas.drawStats(rest)
        case .matches: canvas.drawMatches(rest)
        case .leaderboard: canvas.drawLeaderboard(rest)
        }
    }
    // Outside UTF-8 the terminal cannot show what the screens' texts hold beyond ASCII (a
    // match's 1–1, a fact's accents): each such character is drawn as its stand-in.
    if state.glyphs == .ascii { canvas.buffer.makeASCII() }
    return canvas.buffer
}

private func drawTooSmall(_ size: Size, glyphs: Glyphs, _ buffer: inout ScreenBuffer) {
    let minimum = AppState.minimumSize
    let times = glyphs == .ascii ? "x" : "×"
    let lines = Text.wrap("terminal too small (needs \(minimum.width)\(times)\(minimum.height))", width: size.width)
        + Text.wrap("now \(size.width)\(times)\(size.height): enlarge the window, or Ctrl-C to quit", width: size.width)
    let top = max(0, (size.height - lines.count) / 2)
    for (i, line) in lines.enumerated() {
        buffer.write(line, in: Rect(x: 0, y: top + i, width: size.width, height: 1), style: i == 0 ? .bold : .plain, align: .center)
    }
}

/// A buffer being drawn for one state: the shared pieces of every screen.
struct Canvas {
    var buffer: ScreenBuffer
    let state: AppState
    var glyphs: Glyphs { state.glyphs }
    var arrows: String { "\(glyphs.arrowUp)\(glyphs.arrowDown)" }

    mutating func box(_ rect: Rect, _ title: String?) -> Rect {
        buffer.drawBox(rect, title: title, glyphs: glyphs)
    }

    /// Writes `text` in at most `limit` columns, ending in an ellipsis when it is cut (nothing is
    /// cut without a sign). Returns the column after the last one written.
    @discardableResult
    mutating func writeCut(_ text: String, x: Int, y: Int, style: Style = .plain, limit: Int) -> Int {
        buffer.write(Text.truncate(text, to: max(0, limit), ellipsis: glyphs.ellipsis), x: x, y: y, style: style, limit: limit)
    }

    /// The top line: the game, its pack and rules on the left; sync and the device that last
    /// changed the game on the right. When it does not fit, the least useful parts go first.
    mutating func drawHeader(_ rect: Rect) {
        buffer.fill(rect, style: .reverse)
        // (text, rank): a higher rank is dropped sooner.
        var left: [(String, Int)] = [("qiktionary", 3)]
        var right: [(String, Int)] = [(state.syncText, 0)]
        var packShort: String?, packText: String?
        // Shorter forms, taken before anything of rank 1 or less goes.
        var shorts: [String: String] = [:]
        if let saved = state.board.game {
            let game = saved.game
            let daily: String? = saved.daily.map { date in DailyWord.number(date: date).map { "daily word #\($0) \(date)" } ?? "daily word \(date)" }
            let progress: String? = state.currentPack.map { "\($0.title) \($0.solved)/\($0.words) solved" }
            let match = state.boardMatch
            let pack = daily ?? (match != nil ? state.currentPack?.title : progress) ?? (saved.isPractice ? "practice" : game.packID)
            // The pack's name is never dropped: its progress goes first, then the rest.
            packShort = match == nil && daily == nil ? state.currentPack?.title : nil
            packText = pack
            left.append((pack, 0))
            // A match's game after its pack: "match vs ben, game 1 of 3", else "vs ben 1/3".
            if let match, let opponent = match.overview.state.match.opponent(of: match.overview.viewer) {
                let title = matchHeader(match.overview, index: match.index)
                left.append((title, 1))
                shorts[title] = "vs \(opponent) \(match.index)/\(Match.games.count)"
            }
            left.append(("\(game.rules.rawValue), \(game.length) letters\(game.hard ? ", hard" : "")", 2))
            right.append(("last change: \(saved.lastChangedOn)", 2))
        }
        // A match waiting on the player: said before anything but the sync.
        if let waiting = state.matchWaiting, let opponent = waiting.state.match.opponent(of: waiting.viewer) {
            // With the key that opens the Matches screen from anywhere, the guess line included.
            right.insert(("your turn in a match vs \(opponent) (F3)", 1), at: 0)
            shorts["your turn in a match vs \(opponent) (F3)"] = "your turn: F3"
        }
        let separator = glyphs.separator
        func width() -> Int { (left + right).map(\.0.columns).reduce(0, +) + separator.columns * (left.count + right.count - 2) + 4 }
        while width() > rect.width, let rank = (left + right).map(\.1).filter({ $0 > 0 }).max() {
            // Before the match notice goes: the pack without its progress, the notice shorter.
            if rank <= 1, let short = packShort, let i = left.firstIndex(where: { $0.0 == packText }) {
                left[i].0 = short
                packShort = nil
                continue
            }
            if rank <= 1, let i = right.firstIndex(where: { shorts[$0.0] != nil }) {
                right[i].0 = shorts.removeValue(forKey: right[i].0)!
                continue
            }
            if rank <= 1, let i = left.firstIndex(where: { shorts[$0.0] != nil }) {
                left[i].0 = shorts.removeValue(forKey: left[i].0)!
                continue
            }
            if let i = left.lastIndex(where: { $0.1 == rank }) { left.remove(at: i) } else if let i = right.lastIndex(where: { $0.1 == rank }) { right.remove(at: i) }
        }
        if width() > rect.width, let short = packShort, let i = left.firstIndex(where: { $0.0 == packText }) { left[i].0 = short }
        let rightText = right.map(\.0).joined(separator: separator) + " "
        let leftText = " " + left.map(\.0).joined(separator: separator)
        writeCut(leftText, x: rect.x, y: rect.y, style: Style(bold: true, reverse: true), limit: rect.width - rightText.columns - 1)
        buffer.write(rightText, x: rect.maxX - rightText.columns, y: rect.y, style: .reverse)
    }

    /// The tab bar: each screen's number and name, as long as fits: the names in full and
    /// spaced, then shortened ("In progress" → "Playing"), then closer together; never the bare
    /// numbers.
    mutating func drawTabs(_ rect: Rect) {
        let current = state.helpOpen ? nil : Pane.screens.first { $0.screenTitle == state.pane.screenTitle }
        // Help, or a screen off the bar: its name after the numbers.
        let offTitle = state.helpOpen ? "Help" : current == nil ? state.pane.screenTitle : nil
        let layouts: [(names: [String], pad: String)] = [
            (Pane.screens.map(\.screenTitle), " "), (Pane.screens.map(\.shortTitle), " "), (Pane.screens.map(\.shortTitle), ""),
        ]
        func labels(_ layout: (names: [String], pad: String)) -> [String] {
            layout.names.enumerated().map { "\(layout.pad)\($0.offset + 1) \($0.element)\(layout.pad)" }
        }
        func off(_ pad: String) -> String { offTitle.map { "\(pad)\($0)\(pad)" } ?? "" }
        let chosen = layouts.first { labels($0).joined(separator: $0.pad.isEmpty ? " " : "").columns + off($0.pad).columns + 2 <= rect.width }
            ?? layouts[layouts.count - 1]
        var x = rect.x + 1
        for (pane, label) in zip(Pane.screens, labels(chosen)) {
            x = buffer.write(label, x: x, y: rect.y, style: pane == current ? Style(bold: true, reverse: true) : .plain, limit: rect.maxX - x)
            if chosen.pad.isEmpty { x += 1 }
        }
        if offTitle != nil { buffer.write(off(chosen.pad), x: x, y: rect.y, style: Style(bold: true, reverse: true), limit: rect.maxX - x) }
    }

    /// The keys that matter on this screen, key in bold, as many as fit.
    mutating func drawFooter(_ rect: Rect) {
        var x = rect.x + 1
        for (key, label) in footerKeys {
            let width = key.columns + 1 + label.columns
            if x + width > rect.maxX { break }
            x = buffer.write(key, x: x, y: rect.y, style: .bold)
            x = buffer.write(" " + label + "  ", x: x, y: rect.y, style: .dim)
        }
    }

    var footerKeys: [(String, String)] {
        /// A row of the key table as the footer shows it, with this screen's label when it has one.
        func key(_ binding: KeyBinding, _ label: String? = nil) -> (String, String) { (binding.footerKey ?? arrows, label ?? binding.footerLabel) }
        if state.pairing != nil { return [key(Keys.join), key(Keys.pairLater)] }
        if state.confirmation == .cloudReset { return [key(Keys.upload), key(Keys.erase), key(Keys.back, "later")] }
        if state.confirmation != nil { return [key(Keys.yes), key(Keys.no)] }
        if state.codeEntry != nil { return [key(Keys.playCode), key(Keys.back, "cancel")] }
        if state.helpOpen || state.review != nil { return [key(Keys.back), key(Keys.scrollUp), key(Keys.quit)] }
        let common = [key(Keys.nextPane), key(Keys.help), key(Keys.quit)]
        switch state.pane {
        case .guess:
            if state.board.game?.game.isFinished ?? true {
                return [key(Keys.nextGame), key(Keys.bookmark), key(Keys.review), key(Keys.share), key(Keys.nextHardGame)] + common
            }
            // F1 before the rest: where the Rules box does not fit, the help screen has the rules.
            return [key(Keys.submit), key(Keys.nextPane, "notepad"), key(Keys.hint), key(Keys.help), key(Keys.giveUp), key(Keys.newGame),
                    key(Keys.daily), key(Keys.quit)]
        case .notepad:
            return [key(Keys.cycleMark), key(Keys.markOut), key(Keys.markIn), key(Keys.backToGuess)] + common
        case .packs:
            // The screens off the tab bar are found here; the arrows and Tab are in the help.
            return [key(Keys.open), key(Keys.playHard), key(Keys.helpLevel), key(Keys.packChallenge), key(Keys.matches), key(Keys.leaderboard),
                    key(Keys.help), key(Keys.quit)]
        case .inProgress: return [key(Keys.open, "resume"), key(Keys.up)] + common
        case .readingList:
            if state.readingList.open { return [key(Keys.open, "close"), key(Keys.scrollUp)] + common }
            return [key(Keys.open, "open"), key(Keys.up, "choose"), key(Keys.delete, "remove (asks)")] + common
        case .history:
            // Open: PgUp/PgDn scroll its card, named before the rest where the card is cut.
            if state.history.open { return [key(Keys.open, "close"), ("PgDn", "the card"), key(Keys.historyReview), key(Keys.historyBookmark), key(Keys.delete)] + common }
            return [key(Keys.open, "open"), key(Keys.historyReview), key(Keys.historyBookmark), key(Keys.delete)] + common
        case .stats: return [key(Keys.screen), key(Keys.sync)] + common
        case .matches:
            if state.matches.open { return [key(Keys.back), key(Keys.scrollUp), key(Keys.leaderboard)] + common }
            let mine = state.matches.selected.map { $0.state.nextGame(for: $0.viewer) != nil } ?? false
            return [key(Keys.open, mine ? "play" : "open"), key(Keys.up), key(Keys.leaderboard)] + common
        case .leaderboard: return [key(Keys.scrollUp), key(Keys.matches), key(Keys.screen), key(Keys.sync)] + common
        }
    }

    /// What the status line says, and its style.
    var statusText: (String, Style)? {
        if let confirmation = state.confirmation { return (confirmation.question, Style(color: .yellow, bold: true)) }
        if let code = state.codeEntry { return ("Challenge code: \(code)_   (Enter plays it, Esc cancels)", Style(color: .yellow, bold: true)) }
        if state.thinking { return ("Thinking" + glyphs.ellipsis, Style(color: .cyan)) }
        if let status = state.status { return (status.text, status.isError ? Style(color: .red, bold: true) : Style(color: .cyan)) }
        return nil
    }

    /// The status wrapped to the screen's width, a space in from the left.
    func statusLines(width: Int) -> [String] {
        guard let (text, _) = statusText else { return [] }
        return text.columns <= width - 2 ? [text] : Text.wrap(text, width: max(1, width - 2))
    }

    mutating func drawStatus(_ rect: Rect) {
        guard let (_, style) = statusText else { return }
        let lines = statusLines(width: rect.width)
        for (i, line) in lines.prefix(rect.height).enumerated() {
            let last = i == rect.height - 1 && lines.count > rect.height
            buffer.write(" " + (last ? Text.truncate(line + " " + glyphs.ellipsis, to: rect.width - 2, ellipsis: glyphs.ellipsis) : line),
                         in: rect.row(i), style: style)
        }
    }

    /// A centred note for a screen with nothing to show yet.
    mutating func drawEmpty(_ rect: Rect, _ text: String) {
        let lines = Text.wrap(text, width: max(1, rect.width - 4))
        let top = rect.y + max(0, (rect.height - lines.count) / 2)
        for (i, line) in lines.enumerated() where top + i < rect.maxY {
            buffer.write(line, in: Rect(x: rect.x, y: top + i, width: rect.width, height: 1), style: .dim, align: .center)
        }
    }
}
