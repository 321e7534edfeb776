/// How much help a game gives unasked: the player deduces, and more help is there when chosen.
/// Chosen with `--assist` (or a key on the Packs screen), remembered for the player, fixed for a
/// game when it starts, stored and synced with it, and counted in stats and the share text.
/// Hints are asked for at every level, and counted apart.
public enum Assist: String, Sendable, Codable, CaseIterable, Comparable {
    /// The notepad holds only the player's own marks; no counts. ("none" on the command line and
    /// in files; not named `none`, which `Optional` has already.)
    case noHelp = "none"
    /// The notepad also marks what the feedback so far proves over the dictionary's words that
    /// the rules allow (what a player who knows the dictionary, not the pack, can deduce); no
    /// count of words still possible, nothing from the pack's list.
    case proven
    /// The coach: the words still possible from the pack, their count, and the marks they give.
    case coach

    /// A new player's level.
    public static let standard: Assist = .proven

    /// A game stored before help levels existed had the coach on: its count was on the board.
    public static let before: Assist = .coach

    public static func < (a: Assist, b: Assist) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// The next level, round and round: the Packs screen's key steps through them.
    public var next: Assist { Assist.allCases[(Assist.allCases.firstIndex(of: self)! + 1) % Assist.allCases.count] }

    /// What the notepad's certain marks come from, for its legend.
    public var legend: String {
        switch self {
        case .noHelp: "only your own marks"
        case .proven: "proven by your guesses"
        case .coach: "the coach's words left"
        }
    }

    /// The level in the share text's header and on the cards: "no help", "proven marks", "coach".
    public var shareLabel: String {
        switch self {
        case .noHelp: "no help"
        case .proven: "proven marks"
        case .coach: "coach"
        }
    }

    /// One line for help texts and the Packs screen.
    public var summary: String {
        switch self {
        case .noHelp: "no help: the notepad holds only your marks"
        case .proven: "the notepad marks what your guesses prove"
        case .coach: "the coach: words still possible from the pack, and their marks"
        }
    }
}

extension Game {
    /// The words the notepad's certain marks come from at the game's help level: nothing under
    /// `none`, the dictionary's words the rules allow that fit every score so far under `proven`,
    /// the pack's words still possible under `coach` (`packCandidates`, the coach's). A finished
    /// game shows everything: its word is told, so every letter is known, in or out (what the
    /// guesses proved included, whatever the pack here holds).
    public func notepadWords<E: Error>(lexicon: () -> Lexicon, packCandidates: () throws(E) -> [String]) throws(E) -> [String]? {
        if isFinished { return [secret] }
        switch assist {
        case .noHelp: return nil
        case .proven: return Notepad.provenWords(rules: rules, length: length, guesses: guesses, lexicon: lexicon())
        case .coach: return try packCandidates()
        }
    }
}

extension Notepad {
    /// The dictionary's words of the length that the rules allow as a secret and that fit every
    /// score so far: a letter in all of them is proven in, a letter in none proven out, for any
    /// secret the dictionary holds.
    public static func provenWords(rules: Rules, length: Int, guesses: [Guess], lexicon: Lexicon) -> [String] {
        let words = lexicon.words(ofLength: length).filter(rules.allows)
        return Solver(rules: rules, length: length, answers: words, guesses: []).candidates(after: guesses)
    }
}
