import Screen

/// One row of the interface's key table: the keys `update` answers to (`case Keys.hint:` in its
/// switches), the help screen's line for them, and the footer's short form.
public struct KeyBinding: Sendable {
    /// The keys, exactly.
    public let keys: [Key]
    /// Any key for which this is true too (a to z, 1 to 6).
    let also: (@Sendable (Key) -> Bool)?
    /// How the help screen lists the keys and what they do; nil when another row's line says it
    /// (Shift-Tab under Tab) or the keys answer a question the screen asks.
    public let help: HelpEntry?
    /// The footer's short name of the keys (nil: the arrows, drawn as the terminal can) and its
    /// label where this row is in a footer.
    let footerKey: String?
    let footerLabel: String

    init(_ keys: [Key], also: (@Sendable (Key) -> Bool)? = nil, help: (keys: String, action: String)? = nil,
         footer footerKey: String? = nil, _ footerLabel: String = "") {
        self.keys = keys
        self.also = also
        self.help = help.map { HelpEntry(keys: $0.keys, action: $0.action) }
        self.footerKey = footerKey
        self.footerLabel = footerLabel
    }

    public static func ~= (binding: KeyBinding, key: Key) -> Bool {
        binding.keys.contains(key) || binding.also?(key) == true
    }
}

/// Every key of the interface, once. The help screen's sections, the footers and the switches
/// of `update` are all made from this table.
public enum Keys {
    static let letter: @Sendable (Key) -> Bool = { if case .character(let c) = $0 { c.isLetter && c.isASCII } else { false } }

    // MARK: Everywhere

    static let nextPane = KeyBinding([.tab], help: ("Tab, S-Tab", "next / previous pane"), footer: "Tab", "next")
    static let previousPane = KeyBinding([.backTab])
    static let screen = KeyBinding([], also: { if case .character(let c) = $0 { ("1"..."6").contains(c) } else { false } },
                                   help: ("1 to 6", "go to a screen"), footer: "1", "back to the game")
    static let help = KeyBinding([.function(1), .character("?")], help: ("F1, ?", "this help"), footer: "F1", "help")
    static let sync = KeyBinding([.function(5), .control("r")], help: ("F5, Ctrl-R", "sync now"), footer: "F5", "sync")
    static let back = KeyBinding([.escape], help: ("Esc", "back to the game"), footer: "Esc", "close")
    static let quitWhenNotTyping = KeyBinding([.character("q")], help: ("q", "quit when not typing"))
    static let quit = KeyBinding([.control("c")], help: ("Ctrl-C", "quit"), footer: "^C", "quit")

    // MARK: Game

    static let typeLetter = KeyBinding([], also: letter, help: ("a to z", "type a guess"))
    static let submit = KeyBinding([.enter], help: ("Enter", "submit the guess"), footer: "Enter", "guess")
    static let deleteLetter = KeyBinding([.backspace, .delete, .control("h")], help: ("Backspace, Ctrl-H", "delete a letter"))
    static let clearGuess = KeyBinding([.control("u")], help: ("Ctrl-U", "clear the guess"))
    static let hint = KeyBinding([.function(2)], help: ("F2", "a hint (counted)"), footer: "F2", "hint")
    static let giveUp = KeyBinding([.control("g")], help: ("Ctrl-G", "give up (asks first)"), footer: "^G", "give up")
    static let newGame = KeyBinding([.control("n")], help: ("Ctrl-N", "start another game"), footer: "^N", "new")
    static let daily = KeyBinding([.control("d")], help: ("Ctrl-D", "today's daily word"), footer: "^D", "daily")
    static let nextGame = KeyBinding([.character("n"), .enter], help: ("n, Enter", "next game, once over"), footer: "n", "next game")
    static let nextHardGame = KeyBinding([.character("h")], help: ("h", "next game, hard mode"), footer: "h", "hard game")
    static let bookmark = KeyBinding([.character("b")], help: ("b", "bookmark, once over"), footer: "b", "bookmark")
    static let review = KeyBinding([.character("r")], help: ("r", "review, once over"), footer: "r", "review")
    static let share = KeyBinding([.character("s")], help: ("s", "share, once over"), footer: "s", "share")
    static let cardUp = KeyBinding([.up, .pageUp], help: ("Up/Down", "scroll the guesses, or the card"))
    static let cardDown = KeyBinding([.down, .pageDown])
    static let challengeCode = KeyBinding([.character("c")], help: ("c", "play a challenge code"))

    // MARK: Notepad

    static let notepadLeft = KeyBinding([.left], help: ("arrows", "move between letters"))
    static let notepadRight = KeyBinding([.right])
    static let notepadUp = KeyBinding([.up])
    static let notepadDown = KeyBinding([.down])
    static let notepadFirst = KeyBinding([.home])
    static let notepadLast = KeyBinding([.end])
    static let jumpToLetter = KeyBinding([], also: letter, help: ("a to z", "jump to a letter"))
    static let cycleMark = KeyBinding([.character(" ")], help: ("Space", "cycle unknown/out/in"), footer: "Space", "cycle")
    static let markOut = KeyBinding([.character("-")], help: ("- / +", "mark out / in"), footer: "-", "out")
    static let markIn = KeyBinding([.character("+"), .character("=")], footer: "+", "in")
    static let clearMark = KeyBinding([.backspace, .delete], help: ("Backspace", "clear the mark"))
    static let backToGuess = KeyBinding([.enter], help: ("Enter", "back to the guess"), footer: "Enter", "back")

    // MARK: Lists

    static let up = KeyBinding([.up, .character("k")], help: ("Up/Down, j/k", "choose"), footer: nil, "choose")
    static let down = KeyBinding([.down, .character("j")])
    static let pageUp = KeyBinding([.pageUp], help: ("PgUp/PgDn", "a page; an open card (history)"))
    static let pageDown = KeyBinding([.pageDown])
    static let first = KeyBinding([.home], help: ("Home/End", "first / last"))
    static let last = KeyBinding([.end])
    static let open = KeyBinding([.enter], help: ("Enter", "play, resume, open"), footer: "Enter", "play")
    static let playHard = KeyBinding([.character("h")], help: ("h", "play hard (packs)"), footer: "h", "play hard")
    static let helpLevel = KeyBinding([.character("a")], help: ("a", "help level (packs)"), footer: "a", "help level")
    static let packChallenge = KeyBinding([.character("c")], help: ("c", "challenge code (packs)"), footer: "c", "challenge code")
    static let historyReview = KeyBinding([.character("r")], help: ("r", "review (history)"), footer: "r", "review")
    static let historyBookmark = KeyBinding([.character("b")], help: ("b", "bookmark (history)"), footer: "b", "bookmark")
    static let matches = KeyBinding([.character("m"), .function(3)], help: ("m, F3", "matches (F3 from the guess too)"), footer: "m", "matches")
    static let leaderboard = KeyBinding([.character("l")], help: ("l", "leaderboards"), footer: "l", "leaderboard")
    static let delete = KeyBinding([.character("d"), .delete], help: ("d", "delete / remove (asks)"), footer: "d", "delete")
    static let yes = KeyBinding([.character("y"), .character("Y")], help: ("y / n", "answer a question"), footer: "y", "yes")
    /// Any other key answers no; the footer names n.
    static let no = KeyBinding([.character("n")], footer: "n", "no")

    // MARK: Questions the screen asks, the help screen and the review

    static let upload = KeyBinding([.character("u"), .character("U")], footer: "u", "upload")
    static let erase = KeyBinding([.character("e"), .character("E")], footer: "e", "erase")
    static let alphanumeric: @Sendable (Key) -> Bool = { if case .character(let c) = $0 { (c.isLetter || c.isNumber) && c.isASCII } else { false } }
    static let codeCharacter = KeyBinding([], also: alphanumeric)
    static let codeSeparator = KeyBinding([.character("-"), .character(" ")])
    static let codeErase = KeyBinding([.backspace, .delete])
    static let playCode = KeyBinding([.enter], footer: "Enter", "play")
    static let pairScreen = KeyBinding([.function(5)], help: ("F5", "open it (the header: not paired)"))
    static let pairCharacter = KeyBinding([], also: alphanumeric, help: ("0-9, A-Z", "type the code 'devices add' printed"))
    static let join = KeyBinding([.enter], help: ("Enter", "join your machines"), footer: "Enter", "join")
    static let pairLater = KeyBinding([.escape], help: ("Esc", "later: play on this machine alone"), footer: "Esc", "later")
    static let scrollUp = KeyBinding([.up], footer: nil, "scroll")
    static let scrollDown = KeyBinding([.down])
    static let quitHelp = KeyBinding([.character("q")])

    /// The help screen's sections, in order, each with its rows in order.
    static let sections: [(title: String, bindings: [KeyBinding])] = [
        ("Everywhere", [nextPane, previousPane, screen, help, sync, back, quitWhenNotTyping, quit]),
        ("Game", [typeLetter, submit, deleteLetter, clearGuess, hint, giveUp, newGame, daily, nextGame, nextHardGame, bookmark,
                  review, share, cardUp, cardDown, challengeCode]),
        ("Notepad (Tab from the guess)", [notepadLeft, notepadRight, notepadUp, notepadDown, notepadFirst, notepadLast,
                                          jumpToLetter, cycleMark, markOut, markIn, clearMark, backToGuess]),
        ("Lists", [up, down, pageUp, pageDown, first, last, open, playHard, helpLevel, packChallenge, historyReview,
                   historyBookmark, matches, leaderboard, delete, yes, no]),
        ("Pairing a new machine", [pairScreen, pairCharacter, join, pairLater]),
    ]
}
