import Foundation
import TextSafety
import QiktionaryCore
import App

/// Plain mode: reads one command per line and answers with events, as JSON Lines or as text.
/// Every change is saved before it is reported.
public final class PlainSession {
    /// The player's games: every command is one of the application's use cases.
    private let games: PlayerGames
    private let rules: Rules?
    private let hard: Bool
    /// The help level asked for with `--assist` (remembered for the player), or nil for theirs.
    private let assist: Assist?
    private let json: Bool
    private let write: (String) -> Void
    private var seed: UInt64?
    /// The game commands act on: the one started or resumed last (still set after it ends,
    /// so its fact can be bookmarked).
    private(set) var current: SavedGame?

    public init(
        games: PlayerGames,
        rules: Rules?, seed: UInt64?, hard: Bool = false, assist: Assist? = nil, json: Bool,
        write: @escaping (String) -> Void
    ) {
        self.games = games
        self.rules = rules
        self.hard = hard
        self.assist = assist
        self.seed = seed
        self.json = json
        self.write = write
    }

    /// Starts as asked (`--word`, `--pack` and `--hard` always begin a new game), else resumes
    /// the most recent game in progress, else starts a new one. Throws when the request cannot be met.
    /// The help level asked for becomes the player's (`PlayerGames.begin(_: GameOptions)`, as `play` does).
    public func begin(pack: String?, word: String?, daily: Bool = false, challenge: String? = nil, match: String? = nil) throws {
        let begun = try games.begin(GameOptions(pack: pack, word: word, rules: rules, seed: seed, hard: hard, assist: assist,
                                                daily: daily, challenge: challenge, match: match))
        // The seed is the first new game's.
        if !begun.resumed && !daily && challenge == nil && match == nil { seed = nil }
        show(begun.game, resumed: begun.resumed, match: begun.matchTitle)
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
        } catch let rejection as GuessRejection {
            // The words as parsed, one space apart: a carriage return, form feed or line
            // separator in the line must not break the one-line answer.
            let input = line.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            emit(.rejected(input: input, reason: rejection.reason, code: rejection.code))
        } catch {
            emit(.error(Wording.sentence(error)))
        }
        return true
    }

    /// Reads lines until `quit` or the end of input.
    public func run(readLine: () -> String?) {
        while let line = readLine() {
            if !handle(line) { return }
        }
    }

    private func run(_ command: PlainCommand, line: String) throws -> Bool {
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
            let game = try games.resume(idOrPrefix: id)
            current = game
            emit(.started(GameJSON(game), resumed: true))
        case .games:
            emit(.games(try games.gamesInProgress().map(GameJSON.init)))
        case .board:
            let game = try currentGame()
            let words = try games.notepadWords(of: game.game)
            emit(.board(GameJSON(game), notepad: Self.notepad(game.game.notepad(candidates: words), of: game.game)))
        case .guess(let word):
            let id = try currentGame().id
            let played = try games.submitGuess(word, gameID: id)
            current = played.game
            // The count of words still possible is the coach's: shown only when it is on.
            let candidates = played.game.game.assist == .coach ? try games.candidates(of: played.game.game).count : nil
            emit(.feedback(gameID: id, n: played.number, guess: GuessJSON(played.guess), guessesLeft: played.game.game.guessesLeft,
                           candidates: candidates,
                           note: played.guess.fullScoreNote(secret: played.game.game.secret)))
            if played.game.game.isFinished { emitEnded(played.game) }
        case .daily:
            try start(try games.dailyRequest())
        case .challenge(let code):
            try start(try games.challengeRequest(code: code))
        case .match(let id):
            try startMatchGame(id)
        case .share:
            let game = try currentGame()
            emit(.share(gameID: game.id, text: try games.shareText(for: game)))
        case .hint:
            let game = try currentGame()
            let (counted, hint) = try games.takeHint(gameID: game.id)
            current = counted
            let level = counted.game.assist, counts = hint.counts(at: level)
            emit(.hint(gameID: game.id, word: hint.word, candidates: counts?.candidates, expectedLeft: counts?.expectedLeft,
                       reason: hint.reason(at: level)))
        case .giveUp:
            let game = try games.giveUp(gameID: try currentGame().id)
            current = game
            emitEnded(game)
        case .mark(let letter, let mark):
            let game = try games.mark(letter, as: mark, gameID: try currentGame().id)
            current = game
            emit(.marked(gameID: game.id, letter: String(letter), mark: mark?.rawValue ?? "clear"))
        case .bookmark:
            let id = try currentGame().id
            let bookmark = try games.bookmarkGame(id: id)
            current = try games.game(id: id)
            emit(.bookmarked(word: bookmark.word, fact: bookmark.fact))
        case .unbookmark:
            let game = try currentGame()
            try games.unbookmark(game)
            current = try games.game(id: game.id)
            emit(.unbookmarked(word: game.game.secret))
        }
        return true
    }

    private func currentGame() throws -> SavedGame {
        guard let current else { throw PlayerDataError.noCurrentGame }
        return current
    }

    private func start(_ request: GameRequest) throws {
        let (game, resumed) = try games.start(request)
        show(game, resumed: resumed)
    }

    /// The player's next game of a match, started or resumed.
    private func startMatchGame(_ id: String) throws {
        let begun = try games.begin(GameOptions(match: id))
        show(begun.game, resumed: begun.resumed, match: begun.matchTitle)
    }

    /// The game started or resumed is the current one.
    private func show(_ game: SavedGame, resumed: Bool, match: String? = nil) {
        current = game
        emit(.started(GameJSON(game), resumed: resumed, match: match))
        if game.game.isFinished { emitEnded(game) }
    }

    /// After a game of a match: the player's next game of it, while there is one.
    private func nextMatchGame(after game: SavedGame) -> NextMatchGame? {
        guard let overview = (try? games.matchOverview(ofGame: game.id)) ?? nil,
              let next = overview.state.nextGame(for: overview.viewer) else { return nil }
        return NextMatchGame(matchId: overview.state.match.id, game: next, title: overview.gameTitle(index: next))
    }


    /// The seed picks the first word only; later games in the session draw freely.
    private func takeSeed() -> UInt64? {
        defer { seed = nil }
        return seed
    }

    private func emitEnded(_ game: SavedGame) {
        let code = try? games.challengeCode(for: game.game)
        emit(.ended(GameJSON(game), result: game.game.status, word: game.game.secret, fact: game.fact, score: game.game.score,
                    challenge: code ?? nil, nextDailyInSeconds: game.daily != nil ? games.dailyClock().secondsToNextDay : nil,
                    foundOn: game.foundOn, foundElsewhere: game.playedOnSeveralDevices || (game.foundOn.map { $0 != games.profile.device.name } ?? false),
                    nextMatchGame: nextMatchGame(after: game)))
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
