import App
import Foundation
import GameUI
import QiktionaryCore
import Screen
import TerminalUI
import TextSafety

/// The full-screen game: the curses terminal, the event loop, and the effects run against the
/// database. The terminal is restored on every way out: quit, Ctrl-C, SIGTERM, an error.
enum FullScreen {
    /// `resuming`: the game to open instead of the request's (a match game already started).
    static func run(setup: Setup, request: GameRequest, resuming gameID: String? = nil) throws {
        let terminal: CursesTerminal
        do { terminal = try CursesTerminal() } catch { throw Failure(error.description) }
        defer { terminal.restore() }
        var state = AppState(glyphs: terminal.capabilities.glyphs)
        state.device = setup.profile.device.name
        state.timeZone = Setup.systemTimeZone()
        // The header's sync age from the start is the machine's last sync, by any process.
        if setup.syncEnabled {
            state.lastSynced = try? setup.games.lastSynced()
            state.sync = state.lastSynced.map { .synced(at: $0) } ?? .notYet
        }
        let inbox = Inbox()
        let background = setup.syncEnabled ? BackgroundSync(setup: setup, inbox: inbox) : nil
        let effects = EffectInterpreter(data: setup.games, background: background, post: inbox.post)
        // The game is on screen before the first sync, which then brings in the other machine's
        // moves; from then on the folder is watched and every change here is sent at once.
        background?.start()
        defer { background?.stop() }
        var lastTick = Date.distantPast
        let changes = FileChanges(setup.databaseFiles)
        EventLoop.run(terminal: terminal, state: &state, initial: [gameID.map { .resume(gameID: $0) } ?? .begin(request), .load(.packs)], inbox: {
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
        setup.syncInPassing()
    }

    /// The summary the player asked to share, on the restored terminal, and on the clipboard
    /// through OSC 52 where stdout is a terminal that may understand it (terminals that do not
    /// ignore the sequence).
    static func printShare(_ text: String) {
        say(text)
        let term = ProcessInfo.processInfo.environment["TERM"] ?? ""
        guard isatty(STDOUT_FILENO) == 1, !term.isEmpty, term != "dumb" else { return }
        let encoded = Data(visible(text).utf8).base64EncodedString()
        let inTmux = ProcessInfo.processInfo.environment["TMUX"] != nil
        // tmux passes the sequence on to the outer terminal only when wrapped for it.
        let sequence = inTmux ? "\u{1B}Ptmux;\u{1B}\u{1B}]52;c;\(encoded)\u{07}\u{1B}\\" : "\u{1B}]52;c;\(encoded)\u{07}"
        FileHandle.standardOutput.write(Data(sequence.utf8))
        FileHandle.standardError.write(Data("(copied to the clipboard where your terminal allows)\n".utf8))
    }
}

/// Whether files changed since last asked: their sizes and modification times, read with one
/// `stat` each (cheap enough for every frame).
final class FileChanges {
    private let paths: [String]
    private var last: [String]

    init(_ files: [URL]) {
        paths = files.map(\.path)
        last = Self.read(paths)
    }

    func changed() -> Bool {
        let now = Self.read(paths)
        defer { last = now }
        return now != last
    }

    private static func read(_ paths: [String]) -> [String] {
        paths.map { path in
            var info = stat()
            guard stat(path, &info) == 0 else { return "none" }
            return "\(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        }
    }
}

/// The full-screen game's data: the application's use cases, as the effects ask for them.
extension PlayerGames: GameData {}

/// The full-screen game's sync, as the effects ask for it.
extension BackgroundSync: BackgroundSyncing {}
