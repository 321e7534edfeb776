import Foundation
import QiktionaryCore
import Screen

/// The places the player moves between with Tab: the game's two panes, then the other screens.
public enum Pane: Int, Sendable, CaseIterable {
    case guess, notepad, packs, inProgress, readingList, history, stats
    /// Off the tab bar, opened by their keys (m, l) from any screen but the guess line.
    case matches, leaderboard

    /// The screen a pane belongs to, as the tab bar names it.
    public var screenTitle: String {
        switch self {
        case .guess, .notepad: "Game"
        case .packs: "Packs"
        case .inProgress: "In progress"
        case .readingList: "Reading list"
        case .history: "History"
        case .stats: "Stats"
        case .matches: "Matches"
        case .leaderboard: "Leaderboard"
        }
    }

    /// The screen's name on a narrow tab bar.
    public var shortTitle: String {
        switch self {
        case .inProgress: "Playing"
        case .readingList: "Reading"
        default: screenTitle
        }
    }

    /// The panes Tab and Shift-Tab walk through, in order. The screens off the tab bar are not in
    /// it: Tab from them goes on from Packs, where their keys are shown.
    public static let ring: [Pane] = [.guess, .notepad, .packs, .inProgress, .readingList, .history, .stats]

    /// The screens of the tab bar, in order; number keys 1–6 jump to them.
    public static let screens: [Pane] = [.guess, .packs, .inProgress, .readingList, .history, .stats]

    var isGame: Bool { self == .guess || self == .notepad }
}

/// A question waiting for y or n.
public enum Confirmation: Sendable, Equatable {
    case giveUp(gameID: String)
    case deleteGame(id: String, word: String)
    case removeBookmark(word: String)
    /// Not y/n: u keeps this machine's games (uploads them), e erases them.
    case cloudReset

    var question: String {
        switch self {
        case .giveUp: "Give up this game and see the word? (y/n)"
        case .deleteGame(_, let word): "Delete the game on \(word.uppercased()) from your history? (y/n)"
        case .removeBookmark(let word): "Remove \(word.uppercased()) from your reading list? (y/n)"
        case .cloudReset: "The cloud was reset on another machine. u: upload this machine's games to it, e: erase them and take the cloud's"
        }
    }
}

/// The pairing screen: a code from `devices add` being typed on a machine that is not yet one
/// of its player's machines (docs/trust.md).
public struct PairingEntry: Sendable, Equatable {
    /// A code's length, without its dashes.
    public static let length = 24
    /// The letters and digits typed, in capitals, without dashes.
    public var code = ""
    /// Why the code sent last was refused, until the next key.
    public var problem: String?
    /// The code was sent: its answer is awaited.
    public var joining = false

    public init(code: String = "") { self.code = code }

    /// The code as `devices add` prints it: groups of four joined by dashes.
    public var grouped: String {
        let characters = Array(code)
        return stride(from: 0, to: characters.count, by: 4)
            .map { String(characters[$0..<min($0 + 4, characters.count)]) }.joined(separator: "-")
    }
}

/// A one-line message under the board: what just happened, or what went wrong.
public struct StatusMessage: Sendable, Equatable {
    public var text: String
    public var isError: Bool

    public init(_ text: String, isError: Bool = false) {
        self.text = text
        self.isError = isError
    }
}

/// The answers still possible in one game.
public struct Candidates: Sendable, Equatable {
    public var gameID: String
    /// Guesses the game had when they were counted.
    public var guesses: Int
    public var words: [String]

    public init(gameID: String, guesses: Int, words: [String]) {
        self.gameID = gameID
        self.guesses = guesses
        self.words = words
    }
}

/// A hint as the board shows it: for one game, before one guess.
public struct ShownHint: Sendable, Equatable {
    public var gameID: String
    public var beforeGuess: Int
    public var hint: Hint

    public init(gameID: String, beforeGuess: Int, hint: Hint) {
        self.gameID = gameID
        self.beforeGuess = beforeGuess
        self.hint = hint
    }
}

/// A review on screen: the game and what the coach made of it.
public struct ShownReview: Sendable, Equatable {
    public var game: SavedGame
    public var review: Review

    public init(game: SavedGame, review: Review) {
        self.game = game
        self.review = review
    }
}

/// Runs of consecutive days with the daily word won.
public struct DailyStreak: Sendable, Equatable {
    public var current: Int
    public var best: Int
}

/// Everything the full-screen interface shows. Only `update` changes it.
public struct AppState: Sendable, Equatable {

    public static let minimumSize = Size(width: 40, height: 12)
    /// Keys pressed within this many seconds of the winning Enter do nothing on the fact card.
    public static let winGrace = 0.6
    /// Letters per row of the notepad.
    public static let notepadColumns = 7

    public var glyphs: Glyphs
    /// This machine's name, so an end reached on another machine can be told apart.
    public var device = ""
    /// The player's name, for the pairing screen.
    public var player = ""
    public var sync: SyncState = .off
    /// When this machine last synced, by this process or another on the same data dir: the
    /// header's age, offline too.
    public var lastSynced: Date?
    /// The wall clock as last told (by `.tick`), so the header can say how long ago sync ran.
    public var now: Date?
    /// The zone the daily word is reckoned in (the system's, `TZ` honoured), for the time to
    /// the next daily and today's number.
    public var timeZone: TimeZone = .current
    /// The daily word's clock, once the wall clock has been told.
    public var dailyClock: DailyClock? { now.map { DailyClock(now: $0, timeZone: timeZone) } }
    public var pane: Pane = .guess
    public var helpOpen = false
    public var helpScroll = 0

    /// The game screen: the board, the guess line, the notepad's cursor, the coach's answers.
    public var board = GameModel()
    /// When the key being handled was pressed (seconds on a monotonic clock), when the loop
    /// says so (`.pressed`); nil for keys given without a time.
    public var keyClock: Double?
    /// The list screens (`ListModel`): the chosen item of Reading list shows its fact on the
    /// whole screen (Enter), scrolled by Up/Down; History's shows the game's board and fact, its
    /// card scrolled by PgUp/PgDn when it does not fit.
    public var packs = ListModel<PackProgress>()
    public var inProgress = ListModel<SavedGame>()
    public var readingList = ListModel<Bookmark>()
    public var history = ListModel<SavedGame>()
    public var stats: Statistics?
    /// Achievements scrolled by (Up/Down on Stats), when they do not all fit.
    public var statsScroll = 0
    public var achievements: [Achievement] = []
    public var dailyStreak = DailyStreak(current: 0, best: 0)

    /// The player's matches, newest first, as last loaded (for the Matches screen, the header's
    /// notice and the board of a match game); the chosen one opens whole: every game, both grids
    /// side by side.
    public var matches = ListModel<MatchOverview>()
    /// Why the matches could not be loaded, shown on the Matches screen.
    public var matchesProblem: String?
    /// The day's and all-time leaderboards, once loaded.
    public var leaderboards: Leaderboards?
    public var leaderboardScroll = 0

    public var status: StatusMessage?
    public var confirmation: Confirmation?
    public var quitting = false

    /// The player's help level, the one the next game takes (shown and changed on Packs).
    public var assist: Assist = .standard
    /// The coach is working (a hint or a review): said on the status line until it answers.
    public var thinking = false
    /// A finished game's review, shown over the screen until closed.
    public var review: ShownReview?
    public var reviewScroll = 0
    /// A challenge code being typed (status line), nil when not.
    public var codeEntry: String?
    /// The pairing screen, while it is open.
    public var pairing: PairingEntry?
    /// The pairing screen opened by itself once already (the first time sync found this machine
    /// not paired); afterwards F5 opens it.
    public var pairingOffered = false
    /// This machine just joined: after the sync that follows, the latest game in progress
    /// (from the other machine) takes the place of an unplayed one on the board.
    public var justPaired = false
    /// Challenge codes of finished games, for the fact card.
    public var challengeCodes: [String: String] = [:]
    /// The summaries asked for (s), each printed once the screen closes.
    public var shares: [String] = []
    /// The last summary asked for.
    public var share: String? { shares.last }

    public init(glyphs: Glyphs = .unicode) {
        self.glyphs = glyphs
    }

    /// The header's word for sync: synced N s ago, syncing, offline, off, needs attention.
    public var syncText: String {
        switch sync {
        case .off: return "sync off"
        case .syncing: return "syncing" + glyphs.ellipsis
        case .importing(let done, let total): return "importing \(done)" + (total.map { " of \($0)" } ?? "") + glyphs.ellipsis
        case .sending(let done, let total): return "sending \(done) of \(total)" + glyphs.ellipsis
        case .offline: return "offline" + (lastSynced.map { ", " + syncedAgo($0) } ?? "")
        case .needsAttention: return "needs attention"
        case .notPaired: return "not paired (F5)"
        case .failed: return "sync error"
        case .notYet: return "not synced yet"
        case .synced(let at): return syncedAgo(at)
        }
    }

    /// "synced 5 s ago", "synced 8 min ago", "synced 2 h ago", "synced 3 d ago".
    func syncedAgo(_ at: Date) -> String {
        let seconds = max(0, Int((now ?? at).timeIntervalSince(at)))
        if seconds < 60 { return "synced \(seconds) s ago" }
        if seconds < 3600 { return "synced \(seconds / 60) min ago" }
        if seconds < 86_400 { return "synced \(seconds / 3600) h ago" }
        return "synced \(seconds / 86_400) d ago"
    }

    /// The match the game on the board belongs to, and the game's number in it.
    public var boardMatch: (overview: MatchOverview, index: Int)? {
        guard let id = board.game?.id else { return nil }
        for overview in matches.items {
            for index in Match.games where overview.state.match.gameID(player: overview.viewer, index: index) == id {
                return (overview, index)
            }
        }
        return nil
    }

    /// A match waiting on the player, other than the board's: the header's notice.
    public var matchWaiting: MatchOverview? {
        let board = boardMatch?.overview.state.match.id
        return matches.items.first { $0.state.match.id != board && $0.state.status == .playing && $0.state.nextGame(for: $0.viewer) != nil }
    }

    /// The pack of the game on the board, once packs are loaded.
    public var currentPack: PackProgress? {
        board.game.flatMap { game in packs.items.first { $0.id == game.game.packID } }
    }
}
