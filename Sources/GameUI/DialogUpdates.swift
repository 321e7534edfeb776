import QiktionaryCore
import Screen

// The keys of the windows over a screen: help, a coach's review, a challenge code, pairing.

func handleHelp(_ key: Key, _ state: inout AppState) -> [Effect] {
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
func handleReview(_ key: Key, _ state: inout AppState) -> [Effect] {
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
func handleCodeEntry(_ key: Key, _ state: inout AppState) -> [Effect] {
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
func offerPairing(wasNotPaired: Bool, _ state: inout AppState) {
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

func pairedLine(_ state: AppState) -> String {
    "This machine is one of \(playerName(state))'s machines now: your games sync."
}

private func playerName(_ state: AppState) -> String { state.player.isEmpty ? "your" : state.player }

/// The pairing screen: letters and digits make the code (dashes and spaces are skipped, as
/// `devices add` groups it), Enter joins, Esc closes it and the game goes on here alone.
func handlePairing(_ key: Key, _ state: inout AppState) -> [Effect] {
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
