/// Every key of the interface, as the help screen lists it. Tests walk this list, so a key
/// added here without a test fails the suite.
public struct HelpEntry: Sendable, Equatable {
    public var keys: String
    public var action: String
}

public struct HelpSection: Sendable, Equatable {
    public var title: String
    public var entries: [HelpEntry]
}

public enum HelpKeys {
    public static let sections: [HelpSection] = [
        HelpSection(title: "Everywhere", entries: [
            HelpEntry(keys: "Tab, S-Tab", action: "next / previous pane"),
            HelpEntry(keys: "1 to 6", action: "go to a screen"),
            HelpEntry(keys: "F1, ?", action: "this help"),
            HelpEntry(keys: "F5, Ctrl-R", action: "sync now"),
            HelpEntry(keys: "Esc", action: "back to the game"),
            HelpEntry(keys: "q", action: "quit when not typing"),
            HelpEntry(keys: "Ctrl-C", action: "quit"),
        ]),
        HelpSection(title: "Game", entries: [
            HelpEntry(keys: "a to z", action: "type a guess"),
            HelpEntry(keys: "Enter", action: "submit the guess"),
            HelpEntry(keys: "Backspace, Ctrl-H", action: "delete a letter"),
            HelpEntry(keys: "Ctrl-U", action: "clear the guess"),
            HelpEntry(keys: "F2", action: "a hint (counted)"),
            HelpEntry(keys: "Ctrl-G", action: "give up (asks first)"),
            HelpEntry(keys: "Ctrl-N", action: "start another game"),
            HelpEntry(keys: "Ctrl-D", action: "today's daily word"),
            HelpEntry(keys: "n, Enter", action: "next game, once over"),
            HelpEntry(keys: "h", action: "next game, hard mode"),
            HelpEntry(keys: "b", action: "bookmark, once over"),
            HelpEntry(keys: "r", action: "review, once over"),
            HelpEntry(keys: "s", action: "share, once over"),
            HelpEntry(keys: "Up/Down", action: "scroll the card, once over"),
            HelpEntry(keys: "c", action: "play a challenge code"),
        ]),
        HelpSection(title: "Notepad (Tab from the guess)", entries: [
            HelpEntry(keys: "arrows", action: "move between letters"),
            HelpEntry(keys: "a to z", action: "jump to a letter"),
            HelpEntry(keys: "Space", action: "cycle unknown/out/in"),
            HelpEntry(keys: "- / +", action: "mark out / in"),
            HelpEntry(keys: "Backspace", action: "clear the mark"),
            HelpEntry(keys: "Enter", action: "back to the guess"),
        ]),
        HelpSection(title: "Lists", entries: [
            HelpEntry(keys: "Up/Down, j/k", action: "choose"),
            HelpEntry(keys: "PgUp/PgDn", action: "a page up / down"),
            HelpEntry(keys: "Home/End", action: "first / last"),
            HelpEntry(keys: "Enter", action: "play, resume, open"),
            HelpEntry(keys: "h", action: "play hard (packs)"),
            HelpEntry(keys: "a", action: "help level (packs)"),
            HelpEntry(keys: "c", action: "challenge code (packs)"),
            HelpEntry(keys: "r", action: "review (history)"),
            HelpEntry(keys: "b", action: "bookmark (history)"),
            HelpEntry(keys: "d", action: "delete / remove (asks)"),
            HelpEntry(keys: "y / n", action: "answer a question"),
        ]),
    ]
}
