import Foundation

// The values storage gives back and the interface shows: plain data, in Core so the interface
// needs no storage to show them.

/// A game as stored: the value it travels as (`SyncGame`, held whole, so a field added there is
/// here with nothing to copy), the rules' view of it (its guesses and marks), and what this
/// machine knows of it besides.
public struct SavedGame: Sendable, Equatable {
    /// Every synced field of the game.
    public var synced: SyncGame
    /// The rules' view: the synced game with its guesses and marks.
    public var game: Game
    public var bookmarked: Bool
    /// The device each guess was played on, in the order of `game.guesses`.
    public var guessDevices: [String]

    public var fact: String {
        get { synced.fact }
        set { synced.fact = newValue }
    }
    public var startedAt: Date {
        get { synced.startedAt }
        set { synced.startedAt = newValue }
    }
    public var updatedAt: Date {
        get { synced.updatedAt }
        set { synced.updatedAt = newValue }
    }
    public var finishedAt: Date? {
        get { synced.finishedAt }
        set { synced.finishedAt = newValue }
    }
    /// Name of the device the game was started on.
    public var startedOn: String {
        get { synced.startedOn }
        set { synced.startedOn = newValue }
    }
    /// Name of the device that last changed the game.
    public var lastChangedOn: String {
        get { synced.lastChangedOn }
        set { synced.lastChangedOn = newValue }
    }
    /// The guess counts at which the player took a hint (0: before the first guess), sorted.
    public var hints: [Int] {
        get { HintLog.parse(synced.hints) ?? [] }
        set { synced.hints = HintLog.text(newValue) }
    }
    /// The date of a daily game ("2026-11-22", the local date it was started on); nil for any other game.
    public var daily: String? {
        get { synced.daily }
        set { synced.daily = newValue }
    }

    /// Whether more than one machine played this game's guesses (then each guess says where).
    public var playedOnSeveralDevices: Bool { Set(guessDevices).count > 1 }

    /// The device the winning guess was played on, for a won game.
    public var foundOn: String? {
        guard let win = game.winningIndex, guessDevices.indices.contains(win) else { return nil }
        return guessDevices[win]
    }

    /// The game as it is shown, from the value it travels as and its guesses and marks.
    public init(_ synced: SyncGame, guesses: [Guess], marks: [Character: LetterMark], bookmarked: Bool, guessDevices: [String]) {
        self.synced = synced
        self.game = Game(id: synced.id, packID: synced.packID, secret: synced.secret, rules: synced.rules, maxGuesses: synced.maxGuesses,
                         hard: synced.hard, assist: synced.assist, guesses: guesses, status: synced.status, marks: marks)
        self.bookmarked = bookmarked
        self.guessDevices = guessDevices
    }

    public var id: String { game.id }
    /// A game on a word of no pack: it has no fact and counts in no pack's progress.
    public var isPractice: Bool { game.packID == Practice.packID }
}

/// A guess just played, as saved.
public struct PlayedGuess: Sendable, Equatable {
    public var guess: Guess
    /// 1 for the first guess of the game.
    public var number: Int
    public var game: SavedGame

    public init(guess: Guess, number: Int, game: SavedGame) {
        self.guess = guess
        self.number = number
        self.game = game
    }
}

/// A bookmarked fact on the reading list.
public struct Bookmark: Sendable, Equatable {
    public var word: String
    public var packID: String
    public var fact: String
    public var addedAt: Date

    public init(word: String, packID: String, fact: String, addedAt: Date) {
        self.word = word
        self.packID = packID
        self.fact = fact
        self.addedAt = addedAt
    }
}

/// A pack with the player's progress through it. Encoded as it is, it is the object
/// `packs --json` prints for each pack: a renamed property changes that output.
public struct PackProgress: Sendable, Equatable, Encodable {
    public var id: String
    public var title: String
    public var description: String
    public var length: Int
    public var rules: Rules
    public var maxGuesses: Int
    public var words: Int
    /// Distinct words of the pack the player has won.
    public var solved: Int

    public init(id: String, title: String, description: String, length: Int, rules: Rules, maxGuesses: Int, words: Int, solved: Int) {
        self.id = id
        self.title = title
        self.description = description
        self.length = length
        self.rules = rules
        self.maxGuesses = maxGuesses
        self.words = words
        self.solved = solved
    }
}

/// How to start a game; anything left out is chosen for the player.
public struct GameRequest: Sendable, Equatable {
    public var packID: String?
    public var word: String?
    public var rules: Rules?
    public var seed: UInt64?
    public var hard: Bool
    /// The help level of the game; nil takes the player's own (`Assist`).
    public var assist: Assist?
    /// The day's word: the UTC date it is for. The game has the id that date and player give it
    /// everywhere, and is resumed rather than started again.
    public var daily: String?

    public init(packID: String? = nil, word: String? = nil, rules: Rules? = nil, seed: UInt64? = nil, hard: Bool = false,
                assist: Assist? = nil, daily: String? = nil) {
        self.packID = packID
        self.word = word
        self.rules = rules
        self.seed = seed
        self.hard = hard
        self.assist = assist
        self.daily = daily
    }
}

/// Hints taken, as stored and synced: the guess counts at which each was shown. A set that only
/// grows, so two machines' copies merge as a union and nothing is counted twice.
public enum HintLog {
    public static func parse(_ text: String) -> [Int]? {
        listed(text).map { Array(Set($0)).sorted() }
    }

    /// The counts as the text lists them, repeats and all (`Limits.areHints` checks them); nil
    /// when it is not a list of counts of 0 to 1000.
    public static func listed(_ text: String) -> [Int]? {
        if text.isEmpty { return [] }
        var counts: [Int] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard part.count <= 4, let n = Int(part), (0...Limits.positions.upperBound).contains(n) else { return nil }
            counts.append(n)
        }
        return counts
    }

    public static func text(_ counts: [Int]) -> String {
        Array(Set(counts)).sorted().map(String.init).joined(separator: ",")
    }

    public static func union(_ a: String, _ b: String) -> String {
        text((parse(a) ?? []) + (parse(b) ?? []))
    }
}

/// Games on a word of no pack.
public enum Practice {
    /// The pack id such a game keeps (the pack checks refuse it for a pack).
    public static let packID = Pack.practiceID
    /// What the card says in place of a fact.
    public static let noFact = "No fact for this word: it is in no pack, so this was a practice game."
    /// The rules of a practice game on `word`: classic, unless the word repeats a letter, which
    /// only mastermind rules allow.
    public static func rules(for word: String) -> Rules { word.hasRepeatedLetters ? .mastermind : .classic }
}
