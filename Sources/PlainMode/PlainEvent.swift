import Foundation
import QiktionaryCore
import Storage

/// What plain mode reports, one per line: a JSON object with an "event" key, or a text line.
public enum PlainEvent: Encodable, Equatable {
    case started(GameJSON, resumed: Bool)
    case feedback(gameID: String, n: Int, guess: GuessJSON, guessesLeft: Int, candidates: Int)
    case hint(gameID: String, word: String, candidates: Int, expectedLeft: Double, reason: String)
    case rejected(input: String, reason: String, code: String)
    case ended(GameJSON, result: GameStatus, word: String, fact: String, score: Int, challenge: String?)
    case share(gameID: String, text: String)
    case bookmarked(word: String, fact: String)
    case unbookmarked(word: String)
    case marked(gameID: String, letter: String, mark: String)
    case games([GameJSON])
    case board(GameJSON, notepad: [String: String])
    case help([String])
    case error(String)

    private enum Key: String, CodingKey {
        case event, game, resumed, gameId, n, guess, common, inPlace, inWord, guessesLeft, candidates, expectedLeft
        case input, reason, code, result, word, fact, score, letter, mark, games, notepad, commands, message, challenge, text
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        switch self {
        case .started(let game, let resumed):
            try c.encode("started", forKey: .event)
            try c.encode(game, forKey: .game)
            try c.encode(resumed, forKey: .resumed)
        case .feedback(let gameID, let n, let guess, let left, let candidates):
            try c.encode("feedback", forKey: .event)
            try c.encode(gameID, forKey: .gameId)
            try c.encode(n, forKey: .n)
            try c.encode(guess.word, forKey: .guess)
            try c.encodeIfPresent(guess.common, forKey: .common)
            try c.encodeIfPresent(guess.inPlace, forKey: .inPlace)
            try c.encodeIfPresent(guess.inWord, forKey: .inWord)
            try c.encode(left, forKey: .guessesLeft)
            try c.encode(candidates, forKey: .candidates)
        case .hint(let gameID, let word, let candidates, let expectedLeft, let reason):
            try c.encode("hint", forKey: .event)
            try c.encode(gameID, forKey: .gameId)
            try c.encode(word, forKey: .word)
            try c.encode(candidates, forKey: .candidates)
            try c.encode((expectedLeft * 100).rounded() / 100, forKey: .expectedLeft)
            try c.encode(reason, forKey: .reason)
        case .rejected(let input, let reason, let code):
            try c.encode("rejected", forKey: .event)
            try c.encode(input, forKey: .input)
            try c.encode(reason, forKey: .reason)
            try c.encode(code, forKey: .code)
        case .ended(let game, let result, let word, let fact, let score, let challenge):
            try c.encode("ended", forKey: .event)
            try c.encode(game, forKey: .game)
            try c.encode(result, forKey: .result)
            try c.encode(word, forKey: .word)
            try c.encode(fact, forKey: .fact)
            try c.encode(score, forKey: .score)
            try c.encodeIfPresent(challenge, forKey: .challenge)
        case .share(let gameID, let text):
            try c.encode("share", forKey: .event)
            try c.encode(gameID, forKey: .gameId)
            try c.encode(text, forKey: .text)
        case .bookmarked(let word, let fact):
            try c.encode("bookmarked", forKey: .event)
            try c.encode(word, forKey: .word)
            try c.encode(fact, forKey: .fact)
        case .unbookmarked(let word):
            try c.encode("unbookmarked", forKey: .event)
            try c.encode(word, forKey: .word)
        case .marked(let gameID, let letter, let mark):
            try c.encode("marked", forKey: .event)
            try c.encode(gameID, forKey: .gameId)
            try c.encode(letter, forKey: .letter)
            try c.encode(mark, forKey: .mark)
        case .games(let games):
            try c.encode("games", forKey: .event)
            try c.encode(games, forKey: .games)
        case .board(let game, let notepad):
            try c.encode("board", forKey: .event)
            try c.encode(game, forKey: .game)
            try c.encode(notepad, forKey: .notepad)
        case .help(let commands):
            try c.encode("help", forKey: .event)
            try c.encode(commands, forKey: .commands)
        case .error(let message):
            try c.encode("error", forKey: .event)
            try c.encode(message, forKey: .message)
        }
    }
}
