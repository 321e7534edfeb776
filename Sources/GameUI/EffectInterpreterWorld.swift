import Foundation
import QiktionaryCore

/// The player's data as the effects see it: their games, the packs, the reading list, the
/// statistics, the coach and challenge codes. The program's implementation is the application
/// layer's use cases (`App.PlayerGames`, the database with the player and the dictionary bound
/// in); tests use one in memory.
///
/// Any method may throw. A guess the rules refuse throws Core's `GuessRejection`, so the
/// interpreter tells a refusal from a failure; any other error is shown to the player as its
/// description (`String(describing:)`), so it should read as a sentence.
///
/// It is five protocols, each what one screen (or group of screens) asks of: the board, the
/// lists, the coach, the daily word and challenges, the matches. The interpreter takes the
/// five together (`PlayerGames` is all of them); a new screen's calls go in its own part.
public typealias GameData = BoardData & ListData & CoachData & ChallengeData & MatchData

/// The game on the board: starting, resuming, playing and ending it.
public protocol BoardData: Sendable {
    /// Starts as asked, or, when nothing in particular was asked for (no pack, word, hard mode or
    /// date), resumes the most recently changed game in progress (one with a guess before one
    /// never played) when there is one.
    func begin(_ request: GameRequest) throws -> (game: SavedGame, resumed: Bool)
    /// Starts a game as asked (a daily game already started is resumed, not started twice).
    func startGame(_ request: GameRequest) throws -> SavedGame
    func game(id: String) throws -> SavedGame
    /// Games in progress that have a guess, most recently changed first.
    func gamesInProgress() throws -> [SavedGame]
    /// Checks and saves a guess; throws `GuessRejection` when the rules refuse it.
    func submitGuess(_ input: String, gameID: String) throws -> PlayedGuess
    /// Sets or clears (nil) the player's mark on one letter of the notepad.
    func mark(_ letter: Character, as mark: LetterMark?, gameID: String) throws -> SavedGame
    func giveUp(gameID: String) throws -> SavedGame
    func deleteGame(id: String) throws
    func history() throws -> [SavedGame]
}

/// The list screens: packs, games in progress, history, the reading list, the statistics, the help level.
public protocol ListData: Sendable {
    func packs() throws -> [PackProgress]
    func bookmarkGame(id: String) throws -> Bookmark
    func removeBookmark(word: String) throws
    func readingList() throws -> [Bookmark]
    /// The statistics, the achievements and the daily streaks, as `stats` prints them.
    func statsSummary() throws -> StatsSummary
}

/// The coach: the words still possible, the notepad's words, hints and reviews.
public protocol CoachData: Sendable {
    /// The answers still possible in a game.
    func candidates(of game: Game) throws -> [String]
    /// The words the notepad deduces from at the game's help level (`Game.notepadWords`): nil
    /// under `none`, the dictionary's words that fit under `proven`, the pack's under `coach`.
    func notepadWords(of game: Game) throws -> [String]?
    /// The player's help level, the one a new game takes.
    func assistLevel() throws -> Assist
    /// Makes a level the player's, for their next games.
    func chooseAssist(_ level: Assist) throws
    /// The coach's best next guess in a game in progress, counted with the game before its
    /// next guess: the game as saved, and the hint. Throws `GuessRejection.gameOver` for a
    /// finished game, and when no answer fits.
    func takeHint(gameID: String) throws -> (game: SavedGame, hint: Hint)
    /// The coach's review of a game; throws when the game is not finished.
    func review(of saved: SavedGame) throws -> Review
}

/// The daily word, challenge codes and the share text.
public protocol ChallengeData: Sendable {
    /// Today's daily game, by this machine's clock.
    func dailyRequest() throws -> GameRequest
    /// The game a challenge code names.
    func challengeRequest(code: String) throws -> GameRequest
    /// The code that passes a finished game on; nil for a word a code cannot carry.
    func challengeCode(for game: Game) throws -> String?
    /// The spoiler-free summary of a finished game.
    func shareText(for saved: SavedGame) throws -> String
}

/// The matches and leaderboards screens.
public protocol MatchData: Sendable {
    /// The matches this player is in, newest first.
    func matches() throws -> [MatchOverview]
    /// Starts or resumes this player's next unfinished game of a match.
    func beginMatchGame(matchID: String) throws -> SavedGame
    /// The match a game belongs to; nil for a game of no match.
    func matchOverview(ofGame gameID: String) throws -> MatchOverview?
    /// The leaderboards of a day (`YYYY-MM-DD`) and of all time.
    func leaderboards(day: String) throws -> Leaderboards
}

/// The sync that runs beside the game, on a thread of its own; it reports through the inbox
/// the event loop reads, never through the effects' answers.
public protocol BackgroundSyncing: Sendable {
    /// Asks for a round (`manual`: the player pressed F5, so its outcome is always reported).
    func request(manual: Bool)
    /// Answers a reset made on another machine: keep this machine's games (upload) or not.
    func adoptReset(keepLocal: Bool)
    /// Joins this machine to its player's machines with a code from `devices add` on one of
    /// them, then syncs; the line that says so, or throws why the code was refused.
    func join(code: String) throws -> String
    /// Waits for the first round to end, at most `seconds`.
    func waitForFirstRound(seconds: Double)
}
