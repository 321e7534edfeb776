import Foundation
@testable import GameUI
import QiktionaryCore

/// The calls the effects made, to the data and to the sync, in the order made.
final class CallLog: @unchecked Sendable {
    private var entries: [String] = []
    private let lock = NSLock()

    func record(_ call: String) { lock.withLock { entries.append(call) } }
    var calls: [String] { lock.withLock { entries } }
}

/// An error with a sentence for a description, as the program's storage errors have.
struct FakeFailure: Error, CustomStringConvertible {
    var description: String
}

/// The player's data in memory: games by id, and the lists as set by the test. Every call is
/// logged; a method named in `failures` throws that error instead of answering.
final class FakeGameData: GameData, @unchecked Sendable {
    let log: CallLog
    private let lock = NSLock()
    private var stored: [String: SavedGame] = [:]
    private var started = 0

    // Set by the test before the effects run.
    var lexicon = Lexicon(["crane", "moist", "jumpy", "tribe", "tiger", "notes", "chord", "flute", "whale", "zebra", "blaze"])
    var packList = Fixtures.packs
    var bookmarks = Fixtures.readingList
    var stats = Fixtures.stats
    var played: [PlayedGame] = []
    var achievementList = [Achievement(id: "first-win", title: "First win", detail: "Win a game.")]
    var candidateWords = ["tiger", "tired"]
    /// What `notepadWords` gives under `proven` (the dictionary's words that fit).
    var provenWords = ["tiger", "tired", "timer"]
    /// The player's help level (`assistLevel`, `chooseAssist`), the one new games take.
    var assist = Assist.coach
    var hintAnswer = Hint(word: "tiger", candidates: 3, groups: 3, expectedLeft: 1, isCandidate: true)
    var reviewAnswer = Review(steps: [], skill: 89, luck: 0.4)
    var daily = GameRequest(packID: "animals", word: "zebra", daily: "2026-11-18")
    var challenges: [String: GameRequest] = [:]
    var failures: [String: any Error] = [:]
    /// The matches (`matches`, `matchOverview`) and leaderboards, as set by the test.
    var matchList: [MatchOverview] = []
    var boards = Leaderboards(day: "2026-11-25", daily: [], allTime: [])
    /// Called first in `hint(for:)`, on the coach's queue: a test can hold the coach there.
    var onHint: @Sendable () -> Void = {}

    init(log: CallLog = CallLog(), games: [SavedGame] = []) {
        self.log = log
        for game in games { stored[game.id] = game }
    }

    /// The games as they are now, by id.
    var games: [String: SavedGame] { lock.withLock { stored } }

    private func call(_ name: String, _ detail: String = "") throws {
        log.record(detail.isEmpty ? name : "\(name)(\(detail))")
        if let failure = failures[name] { throw failure }
    }

    private func saved(_ id: String) throws -> SavedGame {
        guard let game = games[id] else { throw FakeFailure(description: "no game with id '\(id)'") }
        return game
    }

    private func save(_ game: SavedGame) { lock.withLock { stored[game.id] = game } }

    /// Most recently changed first; by id when changed at the same time.
    private static func newestFirst(_ a: SavedGame, _ b: SavedGame) -> Bool { (b.updatedAt, a.id) < (a.updatedAt, b.id) }

    // MARK: Games

    /// As the application's: the latest game in progress for a request that names nothing.
    func begin(_ request: GameRequest) throws -> (game: SavedGame, resumed: Bool) {
        if request.packID == nil && request.word == nil && !request.hard && request.daily == nil, let latest = try latestGameInProgress() {
            return (latest, true)
        }
        return (try startGame(request), false)
    }

    func latestGameInProgress() throws -> SavedGame? {
        try call("latestGameInProgress")
        let inProgress = games.values.filter { !$0.game.isFinished }.sorted(by: Self.newestFirst)
        return inProgress.first { !$0.game.guesses.isEmpty } ?? inProgress.first
    }

    func startGame(_ request: GameRequest) throws -> SavedGame {
        try call("startGame", "\(request.packID ?? "-") \(request.word ?? "-")\(request.hard ? " hard" : "")")
        if let date = request.daily, let existing = games.values.first(where: { $0.daily == date }) { return existing }
        let number = lock.withLock { started += 1; return started }
        let game = Game(id: "new\(number)", packID: request.packID ?? "animals", secret: request.word ?? "tiger",
                        rules: request.rules ?? .classic, hard: request.hard, assist: request.assist ?? assist)
        let new = Fixtures.saved(game, fact: "", startedAt: Fixtures.at(100), updatedAt: Fixtures.at(100), finishedAt: nil,
                                 startedOn: "laptop", lastChangedOn: "laptop", bookmarked: false, daily: request.daily)
        save(new)
        return new
    }

    func game(id: String) throws -> SavedGame {
        try call("game", id)
        return try saved(id)
    }

    func gamesInProgress() throws -> [SavedGame] {
        try call("gamesInProgress")
        return games.values.filter { !$0.game.isFinished && !$0.game.guesses.isEmpty }.sorted(by: Self.newestFirst)
    }

    func submitGuess(_ input: String, gameID: String) throws -> PlayedGuess {
        try call("submitGuess", "\(input) \(gameID)")
        var changed = try saved(gameID)
        let guess = try changed.game.submit(input, lexicon: lexicon)
        changed.updatedAt = changed.updatedAt.addingTimeInterval(60)
        if changed.game.isFinished { changed.finishedAt = changed.updatedAt }
        save(changed)
        return PlayedGuess(guess: guess, number: changed.game.guesses.count, game: changed)
    }

    func mark(_ letter: Character, as mark: LetterMark?, gameID: String) throws -> SavedGame {
        try call("mark", "\(letter) \(gameID)")
        var changed = try saved(gameID)
        changed.game.marks[letter] = mark
        save(changed)
        return changed
    }

    func giveUp(gameID: String) throws -> SavedGame {
        try call("giveUp", gameID)
        var changed = try saved(gameID)
        try changed.game.giveUp()
        changed.finishedAt = changed.updatedAt
        save(changed)
        return changed
    }

    func deleteGame(id: String) throws {
        try call("deleteGame", id)
        _ = try saved(id)
        lock.withLock { stored[id] = nil }
    }

    func history() throws -> [SavedGame] {
        try call("history")
        return games.values.filter(\.game.isFinished).sorted(by: Self.newestFirst)
    }

    // MARK: Packs, reading list, statistics

    func packs() throws -> [PackProgress] {
        try call("packs")
        return packList
    }

    func bookmarkGame(id: String) throws -> Bookmark {
        try call("bookmarkGame", id)
        let game = try saved(id)
        return Bookmark(word: game.game.secret, packID: game.game.packID, fact: game.fact, addedAt: Fixtures.at(200))
    }

    func removeBookmark(word: String) throws { try call("removeBookmark", word) }

    func readingList() throws -> [Bookmark] {
        try call("readingList")
        return bookmarks
    }

    func statsSummary() throws -> StatsSummary {
        try call("statsSummary")
        return StatsSummary(statistics: stats, achievements: achievementList, playedGames: played)
    }

    // MARK: The coach

    func candidates(of game: Game) throws -> [String] {
        try call("candidates", game.id)
        return candidateWords
    }

    func notepadWords(of game: Game) throws -> [String]? {
        try call("notepadWords", game.id)
        if game.isFinished || game.assist == .coach { return candidateWords }
        return game.assist == .proven ? provenWords : nil
    }

    func assistLevel() throws -> Assist {
        try call("assistLevel")
        return lock.withLock { assist }
    }

    func chooseAssist(_ level: Assist) throws {
        try call("chooseAssist", level.rawValue)
        lock.withLock { assist = level }
    }

    /// As the application's: the game read, refused once over, the hint, then counted.
    func takeHint(gameID: String) throws -> (game: SavedGame, hint: Hint) {
        let saved = try game(id: gameID)
        if saved.game.isFinished { throw GuessRejection.gameOver }
        let hint = try hint(for: saved.game)
        return (try recordHint(gameID: gameID), hint)
    }

    func hint(for game: Game) throws -> Hint {
        onHint()
        try call("hint", game.id)
        return hintAnswer
    }

    func recordHint(gameID: String) throws -> SavedGame {
        try call("recordHint", gameID)
        var changed = try saved(gameID)
        changed.hints.append(changed.game.guesses.count)
        save(changed)
        return changed
    }

    func review(of game: SavedGame) throws -> Review {
        try call("review", game.id)
        guard game.game.isFinished else { throw FakeFailure(description: "game '\(game.id)' is still in progress") }
        return reviewAnswer
    }

    // MARK: The daily word, challenges, sharing

    func dailyRequest() throws -> GameRequest {
        try call("dailyRequest")
        return daily
    }

    func challengeRequest(code: String) throws -> GameRequest {
        try call("challengeRequest", code)
        guard let request = challenges[code] else { throw FakeFailure(description: "not a challenge code: \(code)") }
        return request
    }

    func challengeCode(for game: Game) throws -> String? {
        try call("challengeCode", game.id)
        return "CODE-\(game.secret.uppercased())"
    }

    func shareText(for game: SavedGame) throws -> String {
        try call("shareText", game.id)
        return "Qiktionary \(game.game.guesses.count)/\(game.game.maxGuesses)"
    }

    func matches() throws -> [MatchOverview] {
        try call("matches")
        return matchList
    }

    func beginMatchGame(matchID: String) throws -> SavedGame {
        try call("beginMatchGame", matchID)
        guard let match = matchList.first(where: { $0.state.match.id == matchID }) else { throw FakeFailure(description: "no match \(matchID)") }
        return try startGame(GameRequest(packID: match.state.match.pack, word: "tiger"))
    }

    func matchOverview(ofGame gameID: String) throws -> MatchOverview? {
        try call("matchOverview", gameID)
        return matchList.first
    }

    func leaderboards(day: String) throws -> Leaderboards {
        try call("leaderboards", day)
        return boards
    }
}

/// The background sync, recording what it was asked in the same log as the data.
final class FakeBackground: BackgroundSyncing, @unchecked Sendable {
    let log: CallLog

    init(log: CallLog) { self.log = log }

    func request(manual: Bool) { log.record("request(manual: \(manual))") }
    func adoptReset(keepLocal: Bool) { log.record("adoptReset(keepLocal: \(keepLocal))") }
    func waitForFirstRound(seconds: Double) { log.record("waitForFirstRound(\(seconds))") }
    /// A code is let in when it is `goodCode`; any other is refused.
    let goodCode = "0000-0000-0000-0000-0000-0000"
    func join(code: String) throws -> String {
        log.record("join(\(code))")
        guard code == goodCode else { throw FakeFailure(description: "the code does not match") }
        return "Joined."
    }
}

/// What the coach posted, for a test to wait on with a deadline.
final class Posted: @unchecked Sendable {
    private var messages: [Message] = []
    private let lock = NSLock()
    private let arrived = DispatchSemaphore(value: 0)

    func post(_ message: Message) {
        lock.withLock { messages.append(message) }
        arrived.signal()
    }

    /// The next message posted, or nil when none came within `seconds`.
    func next(within seconds: Double = 10) -> Message? {
        guard arrived.wait(timeout: .now() + seconds) == .success else { return nil }
        return lock.withLock { messages.removeFirst() }
    }
}
