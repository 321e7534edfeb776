import Foundation
import QiktionaryCore
import Screen

/// Lists the interface loads when their screen is shown.
public enum ListKind: Sendable, Hashable, CaseIterable {
    case packs, inProgress, readingList, history, stats
    /// The player's matches; and the leaderboards of today's daily date and of all time.
    case matches, leaderboard
}

/// Work `update` asks for. Something outside runs it against the database and feeds the
/// outcome back as messages, so `update` stays a pure function that tests can call.
public enum Effect: Sendable, Equatable {
    /// Resume the latest game in progress (unless the request names a pack or word), else start one.
    case begin(GameRequest)
    case newGame(packID: String?, hard: Bool = false)
    case resume(gameID: String)
    /// The game on the board again, as saved now (another machine or process changed it);
    /// answered by `.gameReloaded`, which is dropped if another game is on the board by then.
    case reload(gameID: String)
    case guess(String, gameID: String)
    case mark(Character, LetterMark?, gameID: String)
    case giveUp(gameID: String)
    /// Work out the best next guess, off the event loop; answered by `.hintReady`.
    case hint(gameID: String)
    /// Review a finished game, off the event loop; answered by `.reviewReady`.
    case review(gameID: String)
    /// Start, or go back to, today's daily game.
    case daily
    /// After a sync: if a newer game in progress came from another machine, put it on the
    /// board in place of this one, which has no guess yet. `anyAge`: the latest game in progress,
    /// however old (the first sync after this machine joined its player's machines: the game on
    /// the board was started only because nothing could sync before).
    case switchToNewer(than: String, anyAge: Bool = false)
    /// Start or resume the player's next game of a match.
    case beginMatch(matchID: String)
    /// Start the game a challenge code names.
    case challenge(code: String)
    /// Make the finished game's spoiler-free summary, printed once the screen closes.
    case share(gameID: String)
    case bookmark(gameID: String)
    case removeBookmark(word: String)
    case deleteGame(id: String)
    case load(ListKind)
    /// Make this help level the player's, for their next games (the Packs screen's `a`).
    case chooseAssist(Assist)
    /// One sync round now (F5), in the background; answered by `.syncUpdate`.
    case syncNow
    /// Answers a reset made on another machine: keep this machine's games (upload) or not.
    case adoptReset(keepLocal: Bool)
    /// Joins this machine to its player's machines with a pairing code (`devices join`);
    /// answered by `.paired` or `.pairingRefused`.
    case joinDevices(code: String)
    case quit
}

/// Where sync stands, for the header.
public enum SyncState: Sendable, Equatable {
    case off
    case syncing
    /// A large fetch being stored: records done, of how many when known.
    case importing(done: Int, total: Int?)
    /// A long upload (a history played before sync was turned on) being sent: records done, of how many.
    case sending(done: Int, total: Int)
    case synced(at: Date)
    /// Sync is on and this machine has never synced (a new process shows the machine's last
    /// sync, read from the database, until its first round ends).
    case notYet
    case offline
    case needsAttention
    /// This machine is not one of its player's machines yet: nothing syncs until it joins.
    case notPaired
    case failed
}

/// News from the background sync.
public struct SyncNews: Sendable, Equatable {
    public var state: SyncState
    /// A line for the status bar, when the player should hear of it.
    public var note: String?
    public var isError: Bool
    /// Something arrived from another machine: what is on screen is reloaded.
    public var changedHere: Bool

    public init(state: SyncState, note: String? = nil, isError: Bool = false, changedHere: Bool = false) {
        self.state = state
        self.note = note
        self.isError = isError
        self.changedHere = changedHere
    }
}

/// Something that happened: a key, or the outcome of an effect.
public enum Message: Sendable, Equatable {
    case key(Key)
    /// A key and when it was pressed (seconds on a monotonic clock), as the event loop sends it.
    case pressed(Key, at: Double)
    case gameLoaded(SavedGame)
    /// The game on the board as saved now (`.reload`).
    case gameReloaded(SavedGame)
    case guessPlayed(PlayedGuess)
    case guessRefused(input: String, reason: String)
    /// The words the notepad deduces from (`GameData.notepadWords`) in a game with this many
    /// guesses: under the coach, the answers still possible, whose count the board shows.
    case candidatesLoaded(gameID: String, guesses: Int, candidates: [String])
    /// The coach's hint, and the game as saved with the hint counted.
    case hintReady(SavedGame, Hint)
    case reviewReady(SavedGame, Review)
    /// The code that passes a finished game on to a friend.
    case challengeCodeLoaded(gameID: String, code: String)
    case shareReady(String)
    /// A newer game from another machine took the place of an unplayed one.
    case switchedTo(SavedGame)
    case packsLoaded([PackProgress])
    /// The player's help level, as loaded with the packs or just chosen.
    case assistLoaded(Assist)
    case inProgressLoaded([SavedGame])
    case readingListLoaded([Bookmark])
    case historyLoaded([SavedGame])
    case statsLoaded(Statistics)
    case matchesLoaded([MatchOverview])
    /// The matches could not be read: said on the Matches screen, and nowhere else (the header's
    /// notice is only a notice).
    case matchesFailed(String)
    case leaderboardsLoaded(Leaderboards)
    /// Every achievement, earned or not, and the daily word's streaks.
    case achievementsLoaded([Achievement], dailyCurrent: Int, dailyBest: Int)
    case bookmarkChanged(word: String, bookmarked: Bool)
    case gameDeleted(id: String)
    /// The background sync started, ended or failed.
    case syncUpdate(SyncNews)
    /// Another process on this data dir changed the database (a second window of the game, a
    /// command): what is on screen is reloaded, as when a sync brings a change.
    case dataChanged
    /// The machine's last sync as the database keeps it, read when another process on this data
    /// dir wrote (a `sync` from the command line): the header's age follows it.
    case syncedElsewhere(at: Date)
    /// Another machine reset the cloud: the player chooses what to do with this machine's games.
    case cloudWasReset
    /// This machine joined its player's machines: the line that says so.
    case paired(String)
    /// The pairing code was refused, for this reason.
    case pairingRefused(String)
    /// The wall clock, about once a second, for "synced 5 s ago".
    case tick(Date)
    case failed(String)
}
