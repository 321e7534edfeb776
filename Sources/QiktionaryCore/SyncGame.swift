import Foundation

/// A game as it travels between machines: every field a game carries through storage, the cloud,
/// an export and a merge. Its guesses and marks are values of their own. Each place a game is
/// kept maps this one value (a database row, a cloud record, an export's entry); each builds it
/// through the one initializer, which has no default, so a field added here and forgotten there
/// does not compile.
public struct SyncGame: Sendable, Equatable, Codable {
    public var id: String
    public var packID: String
    public var secret: String
    public var fact: String
    public var rules: Rules
    public var maxGuesses: Int
    public var status: GameStatus
    public var startedAt: Date
    public var updatedAt: Date
    public var finishedAt: Date?
    public var startedOn: String
    public var lastChangedOn: String
    /// Hard mode, fixed when the game starts.
    public var hard: Bool
    /// The help level, fixed when the game starts (`Assist`); merged as the higher.
    public var assist: Assist
    /// Hints taken (`HintLog`'s text): merged as a union.
    public var hints: String
    /// The date of a daily game (the local date it was started on).
    public var daily: String?
    /// For a game of a match, the result the player's machines published of it, the furthest
    /// on (`MatchResult.text`); merged as the one further on (`MatchResult.furthest`). A play
    /// once published is never taken back by those who read it, so every machine of the player
    /// shows and publishes the furthest any of them published, even where the merged guesses
    /// would count fewer.
    public var matchResult: String?

    public init(id: String, packID: String, secret: String, fact: String, rules: Rules, maxGuesses: Int, status: GameStatus,
                startedAt: Date, updatedAt: Date, finishedAt: Date?, startedOn: String, lastChangedOn: String,
                hard: Bool, assist: Assist, hints: String, daily: String?, matchResult: String?) {
        self.id = id
        self.packID = packID
        self.secret = secret
        self.fact = fact
        self.rules = rules
        self.maxGuesses = maxGuesses
        self.status = status
        self.startedAt = startedAt
        self.updatedAt = updatedAt
        self.finishedAt = finishedAt
        self.startedOn = startedOn
        self.lastChangedOn = lastChangedOn
        self.hard = hard
        self.assist = assist
        self.hints = hints
        self.daily = daily
        self.matchResult = matchResult
    }
}

extension SyncGame {
    /// A game just started: the one place a new game's fields take their first values, for every
    /// way a game starts (solo, daily, challenge and match play). In progress, changed when it
    /// started and where, no hint taken yet. A field added to the game with a first value every
    /// new game shares takes it here.
    public static func started(id: String, packID: String, secret: String, fact: String, rules: Rules, maxGuesses: Int,
                               hard: Bool, assist: Assist, daily: String?, at now: Date, on device: String) -> SyncGame {
        SyncGame(id: id, packID: packID, secret: secret, fact: fact, rules: rules, maxGuesses: maxGuesses, status: .inProgress,
                 startedAt: now, updatedAt: now, finishedAt: nil, startedOn: device, lastChangedOn: device,
                 hard: hard, assist: assist, hints: "", daily: daily, matchResult: nil)
    }
}

/// The game's conflict rules, as pure functions: two copies of one game (two machines' edits,
/// or a game and an import of it) become one the same way everywhere. Storage applies them;
/// docs/sync.md tells them in words.
public enum GameMerge {
    /// The higher status wins with its finish time (the earlier one when both reached it); the
    /// later change names the device (ties broken by the device's name, so the merge does not
    /// depend on which copy is whose); hints are united; hard mode and the daily date, fixed
    /// when the game started, are kept from whichever copy has them; the help level is the
    /// higher of the two (more help seen is never forgotten); of two match results, the one
    /// further on. What makes the game (its id,
    /// word, pack, fact, rules, limit and start) is the first copy's: both copies have it alike.
    /// Every field is named here, so a field added to the game needs its rule.
    public static func merge(_ a: SyncGame, _ b: SyncGame) -> SyncGame {
        let status = max(a.status, b.status)
        let finishes = [a, b].filter { $0.status == status }.compactMap(\.finishedAt)
        let later = (a.updatedAt, a.lastChangedOn) >= (b.updatedAt, b.lastChangedOn) ? a : b
        return SyncGame(
            id: a.id, packID: a.packID, secret: a.secret, fact: a.fact, rules: a.rules, maxGuesses: a.maxGuesses, status: status,
            startedAt: a.startedAt, updatedAt: later.updatedAt,
            finishedAt: status.isFinished ? finishes.min() ?? a.finishedAt ?? b.finishedAt : nil,
            startedOn: a.startedOn, lastChangedOn: later.lastChangedOn, hard: a.hard || b.hard, assist: max(a.assist, b.assist),
            hints: HintLog.union(a.hints, b.hints), daily: a.daily ?? b.daily,
            matchResult: MatchResult.furthest(a.matchResult, b.matchResult))
    }

    /// What a game's guesses, in their played order, prove: a guess of the secret wins (finished
    /// when it was played), a full board loses (finished with its last guess); never a lower
    /// status than the game had, and a won game stays as it is.
    public static func settle(status: GameStatus, finishedAt: Date?, secret: String, maxGuesses: Int,
                              guesses: [(word: String, playedAt: Date)]) -> (status: GameStatus, finishedAt: Date?) {
        guard status != .won else { return (status, finishedAt) }
        if let winning = Game.winningIndex(of: guesses.map(\.word), secret: secret) { return (.won, guesses[winning].playedAt) }
        if guesses.count >= maxGuesses, status < .lost, let last = guesses.last { return (.lost, last.playedAt) }
        return (status, finishedAt)
    }
}
