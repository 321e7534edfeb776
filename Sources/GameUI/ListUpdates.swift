import QiktionaryCore
import Screen

// The keys of each list screen, one update per screen, each on its own model (`ListModel`, or
// the scroll of Stats and Leaderboard); `update` hands a key here once no global key took it.

/// The screen's own update for a key.
func updateList(_ key: Key, _ state: inout AppState) -> [Effect] {
    switch state.pane {
    case .packs: return updatePacks(key, &state)
    case .inProgress: return updateInProgress(key, &state)
    case .readingList: return updateReadingList(key, &state)
    case .history: return updateHistory(key, &state)
    case .matches: return updateMatches(key, &state)
    case .stats:
        updateStats(key, &state)
        return []
    case .leaderboard:
        updateLeaderboard(key, &state.leaderboardScroll)
        return []
    default: return []
    }
}

/// Back (Esc) on a screen showing its chosen item whole closes it; false when none is open.
func closeOpenItem(_ state: inout AppState) -> Bool {
    switch state.pane {
    case .history where state.history.open: state.history.open = false
    case .matches where state.matches.open: state.matches.open = false
    case .readingList where state.readingList.open: state.readingList.open = false
    default: return false
    }
    return true
}

/// Packs: Enter (or h, hard) plays the chosen pack; c enters a challenge code; a cycles the help level.
private func updatePacks(_ key: Key, _ state: inout AppState) -> [Effect] {
    if Keys.packChallenge ~= key {
        state.codeEntry = ""
        return []
    }
    if Keys.helpLevel ~= key {
        let next = state.assist.next
        state.status = StatusMessage("Help for your next games: \(next.summary).")
        return [.chooseAssist(next)]
    }
    if Keys.open ~= key || Keys.playHard ~= key, let pack = state.packs.selected {
        state.pane = .guess
        return [.newGame(packID: pack.id, hard: Keys.playHard ~= key)]
    }
    state.packs.move(key)
    return []
}

/// In progress: Enter resumes the chosen game.
private func updateInProgress(_ key: Key, _ state: inout AppState) -> [Effect] {
    if Keys.open ~= key, let game = state.inProgress.selected {
        state.pane = .guess
        return [.resume(gameID: game.id)]
    }
    state.inProgress.move(key)
    return []
}

/// Reading list: Enter shows the chosen fact on the whole screen (Up/Down scroll it, Enter
/// closes it); Delete asks to take the word off the list.
private func updateReadingList(_ key: Key, _ state: inout AppState) -> [Effect] {
    if state.readingList.open {
        if Keys.open ~= key { state.readingList.open = false } else { state.readingList.scrollOpen(key, page: 0) }
        return []
    }
    if Keys.open ~= key {
        _ = state.readingList.openSelected()
        return []
    }
    if Keys.delete ~= key, let bookmark = state.readingList.selected {
        state.confirmation = .removeBookmark(word: bookmark.word)
        return []
    }
    state.readingList.move(key)
    return []
}

/// Matches: Enter plays the chosen match's next game when it is the player's turn, else shows
/// the match whole (Up/Down and PgUp/PgDn scroll it, Enter closes it).
private func updateMatches(_ key: Key, _ state: inout AppState) -> [Effect] {
    guard let overview = state.matches.selected else { return [] }
    if state.matches.open {
        if Keys.open ~= key { state.matches.open = false } else { state.matches.scrollOpen(key, page: 10) }
        return []
    }
    if Keys.open ~= key {
        // The player's turn: the next game of the match, on the board. Otherwise the match whole.
        if overview.state.nextGame(for: overview.viewer) != nil {
            state.pane = .guess
            return [.beginMatch(matchID: overview.state.match.id), .load(.matches)]
        }
        _ = state.matches.openSelected()
        return []
    }
    state.matches.move(key)
    return []
}

/// History: Enter opens or closes the chosen game's board and fact (its card scrolled by
/// PgUp/PgDn when it does not fit, Up/Down still choosing the game); b bookmarks, r reviews,
/// Delete asks to delete the game.
private func updateHistory(_ key: Key, _ state: inout AppState) -> [Effect] {
    guard let game = state.history.selected else { return [] }
    switch key {
    case Keys.open:
        state.history.open.toggle()
        state.history.scroll = 0
    case Keys.historyBookmark: return toggleBookmark(game)
    case Keys.historyReview: return askReview(game, &state)
    case Keys.delete: state.confirmation = .deleteGame(id: game.id, word: game.game.secret)
    case Keys.pageUp where state.history.open: state.history.scroll = max(0, state.history.scroll - 3)
    case Keys.pageDown where state.history.open: state.history.scroll += 3
    default:
        state.history.move(key)
        state.history.scroll = 0
    }
    return []
}

/// Stats: the achievements scroll, never past the last.
private func updateStats(_ key: Key, _ state: inout AppState) {
    let last = max(0, state.achievements.count - 1)
    switch key {
    case Keys.up: state.statsScroll = max(0, state.statsScroll - 1)
    case Keys.down: state.statsScroll = min(state.statsScroll + 1, last)
    case Keys.pageUp: state.statsScroll = max(0, state.statsScroll - 10)
    case Keys.pageDown: state.statsScroll = min(state.statsScroll + 10, last)
    default: break
    }
}

/// Leaderboard: the boards scroll; Home goes back to their top.
private func updateLeaderboard(_ key: Key, _ scroll: inout Int) {
    switch key {
    case Keys.up: scroll = max(0, scroll - 1)
    case Keys.down: scroll += 1
    case Keys.pageUp: scroll = max(0, scroll - 10)
    case Keys.pageDown: scroll += 10
    case Keys.first: scroll = 0
    default: break
    }
}
