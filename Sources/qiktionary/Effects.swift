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
    let player: PlayerDatabase
    private var database: AppDatabase { player.database }
    let lexicon: @Sendable () -> Lexicon
    /// Today's daily game, by this machine's clock.
    let daily: @Sendable () throws(StorageError) -> GameRequest

    init(player: PlayerDatabase, lexicon: @escaping @Sendable () -> Lexicon,
         daily: @escaping @Sendable () throws(StorageError) -> GameRequest) {
        self.player = player
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

    func latestGameInProgress() throws -> SavedGame? { try run(player.latestGameInProgress()) }
    func startGame(_ request: GameRequest) throws -> SavedGame { try run(player.startGame(request, lexicon: lexicon)) }
    func game(id: String) throws -> SavedGame { try run(player.game(id: id)) }
    func gamesInProgress() throws -> [SavedGame] { try run(player.gamesInProgress()) }
    func submitGuess(_ input: String, gameID: String) throws -> PlayedGuess {
        try run(player.submitGuess(input, gameID: gameID, lexicon: lexicon()))
    }
    func mark(_ letter: Character, as mark: LetterMark?, gameID: String) throws -> SavedGame {
        try run(player.mark(letter, as: mark, gameID: gameID))
    }
    func giveUp(gameID: String) throws -> SavedGame { try run(player.giveUp(gameID: gameID)) }
    func deleteGame(id: String) throws { try run(player.deleteGame(id: id)) }
    func history() throws -> [SavedGame] { try run(player.history()) }

    func packs() throws -> [PackProgress] { try run(player.packs()) }
    func bookmarkGame(id: String) throws -> Bookmark { try run(player.bookmarkGame(id: id)) }
    func removeBookmark(word: String) throws { try run(player.removeBookmark(word: word)) }
    func readingList() throws -> [Bookmark] { try run(player.readingList()) }
    func statistics() throws -> Statistics { try run(player.statistics()) }
    func playedGames() throws -> [PlayedGame] { try run(player.playedGames()) }
    func achievements() throws -> [Achievement] { try run(player.achievements()) }

    func candidates(of game: Game) throws -> [String] {
        // The dictionary only for a game of no pack.
        try run(database.candidates(of: game, lexicon: lexicon()))
    }
    func notepadWords(of game: Game) throws -> [String]? { try run(database.notepadWords(of: game, lexicon: lexicon())) }
    func assistLevel() throws -> Assist { try run(player.assistLevel()) }
    func chooseAssist(_ level: Assist) throws { try run(player.chooseAssist(level)) }
    func hint(for game: Game) throws -> Hint { try run(coachHint(for: game)) }
    func recordHint(gameID: String) throws -> SavedGame { try run(player.recordHint(gameID: gameID)) }
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
