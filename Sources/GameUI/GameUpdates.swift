import QiktionaryCore
import Screen

// The keys of the game's two panes: the board (typing a guess, the finished game's actions) and
// the notepad.

/// Asks the coach for a review of a finished game.
func askReview(_ saved: SavedGame, _ state: inout AppState) -> [Effect] {
    state.thinking = true
    return [.review(gameID: saved.id)]
}

func handleGuess(_ key: Key, _ state: inout AppState) -> [Effect] {
    guard let saved = state.board.game else {
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
        if Keys.nextGame ~= key || Keys.nextHardGame ~= key, let wonAt = state.board.wonAt, let now = state.keyClock,
           now - wonAt < AppState.winGrace { return [] }
        switch key {
        case Keys.cardUp:
            state.board.cardScroll = max(0, state.board.cardScroll - (key == .up ? 1 : 5))
            return []
        case Keys.cardDown:
            state.board.cardScroll += key == .down ? 1 : 5
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
        state.board.guessScroll = min(state.board.guessScroll + (key == .up ? 1 : 5), max(0, game.guesses.count - 1))
    case Keys.cardDown:
        state.board.guessScroll = max(0, state.board.guessScroll - (key == .down ? 1 : 5))
    case .character(let c) where Keys.typeLetter ~= key:
        if state.board.inputRefused { forgetTyping(&state) }
        if state.board.input.count < game.length && state.board.inputOverflow == 0 {
            state.board.input.append(Character(c.lowercased()))
        } else {
            state.board.inputOverflow += 1
            state.status = StatusMessage(overflowLine(state, game: game), isError: true)
        }
    case Keys.deleteLetter:
        // Ctrl-H is what many terminals send for Backspace. Letters typed past the end go first.
        if state.board.inputOverflow > 0 {
            state.board.inputOverflow -= 1
            state.status = state.board.inputOverflow > 0 ? StatusMessage(overflowLine(state, game: game), isError: true) : nil
        } else if !state.board.input.isEmpty {
            state.board.input.removeLast()
        }
        state.board.inputRefused = false
    case Keys.clearGuess:
        forgetTyping(&state)
    case Keys.submit:
        if state.board.input.isEmpty {
            state.status = StatusMessage("Type a \(game.length)-letter word, then Enter.")
            return []
        }
        if state.board.inputRefused {
            state.status = StatusMessage("\(state.board.input.uppercased()) was refused: type another word, or Backspace to change it.", isError: true)
            return []
        }
        if state.board.inputOverflow > 0 {
            state.status = StatusMessage(overflowLine(state, game: game), isError: true)
            return []
        }
        return [.guess(state.board.input, gameID: game.id)]
    case Keys.giveUp:
        state.confirmation = .giveUp(gameID: game.id)
    case Keys.hint:
        if state.thinking { return [] }
        if let hint = state.board.currentHint {
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
    let typed = state.board.input.count + state.board.inputOverflow
    return "\(typed) letters typed; the word has \(game.length): Backspace takes off the extra \(state.board.inputOverflow == 1 ? "one" : "\(state.board.inputOverflow)"), Ctrl-U clears."
}

func toggleBookmark(_ saved: SavedGame) -> [Effect] {
    saved.bookmarked ? [.removeBookmark(word: saved.game.secret)] : [.bookmark(gameID: saved.id)]
}

func handleNotepad(_ key: Key, _ state: inout AppState) -> [Effect] {
    let count = Notepad.alphabet.count, columns = AppState.notepadColumns
    let letter = Notepad.alphabet[state.board.notepadCursor]
    switch key {
    case Keys.notepadLeft: state.board.notepadCursor = (state.board.notepadCursor + count - 1) % count
    case Keys.notepadRight: state.board.notepadCursor = (state.board.notepadCursor + 1) % count
    case Keys.notepadUp: state.board.notepadCursor = max(0, state.board.notepadCursor - columns)
    case Keys.notepadDown: state.board.notepadCursor = min(count - 1, state.board.notepadCursor + columns)
    case Keys.notepadFirst: state.board.notepadCursor = 0
    case Keys.notepadLast: state.board.notepadCursor = count - 1
    case Keys.backToGuess: state.pane = .guess
    case .character(let c) where Keys.jumpToLetter ~= key:
        state.board.notepadCursor = Notepad.alphabet.firstIndex(of: Character(c.lowercased())) ?? state.board.notepadCursor
    case Keys.cycleMark:
        let current = state.board.game?.game.marks[letter]
        return mark(letter, current == nil ? .out : current == .out ? .in : nil, state)
    case Keys.markOut: return mark(letter, .out, state)
    case Keys.markIn: return mark(letter, .in, state)
    case Keys.clearMark: return mark(letter, nil, state)
    default: break
    }
    return []
}

private func mark(_ letter: Character, _ mark: LetterMark?, _ state: AppState) -> [Effect] {
    guard let game = state.board.game else { return [] }
    return [.mark(letter, mark, gameID: game.id)]
}
