import Foundation
@testable import QiktionaryCore
import Screen
import Testing
@testable import GameUI

/// Presses keys in order and returns the state after them and the effects of the last one.
func press(_ keys: [Key], on start: AppState) -> (AppState, [Effect]) {
    var state = start
    var effects: [Effect] = []
    for key in keys { effects = update(&state, .key(key)) }
    return (state, effects)
}

func press(_ key: Key, on start: AppState) -> (AppState, [Effect]) { press([key], on: start) }

/// One test per key the help screen lists; `covered` names them, and a test checks that the
/// help screen lists no key without a test here.
@Suite struct HelpKeyTests {
    static let covered: Set<String> = [
        "Everywhere/Tab, S-Tab", "Everywhere/1 to 6", "Everywhere/F1, ?", "Everywhere/F5, Ctrl-R", "Everywhere/Esc",
        "Everywhere/q", "Everywhere/Ctrl-C",
        "Game/a to z", "Game/Enter", "Game/Backspace, Ctrl-H", "Game/Ctrl-U", "Game/Ctrl-G", "Game/Ctrl-N", "Game/n, Enter", "Game/b",
        "Notepad (Tab from the guess)/arrows", "Notepad (Tab from the guess)/a to z", "Notepad (Tab from the guess)/Space",
        "Notepad (Tab from the guess)/- / +", "Notepad (Tab from the guess)/Backspace", "Notepad (Tab from the guess)/Enter",
        "Lists/Up/Down, j/k", "Lists/PgUp/PgDn", "Lists/Home/End", "Lists/Enter", "Lists/b", "Lists/d", "Lists/y / n",
        // CoachUITests.
        "Game/F2", "Game/h", "Game/r", "Lists/h", "Lists/r",
        // TextFitTests.
        "Game/Up/Down",
        // DailyChallengeUITests.
        "Game/Ctrl-D", "Game/s", "Game/c", "Lists/c",
        // Here: the help level.
        "Lists/a",
        // MatchScreenTests.
        "Lists/m, F3", "Lists/l",
        // PairingScreenTests.
        "Pairing a new machine/F5", "Pairing a new machine/0-9, A-Z", "Pairing a new machine/Enter", "Pairing a new machine/Esc",
    ]

    @Test func everyKeyOnTheHelpScreenHasATest() {
        let listed = Set(HelpKeys.sections.flatMap { section in section.entries.map { "\(section.title)/\($0.keys)" } })
        #expect(listed == Self.covered)
    }

    /// `a` on the Packs screen steps the player's help level for their next games:
    /// proven, coach, none, and round again.
    @Test func aOnThePacksScreenStepsTheHelpLevel() {
        var state = Fixtures.state(.packs)
        state.assist = .proven
        #expect(update(&state, .key(.character("a"))) == [.chooseAssist(.coach)])
        _ = update(&state, .assistLoaded(.coach))
        #expect(state.assist == .coach)
        #expect(update(&state, .key(.character("a"))) == [.chooseAssist(.noHelp)])
        _ = update(&state, .assistLoaded(.noHelp))
        #expect(update(&state, .key(.character("a"))) == [.chooseAssist(.proven)])
        #expect(view(state, size: Size(width: 100, height: 30)).text.contains("help: no help"))
    }

    // MARK: Everywhere

    @Test func tabAndShiftTabWalkThePanesInARing() {
        var state = Fixtures.state(.guess)
        var order: [Pane] = []
        for _ in Pane.ring { _ = update(&state, .key(.tab)); order.append(state.pane) }
        #expect(order == [.notepad, .packs, .inProgress, .readingList, .history, .stats, .guess])
        let (back, effects) = press(.backTab, on: Fixtures.state(.guess))
        #expect(back.pane == .stats)
        #expect(effects == [.load(.stats)])
        #expect(press(.tab, on: Fixtures.state(.notepad)).1 == [.load(.packs)])
    }

    @Test func numberKeysJumpToTheScreensAndLoadThem() {
        let expected: [(Character, Pane, [Effect])] = [
            ("1", .guess, []), ("2", .packs, [.load(.packs)]), ("3", .inProgress, [.load(.inProgress)]),
            ("4", .readingList, [.load(.readingList)]), ("5", .history, [.load(.history)]), ("6", .stats, [.load(.stats)]),
        ]
        for (digit, pane, effects) in expected {
            let (state, got) = press(.character(digit), on: Fixtures.state(.stats))
            #expect(state.pane == pane)
            #expect(got == effects)
        }
    }

    @Test func f1AndQuestionMarkOpenHelpAndAnyKeyClosesIt() {
        for key in [Key.function(1), .character("?")] {
            let (state, effects) = press(key, on: Fixtures.state(.packs))
            #expect(state.helpOpen && effects.isEmpty)
            #expect(!press(.escape, on: state).0.helpOpen)
            #expect(press(.down, on: state).0.helpScroll == 1, "arrows scroll the help")
        }
        #expect(press(.character("?"), on: Fixtures.state(.guess)).0.helpOpen, "? is not a letter, so it opens help from the guess too")
    }

    @Test func f5AndCtrlRSyncNowAndTheOutcomeReachesTheHeader() {
        for key in [Key.function(5), .control("r")] {
            let (state, effects) = press(key, on: Fixtures.state(.guess))
            #expect(effects == [.syncNow])
            #expect(state.status?.text == "Syncing…")
        }
        var off = Fixtures.state(.history)
        let none = update(&off, .syncUpdate(SyncNews(state: .off, note: "Sync is off: give the shared folder once with --cloud-dir DIR.", isError: true)))
        #expect(none.isEmpty && off.syncText == "sync off" && off.status?.isError == true)
        var synced = Fixtures.state(.history)
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        let reload = update(&synced, .syncUpdate(SyncNews(state: .synced(at: at), note: "Synced: 1 sent, 2 received.", changedHere: true)))
        #expect(reload == [.load(.packs), .reload(gameID: "g1"), .load(.history), .load(.matches)], "the other machine's moves show at once")
        _ = update(&synced, .tick(at.addingTimeInterval(12)))
        #expect(view(synced, size: Size(width: 100, height: 30)).line(0).contains("synced 12 s ago"))
        // A round that brought nothing reloads nothing and leaves the status line alone.
        var quiet = Fixtures.state(.guess)
        quiet.status = StatusMessage("CRANE: 2 common.")
        #expect(update(&quiet, .syncUpdate(SyncNews(state: .synced(at: at)))).isEmpty)
        #expect(quiet.status?.text == "CRANE: 2 common.")
        var syncing = Fixtures.state(.guess)
        _ = update(&syncing, .syncUpdate(SyncNews(state: .syncing)))
        #expect(view(syncing, size: Size(width: 100, height: 30)).line(0).contains("syncing…"))
    }

    /// The header's age is the machine's last sync, by this process or another on the same data
    /// dir: a sync from the command line moves it on, never back; a machine that never synced
    /// says so; offline, it says when it last synced.
    @Test func theHeadersSyncAgeIsTheMachinesLastSync() {
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        let size = Size(width: 100, height: 30)
        var never = Fixtures.state(.guess)
        never.sync = .notYet
        #expect(view(never, size: size).line(0).contains("not synced yet"))
        // Another process synced: the header follows, with the time the database keeps.
        _ = update(&never, .syncedElsewhere(at: at))
        _ = update(&never, .tick(at.addingTimeInterval(8 * 60)))
        #expect(view(never, size: size).line(0).contains("synced 8 min ago"))
        // A later sync from the command line moves the age on; an older time does not move it back.
        _ = update(&never, .syncedElsewhere(at: at.addingTimeInterval(7 * 60)))
        #expect(view(never, size: size).line(0).contains("synced 1 min ago"))
        _ = update(&never, .syncedElsewhere(at: at))
        #expect(view(never, size: size).line(0).contains("synced 1 min ago"))
        // A round under way here still says so; offline names the last sync.
        var busy = Fixtures.state(.guess)
        _ = update(&busy, .syncUpdate(SyncNews(state: .syncing)))
        _ = update(&busy, .syncedElsewhere(at: at))
        #expect(view(busy, size: size).line(0).contains("syncing…"))
        _ = update(&busy, .syncUpdate(SyncNews(state: .offline)))
        _ = update(&busy, .tick(at.addingTimeInterval(3 * 3600)))
        #expect(view(busy, size: size).line(0).contains("offline, synced 3 h ago"))
        var old = Fixtures.state(.guess)
        old.sync = .synced(at: at)
        _ = update(&old, .tick(at.addingTimeInterval(2 * 86_400 + 60)))
        #expect(view(old, size: size).line(0).contains("synced 2 d ago"))
    }

    /// At 40x12 the reading list keeps the chosen row and shows its fact under it, cut with an
    /// ellipsis and an arrow; at 80x24 the whole list and the fact.
    @Test func theReadingListShowsTheFactAtTheMinimum() {
        let small = view(Fixtures.state(.readingList), size: Size(width: 40, height: 12)).text
        #expect(small.contains("> ZEBRA") && !small.contains("FLOUR  "), "\(small)")
        #expect(small.contains("Why zebras have stripes") && small.contains("…") && small.contains("↓"), "\(small)")
        let large = view(Fixtures.state(.readingList), size: Size(width: 80, height: 24)).text
        #expect(large.contains("FLOUR") && large.contains("on horses wearing striped coats."), "\(large)")
        // Enter opens the fact on the whole screen; Up/Down scroll it to its end; Enter or Esc closes it.
        var long = Fixtures.state(.readingList)
        long.readingList.items[0].fact = String(repeating: "Stripes confuse the flies. ", count: 9) + "The end of the fact."
        var open = press(.enter, on: long).0
        #expect(open.readingList.open)
        /// The box's lines, without the footer (which names the arrows too).
        func board(_ state: AppState) -> String {
            view(state, size: Size(width: 40, height: 12)).text.split(separator: "\n").filter { $0.contains("│") || $0.contains("┌") }.joined(separator: "\n")
        }
        let first = board(open)
        #expect(first.contains("ZEBRA · Animals") && first.contains("Stripes confuse") && first.contains("↓") && !first.contains("↑"), "\(first)")
        for _ in 0..<12 { open = press(.down, on: open).0 }
        let end = board(open)
        #expect(end.contains("The end of the fact.") && end.contains("added ") && end.contains("↑") && !end.contains("↓"), "\(end)")
        #expect(!press(.enter, on: open).0.readingList.open && !press(.escape, on: open).0.readingList.open)
        #expect(press(.escape, on: open).0.pane == .readingList, "Esc closes the fact, back to the list")
    }

    /// The help screen starts with the rules of the game on the board, at every size, and
    /// scrolls down to the keys; with no game it lists the keys alone.
    @Test func theHelpScreenStartsWithTheGamesRules() {
        var state = Fixtures.state(.guess)
        state.helpOpen = true
        for (width, height) in [(100, 30), (80, 24), (60, 20), (40, 12)] {
            let text = view(state, size: Size(width: width, height: height)).text
            #expect(text.contains("This game") && text.contains("Classic: a guess"), "\(width)x\(height): \(text)")
            #expect(text.contains("↓"), "\(width)x\(height): the keys below, with an arrow")
        }
        // At 40x12 the rules are whole on the first page, the keys a scroll away.
        let small = Size(width: 40, height: 12)
        #expect(view(state, size: small).text.contains("Win in 15 guesses or fewer.") && view(state, size: small).text.contains("Started on desktop."))
        #expect(!view(state, size: small).text.contains("Everywhere"))
        var scrolled = state
        for _ in 0..<4 { _ = update(&scrolled, .key(.down)) }
        #expect(view(scrolled, size: small).text.contains("Everywhere"), "\(view(scrolled, size: small).text)")
        // A new game's board, too low for its rules: the cut line names F1.
        var fresh = Fixtures.state(.guess, game: Fixtures.game("g9", secret: "tiger", guesses: []))
        fresh.helpOpen = false
        let board = view(fresh, size: small).text
        #expect(board.contains("Find the 5-letter word.") && board.contains("Find the 5-letter word. … F1 rules"), "\(board)")
        var none = AppState()
        none.helpOpen = true
        #expect(!view(none, size: Size(width: 100, height: 30)).text.contains("This game"))
        #expect(view(none, size: Size(width: 100, height: 30)).text.contains("Help: every key"))
    }

    @Test func aMoveFromTheOtherMachineKeepsWhatThePlayerIsTyping() {
        var state = Fixtures.state(.guess)
        state.board.input = "cra"
        let reloaded = try! #require(state.board.game)
        _ = update(&state, .gameLoaded(reloaded))
        #expect(state.board.input == "cra")
    }

    @Test func aResetElsewhereAsksWhatToDoWithThisMachinesGames() {
        var state = Fixtures.state(.guess)
        _ = update(&state, .cloudWasReset)
        #expect(state.syncText == "needs attention")
        #expect(state.confirmation == .cloudReset)
        let screen = view(state, size: Size(width: 120, height: 40))
        #expect(screen.text.contains("The cloud was reset on another machine"))
        #expect(screen.text.contains("u upload") && screen.text.contains("e erase"))
        #expect(press(.character("u"), on: state).1 == [.adoptReset(keepLocal: true)])
        #expect(press(.character("e"), on: state).1 == [.adoptReset(keepLocal: false)])
        let (later, none) = press(.escape, on: state)
        #expect(none.isEmpty && later.confirmation == nil && later.status?.text.contains("F5") == true)
    }

    /// At 40x12 an open History game's card is cut with an arrow: PgDn scrolls it to its end, PgUp
    /// back; Up/Down still choose the game, its card from the top.
    @Test func pgDnScrollsAnOpenHistoryGamesCard() {
        var open = Fixtures.state(.history)
        open.history.open = true
        let size = Size(width: 40, height: 12)
        /// The card's lines, from its title to its bottom border (the guesses above have arrows of their own).
        func card(_ state: AppState) -> String {
            let lines = view(state, size: size).text.split(separator: "\n")
            guard let top = lines.firstIndex(where: { $0.contains("┌─ TIGER") }) else { return "" }
            return lines[top...].prefix { !$0.hasPrefix("└") }.joined(separator: "\n")
        }
        #expect(card(open).contains("↓") && !card(open).contains("↑"), "\(card(open))")
        #expect(view(open, size: size).text.contains("PgDn the card"))
        var scrolled = open
        for _ in 0..<10 { scrolled = press(.pageDown, on: scrolled).0 }
        #expect(scrolled.history.open && card(scrolled).contains("↑") && !card(scrolled).contains("↓"), "\(card(scrolled))")
        #expect(card(scrolled) != card(open))
        for _ in 0..<10 { scrolled = press(.pageUp, on: scrolled).0 }
        #expect(card(scrolled) == card(open))
        let chosen = press(.down, on: press(.pageDown, on: open).0).0
        #expect(chosen.history.selection == open.history.selection + 1 && chosen.history.scroll == 0)
    }

    @Test func escapeGoesBackToTheGameAndClosesAnOpenHistoryEntry() {
        #expect(press(.escape, on: Fixtures.state(.stats)).0.pane == .guess)
        var open = Fixtures.state(.history)
        open.history.open = true
        let (closed, _) = press(.escape, on: open)
        #expect(closed.pane == .history && !closed.history.open)
        var typing = Fixtures.state(.guess)
        typing.board.input = "cra"
        #expect(press(.escape, on: typing).0.board.input == "")
    }

    @Test func qQuitsOutsideTheGuessButTypesInIt() {
        for pane in [Pane.packs, .inProgress, .readingList, .history, .stats] {
            let (state, effects) = press(.character("q"), on: Fixtures.state(pane))
            #expect(effects == [.quit] && state.quitting)
        }
        let (typing, effects) = press(.character("q"), on: Fixtures.state(.guess))
        #expect(effects.isEmpty && typing.board.input == "q")
        #expect(press(.character("q"), on: Fixtures.state(.guess, game: Fixtures.won)).1 == [.quit], "a finished game takes no letters")
    }

    @Test func ctrlCQuitsFromAnywhereEvenMidQuestionOrInHelp() {
        var asking = Fixtures.state(.guess)
        asking.confirmation = .giveUp(gameID: "g1")
        var help = Fixtures.state(.notepad)
        help.helpOpen = true
        for state in [Fixtures.state(.guess), Fixtures.state(.notepad), Fixtures.state(.stats), asking, help] {
            #expect(press(.control("c"), on: state).1 == [.quit])
        }
    }

    // MARK: Game

    @Test func lettersTypeLowercaseUpToTheWordLength() {
        let (state, effects) = press("CraNEs".map { Key.character($0) }, on: Fixtures.state(.guess))
        #expect(state.board.input == "crane")
        #expect(effects.isEmpty)
        #expect(state.status?.text.contains("the word has 5") == true)
        let (digit, _) = press(.character("3"), on: Fixtures.state(.guess))
        #expect(digit.pane == .inProgress && digit.board.input == "", "digits are screen keys, never typed")
        #expect(press(.character("!"), on: Fixtures.state(.guess)).0.status?.isError == true)
    }

    /// A word longer than the game's typed and sent at once (CRANES in a 5-letter game) is not
    /// sent as its first letters, which may be another word: Enter refuses the line, the extra
    /// letters show as a count, and Backspace takes them off first.
    @Test func lettersTypedPastTheLengthKeepEnterFromSendingTheirStart() {
        let typed = "cranes".map { Key.character($0) }
        let (refused, effects) = press(typed + [.enter], on: Fixtures.state(.guess))
        #expect(effects.isEmpty, "CRANE is a word: it must not be played for CRANES")
        #expect(refused.board.input == "crane" && refused.board.inputOverflow == 1)
        #expect(refused.status?.isError == true && refused.status?.text == "6 letters typed; the word has 5: Backspace takes off the extra one, Ctrl-U clears.")
        #expect(view(refused, size: Size(width: 100, height: 30)).text.contains("> C R A N E +1"))
        let (twoOver, _) = press(typed + [.character("x")], on: Fixtures.state(.guess))
        #expect(twoOver.board.inputOverflow == 2 && twoOver.status?.text.contains("extra 2") == true)
        let (trimmed, sent) = press(typed + [.backspace, .enter], on: Fixtures.state(.guess))
        #expect(trimmed.board.inputOverflow == 0 && sent == [.guess("crane", gameID: "g1")], "once the extra letter is off, the word goes")
        let (cleared, _) = press(typed + [.control("u")], on: Fixtures.state(.guess))
        #expect(cleared.board.input == "" && cleared.board.inputOverflow == 0)
        #expect(press([.character("t"), .enter], on: cleared).0.board.inputOverflow == 0)
    }

    @Test func enterSubmitsTheGuessOrAsksForOne() {
        var state = Fixtures.state(.guess)
        state.board.input = "tiger"
        #expect(press(.enter, on: state).1 == [.guess("tiger", gameID: "g1")])
        let (empty, effects) = press(.enter, on: Fixtures.state(.guess))
        #expect(effects.isEmpty && empty.status?.text == "Type a 5-letter word, then Enter.")
    }

    @Test func backspaceDeletesTheLastLetterAndCtrlUClearsTheLine() {
        var state = Fixtures.state(.guess)
        state.board.input = "cran"
        #expect(press(.backspace, on: state).0.board.input == "cra")
        #expect(press(.control("u"), on: state).0.board.input == "")
        #expect(press(.backspace, on: Fixtures.state(.guess)).0.board.input == "")
    }

    @Test func ctrlGAsksBeforeGivingUp() {
        let (asking, effects) = press(.control("g"), on: Fixtures.state(.guess))
        #expect(effects.isEmpty && asking.confirmation == .giveUp(gameID: "g1"))
        #expect(view(asking, size: Size(width: 80, height: 24)).text.contains("Give up this game and see the word? (y/n)"))
        #expect(press(.character("y"), on: asking).1 == [.giveUp(gameID: "g1")])
        let (cancelled, none) = press(.character("n"), on: asking)
        #expect(none.isEmpty && cancelled.confirmation == nil && cancelled.status?.text == "Cancelled.")
    }

    @Test func ctrlNStartsAnotherGameFromTheSamePack() {
        #expect(press(.control("n"), on: Fixtures.state(.guess)).1 == [.newGame(packID: "animals")])
    }

    @Test func nOrEnterStartTheNextGameOnceOver() {
        let over = Fixtures.state(.guess, game: Fixtures.won)
        #expect(press(.character("n"), on: over).1 == [.newGame(packID: "animals")])
        #expect(press(.enter, on: over).1 == [.newGame(packID: "animals")])
    }

    @Test func bBookmarksTheFactOnceOverAndAgainRemovesIt() {
        let over = Fixtures.state(.guess, game: Fixtures.won)
        #expect(press(.character("b"), on: over).1 == [.bookmark(gameID: "g2")])
        var marked = Fixtures.won
        marked.bookmarked = true
        #expect(press(.character("b"), on: Fixtures.state(.guess, game: marked)).1 == [.removeBookmark(word: "tiger")])
        let (typing, _) = press(.character("b"), on: Fixtures.state(.guess))
        #expect(typing.board.input == "b", "in play, b is a letter")
    }

    // MARK: Notepad

    @Test func arrowsMoveAroundTheAlphabet() {
        var state = Fixtures.state(.notepad)
        state.board.notepadCursor = 0
        #expect(press(.right, on: state).0.board.notepadCursor == 1)
        #expect(press(.left, on: state).0.board.notepadCursor == 25, "left from A wraps to Z")
        #expect(press(.down, on: state).0.board.notepadCursor == 7, "down is one row of seven")
        #expect(press([.down, .up], on: state).0.board.notepadCursor == 0)
    }

    @Test func lettersJumpToThatLetterInTheNotepad() {
        let (state, effects) = press(.character("T"), on: Fixtures.state(.notepad))
        #expect(state.board.notepadCursor == 19 && effects.isEmpty && state.board.input.isEmpty)
    }

    @Test func spaceCyclesUnknownOutIn() {
        // a has no mark, c is marked out, e is marked in.
        #expect(press([.character("a"), .character(" ")], on: Fixtures.state(.notepad)).1 == [.mark("a", .out, gameID: "g1")])
        #expect(press([.character("c"), .character(" ")], on: Fixtures.state(.notepad)).1 == [.mark("c", .in, gameID: "g1")])
        #expect(press([.character("e"), .character(" ")], on: Fixtures.state(.notepad)).1 == [.mark("e", nil, gameID: "g1")])
    }

    @Test func minusAndPlusMarkOutAndIn() {
        #expect(press([.character("k"), .character("-")], on: Fixtures.state(.notepad)).1 == [.mark("k", .out, gameID: "g1")])
        #expect(press([.character("k"), .character("+")], on: Fixtures.state(.notepad)).1 == [.mark("k", .in, gameID: "g1")])
    }

    @Test func backspaceClearsTheMark() {
        #expect(press([.character("c"), .backspace], on: Fixtures.state(.notepad)).1 == [.mark("c", nil, gameID: "g1")])
    }

    @Test func enterGoesBackToTheGuess() {
        #expect(press(.enter, on: Fixtures.state(.notepad)).0.pane == .guess)
    }

    // MARK: Lists

    @Test func upDownJAndKChooseWithinTheList() {
        #expect(press(.down, on: Fixtures.state(.packs)).0.packs.selection == 1)
        #expect(press([.character("j"), .character("j"), .character("k")], on: Fixtures.state(.packs)).0.packs.selection == 1)
        #expect(press(.up, on: Fixtures.state(.packs)).0.packs.selection == 0, "stops at the top")
        #expect(press([.down, .down, .down], on: Fixtures.state(.history)).0.history.selection == 2, "stops at the end")
        #expect(press(.down, on: Fixtures.state(.readingList)).0.readingList.selection == 1)
        #expect(press(.down, on: Fixtures.state(.inProgress)).0.inProgress.selection == 1)
    }

    @Test func pageKeysMoveByAPageAndHomeEndToTheEnds() {
        #expect(press(.pageDown, on: Fixtures.state(.packs)).0.packs.selection == 3)
        #expect(press([.end, .pageUp], on: Fixtures.state(.packs)).0.packs.selection == 0)
        #expect(press(.end, on: Fixtures.state(.packs)).0.packs.selection == 3)
        #expect(press([.end, .home], on: Fixtures.state(.packs)).0.packs.selection == 0)
    }

    @Test func enterPlaysThePackResumesTheGameOrOpensTheHistoryEntry() {
        let (playing, effects) = press([.down, .enter], on: Fixtures.state(.packs))
        #expect(effects == [.newGame(packID: "animals")] && playing.pane == .guess)
        let (resumed, resume) = press([.down, .enter], on: Fixtures.state(.inProgress))
        #expect(resume == [.resume(gameID: "g3")] && resumed.pane == .guess)
        let (open, _) = press(.enter, on: Fixtures.state(.history))
        #expect(open.history.open)
        #expect(view(open, size: Size(width: 80, height: 24)).text.contains("You found TIGER in 5 guesses"))
    }

    @Test func bTogglesTheBookmarkOfTheChosenHistoryGame() {
        #expect(press(.character("b"), on: Fixtures.state(.history)).1 == [.bookmark(gameID: "g2")])
        #expect(press([.down, .character("b")], on: Fixtures.state(.history)).1 == [.removeBookmark(word: "zebra")])
    }

    @Test func dDeletesAHistoryGameAfterAskingAndRemovesAReadingListFact() {
        let (asking, none) = press(.character("d"), on: Fixtures.state(.history))
        #expect(none.isEmpty && asking.confirmation == .deleteGame(id: "g2", word: "tiger"))
        // The reading list asks first too.
        let (removing, nothing) = press(.character("d"), on: Fixtures.state(.readingList))
        #expect(nothing.isEmpty && removing.confirmation == .removeBookmark(word: "zebra"))
        #expect(view(removing, size: Size(width: 80, height: 24)).text.contains("Remove ZEBRA from your reading list? (y/n)"))
        #expect(press(.character("y"), on: removing).1 == [.removeBookmark(word: "zebra")])
        #expect(press(.character("n"), on: removing).1.isEmpty)
    }

    @Test func yConfirmsAndAnyOtherKeyCancels() {
        let (asking, _) = press(.character("d"), on: Fixtures.state(.history))
        #expect(press(.character("y"), on: asking).1 == [.deleteGame(id: "g2")])
        for key in [Key.character("n"), .escape, .enter] {
            let (state, effects) = press(key, on: asking)
            #expect(effects.isEmpty && state.confirmation == nil && state.pane == .history)
        }
    }
}

/// What the interface does with the outcomes of its effects.
@Suite struct MessageTests {
    @Test func aPlayedGuessClearsTheInputAndSaysHowItScored() {
        var state = Fixtures.state(.guess)
        state.board.input = "tiger"
        var game = Fixtures.inPlay
        game.game = Game(id: "g1", packID: "animals", secret: "tiger", rules: .classic,
                         guesses: game.game.guesses + [Guess(word: "bread", feedback: .common(2))])
        let effects = update(&state, .guessPlayed(PlayedGuess(guess: Guess(word: "bread", feedback: .common(2)), number: 5, game: game)))
        #expect(effects.isEmpty && state.board.input == "" && state.status?.text == "BREAD: 2 common.")
    }

    @Test func aWinningGuessShowsTheEndAndRefreshesPackProgress() {
        var state = Fixtures.state(.guess)
        let effects = update(&state, .guessPlayed(PlayedGuess(guess: Guess(word: "tiger", feedback: .common(5)), number: 5, game: Fixtures.won)))
        #expect(effects == [.load(.packs)])
        #expect(state.status?.text == "You found TIGER in 5 guesses. Score 11.")
    }

    @Test func aRefusedGuessKeepsTheInputToFix() {
        var state = Fixtures.state(.guess)
        state.board.input = "xqzzy"
        _ = update(&state, .guessRefused(input: "xqzzy", reason: "not in the dictionary"))
        #expect(state.board.input == "xqzzy" && state.status == StatusMessage("XQZZY refused: not in the dictionary.", isError: true))
    }

    @Test func bookmarkChangesReachTheBoardAndTheHistory() {
        var state = Fixtures.state(.guess, game: Fixtures.won)
        let effects = update(&state, .bookmarkChanged(word: "tiger", bookmarked: true))
        #expect(effects == [.load(.readingList)])
        #expect(state.board.game?.bookmarked == true && state.history.items[0].bookmarked)
    }

    @Test func aDeletedGameLeavesTheHistory() {
        var state = Fixtures.state(.history)
        state.history.selection = 2
        _ = update(&state, .gameDeleted(id: "g5"))
        #expect(state.history.items.map(\.id) == ["g2", "g4"] && state.history.selection == 1)
    }

    @Test func aFailureBeforeAnyGameSaysHowToStartOne() {
        var state = AppState()
        _ = update(&state, .failed("no pack called 'nope'"))
        let text = view(state, size: Size(width: 80, height: 24)).text
        #expect(text.contains("no pack called 'nope'") && text.contains("Enter starts one"))
    }
}

/// The loop with a scripted terminal and stub effects.
@Suite struct EventLoopTests {
    @Test func drawsFirstThenRunsEffectsAndQuitsOnCtrlC() {
        let terminal = ScriptedTerminal(size: Size(width: 80, height: 24), events: [
            .key(.character("t")), .resize(Size(width: 60, height: 20)), .key(.control("c")), .key(.character("x")),
        ])
        var state = AppState()
        var performed: [Effect] = []
        EventLoop.run(terminal: terminal, state: &state, initial: [.begin(GameRequest())]) { effect in
            performed.append(effect)
            return effect == .begin(GameRequest()) ? [.gameLoaded(Fixtures.inPlay)] : []
        }
        #expect(terminal.drawn.first?.text.contains("Getting your game ready") == true, "the first screen comes before any effect")
        #expect(performed == [.begin(GameRequest()), .load(.matches)], "the matches follow the first game, for the header's notice")
        #expect(state.board.input == "t" && state.quitting)
        #expect(terminal.drawn.last?.size == Size(width: 60, height: 20), "redrawn at once at the new size")
        #expect(terminal.drawn.last?.text.contains("> T _ _ _ _") == true)
    }

    @Test func anInterruptEndsTheLoop() {
        let terminal = ScriptedTerminal(size: Size(width: 80, height: 24), events: [.interrupted, .key(.character("t"))])
        var state = Fixtures.state(.guess)
        EventLoop.run(terminal: terminal, state: &state, initial: []) { _ in [] }
        #expect(state.board.input == "")
    }

    /// Another process on the data dir wrote: the board and the list shown reload, as on a sync's news.
    @Test func aChangeByAnotherProcessReloadsWhatIsShown() {
        var state = Fixtures.state(.history)
        let effects = update(&state, .dataChanged)
        #expect(effects == [.load(.packs), .reload(gameID: "g1"), .load(.history), .load(.matches)])
    }

    /// At 40x12 only the newest guess fits: an arrow says older ones are above, Up/PgUp scroll to
    /// them during play and Down back; a new guess shows the newest again.
    @Test func theBoardsGuessesScrollDuringPlay() {
        var state = Fixtures.state(.guess)
        let size = Size(width: 40, height: 12)
        var screen = view(state, size: size).text
        #expect(screen.contains("4  TRIBE") && screen.contains("↑") && !screen.contains("3  JUMPY"), "\(screen)")
        _ = update(&state, .key(.up))
        screen = view(state, size: size).text
        #expect(screen.contains("3  JUMPY") && !screen.contains("4  TRIBE") && screen.contains("↓"), "\(screen)")
        _ = update(&state, .key(.pageUp))
        #expect(view(state, size: size).text.contains("1  CRANE"))
        _ = update(&state, .key(.down))
        #expect(view(state, size: size).text.contains("2  MOIST"))
        let played = Fixtures.game("g1", secret: "tiger", guesses: ["crane", "moist", "jumpy", "tribe", "liver"])
        _ = update(&state, .guessPlayed(PlayedGuess(guess: played.game.guesses[4], number: 5, game: played)))
        #expect(view(state, size: size).text.contains("5  LIVER"))
    }

    /// With a cloud folder's sync state the narrow header still names the pack.
    @Test func theNarrowHeaderKeepsThePacksName() {
        var state = Fixtures.state(.guess)
        state.sync = .synced(at: Date(timeIntervalSince1970: 0))
        state.now = Date(timeIntervalSince1970: 720)
        let header = view(state, size: Size(width: 40, height: 12)).line(0)
        #expect(header.contains("Animals") && header.contains("synced 12 min ago"), "\(header)")
    }

    /// At 40x12 the achievements do not all fit: an arrow says more are below, Down scrolls to them.
    @Test func theAchievementsScrollOnStats() {
        var state = Fixtures.state(.stats)
        let list = (1...14).map { Achievement(id: "a\($0)", title: "Achievement \($0)", detail: "", earnedAt: $0 == 1 ? Fixtures.at(0) : nil) }
        _ = update(&state, .achievementsLoaded(list, dailyCurrent: 0, dailyBest: 0))
        let size = Size(width: 40, height: 12)
        var seen = view(state, size: size).text
        #expect(seen.contains("↓"), "\(seen)")
        for _ in 0..<14 { _ = update(&state, .key(.down)); seen += view(state, size: size).text }
        #expect(seen.contains("Achievement 14") && seen.contains("↑"), "\(seen)")
    }
}
