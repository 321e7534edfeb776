import Foundation
import GameUI
import QiktionaryCore
import Screen
import Storage
import TerminalUI

/// The full-screen game: the curses terminal, the event loop, and the effects run against the
/// database. The terminal is restored on every way out: quit, Ctrl-C, SIGTERM, an error.
enum FullScreen {
    static func run(setup: Setup, request: GameRequest) throws {
        let terminal: CursesTerminal
        do { terminal = try CursesTerminal() } catch { throw Failure(error.description) }
        defer { terminal.restore() }
        var state = AppState(glyphs: terminal.capabilities.glyphs)
        let effects = Effects(database: setup.database, profile: setup.profile, lexicon: setup.lexicon)
        EventLoop.run(terminal: terminal, state: &state, initial: [.begin(request), .load(.packs)], perform: effects.perform)
    }
}

/// Runs the interface's effects on the database and answers with messages. A storage error
/// becomes a status line; it never ends the game.
struct Effects {
    let database: AppDatabase
    let profile: Profile
    let lexicon: () -> Lexicon

    func perform(_ effect: Effect) -> [Message] {
        do {
            return try messages(for: effect)
        } catch .rejected(let rejection) {
            if case .guess(let input, _) = effect { return [.guessRefused(input: input, reason: rejection.reason)] }
            return [.failed(rejection.reason)]
        } catch {
            return [.failed(error.description)]
        }
    }

    private func messages(for effect: Effect) throws(StorageError) -> [Message] {
        switch effect {
        case .begin(let request):
            if request.packID == nil && request.word == nil, let latest = try database.latestGameInProgress(profile: profile) {
                return [.gameLoaded(latest)]
            }
            return [.gameLoaded(try database.startGame(request, profile: profile))]
        case .newGame(let packID):
            return [.gameLoaded(try database.startGame(GameRequest(packID: packID), profile: profile))]
        case .resume(let id):
            return [.gameLoaded(try database.game(id: id, profile: profile))]
        case .guess(let word, let id):
            return [.guessPlayed(try database.submitGuess(word, gameID: id, lexicon: lexicon(), profile: profile))]
        case .mark(let letter, let mark, let id):
            return [.gameLoaded(try database.mark(letter, as: mark, gameID: id, profile: profile))]
        case .giveUp(let id):
            return [.gameLoaded(try database.giveUp(gameID: id, profile: profile)), .packsLoaded(try database.packs(profile: profile))]
        case .bookmark(let id):
            let bookmark = try database.bookmarkGame(id: id, profile: profile)
            return [.bookmarkChanged(word: bookmark.word, bookmarked: true)]
        case .removeBookmark(let word):
            try database.removeBookmark(word: word, profile: profile)
            return [.bookmarkChanged(word: word, bookmarked: false)]
        case .deleteGame(let id):
            try database.deleteGame(id: id, profile: profile)
            return [.gameDeleted(id: id)]
        case .load(.packs): return [.packsLoaded(try database.packs(profile: profile))]
        case .load(.inProgress): return [.inProgressLoaded(try database.gamesInProgress(profile: profile))]
        case .load(.readingList): return [.readingListLoaded(try database.readingList(profile: profile))]
        case .load(.history): return [.historyLoaded(try database.history(profile: profile))]
        case .load(.stats): return [.statsLoaded(try database.statistics(profile: profile))]
        case .quit: return []
        }
    }
}
