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

extension MatchResult {
    /// The result as its game keeps it (`SyncGame.matchResult`): status, guesses, hints, help
    /// level and grid, separated by spaces ("won 3 1 proven 1+2,0+3,5+0").
    public var text: String { "\(status.rawValue) \(guesses) \(hints) \(assist.rawValue) \(grid.text)" }

    /// A kept result's fields as a play of game `game` of `match` by `player`, to be checked
    /// against the match (`MatchPlay(checking:in:publishedBy:)`); nil when the text is not of
    /// the form `text` writes.
    public static func fields(_ text: String, match: String, player: String, game: Int) -> MatchPlay.Fields? {
        guard let key = key(text) else { return nil }
        return MatchPlay.Fields(match: match, player: player, game: game, status: key.status.rawValue, guesses: key.guesses,
                                hints: key.hints, assist: key.assist.rawValue, grid: key.grid)
    }

    /// Of two kept results, the one further on, in the order `MatchPlay.merge` takes results:
    /// a text not of `text`'s form gives way (two such: the greater text), so the merge is the
    /// same whichever way round, and taking one twice changes nothing.
    public static func furthest(_ a: String?, _ b: String?) -> String? {
        guard let a, let b else { return a ?? b }
        switch (key(a), key(b)) {
        case let (x?, y?): return (x.status, x.guesses, x.hints, x.assist, x.grid) < (y.status, y.guesses, y.hints, y.assist, y.grid) ? b : a
        case (_?, nil): return a
        case (nil, _?): return b
        case (nil, nil): return max(a, b)
        }
    }

    /// A kept text's parts, read loosely (the match checks them); nil when not five parts of
    /// the right kinds, or longer than `Limits.matchResultLength`.
    private static func key(_ text: String) -> (status: GameStatus, guesses: Int, hints: Int, assist: Assist, grid: String)? {
        guard text.utf8.count <= Limits.matchResultLength else { return nil }
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 5, let status = GameStatus(rawValue: String(parts[0])), status.isFinished,
              let guesses = Int(parts[1]), guesses >= 0, let hints = Int(parts[2]), hints >= 0,
              let assist = Assist(rawValue: String(parts[3])) else { return nil }
        return (status, guesses, hints, assist, String(parts[4]))
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
    /// `kept`: the result the player's machines published of the game before
    /// (`SyncGame.matchResult`); the play is the further on of it and of what the game gives, so
    /// a play once published is never taken back, whatever guesses the game merged since.
    public static func of(_ game: Game, hints: [Int], match: Match, player: String, index: Int, kept: String?) -> MatchPlay {
        let derived = derived(game, hints: hints, match: match, player: player, index: index)
        guard let kept, let fields = MatchResult.fields(kept, match: match.id, player: player, game: index),
              let published = try? MatchPlay(checking: fields, in: match, publishedBy: player) else { return derived }
        return merge(derived, published)
    }

    private static func derived(_ game: Game, hints: [Int], match: Match, player: String, index: Int) -> MatchPlay {
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
