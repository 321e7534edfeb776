/// The scores of a finished game's counted guesses: its share grid, published with the result
/// so the end of a match can show both players' grids side by side. No letter, only counts.
public struct MatchGrid: Sendable, Hashable {
    public var rows: [Feedback]

    public init(_ rows: [Feedback]) { self.rows = rows }

    /// The grid as it travels: one row per guess, separated by commas; a classic row is the
    /// letters in common ("3"), a mastermind row in place and in word ("1+2").
    public var text: String {
        rows.map { row in
            switch row {
            case .common(let n): "\(n)"
            case .mastermind(let inPlace, let inWord): "\(inPlace)+\(inWord)"
            }
        }.joined(separator: ",")
    }

    /// The longest text a grid may travel as: 30 guesses of the widest row.
    public static let maxText = 30 * 4 - 1

    /// A grid read back under the match's rules; nil when it is not rows of that form.
    public static func parse(_ text: String, rules: Rules) -> MatchGrid? {
        guard text.utf8.count <= maxText else { return nil }
        if text.isEmpty { return MatchGrid([]) }
        var rows: [Feedback] = []
        for row in text.split(separator: ",", omittingEmptySubsequences: false) {
            let counts = row.split(separator: "+", omittingEmptySubsequences: false).map { part in
                // One ASCII digit: `wholeNumberValue` would also take '٣' or '６'.
                part.utf8.count == 1 ? part.utf8.first.flatMap { (48...57).contains($0) ? Int($0 - 48) : nil } : nil
            }
            switch (rules, counts.count) {
            case (.classic, 1): guard let n = counts[0] else { return nil }; rows.append(.common(n))
            case (.mastermind, 2):
                guard let inPlace = counts[0], let inWord = counts[1] else { return nil }
                rows.append(.mastermind(inPlace: inPlace, inWord: inWord))
            default: return nil
            }
        }
        return MatchGrid(rows)
    }

    /// The grid as the share text draws it: a line of symbols per guess (`ShareText`'s), the
    /// winning one marked with ✓.
    public func lines(length: Int, won: Bool) -> [String] {
        rows.enumerated().map { index, row in
            ShareText.symbols(row, length: length) + (won && index == rows.count - 1 ? " ✓" : "")
        }
    }

    /// Whether a row finds the word: every letter in place (mastermind) or shared (classic,
    /// where an anagram scores the same).
    static func isFull(_ row: Feedback, length: Int) -> Bool {
        switch row {
        case .common(let n): n == length
        case .mastermind(let inPlace, _): inPlace == length
        }
    }
}

/// A finished game of a match as its player publishes it.
public struct MatchResult: Sendable, Equatable {
    /// Won, lost or gave up.
    public var status: GameStatus
    /// The guesses that count (up to the win).
    public var guesses: Int
    public var hints: Int
    /// The help level the game was played at.
    public var assist: Assist
    public var grid: MatchGrid

    /// Who takes the game: a win beats a loss or a give-up; between two wins, fewer guesses, then
    /// fewer hints; anything else is a tie. Above 0 when this result wins, below when `other` does.
    public func versus(_ other: MatchResult) -> Int {
        switch (status == .won, other.status == .won) {
        case (true, false): return 1
        case (false, true): return -1
        case (false, false): return 0
        case (true, true):
            if guesses != other.guesses { return guesses < other.guesses ? 1 : -1 }
            if hints != other.hints { return hints < other.hints ? 1 : -1 }
            return 0
        }
    }
}

/// What one player publishes of one game of a match: while it is on, only the guesses played
/// so far (never a letter or a score); once it is over, the result. The word is never in it:
/// the match's codes give it, and it is shown once both players have finished the game.
public struct MatchPlay: Sendable, Equatable {
    public enum Progress: Sendable, Equatable {
        case playing(guesses: Int)
        case finished(MatchResult)
    }

    public var match: String
    public var player: String
    /// 1, 2 or 3.
    public var index: Int
    public var progress: Progress

    public var result: MatchResult? {
        if case .finished(let result) = progress { return result }
        return nil
    }

    public var isFinished: Bool { result != nil }

    /// What a player publishes of their game `index` of the match, from the game as stored and
    /// the guess counts at which hints were shown. A game played offline on two machines at once
    /// can hold more guesses than its limit; what is published counts at most the limit (a win
    /// keeps its winning row last), so every published result is one a single machine could play.
    public static func of(_ game: Game, hints: [Int], match: Match, player: String, index: Int) -> MatchPlay {
        let limit = match.maxGuesses
        func play(_ progress: Progress) -> MatchPlay { MatchPlay(match: match.id, player: player, index: index, progress: progress) }
        guard game.isFinished else { return play(.playing(guesses: min(game.guesses.count, limit - 1))) }
        var rows = game.guesses.prefix(game.guessesUsed).map(\.feedback)
        switch game.status {
        case .won where rows.count > limit: rows = Array(rows.prefix(limit - 1)) + [rows[rows.count - 1]]
        case .gaveUp: rows = Array(rows.prefix(limit - 1))
        default: rows = Array(rows.prefix(limit))
        }
        let hintPoints = Set(hints).filter { $0 >= 0 && $0 < rows.count + (game.status == .gaveUp ? 1 : 0) }
        return play(.finished(MatchResult(status: game.status, guesses: rows.count, hints: hintPoints.count, assist: game.assist,
                                          grid: MatchGrid(rows))))
    }

    /// Two versions of one play (two machines of the player, or a version read before): the one
    /// further on. A finished game beats one still on, more guesses beat fewer, and between two
    /// results the higher status, then the more guesses, hints and help, then the grid's text:
    /// a total order, so the merge is the same whichever way round and on every machine, and a
    /// play never goes back to an earlier state once seen.
    public static func merge(_ a: MatchPlay, _ b: MatchPlay) -> MatchPlay {
        a.key < b.key ? b : a
    }

    var key: (Int, GameStatus, Int, Int, Assist, String) {
        switch progress {
        case .playing(let guesses): (0, .inProgress, guesses, 0, .noHelp, "")
        case .finished(let r): (1, r.status, r.guesses, r.hints, r.assist, r.grid.text)
        }
    }
}
