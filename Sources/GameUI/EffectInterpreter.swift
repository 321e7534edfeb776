import Foundation
import QiktionaryCore

/// Runs the interface's effects on the player's data and answers with messages for `update`.
/// An error becomes a status line (a refused guess, `.guessRefused`); it never ends the game.
/// The program gives it the database and the background sync; tests give it fakes.
public struct EffectInterpreter: Sendable {
    public let data: any GameData
    /// Nil when sync is off.
    public let background: (any BackgroundSyncing)?
    /// Where the coach's answers go: it thinks on a queue of its own, never on the event loop,
    /// and its answer comes back through the inbox the loop reads.
    private let post: @Sendable (Message) -> Void
    private let coach = DispatchQueue(label: "qiktionary.coach")

    public init(data: any GameData, background: (any BackgroundSyncing)?, post: @escaping @Sendable (Message) -> Void) {
        self.data = data
        self.background = background
        self.post = post
    }

    /// Whether the effect changes the player's data, so the change goes to the other machine.
    public static func changesData(_ effect: Effect) -> Bool {
        switch effect {
        case .guess, .mark, .giveUp, .bookmark, .removeBookmark, .deleteGame, .begin, .newGame, .daily, .challenge, .beginMatch: true
        case .resume, .reload, .hint, .review, .switchToNewer, .share, .load, .chooseAssist, .syncNow, .adoptReset, .joinDevices, .quit: false
        }
    }

    public func perform(_ effect: Effect) -> [Message] {
        var messages = outcome(of: effect)
        // Every change made here goes to the other machine at once, in the background.
        if Self.changesData(effect) { background?.request(manual: false) }
        // A game put on the board comes with the words its notepad deduces from at its help
        // level (a pack's few words, or one length of the dictionary: well within a frame); a
        // finished game with its word alone, so its notepad after the game is whole.
        for message in messages {
            let game: SavedGame? = switch message {
            case .gameLoaded(let game), .gameReloaded(let game), .switchedTo(let game): game
            case .guessPlayed(let played): played.game
            default: nil
            }
            guard let game else { continue }
            if let words = (try? data.notepadWords(of: game.game)) ?? nil {
                messages.append(.candidatesLoaded(gameID: game.id, guesses: game.game.guesses.count, candidates: words))
            }
            // A finished game offers its challenge code on its card.
            if game.game.isFinished, let code = try? data.challengeCode(for: game.game) {
                messages.append(.challengeCodeLoaded(gameID: game.id, code: code))
            }
        }
        return messages
    }

    /// What the player reads of an error: a refusal's reason, else the error's description.
    static func text(of error: any Error) -> String {
        if let rejection = error as? GuessRejection { return rejection.reason }
        return String(describing: error)
    }

    /// Runs the coach's work off the event loop and posts its answer, or its failure.
    private func think(_ work: @escaping @Sendable () throws -> Message) {
        let post = post
        coach.async {
            do { post(try work()) } catch { post(.failed(Self.text(of: error))) }
        }
    }

    private func outcome(of effect: Effect) -> [Message] {
        do {
            return try messages(for: effect)
        } catch let rejection as GuessRejection {
            if case .guess(let input, _) = effect { return [.guessRefused(input: input, reason: rejection.reason)] }
            return [.failed(rejection.reason)]
        } catch {
            return [.failed(Self.text(of: error))]
        }
    }

    private func messages(for effect: Effect) throws -> [Message] {
        switch effect {
        case .begin(let request):
            // With a cloud folder, what to resume is chosen after the first sync (a second at
            // most), so the other machine's game in progress is the one on the board.
            background?.waitForFirstRound(seconds: 1)
            return [.gameLoaded(try data.begin(request).game)]
        case .newGame(let packID, let hard):
            return [.gameLoaded(try data.startGame(GameRequest(packID: packID, hard: hard)))]
        case .hint(let id):
            let (data, background) = (data, background)
            think {
                let (counted, hint) = try data.takeHint(gameID: id)
                background?.request(manual: false)
                return .hintReady(counted, hint)
            }
            return []
        case .daily:
            return [.gameLoaded(try data.startGame(try data.dailyRequest()))]
        case .switchToNewer(let id, let anyAge):
            let open = try data.game(id: id)
            guard open.game.guesses.isEmpty, !open.game.isFinished,
                  let latest = try data.gamesInProgress().first,
                  latest.id != id, anyAge || latest.updatedAt > open.startedAt else { return [] }
            return [.switchedTo(latest)]
        case .challenge(let code):
            return [.gameLoaded(try data.startGame(try data.challengeRequest(code: code)))]
        case .beginMatch(let id):
            return [.gameLoaded(try data.beginMatchGame(matchID: id))]
        case .share(let id):
            return [.shareReady(try data.shareText(for: try data.game(id: id)))]
        case .review(let id):
            let data = data
            think {
                let saved = try data.game(id: id)
                return .reviewReady(saved, try data.review(of: saved))
            }
            return []
        case .resume(let id):
            return [.gameLoaded(try data.game(id: id))]
        case .reload(let id):
            return [.gameReloaded(try data.game(id: id))]
        case .guess(let word, let id):
            return [.guessPlayed(try data.submitGuess(word, gameID: id))]
        case .mark(let letter, let mark, let id):
            return [.gameLoaded(try data.mark(letter, as: mark, gameID: id))]
        case .giveUp(let id):
            return [.gameLoaded(try data.giveUp(gameID: id)), .packsLoaded(try data.packs())]
        case .bookmark(let id):
            let bookmark = try data.bookmarkGame(id: id)
            return [.bookmarkChanged(word: bookmark.word, bookmarked: true)]
        case .removeBookmark(let word):
            try data.removeBookmark(word: word)
            return [.bookmarkChanged(word: word, bookmarked: false)]
        case .deleteGame(let id):
            try data.deleteGame(id: id)
            return [.gameDeleted(id: id)]
        case .load(.packs): return [.packsLoaded(try data.packs()), .assistLoaded(try data.assistLevel())]
        case .chooseAssist(let level):
            try data.chooseAssist(level)
            return [.assistLoaded(level)]
        case .load(.inProgress): return [.inProgressLoaded(try data.gamesInProgress())]
        case .load(.readingList): return [.readingListLoaded(try data.readingList())]
        case .load(.history): return [.historyLoaded(try data.history())]
        case .load(.stats):
            let summary = try data.statsSummary()
            return [.statsLoaded(summary.statistics),
                    .achievementsLoaded(summary.achievements, dailyCurrent: summary.dailyStreak.current, dailyBest: summary.dailyStreak.best)]
        case .load(.matches):
            do { return [.matchesLoaded(try data.matches())] } catch { return [.matchesFailed(Self.text(of: error))] }
        case .load(.leaderboard):
            // Today is the daily word's today: the date Ctrl-D plays.
            let day = try data.dailyRequest().daily ?? ""
            return [.leaderboardsLoaded(try data.leaderboards(day: day))]
        case .syncNow:
            guard let background else {
                return [.syncUpdate(SyncNews(state: .off, note: "Sync is off: give the shared folder once with --cloud-dir DIR.", isError: true))]
            }
            background.request(manual: true)
            return []
        case .adoptReset(let keepLocal):
            background?.adoptReset(keepLocal: keepLocal)
            return []
        case .joinDevices(let code):
            guard let background else { return [.pairingRefused("Sync is off: there is nothing to pair with.")] }
            do {
                let line = try background.join(code: code)
                // Not a manual round: its outcome would take the place of the line that says
                // this machine joined (news that arrives is still said).
                background.request(manual: false)
                return [.paired(line)]
            } catch {
                return [.pairingRefused(Self.text(of: error))]
            }
        case .quit: return []
        }
    }
}
