import CloudStore
import Foundation
import GameUI
import QiktionaryCore
import Screen
import Storage
import Sync
import TerminalUI

/// The full-screen game: the curses terminal, the event loop, and the effects run against the
/// database. The terminal is restored on every way out: quit, Ctrl-C, SIGTERM, an error.
enum FullScreen {
    static func run(setup: Setup, request: GameRequest) throws {
        let terminal: CursesTerminal
        do { terminal = try CursesTerminal() } catch { throw Failure(error.description) }
        defer { terminal.restore() }
        var state = AppState(glyphs: terminal.capabilities.glyphs)
        let inbox = Inbox()
        let background = setup.syncEnabled ? BackgroundSync(setup: setup, inbox: inbox) : nil
        let effects = Effects(database: setup.database, profile: setup.profile, lexicon: setup.lexicon, background: background, inbox: inbox,
                              daily: setup.dailyRequest)
        // The game is on screen before the first sync, which then brings in the other machine's
        // moves; from then on the folder is watched and every change here is sent at once.
        background?.start()
        defer { background?.stop() }
        var lastTick = Date.distantPast
        EventLoop.run(terminal: terminal, state: &state, initial: [.begin(request), .load(.packs)], inbox: {
            var messages = inbox.take()
            if Date().timeIntervalSince(lastTick) >= 1 {
                lastTick = Date()
                messages.append(.tick(setup.clock()))
            }
            return messages
        }, perform: effects.perform)
        terminal.restore()
        background?.stop()
        if let share = state.share { Self.printShare(share) }
        // Hand this session's moves to the other machine on the way out, like plain mode.
        setup.syncInPassing()
    }

    /// The summary the player asked to share, on the restored terminal, and on the clipboard
    /// through OSC 52 where stdout is a terminal that may understand it (terminals that do not
    /// ignore the sequence).
    static func printShare(_ text: String) {
        print(text)
        let term = ProcessInfo.processInfo.environment["TERM"] ?? ""
        guard isatty(STDOUT_FILENO) == 1, !term.isEmpty, term != "dumb" else { return }
        let encoded = Data(text.utf8).base64EncodedString()
        let inTmux = ProcessInfo.processInfo.environment["TMUX"] != nil
        // tmux passes the sequence on to the outer terminal only when wrapped for it.
        let sequence = inTmux ? "\u{1B}Ptmux;\u{1B}\u{1B}]52;c;\(encoded)\u{07}\u{1B}\\" : "\u{1B}]52;c;\(encoded)\u{07}"
        FileHandle.standardOutput.write(Data(sequence.utf8))
        FileHandle.standardError.write(Data("(copied to the clipboard where your terminal allows)\n".utf8))
    }
}

/// Messages posted from other threads for the event loop to pick up.
final class Inbox: @unchecked Sendable {
    private var messages: [Message] = []
    private let lock = NSLock()

    func post(_ message: Message) { lock.withLock { messages.append(message) } }
    func take() -> [Message] { lock.withLock { defer { messages = [] }; return messages } }
}

/// Sync off the interface's thread: one round at a time on a queue of its own, asked for by F5,
/// by every change made here, and by the folder watcher when another machine writes; requests
/// that come while a round runs fold into one more round. Results go to the inbox.
final class BackgroundSync: @unchecked Sendable {
    private let setup: Setup
    private let inbox: Inbox
    private let queue = DispatchQueue(label: "qiktionary.sync")
    private let lock = NSLock()
    private var engine: SyncEngine?
    private var pending = false
    private var manual = false
    private var watch: CloudFolderWatch?
    private var stopped = false

    init(setup: Setup, inbox: Inbox) {
        self.setup = setup
        self.inbox = inbox
    }

    func start() {
        request(manual: false)
        guard let folder = setup.cloudDir else { return }
        watch = CloudFolderWatch(folder: folder, player: setup.profile.playerID, quiet: true) { [weak self] in self?.request(manual: false) }
    }

    func stop() {
        lock.withLock { stopped = true }
        watch?.stop()
        queue.sync {}
    }

    /// Asks for a round; a round already waiting absorbs the request.
    func request(manual: Bool) {
        let schedule: Bool = lock.withLock {
            if stopped { return false }
            self.manual = self.manual || manual
            if pending { return false }
            pending = true
            return true
        }
        if schedule { queue.async { self.round() } }
    }

    func adoptReset(keepLocal: Bool) {
        queue.async {
            self.inbox.post(.syncUpdate(SyncNews(state: .syncing)))
            do {
                let report = try self.openEngine().adoptReset(keepLocal ? .upload : .erase)
                self.inbox.post(.syncUpdate(SyncNews(state: .synced(at: self.setup.clock()),
                                                     note: "Joined the new cloud: \(report.uploaded) sent, \(report.downloaded) received.",
                                                     changedHere: true)))
            } catch {
                self.report(error, manual: true)
            }
        }
    }

    /// Signalled once the first round has ended, however it ended.
    private let firstRound = DispatchSemaphore(value: 0)
    private var firstRoundDone = false

    /// Waits for the first round, at most `seconds`: the game picks what to resume after it, so a
    /// game started on the other machine is the one on the board.
    func waitForFirstRound(seconds: Double) {
        if lock.withLock({ firstRoundDone }) { return }
        if firstRound.wait(timeout: .now() + seconds) == .success { firstRound.signal() }
    }

    private func round() {
        let manual: Bool = lock.withLock {
            pending = false
            defer { self.manual = false }
            return self.manual
        }
        defer {
            let first: Bool = lock.withLock { defer { firstRoundDone = true }; return !firstRoundDone }
            if first { firstRound.signal() }
        }
        inbox.post(.syncUpdate(SyncNews(state: .syncing)))
        do {
            var engine = try openEngine()
            // A long fetch shows in the header, about ten times a second.
            let inbox = self.inbox, throttle = ProgressLine.Throttle()
            engine.progress = { done, total in
                if throttle.due(done: done, total: total) { inbox.post(.syncUpdate(SyncNews(state: .importing(done: done, total: total)))) }
            }
            let report = try engine.sync()
            let arrived = report.downloaded + report.deleted > 0
            let note: String? = manual ? SyncCommand.sentence(report) : arrived ? "Changes from another machine arrived." : nil
            inbox.post(.syncUpdate(SyncNews(state: .synced(at: setup.clock()), note: note, changedHere: arrived)))
        } catch {
            report(error, manual: manual)
        }
    }

    private func report(_ error: any Error, manual: Bool) {
        switch error {
        case SyncError.cloudReset:
            inbox.post(.cloudWasReset)
        case SyncError.offline(let reason):
            inbox.post(.syncUpdate(SyncNews(state: .offline, note: manual ? "Offline: \(reason). Your moves are kept and sent later." : nil, isError: manual)))
        default:
            inbox.post(.syncUpdate(SyncNews(state: .failed, note: "\(error)", isError: true)))
        }
    }

    private func openEngine() throws -> SyncEngine {
        if let engine { return engine }
        let opened = try setup.syncEngine()
        engine = opened
        return opened
    }
}

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
