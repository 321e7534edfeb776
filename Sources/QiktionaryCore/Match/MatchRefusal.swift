/// Why a match could not be made, or why a record another machine published about a match is
/// refused. Each says what is wrong in one line, with any text from the folder shown escaped
/// and cut (`PlayerName.quoted`); the wiring names the record before it.
public enum MatchRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    // Names and making a match.
    /// A name not allowed, with `PlayerName.problem`'s line.
    case badName(String)
    case againstYourself(String)
    /// The pack has fewer than three words to play under these rules.
    case tooFewWords(pack: String, rules: Rules)
    /// No pack has three words to play under these rules.
    case noPack(rules: Rules?)

    // A match as published.
    case badMatchID(String)
    /// Not two different players.
    case badPlayers(count: Int)
    case creatorNotAPlayer(String)
    /// A match found in one player's records that names another as its maker.
    case notTheCreator(publisher: String, creator: String)
    case badPack(String)
    case badPackVersion(Int)
    case badLength(Int)
    case badGuessLimit(Int)
    case badRules(String)
    case badTime
    case wordCount(Int)
    case badCode(String)
    case badWordCheck(Int)
    /// A match read again that differs from the version kept.
    case matchChanged(String)
    /// The codes do not give three words of the match's pack and rules on this machine.
    case wordsDoNotDecode(String)

    // What a player publishes of a game.
    case notInMatch(String)
    /// A record found in one player's records that speaks for another.
    case notThePublisher(player: String, publisher: String)
    case gameIndex(Int)
    case badStatus(String)
    case badAssist(String)
    case missing(String)
    case winInNoGuesses
    case tooManyGuesses(Int, limit: Int)
    case negative(String, Int)
    /// A loss comes only with the board full.
    case lossBeforeLimit(Int, limit: Int)
    /// A game still on at its limit would have been lost.
    case playingAtLimit(Int, limit: Int)
    /// At the limit the game was lost already: there was nothing to give up.
    case giveUpAtLimit(limit: Int)
    case tooManyHints(Int, guesses: Int)
    /// A result played at a help level other than the match's.
    case otherLevel(played: Assist, match: Assist)
    case badGrid(String)
    /// A game's result or progress before the player finished the game before it.
    case notFinishedBefore(index: Int)

    // A leaderboard line.
    /// A daily result's line that is not "date status guesses hints level [hard]".
    case badDay(String)
    case badStanding(String)

    // Declining.
    case creatorDeclines(String)
    case declineAfterPlaying(String)

    // Cancelling.
    case notTheMakerCancels(player: String, maker: String)
    /// The asked player answered first: declined it (`declined`) or played some of it.
    case cancelAfterAnswer(asked: String, declined: Bool)

    // Bounds on what is kept of the folder.
    /// A match of a pack here whose guess limit or word length is not the pack's.
    case notThePacks(String, pack: String)
    /// More plays or declines of one player waiting for matches not here than are kept.
    case tooManyWaiting(limit: Int)

    public var description: String {
        let q = PlayerName.quoted
        switch self {
        case .badName(let line): return line
        case .againstYourself(let name): return "\(q(name)) cannot play a match against themselves"
        case .tooFewWords(let pack, let rules):
            return "pack \(q(pack)) has fewer than three words to play under \(rules.rawValue) rules"
        case .noPack(let rules):
            return "no pack has three words to play" + (rules.map { " under \($0.rawValue) rules" } ?? "")
        case .badMatchID(let id): return "match id \(q(id)) is not a lowercase UUID"
        case .badPlayers(let count): return "a match is between two different players, not \(count)"
        case .creatorNotAPlayer(let name): return "the match's maker \(q(name)) is not one of its players"
        case .notTheCreator(let publisher, let creator):
            return "\(q(publisher)) published a match made by \(q(creator))"
        case .badPack(let id): return "pack id \(q(id)) is not 1 to 40 of a-z, 0-9 and '-'"
        case .badPackVersion(let version): return "pack version \(version) is not 1 to 1000000"
        case .badLength(let length): return "word length \(length) is not 4 to 7"
        case .badGuessLimit(let limit): return "guess limit \(limit) is not 1 to 30"
        case .badRules(let rules): return "rules \(q(rules)) are neither classic nor mastermind"
        case .badTime: return "the match's time is not between 2000 and 3000"
        case .wordCount(let count): return "a match has three words, not \(count)"
        case .badCode(let code): return "word code \(q(code)) is not 12 characters of the code alphabet"
        case .badWordCheck(let check): return "word check \(check) is not 0 to 16777215"
        case .matchChanged(let id): return "match \(q(id)) was changed after it was made"
        case .wordsDoNotDecode(let reason): return "the match's words do not decode here: \(reason)"
        case .notInMatch(let name): return "\(q(name)) is not a player of the match"
        case .notThePublisher(let player, let publisher):
            return "\(q(publisher)) published a record for \(q(player))"
        case .gameIndex(let index): return "game \(index) is not 1, 2 or 3"
        case .badStatus(let status): return "status \(q(status)) is not in-progress, won, lost or gave-up"
        case .badAssist(let assist): return "help level \(q(assist)) is not none, proven or coach"
        case .missing(let field): return "a finished game's \(field) is missing"
        case .winInNoGuesses: return "a win in no guesses"
        case .tooManyGuesses(let guesses, let limit): return "\(guesses) guesses is more than the limit of \(limit)"
        case .negative(let field, let value): return "\(field) \(value) is below 0"
        case .lossBeforeLimit(let guesses, let limit): return "a loss after \(guesses) guesses, before the limit of \(limit)"
        case .playingAtLimit(let guesses, let limit): return "a game still on after \(guesses) guesses, at the limit of \(limit)"
        case .giveUpAtLimit(let limit): return "a give-up after \(limit) guesses, the limit, where the game was lost already"
        case .tooManyHints(let hints, let guesses): return "\(hints) hints is more than \(guesses) guesses allow"
        case .otherLevel(let played, let level):
            return "played with help '\(played.rawValue)' where the match is played at '\(level.rawValue)'"
        case .badGrid(let reason): return "the grid \(reason)"
        case .notFinishedBefore(let index): return "game \(index) before game \(index - 1) was finished"
        case .badDay(let line): return "daily result \(q(line)) is not 'date status guesses hints level [hard]'"
        case .badStanding(let reason): return "the leaderboard line \(reason)"
        case .creatorDeclines(let name): return "\(q(name)) made the match and cannot decline it"
        case .declineAfterPlaying(let name): return "\(q(name)) has played the match already and cannot decline it"
        case .notTheMakerCancels(let player, let maker):
            return "only \(q(maker)), who made the match, can cancel it, not \(q(player))"
        case .cancelAfterAnswer(let asked, let declined):
            return declined ? "\(q(asked)) has declined the match already; there is nothing to cancel"
                : "\(q(asked)) has started playing the match, so it can no longer be cancelled"
        case .notThePacks(let what, let pack): return "its \(what) is not that of pack \(q(pack))"
        case .tooManyWaiting(let limit): return "\(limit) records of this player already wait for matches not here"
        }
    }
}
