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
        let wasInPlay = state.game?.id == game.id && state.game?.game.isFinished == false
        let typing = !state.input.isEmpty
        // The first game on the board: the matches follow, for the header's notice and the
        // board of a match game.
        let first = state.waitingForGame
        // The same game reloaded (a sync brought a move from the other machine) keeps what
        // the player is typing.
        if state.game?.id != game.id {
            forgetTyping(&state)
            state.notice = nil
            state.noticeTyped = ""
            state.wonAt = nil
            state.cardScroll = 0
            state.boardScroll = 0
        }
        let endingHere = state.endingHere == game.id
        state.endingHere = nil
        state.game = game
        state.waitingForGame = false
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
        guard state.game?.id == game.id else { return [] }
        return update(&state, .gameLoaded(game))
    case .guessPlayed(let played):
        let wasInPlay = state.game?.id == played.game.id && state.game?.game.isFinished == false
        state.game = played.game
        state.boardScroll = 0
        forgetTyping(&state)
        let game = played.game
        if game.game.isFinished {
            state.status = StatusMessage(endLine(game, here: state.device))
            if endedBy(played) {
                // The winning Enter: a second press within a moment does not leave the card.
                if game.game.status == .won { state.wonAt = state.keyClock }
            } else if wasInPlay {
                // This guess was played as the game ended elsewhere.
                noticeEnd(game, typing: true, &state)
                state.noticeTyped = ""
            }
            return [.load(.packs)] + matchReload(state)
        }
        let anagram = played.guess.fullScoreNote(secret: game.game.secret).map { ": \($0)" } ?? ""
        state.status = StatusMessage("\(played.guess.word.uppercased()): \(played.guess.feedback.summary)\(anagram).")
        return matchReload(state)
    case .guessRefused(let input, let reason):
        state.status = StatusMessage("\(input.uppercased()) refused: \(reason).", isError: true)
        // The word stays to be changed: the next letter starts a new one, Backspace edits it.
        if state.input == input { state.inputRefused = true }
        return []
    case .candidatesLoaded(let gameID, let guesses, let words):
        state.candidates = Candidates(gameID: gameID, guesses: guesses, words: words)
    case .hintReady(let game, let hint):
        state.thinking = false
        if state.game?.id == game.id { state.game = game }
        state.hint = ShownHint(gameID: game.id, beforeGuess: game.game.guesses.count, hint: hint)
        state.status = StatusMessage(hintLine(hint, game: game, state))
    case .reviewReady(let game, let review):
        state.thinking = false
        state.review = ShownReview(game: game, review: review)
        state.reviewScroll = 0
    case .challengeCodeLoaded(let gameID, let code):
        state.challengeCodes[gameID] = code
    case .switchedTo(let game):
        state.game = game
        forgetTyping(&state)
        state.notice = nil
        let count = game.game.guesses.count
        state.status = StatusMessage("Your game from \(game.lastChangedOn) is here: \(count) \(count == 1 ? "guess" : "guesses") so far.")
    case .shareReady(let text):
        if !state.shares.contains(text) { state.shares.append(text) }
        let count = state.shares.count
        state.status = StatusMessage((count == 1 ? "The summary prints" : "The \(count) summaries print")
            + " when you quit (q), and go to the clipboard where the terminal allows.")
    case .packsLoaded(let packs):
        show(packs, in: &state.packs, selection: &state.packSelection)
    case .assistLoaded(let level):
        state.assist = level
    case .inProgressLoaded(let games):
        show(games, in: &state.inProgress, selection: &state.inProgressSelection)
    case .readingListLoaded(let list):
        show(list, in: &state.readingList, selection: &state.readingSelection)
        if list.isEmpty { state.readingOpen = false }
    case .historyLoaded(let games):
        show(games, in: &state.history, selection: &state.historySelection)
        if games.isEmpty { state.historyOpen = false }
    case .statsLoaded(let stats):
        state.stats = stats
    case .matchesLoaded(let matches):
        let before = state.boardMatch?.overview.state.status
        state.matchesProblem = nil
        // The chosen match stays chosen when a new one arrives above it.
        let chosen = state.matches.indices.contains(state.matchSelection) ? state.matches[state.matchSelection].state.match.id : nil
        show(matches, in: &state.matches, selection: &state.matchSelection)
        if let index = matches.firstIndex(where: { $0.state.match.id == chosen }) { state.matchSelection = index }
        if state.matches.isEmpty { state.matchOpen = false }
        // The match of the finished game on the board just ended: said, with the key to its end.
        if let board = state.boardMatch, before == .playing, board.overview.state.status == .finished, state.notice == nil {
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
        if state.game?.game.secret == word, state.game?.game.isFinished == true { state.game?.bookmarked = bookmarked }
        for i in state.history.indices where state.history[i].game.secret == word { state.history[i].bookmarked = bookmarked }
        state.status = StatusMessage(bookmarked ? "\(word.uppercased()) is on your reading list." : "\(word.uppercased()) is off your reading list.")
        return [.load(.readingList)]
    case .gameDeleted(let id):
        state.history.removeAll { $0.id == id }
        state.historySelection = clamp(state.historySelection, state.history.count)
        if state.history.isEmpty { state.historyOpen = false }
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
            if let game = state.game, !game.game.isFinished, game.game.guesses.isEmpty, game.daily == nil, state.boardMatch == nil {
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
        state.waitingForGame = false
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
    if let game = state.game {
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
    state.notice = what + place + (typing ? " while you were typing" : "")
    state.noticeTyped = state.input
}

/// The status line of a hint: the word and why, counted only under the coach.
private func hintLine(_ hint: Hint, game: SavedGame, _ state: AppState) -> String {
    "Hint: \(hint.word.uppercased())\(state.glyphs.separator)it \(hint.reason(at: game.game.assist))."
}

/// Drops the guess being typed.
private func forgetTyping(_ state: inout AppState) {
    state.input = ""
    state.inputRefused = false
    state.inputOverflow = 0
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

private func clamp(_ index: Int, _ count: Int) -> Int { max(0, min(index, count - 1)) }

/// A list loaded: it takes the shown one's place, and the selection stays within it.
private func show<Item>(_ items: [Item], in list: inout [Item], selection: inout Int) {
    list = items
    selection = clamp(selection, items.count)
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
            state.endingHere = id
            return [.giveUp(gameID: id)]
        case .deleteGame(let id, _): return [.deleteGame(id: id)]
        case .removeBookmark(let word): return [.removeBookmark(word: word)]
        case .cloudReset: return []
        }
    }
    if state.helpOpen { return handleHelp(key, &state) }
    if state.notice != nil && state.pane == .guess {
        // The game ended elsewhere: keys meant for the guess never reach the card's commands.
        // Every key but Enter and Esc is swallowed, letters included: none goes to a guess line
        // that can no longer play.
        switch key {
        case Keys.submit, Keys.back:
            // The letters dropped when the notice came were not played: said as it closes.
            let dropped = state.noticeTyped.isEmpty ? "" : "\(state.noticeTyped.uppercased()) was not played. "
            state.notice = nil
            state.noticeTyped = ""
            if let game = state.game { state.status = StatusMessage(dropped + endLine(game, here: state.device)) }
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
    case .packs, .inProgress, .readingList, .history, .stats, .matches, .leaderboard: return handleList(key, &state)
    }
}

private func quit(_ state: inout AppState) -> [Effect] {
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
        if state.pane == .history && state.historyOpen {
            state.historyOpen = false
            return []
        }
        if state.pane == .matches && state.matchOpen {
            state.matchOpen = false
            return []
        }
        if state.pane == .readingList && state.readingOpen {
            state.readingOpen = false
            return []
        }
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
        if let board, state.pane == .matches, let index = state.matches.firstIndex(where: { $0.state.match.id == board }) {
            state.matchSelection = index
            state.matchOpen = true
            state.matchScroll = 0
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
    case .guess: state.game.map { !$0.game.isFinished } ?? false
    case .notepad: true
    default: false
    }
}

/// Moves to a pane and asks for the data it shows.
private func go(to pane: Pane, _ state: inout AppState) -> [Effect] {
    state.pane = pane
    state.historyOpen = false
    state.matchOpen = false
    state.readingOpen = false
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

private func handleHelp(_ key: Key, _ state: inout AppState) -> [Effect] {
    switch key {
    case Keys.scrollUp: state.helpScroll = max(0, state.helpScroll - 1)
    case Keys.scrollDown: state.helpScroll += 1
    case Keys.pageUp: state.helpScroll = max(0, state.helpScroll - 10)
    case Keys.pageDown: state.helpScroll += 10
    case Keys.quitHelp: return quit(&state)
    default: state.helpOpen = false
    }
    return []
}

/// The review covers the screen: arrows scroll it, any other key closes it.
private func handleReview(_ key: Key, _ state: inout AppState) -> [Effect] {
    switch key {
    case Keys.up: state.reviewScroll = max(0, state.reviewScroll - 1)
    case Keys.down: state.reviewScroll += 1
    default:
        state.review = nil
        state.reviewScroll = 0
    }
    return []
}

/// A challenge code typed on the status line: letters and digits, Enter plays it, Esc cancels.
private func handleCodeEntry(_ key: Key, _ state: inout AppState) -> [Effect] {
    let code = state.codeEntry ?? ""
    switch key {
    case .character(let c) where Keys.codeCharacter ~= key:
        if code.count < 16 { state.codeEntry = code + c.uppercased() }
    case Keys.codeSeparator:
        break
    case Keys.codeErase:
        state.codeEntry = String(code.dropLast())
    case Keys.playCode:
        state.codeEntry = nil
        if code.isEmpty { return [] }
        state.pane = .guess
        return [.challenge(code: code)]
    case Keys.back:
        state.codeEntry = nil
        state.status = StatusMessage("Cancelled.")
    default:
        break
    }
    return []
}

/// Sync found this machine not one of its player's machines: the pairing screen opens, the
/// first time only; after it was closed the header says so and F5 opens it again.
private func offerPairing(wasNotPaired: Bool, _ state: inout AppState) {
    if !state.pairingOffered {
        state.pairingOffered = true
        state.pairing = PairingEntry()
    } else if state.pairing == nil && !wasNotPaired {
        state.status = StatusMessage(notPairedLine(state), isError: true)
    }
}

private func notPairedLine(_ state: AppState) -> String {
    "Not one of \(playerName(state))'s machines yet: your games stay here. F5 to type a pairing code."
}

private func pairedLine(_ state: AppState) -> String {
    "This machine is one of \(playerName(state))'s machines now: your games sync."
}

private func playerName(_ state: AppState) -> String { state.player.isEmpty ? "your" : state.player }

/// The pairing screen: letters and digits make the code (dashes and spaces are skipped, as
/// `devices add` groups it), Enter joins, Esc closes it and the game goes on here alone.
private func handlePairing(_ key: Key, _ state: inout AppState) -> [Effect] {
    guard var entry = state.pairing, !entry.joining else { return [] }
    entry.problem = nil
    switch key {
    case .character(let c) where Keys.pairCharacter ~= key:
        if entry.code.count < PairingEntry.length { entry.code.append(contentsOf: c.uppercased()) }
    case Keys.codeErase:
        entry.code = String(entry.code.dropLast())
    case Keys.clearGuess:
        entry.code = ""
    case Keys.join:
        guard entry.code.count == PairingEntry.length else {
            entry.problem = "A pairing code is \(PairingEntry.length) letters and digits; \(entry.code.count) typed."
            break
        }
        entry.joining = true
        state.pairing = entry
        return [.joinDevices(code: entry.grouped)]
    case Keys.pairLater:
        state.pairing = nil
        state.status = StatusMessage(notPairedLine(state))
        return []
    default:
        break
    }
    state.pairing = entry
    return []
}

/// Asks the coach for a review of a finished game.
private func askReview(_ saved: SavedGame, _ state: inout AppState) -> [Effect] {
    state.thinking = true
    return [.review(gameID: saved.id)]
}

private func handleGuess(_ key: Key, _ state: inout AppState) -> [Effect] {
    guard let saved = state.game else {
        if Keys.nextGame ~= key { return [.newGame(packID: nil)] }
        return []
    }
    let game = saved.game
    if Keys.newGame ~= key {
        return [.newGame(packID: game.packID)]
    }
    if Keys.daily ~= key { return [.daily] }
    if game.isFinished {
        // A key that leaves the card within a moment of the winning Enter is the rest of a double
        // press: the card stays.
        if Keys.nextGame ~= key || Keys.nextHardGame ~= key, let wonAt = state.wonAt, let now = state.keyClock,
           now - wonAt < AppState.winGrace { return [] }
        switch key {
        case Keys.cardUp:
            state.cardScroll = max(0, state.cardScroll - (key == .up ? 1 : 5))
            return []
        case Keys.cardDown:
            state.cardScroll += key == .down ? 1 : 5
            return []
        case Keys.nextGame:
            // A game of a match: the player's next game of that match, while there is one.
            if let board = state.boardMatch, board.overview.state.nextGame(for: board.overview.viewer) != nil {
                return [.beginMatch(matchID: board.overview.state.match.id), .load(.matches)]
            }
            return [.newGame(packID: game.packID)]
        case Keys.nextHardGame: return [.newGame(packID: game.packID, hard: true)]
        case Keys.bookmark: return toggleBookmark(saved)
        case Keys.review: return askReview(saved, &state)
        case Keys.share: return [.share(gameID: saved.id)]
        case Keys.challengeCode:
            state.codeEntry = ""
            return []
        default:
            state.status = StatusMessage("This game is over: n for the next game, h for a hard one, b to bookmark the fact, r to review it, s to share it.")
            return []
        }
    }
    switch key {
    case Keys.cardUp:
        // Older guesses, when they do not all fit (the view keeps the scroll within them).
        state.boardScroll = min(state.boardScroll + (key == .up ? 1 : 5), max(0, game.guesses.count - 1))
    case Keys.cardDown:
        state.boardScroll = max(0, state.boardScroll - (key == .down ? 1 : 5))
    case .character(let c) where Keys.typeLetter ~= key:
        if state.inputRefused { forgetTyping(&state) }
        if state.input.count < game.length && state.inputOverflow == 0 {
            state.input.append(Character(c.lowercased()))
        } else {
            state.inputOverflow += 1
            state.status = StatusMessage(overflowLine(state, game: game), isError: true)
        }
    case Keys.deleteLetter:
        // Ctrl-H is what many terminals send for Backspace. Letters typed past the end go first.
        if state.inputOverflow > 0 {
            state.inputOverflow -= 1
            state.status = state.inputOverflow > 0 ? StatusMessage(overflowLine(state, game: game), isError: true) : nil
        } else if !state.input.isEmpty {
            state.input.removeLast()
        }
        state.inputRefused = false
    case Keys.clearGuess:
        forgetTyping(&state)
    case Keys.submit:
        if state.input.isEmpty {
            state.status = StatusMessage("Type a \(game.length)-letter word, then Enter.")
            return []
        }
        if state.inputRefused {
            state.status = StatusMessage("\(state.input.uppercased()) was refused: type another word, or Backspace to change it.", isError: true)
            return []
        }
        if state.inputOverflow > 0 {
            state.status = StatusMessage(overflowLine(state, game: game), isError: true)
            return []
        }
        return [.guess(state.input, gameID: game.id)]
    case Keys.giveUp:
        state.confirmation = .giveUp(gameID: game.id)
    case Keys.hint:
        if state.thinking { return [] }
        if let hint = state.currentHint {
            state.status = StatusMessage(hintLine(hint, game: saved, state))
            return []
        }
        state.thinking = true
        return [.hint(gameID: game.id)]
    case .character(let c):
        state.status = StatusMessage("'\(c)' is not a letter: guesses use a to z. F1 shows every key.", isError: true)
    default:
        break
    }
    return []
}

/// What the status line says while letters typed past the word's length wait to be taken off.
private func overflowLine(_ state: AppState, game: Game) -> String {
    let typed = state.input.count + state.inputOverflow
    return "\(typed) letters typed; the word has \(game.length): Backspace takes off the extra \(state.inputOverflow == 1 ? "one" : "\(state.inputOverflow)"), Ctrl-U clears."
}

private func toggleBookmark(_ saved: SavedGame) -> [Effect] {
    saved.bookmarked ? [.removeBookmark(word: saved.game.secret)] : [.bookmark(gameID: saved.id)]
}

private func handleNotepad(_ key: Key, _ state: inout AppState) -> [Effect] {
    let count = Notepad.alphabet.count, columns = AppState.notepadColumns
    let letter = Notepad.alphabet[state.notepadCursor]
    switch key {
    case Keys.notepadLeft: state.notepadCursor = (state.notepadCursor + count - 1) % count
    case Keys.notepadRight: state.notepadCursor = (state.notepadCursor + 1) % count
    case Keys.notepadUp: state.notepadCursor = max(0, state.notepadCursor - columns)
    case Keys.notepadDown: state.notepadCursor = min(count - 1, state.notepadCursor + columns)
    case Keys.notepadFirst: state.notepadCursor = 0
    case Keys.notepadLast: state.notepadCursor = count - 1
    case Keys.backToGuess: state.pane = .guess
    case .character(let c) where Keys.jumpToLetter ~= key:
        state.notepadCursor = Notepad.alphabet.firstIndex(of: Character(c.lowercased())) ?? state.notepadCursor
    case Keys.cycleMark:
        let current = state.game?.game.marks[letter]
        return mark(letter, current == nil ? .out : current == .out ? .in : nil, state)
    case Keys.markOut: return mark(letter, .out, state)
    case Keys.markIn: return mark(letter, .in, state)
    case Keys.clearMark: return mark(letter, nil, state)
    default: break
    }
    return []
}

private func mark(_ letter: Character, _ mark: LetterMark?, _ state: AppState) -> [Effect] {
    guard let game = state.game else { return [] }
    return [.mark(letter, mark, gameID: game.id)]
}

private func handleList(_ key: Key, _ state: inout AppState) -> [Effect] {
    switch state.pane {
    case .packs:
        if Keys.packChallenge ~= key {
            state.codeEntry = ""
            return []
        }
        if Keys.helpLevel ~= key {
            let next = state.assist.next
            state.status = StatusMessage("Help for your next games: \(next.summary).")
            return [.chooseAssist(next)]
        }
        if Keys.open ~= key || Keys.playHard ~= key, state.packs.indices.contains(state.packSelection) {
            state.pane = .guess
            return [.newGame(packID: state.packs[state.packSelection].id, hard: Keys.playHard ~= key)]
        }
        move(&state.packSelection, state.packs.count, key)
    case .inProgress:
        if Keys.open ~= key, state.inProgress.indices.contains(state.inProgressSelection) {
            state.pane = .guess
            return [.resume(gameID: state.inProgress[state.inProgressSelection].id)]
        }
        move(&state.inProgressSelection, state.inProgress.count, key)
    case .readingList:
        // Open: the fact on the whole screen; Up/Down scroll it, Enter closes it.
        if state.readingOpen {
            switch key {
            case Keys.up: state.readingScroll = max(0, state.readingScroll - 1)
            case Keys.down: state.readingScroll += 1
            case Keys.open: state.readingOpen = false
            default: break
            }
            return []
        }
        if Keys.open ~= key, state.readingList.indices.contains(state.readingSelection) {
            state.readingOpen = true
            state.readingScroll = 0
            return []
        }
        if Keys.delete ~= key, state.readingList.indices.contains(state.readingSelection) {
            state.confirmation = .removeBookmark(word: state.readingList[state.readingSelection].word)
            return []
        }
        move(&state.readingSelection, state.readingList.count, key)
    case .matches:
        guard state.matches.indices.contains(state.matchSelection) else { return [] }
        let overview = state.matches[state.matchSelection]
        if state.matchOpen {
            switch key {
            case Keys.up: state.matchScroll = max(0, state.matchScroll - 1)
            case Keys.down: state.matchScroll += 1
            case Keys.pageUp: state.matchScroll = max(0, state.matchScroll - 10)
            case Keys.pageDown: state.matchScroll += 10
            case Keys.open: state.matchOpen = false
            default: break
            }
            return []
        }
        if Keys.open ~= key {
            // The player's turn: the next game of the match, on the board. Otherwise the match whole.
            if overview.state.nextGame(for: overview.viewer) != nil {
                state.pane = .guess
                return [.beginMatch(matchID: overview.state.match.id), .load(.matches)]
            }
            state.matchOpen = true
            state.matchScroll = 0
            return []
        }
        move(&state.matchSelection, state.matches.count, key)
    case .leaderboard:
        switch key {
        case Keys.up: state.leaderboardScroll = max(0, state.leaderboardScroll - 1)
        case Keys.down: state.leaderboardScroll += 1
        case Keys.pageUp: state.leaderboardScroll = max(0, state.leaderboardScroll - 10)
        case Keys.pageDown: state.leaderboardScroll += 10
        case Keys.first: state.leaderboardScroll = 0
        default: break
        }
    case .stats:
        switch key {
        case Keys.up: state.statsScroll = max(0, state.statsScroll - 1)
        case Keys.down: state.statsScroll = min(state.statsScroll + 1, max(0, state.achievements.count - 1))
        case Keys.pageUp: state.statsScroll = max(0, state.statsScroll - 10)
        case Keys.pageDown: state.statsScroll = min(state.statsScroll + 10, max(0, state.achievements.count - 1))
        default: break
        }
    case .history:
        guard state.history.indices.contains(state.historySelection) else { return [] }
        let game = state.history[state.historySelection]
        switch key {
        case Keys.open:
            state.historyOpen.toggle()
            state.historyCardScroll = 0
        case Keys.historyBookmark: return toggleBookmark(game)
        case Keys.historyReview: return askReview(game, &state)
        case Keys.delete: state.confirmation = .deleteGame(id: game.id, word: game.game.secret)
        // An open game's card, longer than the room: PgUp/PgDn scroll it (Up/Down choose the game).
        case Keys.pageUp where state.historyOpen: state.historyCardScroll = max(0, state.historyCardScroll - 3)
        case Keys.pageDown where state.historyOpen: state.historyCardScroll += 3
        default:
            move(&state.historySelection, state.history.count, key)
            state.historyCardScroll = 0
        }
    default:
        break
    }
    return []
}

/// Moves a list selection with the arrow, page and j/k keys.
private func move(_ selection: inout Int, _ count: Int, _ key: Key) {
    let page = 10
    switch key {
    case Keys.up: selection -= 1
    case Keys.down: selection += 1
    case Keys.pageUp: selection -= page
    case Keys.pageDown: selection += page
    case Keys.first: selection = 0
    case Keys.last: selection = count - 1
    default: return
    }
    selection = clamp(selection, count)
}
