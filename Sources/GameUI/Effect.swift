import QiktionaryCore
import Screen
import Storage

/// Lists the interface loads when their screen is shown.
public enum ListKind: Sendable, Hashable, CaseIterable {
    case packs, inProgress, readingList, history, stats
}

/// Work `update` asks for. Something outside runs it against the database and feeds the
/// outcome back as messages, so `update` stays a pure function that tests can call.
public enum Effect: Sendable, Equatable {
    /// Resume the latest game in progress (unless the request names a pack or word), else start one.
    case begin(GameRequest)
    case newGame(packID: String?)
    case resume(gameID: String)
    case guess(String, gameID: String)
    case mark(Character, LetterMark?, gameID: String)
    case giveUp(gameID: String)
    case bookmark(gameID: String)
    case removeBookmark(word: String)
    case deleteGame(id: String)
    case load(ListKind)
    case quit
}

/// Something that happened: a key, or the outcome of an effect.
public enum Message: Sendable, Equatable {
    case key(Key)
    case gameLoaded(SavedGame)
    case guessPlayed(PlayedGuess)
    case guessRefused(input: String, reason: String)
    case packsLoaded([PackProgress])
    case inProgressLoaded([SavedGame])
    case readingListLoaded([Bookmark])
    case historyLoaded([SavedGame])
    case statsLoaded(Statistics)
    case bookmarkChanged(word: String, bookmarked: Bool)
    case gameDeleted(id: String)
    case failed(String)
}
