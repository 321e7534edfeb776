import QiktionaryCore
import Screen

/// The interface's only state change: applies a message and returns the work it needs done.
public func update(_ state: inout AppState, _ message: Message) -> [Effect] {
    switch message {
    case .key(let key):
        state.keyClock = nil
        return handle(key, &state)
    case .pressed(let key, let at):
        state.keyClock = at
        return handle(key, &state)
    case .gameLoaded(let game):
        let wasInPlay = state.board.game?.id == game.id && state.board.game?.game.isFinished == false
        let typing = !state.board.input.isEmpty
        // The first game on the board: the matches follow, for the header's notice and the
        // board of a match game.
        let first = state.board.waitingForGame
        // The same game reloaded (a sync brought a move from the other machine) keeps what
        // the player is typing.
        if state.board.game?.id != game.id {
            forgetTyping(&state)
            state.board.notice = nil
            state.board.noticeTyped = ""
            state.board.wonAt = nil
            state.board.cardScroll = 0
            state.board.guessScroll = 0
        }
        let endingHere = state.board.endingHere == game.id
        state.board.endingHere = nil
        state.board.game = game
        state.board.waitingForGame = false
        if game.game.isFinished {
            state.status = StatusMessage(endLine(game, here: state.device))
            // Ended by a change from elsewhere while in play here: what was being typed is
            // dropped, and the card's keys wait for a deliberate Enter or Esc.
            if wasInPlay && !endingHere {
                noticeEnd(game, typing: typing, &state)
                forgetTyping(&state)
            }
        }
        return first || (wasInPlay && game.game.isFinished && state.boardMatch != nil) ? [.load(.matches)] : []
    case .gameReloaded(let game):
        // A reload asked for before another game took the board (a switch to the other
        // machine's game, queued in the same frame) does not bring the old one back.
        guard state.board.game?.id == game.id else { return [] }
        return update(&state, .gameLoaded(game))
    case .guessPlayed(let played):
        let wasInPlay = state.board.game?.id == played.game.id && state.board.game?.game.isFinished == false
        state.board.game = played.game
        state.board.guessScroll = 0
        forgetTyping(&state)
        let game = played.game
        if game.game.isFinished {
            state.status = StatusMessage(endLine(game, here: state.device))
            if endedBy(played) {
                // The winning Enter: a second press within a moment does not leave the card.
                if game.game.status == .won { state.board.wonAt = state.keyClock }
            } else if wasInPlay {
                // This guess was played as the game ended elsewhere.
                noticeEnd(game, typing: true, &state)
                state.board.noticeTyped = ""
            }
            return [.load(.packs)] + matchReload(state)
        }
        let anagram = played.guess.fullScoreNote(secret: game.game.secret).map { ": \($0)" } ?? ""
        state.status = StatusMessage("\(played.guess.word.uppercased()): \(played.guess.feedback.summary)\(anagram).")
        return matchReload(state)
    case .guessRefused(let input, let reason):
        state.status = StatusMessage("\(input.uppercased()) refused: \(reason).", isError: true)
        // The word stays to be changed: the next letter starts a new one, Backspace edits it.
        if state.board.input == input { state.board.inputRefused = true }
        return []
    case .candidatesLoaded(let gameID, let guesses, let words):
        state.board.candidates = Candidates(gameID: gameID, guesses: guesses, words: words)
    case .hintReady(let game, let hint):
        state.thinking = false
        if state.board.game?.id == game.id { state.board.game = game }
        state.board.hint = ShownHint(gameID: game.id, beforeGuess: game.game.guesses.count, hint: hint)
        state.status = StatusMessage(hintLine(hint, game: game, state))
    case .reviewReady(let game, let review):
        state.thinking = false
        state.review = ShownReview(game: game, review: review)
        state.reviewScroll = 0
    case .challengeCodeLoaded(let gameID, let code):
        state.challengeCodes[gameID] = code
    case .switchedTo(let game):
        state.board.game = game
        forgetTyping(&state)
        state.board.notice = nil
        let count = game.game.guesses.count
        state.status = StatusMessage("Your game from \(game.lastChangedOn) is here: \(count) \(count == 1 ? "guess" : "guesses") so far.")
    case .shareReady(let text):
        if !state.shares.contains(text) { state.shares.append(text) }
        let count = state.shares.count
        state.status = StatusMessage((count == 1 ? "The summary prints" : "The \(count) summaries print")
            + " when you quit (q), and go to the clipboard where the terminal allows.")
    case .packsLoaded(let packs):
        state.packs.show(packs)
    case .assistLoaded(let level):
        state.assist = level
    case .inProgressLoaded(let games):
        state.inProgress.show(games)
    case .readingListLoaded(let list):
        state.readingList.show(list)
    case .historyLoaded(let games):
        state.history.show(games)
    case .statsLoaded(let stats):
        state.stats = stats
    case .matchesLoaded(let matches):
        let before = state.boardMatch?.overview.state.status
        state.matchesProblem = nil
        // The chosen match stays chosen when a new one arrives above it.
        let chosen = state.matches.selected?.state.match.id
        state.matches.show(matches)
        if let index = matches.firstIndex(where: { $0.state.match.id == chosen }) { state.matches.selection = index }
        // The match of the finished game on the board just ended: said, with the key to its end.
        if let board = state.boardMatch, before == .playing, board.overview.state.status == .finished, state.board.notice == nil {
            state.status = StatusMessage("The match is over: \(board.overview.summary). m shows both grids.")
        }
    case .matchesFailed(let reason):
        state.matchesProblem = reason
    case .leaderboardsLoaded(let boards):
        state.leaderboards = boards
    case .achievementsLoaded(let achievements, let current, let best):
        state.achievements = achievements
        state.dailyStreak = DailyStreak(current: current, best: best)
    case .bookmarkChanged(let word, let bookmarked):
        if state.board.game?.game.secret == word, state.board.game?.game.isFinished == true { state.board.game?.bookmarked = bookmarked }
        for i in state.history.items.indices where state.history.items[i].game.secret == word { state.history.items[i].bookmarked = bookmarked }
        state.status = StatusMessage(bookmarked ? "\(word.uppercased()) is on your reading list." : "\(word.uppercased()) is off your reading list.")
        return [.load(.readingList)]
    case .gameDeleted(let id):
        state.history.show(state.history.items.filter { $0.id != id })
        state.status = StatusMessage("Game deleted.")
        return [.load(.stats)]
    case .syncUpdate(let news):
        let before = state.sync
        state.sync = news.state
        if case .synced(let at) = news.state { state.lastSynced = max(at, state.lastSynced ?? at) }
        if news.state == .notPaired {
            offerPairing(wasNotPaired: before == .notPaired, &state)
            return []
        }
        // Paired from the command line meanwhile: the screen that asked for a code closes.
        if case .synced = news.state, let pairing = state.pairing, !pairing.joining {
            state.pairing = nil
            state.status = StatusMessage(pairedLine(state))
        }
        if let note = news.note { state.status = StatusMessage(note, isError: news.isError) }
        var effects = news.changedHere ? reloadShown(state) : []
        if case .synced = news.state, state.justPaired {
            state.justPaired = false
            // The game started here while nothing could sync gives way to the player's game in
            // progress from their other machine, however long ago that was played.
            if let game = state.board.game, !game.game.isFinished, game.game.guesses.isEmpty, game.daily == nil, state.boardMatch == nil {
                effects.removeAll { if case .switchToNewer = $0 { true } else { false } }
                effects.append(.switchToNewer(than: game.id, anyAge: true))
            }
        }
        return effects
    case .paired(let line):
        state.pairing = nil
        state.justPaired = true
        state.status = StatusMessage(line)
    case .pairingRefused(let reason):
        state.pairing?.joining = false
        // The reason as a sentence: capital first, a full stop last.
        let sentence = reason.prefix(1).uppercased() + reason.dropFirst()
        state.pairing?.problem = sentence.hasSuffix(".") ? sentence : sentence + "."
    case .dataChanged:
        return reloadShown(state)
    case .syncedElsewhere(let at):
        // Another process synced this machine: the header's age is the newer of the two, and a
        // round under way here still says so.
        state.lastSynced = max(at, state.lastSynced ?? at)
        switch state.sync {
        case .notYet, .synced: state.sync = .synced(at: state.lastSynced ?? at)
        default: break
        }
    case .cloudWasReset:
        state.sync = .needsAttention
        state.confirmation = .cloudReset
    case .tick(let now):
        state.now = now
    case .failed(let text):
        state.board.waitingForGame = false
        state.thinking = false
        state.status = StatusMessage(text, isError: true)
    }
    return []
}

/// What a change from elsewhere (another machine through sync, another process on this data
/// dir) reloads so it shows at once: the game on the board (finished or not: a guess played
/// there at the same time still appears here) and the lists. A game not yet played gives way to
/// a newer one from elsewhere.
private func reloadShown(_ state: AppState) -> [Effect] {
    var reload: [Effect] = [.load(.packs)]
    if let game = state.board.game {
        reload.append(.reload(gameID: game.id))
        if !game.game.isFinished && game.game.guesses.isEmpty { reload.append(.switchToNewer(than: game.id)) }
    }
    if let list = listShown(state.pane) { reload.append(.load(list)) }
    // The opponent's progress: the Matches screen, the board of a match game, the header's notice.
    if !reload.contains(.load(.matches)) { reload.append(.load(.matches)) }
    return reload
}

/// Whether the guess just played is the one that ended its game.
private func endedBy(_ played: PlayedGuess) -> Bool {
    let game = played.game.game
    switch game.status {
    case .won: return game.winningIndex == played.number - 1
    case .lost: return game.guesses.count == played.number
    default: return false
    }
}

/// The device whose change ended a finished game, when known.
func endingDevice(_ saved: SavedGame) -> String? {
    switch saved.game.status {
    case .won: return saved.foundOn
    case .lost: return saved.guessDevices.last
    default: return saved.lastChangedOn
    }
}

/// The card's notice for a game that ended by a change made elsewhere: it always names the
/// machine (the one whose change ended it, as the game record says, when the guess that won has
/// not arrived yet).
private func noticeEnd(_ saved: SavedGame, typing: Bool, _ state: inout AppState) {
    let place = " on " + (endingDevice(saved) ?? saved.lastChangedOn)
    let what = switch saved.game.status {
    case .won: "Found"
    case .lost: "Out of guesses"
    default: "Given up"
    }
    state.board.notice = what + place + (typing ? " while you were typing" : "")
    state.board.noticeTyped = state.board.input
}

/// The status line of a hint: the word and why, counted only under the coach.
func hintLine(_ hint: Hint, game: SavedGame, _ state: AppState) -> String {
    "Hint: \(hint.word.uppercased())\(state.glyphs.separator)it \(hint.reason(at: game.game.assist))."
}

/// Drops the guess being typed.
func forgetTyping(_ state: inout AppState) {
    state.board.input = ""
    state.board.inputRefused = false
    state.board.inputOverflow = 0
}

/// What the status line says when a game ends. `here` is this machine's name: a word found on
/// another machine says where.
func endLine(_ saved: SavedGame, here: String = "") -> String {
    let game = saved.game
    let word = game.secret.uppercased()
    switch game.status {
    case .won:
        let count = game.guessesUsed
        // Played on two machines, or found on another: where the word was found, so each screen
        // tells the same story.
        let elsewhere = !here.isEmpty && saved.foundOn != nil && saved.foundOn != here
        let place = saved.playedOnSeveralDevices || elsewhere ? saved.foundOn.map { " on \($0)" } ?? "" : ""
        return "You found \(word)\(place) in \(count) \(count == 1 ? "guess" : "guesses"). Score \(game.score)."
    case .lost: return "Out of guesses: the word was \(word)."
    default: return "The word was \(word)."
    }
}

// MARK: Keys

private func handle(_ key: Key, _ state: inout AppState) -> [Effect] {
    if Keys.quit ~= key { return quit(&state) }
    state.status = nil
    if state.pairing != nil { return handlePairing(key, &state) }
    if state.confirmation == .cloudReset {
        state.confirmation = nil
        switch key {
        case Keys.upload:
            state.status = StatusMessage("Uploading this machine's games to the new cloud" + state.glyphs.ellipsis)
            return [.adoptReset(keepLocal: true)]
        case Keys.erase:
            state.status = StatusMessage("Taking the new cloud's games" + state.glyphs.ellipsis)
            return [.adoptReset(keepLocal: false)]
        default:
            state.status = StatusMessage("Sync is paused until you choose: press F5 to be asked again.")
            return []
        }
    }
    if let confirmation = state.confirmation {
        state.confirmation = nil
        guard Keys.yes ~= key else {
            state.status = StatusMessage("Cancelled.")
            return []
        }
        switch confirmation {
        case .giveUp(let id):
            state.board.endingHere = id
            return [.giveUp(gameID: id)]
        case .deleteGame(let id, _): return [.deleteGame(id: id)]
        case .removeBookmark(let word): return [.removeBookmark(word: word)]
        case .cloudReset: return []
        }
    }
    if state.helpOpen { return handleHelp(key, &state) }
    if state.board.notice != nil && state.pane == .guess {
        // The game ended elsewhere: keys meant for the guess never reach the card's commands.
        // Every key but Enter and Esc is swallowed, letters included: none goes to a guess line
        // that can no longer play.
        switch key {
        case Keys.submit, Keys.back:
            // The letters dropped when the notice came were not played: said as it closes.
            let dropped = state.board.noticeTyped.isEmpty ? "" : "\(state.board.noticeTyped.uppercased()) was not played. "
            state.board.notice = nil
            state.board.noticeTyped = ""
            if let game = state.board.game { state.status = StatusMessage(dropped + endLine(game, here: state.device)) }
        default:
            state.status = StatusMessage("This game is over: Enter or Esc to go on.")
        }
        return []
    }
    if state.review != nil { return handleReview(key, &state) }
    if state.codeEntry != nil { return handleCodeEntry(key, &state) }
    if let effects = handleGlobal(key, &state) { return effects }
    switch state.pane {
    case .guess: return handleGuess(key, &state)
    case .notepad: return handleNotepad(key, &state)
    case .packs, .inProgress, .readingList, .history, .stats, .matches, .leaderboard: return updateList(key, &state)
    }
}

func quit(_ state: inout AppState) -> [Effect] {
    state.quitting = true
    return [.quit]
}

/// Keys that mean the same on every screen; nil when the key is the pane's to handle.
private func handleGlobal(_ key: Key, _ state: inout AppState) -> [Effect]? {
    switch key {
    case Keys.help:
        state.helpOpen = true
        state.helpScroll = 0
        return []
    case Keys.sync where state.sync == .notPaired:
        // Nothing syncs before this machine joins: F5 asks for the code again (and syncs, in
        // case it was paired from the command line meanwhile).
        state.pairing = PairingEntry()
        return [.syncNow]
    case Keys.sync:
        state.status = StatusMessage("Syncing" + state.glyphs.ellipsis)
        return [.syncNow]
    case Keys.nextPane:
        let here = Pane.ring.firstIndex(of: state.pane) ?? Pane.ring.firstIndex(of: .packs)!
        return go(to: Pane.ring[(here + 1) % Pane.ring.count], &state)
    case Keys.previousPane:
        let here = Pane.ring.firstIndex(of: state.pane) ?? Pane.ring.firstIndex(of: .inProgress)!
        return go(to: Pane.ring[(here + Pane.ring.count - 1) % Pane.ring.count], &state)
    case Keys.back:
        if closeOpenItem(&state) { return [] }
        if state.pane == .guess { forgetTyping(&state) }
        return go(to: .guess, &state)
    case .character(let c) where Keys.screen ~= key:
        return go(to: Pane.screens[Int(String(c))! - 1], &state)
    case Keys.quitWhenNotTyping where !acceptsLetters(state):
        return quit(&state)
    case Keys.matches where (key == .function(3) || !acceptsLetters(state)) && state.pane != .matches:
        // From the board of a match game: that match, opened.
        let board = state.boardMatch?.overview.state.match.id
        let effects = go(to: .matches, &state)
        if let board, state.pane == .matches, let index = state.matches.items.firstIndex(where: { $0.state.match.id == board }) {
            state.matches.selection = index
            _ = state.matches.openSelected()
        }
        return effects
    case Keys.leaderboard where !acceptsLetters(state) && state.pane != .leaderboard:
        state.leaderboardScroll = 0
        return go(to: .leaderboard, &state)
    default:
        return nil
    }
}

/// Whether letters go to the pane (the guess line of a game in play, or the notepad).
private func acceptsLetters(_ state: AppState) -> Bool {
    switch state.pane {
    case .guess: state.board.game.map { !$0.game.isFinished } ?? false
    case .notepad: true
    default: false
    }
}

/// Moves to a pane and asks for the data it shows.
private func go(to pane: Pane, _ state: inout AppState) -> [Effect] {
    state.pane = pane
    state.history.open = false
    state.matches.open = false
    state.readingList.open = false
    return listShown(pane).map { [.load($0)] } ?? []
}

/// The list a pane shows, if it shows one.
private func listShown(_ pane: Pane) -> ListKind? {
    switch pane {
    case .guess, .notepad: nil
    case .packs: .packs
    case .inProgress: .inProgress
    case .readingList: .readingList
    case .history: .history
    case .stats: .stats
    case .matches: .matches
    case .leaderboard: .leaderboard
    }
}

/// After a move in a match game: the matches again, so the board, the list and the notice follow.
private func matchReload(_ state: AppState) -> [Effect] {
    state.boardMatch == nil ? [] : [.load(.matches)]
}
