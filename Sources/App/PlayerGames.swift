import Foundation
import QiktionaryCore
import Storage

/// The use cases of playing, for every front end (plain mode, the full-screen game's effects,
/// the commands): the player's data with this run's player, dictionary and daily clock bound
/// in. The dictionary is loaded only when first needed (a guess, a practice word, the coach, a
/// finished game's challenge code).
///
/// A guess the rules refuse is thrown as the bare `GuessRejection`; any other error is a
/// `PlayerDataError`, whose description is the sentence a person reads.
public struct PlayerGames: Sendable {
    public let player: PlayerDatabase
    private var database: AppDatabase { player.database }
    public let lexicon: @Sendable () -> Lexicon
    /// Today's daily game, by this machine's clock.
    let daily: @Sendable () throws(StorageError) -> GameRequest
    /// The daily word's clock, for the time to the next daily.
    public let dailyClock: @Sendable () -> DailyClock

    public init(player: PlayerDatabase, lexicon: @escaping @Sendable () -> Lexicon,
                daily: @escaping @Sendable () throws(StorageError) -> GameRequest = { () throws(StorageError) -> GameRequest in
                    throw .packEmpty("(no daily word here)")
                },
                dailyClock: @escaping @Sendable () -> DailyClock = { DailyClock.system() }) {
        self.player = player
        self.lexicon = lexicon
        self.daily = daily
        self.dailyClock = dailyClock
    }

    /// The player and this machine.
    public var profile: Profile { player.profile }

    /// Runs a storage call, turning its error into what the front ends get.
    func run<T>(_ body: () throws(StorageError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            if case .rejected(let rejection) = error { throw rejection }
            throw PlayerDataError(error)
        }
    }

    // MARK: Starting and resuming

    /// Starts as asked, or resumes: a request that names nothing in particular (no pack, word,
    /// hard mode or date) resumes the most recent game in progress when there is one; a daily
    /// game already started is resumed, not started twice.
    public func begin(_ request: GameRequest) throws -> (game: SavedGame, resumed: Bool) {
        if request.packID == nil && request.word == nil && !request.hard && request.daily == nil, let latest = try latestGameInProgress() {
            return (latest, true)
        }
        return try start(request)
    }

    /// Starts a game as asked; `resumed` when it is a daily game already here.
    public func start(_ request: GameRequest) throws -> (game: SavedGame, resumed: Bool) {
        let existing = request.daily.flatMap { try? player.game(id: DailyWord.gameID(player: profile.playerID, date: $0)) }
        return (try startGame(request), existing != nil)
    }

    public func latestGameInProgress() throws -> SavedGame? { try run { () throws(StorageError) in try player.latestGameInProgress() } }
    public func startGame(_ request: GameRequest) throws -> SavedGame { try run { () throws(StorageError) in try player.startGame(request, lexicon: lexicon) } }
    /// Refuses a request whose pack or word cannot be played, before a screen opens.
    public func check(_ request: GameRequest) throws { try run { () throws(StorageError) in try player.check(request, lexicon: lexicon) } }

    // MARK: Playing

    public func game(id: String) throws -> SavedGame { try run { () throws(StorageError) in try player.game(id: id) } }
    /// A game by its id or the start of it.
    public func game(idOrPrefix: String) throws -> SavedGame { try run { () throws(StorageError) in try player.game(idOrPrefix: idOrPrefix) } }
    /// What a finished game is asked for, which names why a game still in play is refused.
    public enum FinishedGameUse { case review, deletion }

    /// A finished game by its id or the start of it; one still in play is refused.
    public func finishedGame(idOrPrefix: String, for use: FinishedGameUse) throws -> SavedGame {
        let saved = try game(idOrPrefix: idOrPrefix)
        guard saved.game.isFinished else {
            throw PlayerDataError(use == .review ? .notFinishedForReview(saved.id) : .gameInProgress(saved.id))
        }
        if use == .deletion { try refuseDeletingAMatchGame(saved.id) }
        return saved
    }
    /// A game asked for by its id or the start of it, to play on: one that is over is refused
    /// (`Resumption.refusal`).
    public func resume(idOrPrefix: String) throws -> SavedGame {
        let saved = try game(idOrPrefix: idOrPrefix)
        if let refusal = Resumption.refusal(resuming: saved) { throw refusal }
        return saved
    }
    public func gamesInProgress() throws -> [SavedGame] { try run { () throws(StorageError) in try player.gamesInProgress() } }
    public func submitGuess(_ input: String, gameID: String) throws -> PlayedGuess {
        try run { () throws(StorageError) in try player.submitGuess(input, gameID: gameID, lexicon: lexicon()) }
    }
    public func mark(_ letter: Character, as mark: LetterMark?, gameID: String) throws -> SavedGame {
        try run { () throws(StorageError) in try player.mark(letter, as: mark, gameID: gameID) }
    }
    public func giveUp(gameID: String) throws -> SavedGame { try run { () throws(StorageError) in try player.giveUp(gameID: gameID) } }
    /// Takes a finished game out of the history; a game of a match is refused
    /// (`refuseDeletingAMatchGame`).
    public func deleteGame(id: String) throws {
        try refuseDeletingAMatchGame(id)
        try run { () throws(StorageError) in try player.deleteGame(id: id) }
    }
    public func history() throws -> [SavedGame] { try run { () throws(StorageError) in try player.history() } }

    // MARK: Packs, reading list, statistics

    public func packs() throws -> [PackProgress] { try run { () throws(StorageError) in try player.packs() } }
    /// Bookmarks the fact of a word played (a pack's or a game's).
    public func addBookmark(word: String) throws -> Bookmark { try run { () throws(StorageError) in try player.addBookmark(word: word) } }
    public func bookmarkGame(id: String) throws -> Bookmark { try run { () throws(StorageError) in try player.bookmarkGame(id: id) } }
    /// Takes a finished game's word off the reading list; a game in play keeps its word secret.
    public func unbookmark(_ saved: SavedGame) throws {
        guard saved.game.isFinished else { throw PlayerDataError(.gameNotFinished) }
        try removeBookmark(word: saved.game.secret)
    }
    public func removeBookmark(word: String) throws { try run { () throws(StorageError) in try player.removeBookmark(word: word) } }
    public func readingList() throws -> [Bookmark] { try run { () throws(StorageError) in try player.readingList() } }
    /// What `stats` and the statistics screen show, worked out once for both.
    public func statsSummary() throws -> StatsSummary {
        try run { () throws(StorageError) in
            StatsSummary(statistics: try player.statistics(), achievements: try player.achievements(), playedGames: try player.playedGames())
        }
    }

    // MARK: The coach

    /// The coach for a game: its pack's words as the answers (the dictionary's when it has no
    /// pack), the dictionary's as the guesses.
    private func coach(for game: Game) throws(StorageError) -> GameCoach {
        GameCoach(game: game, packAnswers: try database.answers(for: game), lexicon: lexicon())
    }

    /// The answers still possible in a game; the dictionary is loaded only for a game of no pack.
    public func candidates(of game: Game) throws -> [String] { try run { () throws(StorageError) in try answersLeft(in: game) } }
    /// The words the game's notepad deduces from at its help level (`Game.notepadWords`).
    public func notepadWords(of game: Game) throws -> [String]? {
        try run { () throws(StorageError) in try game.notepadWords(lexicon: lexicon) { () throws(StorageError) in try answersLeft(in: game) } }
    }
    private func answersLeft(in game: Game) throws(StorageError) -> [String] {
        GameCoach.candidates(of: game, packAnswers: try database.answers(for: game), lexicon: lexicon())
    }
    /// When this machine last synced (any process on its data dir), nil when it never has.
    public func lastSynced() throws -> Date? { try run { () throws(StorageError) in try player.syncStatus().lastSyncAt } }
    public func assistLevel() throws -> Assist { try run { () throws(StorageError) in try player.assistLevel() } }
    public func chooseAssist(_ level: Assist) throws { try run { () throws(StorageError) in try player.chooseAssist(level) } }

    /// The coach's best next guess in a game in progress, counted with the game: the game as
    /// saved with the hint, and the hint.
    public func takeHint(gameID: String) throws -> (game: SavedGame, hint: Hint) {
        let saved = try game(id: gameID)
        if saved.game.isFinished { throw GuessRejection.gameOver }
        let hint = try hint(for: saved.game)
        return (try run { () throws(StorageError) in try player.recordHint(gameID: gameID) }, hint)
    }
    /// The coach's best next guess; throws when no answer fits.
    public func hint(for game: Game) throws -> Hint {
        try run { () throws(StorageError) in
            guard let hint = try coach(for: game).hint(for: game) else { throw .noHint }
            return hint
        }
    }
    /// The coach's review of a finished game.
    public func review(of saved: SavedGame) throws -> Review {
        try run { () throws(StorageError) in
            guard saved.game.isFinished else { throw .notFinishedForReview(saved.id) }
            return try coach(for: saved.game).review(of: saved.game)
        }
    }

    // MARK: The daily word (challenges and sharing: Challenges.swift)

    public func dailyRequest() throws -> GameRequest { try run(daily) }
}
