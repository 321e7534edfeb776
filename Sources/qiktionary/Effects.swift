import Foundation
import GameUI
import QiktionaryCore
import Storage

/// The player's data for the full-screen game's effects (`EffectInterpreter`): `AppDatabase`
/// with this run's player and dictionary bound in. The dictionary is loaded only when first
/// needed (a guess, a practice word, the coach, a finished game's challenge code).
///
/// Errors are `StorageError`s, whose descriptions are the status lines the player reads; a
/// guess the rules refuse is thrown as the bare `GuessRejection`, which the interpreter knows.
struct LiveGameData: GameData {
    let database: AppDatabase
    let profile: Profile
    let lexicon: @Sendable () -> Lexicon
    /// Today's daily game, by this machine's clock.
    let daily: @Sendable () throws(StorageError) -> GameRequest

    init(database: AppDatabase, profile: Profile, lexicon: @escaping @Sendable () -> Lexicon,
         daily: @escaping @Sendable () throws(StorageError) -> GameRequest) {
        self.database = database
        self.profile = profile
        self.lexicon = lexicon
        self.daily = daily
    }

    /// Runs a storage call, unwrapping a refusal of the rules.
    private func run<T>(_ body: @autoclosure () throws(StorageError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            if case .rejected(let rejection) = error { throw rejection }
            throw error
        }
    }

    func latestGameInProgress() throws -> SavedGame? { try run(database.latestGameInProgress(profile: profile)) }
    func startGame(_ request: GameRequest) throws -> SavedGame { try run(database.startGame(request, profile: profile, lexicon: lexicon)) }
    func game(id: String) throws -> SavedGame { try run(database.game(id: id, profile: profile)) }
    func gamesInProgress() throws -> [SavedGame] { try run(database.gamesInProgress(profile: profile)) }
    func submitGuess(_ input: String, gameID: String) throws -> PlayedGuess {
        try run(database.submitGuess(input, gameID: gameID, lexicon: lexicon(), profile: profile))
    }
    func mark(_ letter: Character, as mark: LetterMark?, gameID: String) throws -> SavedGame {
        try run(database.mark(letter, as: mark, gameID: gameID, profile: profile))
    }
    func giveUp(gameID: String) throws -> SavedGame { try run(database.giveUp(gameID: gameID, profile: profile)) }
    func deleteGame(id: String) throws { try run(database.deleteGame(id: id, profile: profile)) }
    func history() throws -> [SavedGame] { try run(database.history(profile: profile)) }

    func packs() throws -> [PackProgress] { try run(database.packs(profile: profile)) }
    func bookmarkGame(id: String) throws -> Bookmark { try run(database.bookmarkGame(id: id, profile: profile)) }
    func removeBookmark(word: String) throws { try run(database.removeBookmark(word: word, profile: profile)) }
    func readingList() throws -> [Bookmark] { try run(database.readingList(profile: profile)) }
    func statistics() throws -> Statistics { try run(database.statistics(profile: profile)) }
    func playedGames() throws -> [PlayedGame] { try run(database.playedGames(profile: profile)) }
    func achievements() throws -> [Achievement] { try run(database.achievements(profile: profile)) }

    func candidates(of game: Game) throws -> [String] {
        // The dictionary only for a game of no pack.
        try run(database.candidates(of: game, lexicon: lexicon()))
    }
    func hint(for game: Game) throws -> Hint { try run(coachHint(for: game)) }
    func recordHint(gameID: String) throws -> SavedGame { try run(database.recordHint(gameID: gameID, profile: profile)) }
    func review(of saved: SavedGame) throws -> Review { try run(coachReview(of: saved)) }

    private func coachHint(for game: Game) throws(StorageError) -> Hint {
        guard let hint = try database.coach(for: game, lexicon: lexicon()).hint(for: game) else { throw .noHint }
        return hint
    }

    private func coachReview(of saved: SavedGame) throws(StorageError) -> Review {
        guard saved.game.isFinished else { throw .notFinishedForReview(saved.id) }
        return try database.coach(for: saved.game, lexicon: lexicon()).review(of: saved.game)
    }

    func dailyRequest() throws -> GameRequest { try run(daily()) }
    func challengeRequest(code: String) throws -> GameRequest { try run(database.challengeRequest(code: code, lexicon: lexicon())) }
    func challengeCode(for game: Game) throws -> String? { try run(database.challengeCode(for: game, lexicon: lexicon())) }
    func shareText(for saved: SavedGame) throws -> String { try run(database.shareText(for: saved)) }
}

/// The full-screen game's sync, as the effects ask for it.
extension BackgroundSync: BackgroundSyncing {}
