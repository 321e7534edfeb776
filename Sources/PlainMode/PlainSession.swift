import Foundation
import TextSafety
import QiktionaryCore
import Storage

/// Plain mode: reads one command per line and answers with events, as JSON Lines or as text.
/// Every change is saved before it is reported.
public final class PlainSession {
    /// The player's games; `database` for what belongs to no player (the coach, challenges).
    private let player: PlayerDatabase
    private var database: AppDatabase { player.database }
    private var profile: Profile { player.profile }
    private let lexicon: () -> Lexicon
    private let rules: Rules?
    private let hard: Bool
    /// The help level asked for with `--assist` (remembered for the player), or nil for theirs.
    private let assist: Assist?
    private let json: Bool
    private let write: (String) -> Void
    /// The request for today's daily game (the clock and the shipped packs are the caller's).
    private let daily: () throws(StorageError) -> GameRequest
    /// The daily word's clock, for the time to the next daily.
    private let dailyClock: () -> DailyClock
    private var seed: UInt64?
    /// The game commands act on: the one started or resumed last (still set after it ends,
    /// so its fact can be bookmarked).
    private(set) var current: SavedGame?

    public init(
        player: PlayerDatabase, lexicon: @escaping () -> Lexicon,
        rules: Rules?, seed: UInt64?, hard: Bool = false, assist: Assist? = nil, json: Bool,
        daily: @escaping () throws(StorageError) -> GameRequest = { () throws(StorageError) -> GameRequest in throw .packEmpty("(no daily word here)") },
        dailyClock: @escaping () -> DailyClock = { DailyClock.system() },
        write: @escaping (String) -> Void
    ) {
        self.daily = daily
        self.dailyClock = dailyClock
        self.player = player
        self.lexicon = lexicon
        self.rules = rules
        self.hard = hard
        self.assist = assist
        self.seed = seed
        self.json = json
        self.write = write
    }

    /// Starts as asked (`--word`, `--pack` and `--hard` always begin a new game), else resumes
    /// the most recent game in progress, else starts a new one. Throws when the request cannot be met.
    public func begin(pack: String?, word: String?, daily: Bool = false, challenge: String? = nil) throws(StorageError) {
        // A level asked for is the player's from now on, here and, through the games it
        // starts, on their other machines; a game already started keeps its own.
        if let assist { try player.chooseAssist(assist) }
        if daily { return try start(try self.daily()) }
        if let challenge { return try start(try database.challengeRequest(code: challenge, lexicon: lexicon())) }
        if pack == nil && word == nil && !hard, let latest = try player.latestGameInProgress() {
            current = latest
            emit(.started(GameJSON(latest), resumed: true))
        } else {
            try start(GameRequest(packID: pack, word: word, rules: rules, seed: takeSeed(), hard: hard, assist: assist))
        }
    }

    /// Handles one input line; false when the session should end.
    @discardableResult
    public func handle(_ line: String) -> Bool {
        let command: PlainCommand
        do {
            command = try PlainCommand.parse(line)
        } catch {
            emit(.error(error.message))
            return true
        }
        do {
            return try run(command, line: line)
        } catch .rejected(let rejection) {
            // The words as parsed, one space apart: a carriage return, form feed or line
            // separator in the line must not break the one-line answer.
            let input = line.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            emit(.rejected(input: input, reason: rejection.reason, code: rejection.code))
        } catch {
            emit(.error(error.description))
        }
        return true
    }

    /// Reads lines until `quit` or the end of input.
    public func run(readLine: () -> String?) {
        while let line = readLine() {
            if !handle(line) { return }
        }
    }

    private func run(_ command: PlainCommand, line: String) throws(StorageError) -> Bool {
        switch command {
        case .nothing:
            break
        case .quit:
            return false
        case .help:
            emit(.help(PlainCommand.helpLines))
        case .new(let packID, let hard):
            try start(GameRequest(packID: packID ?? current?.game.packID, rules: rules, seed: takeSeed(), hard: hard || self.hard, assist: assist))
        case .resume(let id):
            let game = try player.game(idOrPrefix: id)
            if game.game.isFinished { throw .rejected(.gameOver) }
            current = game
            emit(.started(GameJSON(game), resumed: true))
        case .games:
            emit(.games(try player.gamesInProgress().map(GameJSON.init)))
        case .board:
            let game = try currentGame()
            let words = try database.notepadWords(of: game.game, lexicon: self.lexicon())
            emit(.board(GameJSON(game), notepad: Self.notepad(game.game.notepad(candidates: words), of: game.game)))
        case .guess(let word):
            let id = try currentGame().id
            let played = try player.submitGuess(word, gameID: id, lexicon: lexicon())
            current = played.game
            // The count of words still possible is the coach's: shown only when it is on.
            let candidates = played.game.game.assist == .coach ? try database.candidates(of: played.game.game, lexicon: self.lexicon()).count : nil
            emit(.feedback(gameID: id, n: played.number, guess: GuessJSON(played.guess), guessesLeft: played.game.game.guessesLeft,
                           candidates: candidates,
                           note: played.guess.fullScoreNote(secret: played.game.game.secret)))
            if played.game.game.isFinished { emitEnded(played.game) }
        case .daily:
            try start(try daily())
        case .challenge(let code):
            try start(try database.challengeRequest(code: code, lexicon: lexicon()))
        case .share:
            let game = try currentGame()
            emit(.share(gameID: game.id, text: try database.shareText(for: game)))
        case .hint:
            let game = try currentGame()
            if game.game.isFinished { throw .rejected(.gameOver) }
            let coach = try database.coach(for: game.game, lexicon: lexicon())
            guard let hint = coach.hint(for: game.game) else { throw .noHint }
            current = try player.recordHint(gameID: game.id)
            emit(.hint(gameID: game.id, word: hint.word, candidates: hint.candidates, expectedLeft: hint.expectedLeft, reason: hint.reason))
        case .giveUp:
            let game = try player.giveUp(gameID: try currentGame().id)
            current = game
            emitEnded(game)
        case .mark(let letter, let mark):
            let game = try player.mark(letter, as: mark, gameID: try currentGame().id)
            current = game
            emit(.marked(gameID: game.id, letter: String(letter), mark: mark?.rawValue ?? "clear"))
        case .bookmark:
            let id = try currentGame().id
            let bookmark = try player.bookmarkGame(id: id)
            current = try player.game(id: id)
            emit(.bookmarked(word: bookmark.word, fact: bookmark.fact))
        case .unbookmark:
            let game = try currentGame()
            guard game.game.isFinished else { throw .gameNotFinished }
            try player.removeBookmark(word: game.game.secret)
            current = try player.game(id: game.id)
            emit(.unbookmarked(word: game.game.secret))
        }
        return true
    }

    private func currentGame() throws(StorageError) -> SavedGame {
        guard let current else { throw .noGame("(none: type 'new')") }
        return current
    }

    private func start(_ request: GameRequest) throws(StorageError) {
        let existing = request.daily.flatMap { try? player.game(id: DailyWord.gameID(player: profile.playerID, date: $0)) }
        let game = try player.startGame(request, lexicon: lexicon)
        current = game
        emit(.started(GameJSON(game), resumed: existing != nil))
        if game.game.isFinished { emitEnded(game) }
    }


    /// The seed picks the first word only; later games in the session draw freely.
    private func takeSeed() -> UInt64? {
        defer { seed = nil }
        return seed
    }

    private func emitEnded(_ game: SavedGame) {
        let code = try? database.challengeCode(for: game.game, lexicon: lexicon())
        emit(.ended(GameJSON(game), result: game.game.status, word: game.game.secret, fact: game.fact, score: game.game.score,
                    challenge: code ?? nil, nextDailyInSeconds: game.daily != nil ? dailyClock().secondsToNextDay : nil,
                    foundOn: game.foundOn, foundElsewhere: game.playedOnSeveralDevices || (game.foundOn.map { $0 != profile.device.name } ?? false)))
    }

    /// The notepad as the board event gives it: "in (proven)" or "out (coach)" for a mark the
    /// guesses prove at the game's help level (the coach's words once it is over), "in (yours)"
    /// for the player's own.
    static func notepad(_ notepad: Notepad, of game: Game) -> [String: String] {
        let source = game.isFinished || game.assist == .coach ? "coach" : "proven"
        var marks: [String: String] = [:]
        for entry in notepad.entries {
            if let deduced = entry.deduced {
                marks[String(entry.letter)] = "\(deduced.rawValue) (\(source))"
            } else if let marked = entry.marked {
                marks[String(entry.letter)] = "\(marked.rawValue) (yours)"
            }
        }
        return marks
    }

    private func emit(_ event: PlainEvent) {
        write(json ? JSONLine.encode(event) : visible(PlainText.render(event)))
    }
}
