import Foundation
import GameUI
import QiktionaryCore
import Storage

/// Runs the interface's effects on the database and answers with messages. A storage error
/// becomes a status line; it never ends the game.
struct Effects {
    let database: AppDatabase
    let profile: Profile
    let lexicon: @Sendable () -> Lexicon
    let background: BackgroundSync?
    /// Where the coach's answers go: it thinks on a queue of its own, never on the event loop.
    let inbox: Inbox
    /// Today's daily game, by this machine's clock.
    let daily: @Sendable () throws(StorageError) -> GameRequest
    private let coach = DispatchQueue(label: "qiktionary.coach")

    init(database: AppDatabase, profile: Profile, lexicon: @escaping @Sendable () -> Lexicon, background: BackgroundSync?, inbox: Inbox,
         daily: @escaping @Sendable () throws(StorageError) -> GameRequest) {
        self.daily = daily
        self.database = database
        self.profile = profile
        self.lexicon = lexicon
        self.background = background
        self.inbox = inbox
    }

    func perform(_ effect: Effect) -> [Message] {
        var messages = outcome(of: effect)
        // Every change made here goes to the other machine at once, in the background.
        switch effect {
        case .guess, .mark, .giveUp, .bookmark, .removeBookmark, .deleteGame, .begin, .newGame, .daily, .challenge:
            background?.request(manual: false)
        default: break
        }
        // A game put on the board comes with the answers still possible (a pack's few words:
        // counted here, well within a frame).
        for message in messages {
            let game: SavedGame? = switch message {
            case .gameLoaded(let game), .switchedTo(let game): game
            case .guessPlayed(let played): played.game
            default: nil
            }
            guard let game else { continue }
            if !game.game.isFinished, let words = try? database.candidates(of: game.game, lexicon: lexicon()) {
                messages.append(.candidatesLoaded(gameID: game.id, guesses: game.game.guesses.count, candidates: words))
            }
            // A finished game offers its challenge code on its card.
            if game.game.isFinished, let code = try? database.challengeCode(for: game.game, lexicon: lexicon()) {
                messages.append(.challengeCodeLoaded(gameID: game.id, code: code))
            }
        }
        return messages
    }

    /// Runs the coach's work off the event loop and posts its answer, or its failure, to the inbox.
    private func think(_ work: @escaping @Sendable () throws(StorageError) -> Message) {
        let inbox = inbox
        coach.async {
            do { inbox.post(try work()) } catch { inbox.post(.failed("\(error)")) }
        }
    }

    private func outcome(of effect: Effect) -> [Message] {
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
            // With a cloud folder, what to resume is chosen after the first sync (a second at
            // most), so the other machine's game in progress is the one on the board.
            background?.waitForFirstRound(seconds: 1)
            if request.packID == nil && request.word == nil && !request.hard, let latest = try database.latestGameInProgress(profile: profile) {
                return [.gameLoaded(latest)]
            }
            return [.gameLoaded(try database.startGame(request, profile: profile, lexicon: lexicon))]
        case .newGame(let packID, let hard):
            return [.gameLoaded(try database.startGame(GameRequest(packID: packID, hard: hard), profile: profile))]
        case .hint(let id):
            let (database, profile, lexicon, background) = (database, profile, lexicon, background)
            think { () throws(StorageError) -> Message in
                let saved = try database.game(id: id, profile: profile)
                if saved.game.isFinished { throw .rejected(.gameOver) }
                let coach = try database.coach(for: saved.game, lexicon: lexicon())
                guard let hint = coach.hint(for: saved.game) else { throw .noHint }
                let counted = try database.recordHint(gameID: id, profile: profile)
                background?.request(manual: false)
                return .hintReady(counted, hint)
            }
            return []
        case .daily:
            return [.gameLoaded(try database.startGame(try daily(), profile: profile))]
        case .switchToNewer(let id):
            let open = try database.game(id: id, profile: profile)
            guard open.game.guesses.isEmpty, !open.game.isFinished,
                  let latest = try database.gamesInProgress(profile: profile).first,
                  latest.id != id, latest.updatedAt > open.startedAt else { return [] }
            return [.switchedTo(latest)]
        case .challenge(let code):
            let request = try database.challengeRequest(code: code, lexicon: lexicon())
            return [.gameLoaded(try database.startGame(request, profile: profile, lexicon: lexicon))]
        case .share(let id):
            return [.shareReady(try database.shareText(for: try database.game(id: id, profile: profile)))]
        case .review(let id):
            let (database, profile, lexicon) = (database, profile, lexicon)
            think { () throws(StorageError) -> Message in
                let saved = try database.game(id: id, profile: profile)
                guard saved.game.isFinished else { throw .notFinishedForReview(id) }
                let coach = try database.coach(for: saved.game, lexicon: lexicon())
                return .reviewReady(saved, coach.review(of: saved.game))
            }
            return []
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
        case .load(.stats):
            let daily = Achievements.dailyStreaks(games: try database.playedGames(profile: profile))
            return [.statsLoaded(try database.statistics(profile: profile)),
                    .achievementsLoaded(try database.achievements(profile: profile), dailyCurrent: daily.current, dailyBest: daily.best)]
        case .syncNow:
            guard let background else {
                return [.syncUpdate(SyncNews(state: .off, note: "Sync is off: give the shared folder once with --cloud-dir DIR.", isError: true))]
            }
            background.request(manual: true)
            return []
        case .adoptReset(let keepLocal):
            background?.adoptReset(keepLocal: keepLocal)
            return []
        case .quit: return []
        }
    }
}
