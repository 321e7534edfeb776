import QiktionaryCore

/// One line of plain-mode input, parsed.
public enum PlainCommand: Equatable, Sendable {
    case guess(String)
    case new(packID: String?, hard: Bool = false)
    /// `new --daily`: the day's game, started or resumed.
    case daily
    /// `new --challenge CODE`.
    case challenge(code: String)
    /// `new --match ID`: the player's next game of the match.
    case match(id: String)
    case hint
    case share
    case resume(gameID: String)
    case games
    case mark(Character, LetterMark?)
    case giveUp
    case bookmark
    case unbookmark
    case board
    case help
    case quit
    case nothing

    public struct Unknown: Error, Equatable {
        public var message: String
    }

    /// Reads a line: a bare word is a guess; anything else must be one of the commands.
    public static func parse(_ line: String) throws(Unknown) -> PlainCommand {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let head = words.first?.lowercased() else { return .nothing }
        let rest = Array(words.dropFirst())
        func arguments(_ range: ClosedRange<Int>, usage: String) throws(Unknown) {
            if !range.contains(rest.count) { throw Unknown(message: "usage: \(usage)") }
        }
        switch head {
        case "guess":
            try arguments(1...1, usage: "guess WORD")
            return .guess(rest[0])
        case "new":
            let usage = "usage: new [--hard] [PACK_ID] | new --daily | new --challenge CODE | new --match ID"
            switch rest.first?.lowercased() {
            case "--daily":
                try arguments(1...1, usage: "new --daily")
                return .daily
            case "--challenge":
                // A code may be typed in groups: "new --challenge K7QM 2XWA 9DF3".
                if rest.count < 2 { throw Unknown(message: "usage: new --challenge CODE") }
                return .challenge(code: rest.dropFirst().joined())
            case "--match":
                try arguments(2...2, usage: "new --match ID")
                return .match(id: rest[1].lowercased())
            default: break
            }
            let hard = rest.contains { $0.lowercased() == "--hard" }
            let others = rest.filter { $0.lowercased() != "--hard" }
            if others.count > 1 || rest.count - others.count > 1 { throw Unknown(message: usage) }
            if let pack = others.first, pack.hasPrefix("-") { throw Unknown(message: "unknown option '\(pack)'; \(usage)") }
            return .new(packID: others.first, hard: hard)
        case "resume":
            if rest.contains(where: { $0.lowercased() == "--hard" }) {
                throw Unknown(message: "hard mode is chosen when a game starts: 'new --hard [PACK_ID]'; 'resume' takes only a game id")
            }
            try arguments(1...1, usage: "resume GAME_ID")
            return .resume(gameID: rest[0])
        case "mark":
            let usage = "mark LETTER out|in|clear"
            try arguments(2...2, usage: usage)
            let letter = rest[0].lowercased()
            guard letter.count == 1, let c = letter.first, Notepad.alphabet.contains(c) else {
                throw Unknown(message: "'\(rest[0])' is not a letter a to z; \(usage)")
            }
            switch rest[1].lowercased() {
            case "out": return .mark(c, .out)
            case "in": return .mark(c, .in)
            case "clear": return .mark(c, nil)
            default: throw Unknown(message: "usage: \(usage)")
            }
        case "games", "give-up", "bookmark", "unbookmark", "board", "hint", "share", "help", "quit":
            try arguments(0...0, usage: head)
            switch head {
            case "games": return .games
            case "hint": return .hint
            case "share": return .share
            case "give-up": return .giveUp
            case "bookmark": return .bookmark
            case "unbookmark": return .unbookmark
            case "board": return .board
            case "help": return .help
            default: return .quit
            }
        default:
            if rest.isEmpty { return .guess(words[0]) }
            throw Unknown(message: "unknown command '\(words[0])' (type 'help')")
        }
    }

    public static let helpLines: [String] = [
        "WORD or guess WORD   play a guess",
        "new [--hard] [PACK_ID]   start a new game (hard: every guess must fit the feedback so far)",
        "new --daily          the day's word (your local date), the same for everyone",
        "new --challenge CODE play a friend's challenge",
        "new --match ID       your next game of a match",
        "hint                 the guess that leaves the fewest words possible on average",
        "resume GAME_ID       go back to a game in progress",
        "games                list games in progress",
        "mark LETTER out|in|clear   mark a letter on the notepad",
        "give-up              end the game and see the word",
        "bookmark             put this game's fact on the reading list",
        "share                a spoiler-free summary of the finished game",
        "unbookmark           take it off again",
        "board                show the game",
        "help                 this list",
        "quit                 leave (end of input does the same)",
    ]
}
