import App
import Concurrency
import Foundation
import GameUI
import QiktionaryCore
import Screen
import Sync
import TerminalUI
import TextSafety

/// The full-screen game: the curses terminal, the event loop, and the effects run against the
/// database. The terminal is restored on every way out: quit, Ctrl-C, SIGTERM, an error.
enum FullScreen {
    static func run(setup: Setup, opening: ScreenOpening) throws {
        let terminal: CursesTerminal
        do { terminal = try CursesTerminal() } catch { throw Failure(error.description) }
        defer { terminal.restore() }
        var state = AppState(glyphs: terminal.capabilities.glyphs)
        state.device = setup.profile.device.name
        state.player = setup.profile.playerID
        state.timeZone = Setup.systemTimeZone()
        // The header's sync age from the start is the machine's last sync, by any process.
        if setup.syncEnabled {
            state.lastSynced = try? setup.games.lastSynced()
            state.sync = state.lastSynced.map { .synced(at: $0) } ?? .notYet
        }
        let inbox = Inbox()
        let background = setup.sync.background { if let message = $0.message { inbox.post(message) } }
            .map { ScreenSync(service: $0, setup: setup) }
        let effects = EffectInterpreter(data: setup.games, background: background, post: inbox.post)
        // The game is on screen before the first sync, which then brings in the other machine's
        // moves; from then on the folder is watched and every change here is sent at once.
        background?.start()
        defer { background?.stop() }
        var lastTick = Date.distantPast
        let changes = FileChanges(setup.databaseFiles)
        EventLoop.run(terminal: terminal, state: &state, initial: [opening.effect, .load(.packs)], inbox: {
            var messages = inbox.take()
            // Another process on this data dir (a second window, a command) wrote: the board and
            // lists follow within a frame, as they do a sync's news.
            if changes.changed() {
                messages.append(.dataChanged)
                // A sync from the command line: the header's age follows.
                if setup.syncEnabled, let at = (try? setup.games.lastSynced()) ?? nil { messages.append(.syncedElsewhere(at: at)) }
            }
            if Date().timeIntervalSince(lastTick) >= 1 {
                lastTick = Date()
                messages.append(.tick(setup.clock()))
            }
            return messages
        }, perform: effects.perform)
        terminal.restore()
        background?.stop()
        if !state.shares.isEmpty { Self.printShare(state.shares.joined(separator: "\n\n")) }
        // Hand this session's moves to the other machine on the way out, like plain mode.
        setup.sync.inPassing()
    }

    /// The summary the player asked to share, on the restored terminal and on the clipboard.
    static func printShare(_ text: String) {
        say(text)
        guard let sequence = Clipboard.sequence(copying: text, environment: ProcessInfo.processInfo.environment,
                                                isTerminal: isatty(STDOUT_FILENO) == 1) else { return }
        FileHandle.standardOutput.write(Data(sequence.utf8))
        FileHandle.standardError.write(Data((Clipboard.note + "\n").utf8))
    }
}

extension ScreenOpening {
    /// The interface's first effect.
    var effect: Effect {
        switch self {
        case .begin(let request): .begin(request)
        case .resume(let gameID): .resume(gameID: gameID)
        }
    }
}

/// The full-screen game's data: the application's use cases, as the effects ask for them.
extension PlayerGames: GameData {}

/// The full-screen game's sync, as the effects ask for it: the background rounds, and the
/// pairing screen's join.
struct ScreenSync: BackgroundSyncing {
    let service: SyncService
    let setup: Setup

    func start() { service.start() }
    func stop() { service.stop() }
    func request(manual: Bool) { service.request(manual: manual) }
    func adoptReset(keepLocal: Bool) { service.adoptReset(keepLocal: keepLocal) }
    func waitForFirstRound(seconds: Double) { service.waitForFirstRound(seconds: seconds) }
    func join(code: String) throws -> String { try setup.joinLine(code: code) }
}

/// Messages posted from other threads for the event loop to pick up.
typealias Inbox = Mailbox<Message>

extension SyncHeadline {
    /// The interface's message of it: the event's state, with the headline's note.
    var message: Message? {
        let news = { (state: SyncState) in Message.syncUpdate(SyncNews(state: state, note: note, isError: isError, changedHere: changedHere)) }
        switch event {
        case .watching: return nil
        case .syncing: return news(.syncing)
        case .importing(let done, let total): return news(.importing(done: done, total: total))
        case .sending(let done, let total): return news(.sending(done: done, total: total))
        case .synced(_, let at, _), .adopted(_, let at): return news(.synced(at: at))
        case .offline: return news(.offline)
        case .failed: return news(.failed)
        case .cloudReset: return .cloudWasReset
        case .notPaired: return news(.notPaired)
        }
    }
}
