import Foundation
import QiktionaryCore
import Storage

// Challenge codes and the share text: what a game passes on to a friend.

extension PlayerGames {
    private var database: AppDatabase { player.database }

    /// The game a challenge code names: its pack's word when this machine has that pack and
    /// word, else the same word as a practice game.
    public func challengeRequest(code: String) throws -> GameRequest {
        try run { () throws(StorageError) in
            let packIDs = try database.packIDs()
            let challenge: Challenge
            do throws(ChallengeError) { challenge = try ChallengeCode.decode(code, lexicon: lexicon(), packIDs: packIDs) } catch { throw .challenge(error) }
            let inPack = try challenge.pack.map { pack throws(StorageError) in try database.packHolds(challenge.word, pack: pack.id) } ?? false
            return GameRequest(packID: inPack ? challenge.pack?.id : nil, word: challenge.word, rules: challenge.rules, hard: challenge.hard)
        }
    }

    /// The code that passes a game on: its word, pack and version, rules and hard mode. Nil
    /// for a word the code cannot carry.
    public func challengeCode(for game: Game) throws -> String? {
        try run { () throws(StorageError) in
            let version = try database.pack(game.packID)?.version
            let pack = game.packID == Practice.packID ? nil : version.map { (id: game.packID, version: $0) }
            let challenge = Challenge(pack: pack, word: game.secret, rules: game.rules, hard: game.hard)
            return try? ChallengeCode.encode(challenge, dictionary: lexicon().words(ofLength: game.length))
        }
    }

    /// The spoiler-free summary of a finished game (`ShareText`).
    public func shareText(for saved: SavedGame) throws -> String {
        try run { () throws(StorageError) in
            guard saved.game.isFinished else { throw .noShareYet }
            let title = try database.pack(saved.game.packID)?.title
            return ShareText.summary(game: saved.game, packTitle: title ?? "Practice", date: saved.daily, hints: saved.hints.count)
        }
    }

    /// A challenge for a friend: the word given (from a pack when one has it, else as practice),
    /// or one drawn from the pack given, or from any pack.
    public func newChallenge(packID: String?, word: String?, rules: Rules?, hard: Bool, seed: UInt64? = nil) throws -> String {
        try run { () throws(StorageError) in
            let choice = try player.chooseSecret(GameRequest(packID: packID, word: word, rules: rules, seed: seed, hard: hard),
                                                 drawing: .everyPack, lexicon: lexicon)
            let challenge = Challenge(pack: choice.isPractice ? nil : (id: choice.pack.id, version: choice.pack.version),
                                      word: choice.word, rules: choice.rules, hard: hard)
            do throws(ChallengeError) { return try ChallengeCode.encode(challenge, dictionary: lexicon().words(ofLength: choice.word.count)) } catch { throw .challenge(error) }
        }
    }
}
