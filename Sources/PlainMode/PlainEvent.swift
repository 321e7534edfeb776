import Foundation
import QiktionaryCore

/// What plain mode reports, one per line: a JSON object with an "event" key, or a text line.
public enum PlainEvent: Encodable, Equatable {
    /// `match`: a game of a match, "match vs ben, game 1 of 3".
    case started(GameJSON, resumed: Bool, match: String? = nil)
    /// `candidates`: the pack's words still possible, only under the coach (`Assist.coach`).
    /// `note`: why a guess that shares every letter did not win ("all letters, wrong order").
    case feedback(gameID: String, n: Int, guess: GuessJSON, guessesLeft: Int, candidates: Int?, note: String? = nil)
    /// `candidates` and `expectedLeft`: counts of the pack's words, only under the coach.
    case hint(gameID: String, word: String, candidates: Int?, expectedLeft: Double?, reason: String)
    case rejected(input: String, reason: String, code: String)
    /// `nextDailyInSeconds`: after a daily game, the time to the next daily (local midnight).
    /// `foundOn`: the device the winning guess was played on; `foundElsewhere`: that device is
    /// not this one, or several played the game (the text then names it).
    /// `nextMatchGame`: after a game of a match, the player's next game of it and the match's id.
    case ended(GameJSON, result: GameStatus, word: String, fact: String, score: Int, challenge: String?, nextDailyInSeconds: Int? = nil,
               foundOn: String? = nil, foundElsewhere: Bool = false, nextMatchGame: NextMatchGame? = nil)
    case share(gameID: String, text: String)
    case bookmarked(word: String, fact: String)
    case unbookmarked(word: String)
    case marked(gameID: String, letter: String, mark: String)
    case games([GameJSON])
    case board(GameJSON, notepad: [String: String])
    case help([String])
    case error(String)

    private enum Key: String, CodingKey {
        case event, game, resumed, gameId, n, guess, common, inPlace, inWord, guessesLeft, candidates, note, expectedLeft
        case input, reason, code, result, word, fact, score, letter, mark, games, notepad, commands, message, challenge, text, nextDailyInSeconds
        case foundOn, match, nextMatchGame
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        let (event, fields) = contents
        try c.encode(event, forKey: .event)
        for case let (key, value?) in fields { try c.encode(value, forKey: key) }
    }

    /// The event's name and its fields, key by key; a field with no value is left out.
    private var contents: (event: String, fields: [(Key, (any Encodable)?)]) {
        switch self {
        case .started(let game, let resumed, let match):
            ("started", [(.game, game), (.resumed, resumed), (.match, match)])
        case .feedback(let gameID, let n, let guess, let left, let candidates, let note):
            ("feedback", [(.gameId, gameID), (.n, n), (.guess, guess.word), (.common, guess.common), (.inPlace, guess.inPlace),
                          (.inWord, guess.inWord), (.guessesLeft, left), (.candidates, candidates), (.note, note)])
        case .hint(let gameID, let word, let candidates, let expectedLeft, let reason):
            ("hint", [(.gameId, gameID), (.word, word), (.candidates, candidates),
                      (.expectedLeft, expectedLeft.map { ($0 * 100).rounded() / 100 }), (.reason, reason)])
        case .rejected(let input, let reason, let code):
            ("rejected", [(.input, input), (.reason, reason), (.code, code)])
        case .ended(let game, let result, let word, let fact, let score, let challenge, let next, let foundOn, _, let nextMatch):
            ("ended", [(.game, game), (.result, result), (.word, word), (.fact, fact), (.score, score), (.challenge, challenge),
                       (.nextDailyInSeconds, next), (.foundOn, foundOn), (.nextMatchGame, nextMatch)])
        case .share(let gameID, let text):
            ("share", [(.gameId, gameID), (.text, text)])
        case .bookmarked(let word, let fact):
            ("bookmarked", [(.word, word), (.fact, fact)])
        case .unbookmarked(let word):
            ("unbookmarked", [(.word, word)])
        case .marked(let gameID, let letter, let mark):
            ("marked", [(.gameId, gameID), (.letter, letter), (.mark, mark)])
        case .games(let games):
            ("games", [(.games, games)])
        case .board(let game, let notepad):
            ("board", [(.game, game), (.notepad, notepad)])
        case .help(let commands):
            ("help", [(.commands, commands)])
        case .error(let message):
            ("error", [(.message, message)])
        }
    }
}

/// The player's next game of a match, offered when one of its games ends.
public struct NextMatchGame: Encodable, Equatable, Sendable {
    public var matchId: String
    /// The game's number in the match, and the match as the start of a game says it.
    public var game: Int
    public var title: String
}
