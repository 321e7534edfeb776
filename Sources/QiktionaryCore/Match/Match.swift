import Foundation

/// A match: two players play the same three secret words of one pack, in order, under the same
/// rules, hard setting and guess limit. Its maker publishes it; it never changes afterwards.
/// Declining is the other player's record (`MatchState`), and so is each player's progress
/// (`MatchPlay`).
///
/// The words travel as challenge codes (`ChallengeCode`): not readable by eye, so neither player
/// reads a word off the folder before playing it, and each decodes only with the dictionary.
public struct Match: Sendable, Equatable {
    /// The games of a match, by index.
    public static let games = 1...3

    /// A lowercase UUID.
    public var id: String
    /// The two players, the maker first.
    public var players: [String]
    public var createdBy: String
    public var pack: String
    /// The maker's version of the pack (the codes carry it too).
    public var packVersion: Int
    public var rules: Rules
    public var hard: Bool
    /// The words' length.
    public var length: Int
    /// The guess limit of every game of the match: the pack's.
    public var maxGuesses: Int
    public var createdAt: Date
    /// The three words as challenge codes, game 1 first.
    public var codes: [String]
    /// A 24-bit check of the match's id and words (`Match.wordCheck(id:words:)`): a code names a
    /// word by its place in the dictionary, so a machine whose dictionary differs from the
    /// maker's would decode other words; this says so instead.
    public var wordCheck: Int
    /// The help level both players play every game at, chosen by the maker (`match new
    /// --assist`, `proven` unless said): a play at another level is refused as a result. Nil for
    /// a match made before matches had one (each player then played at their own).
    public var assist: Assist?

    public init(id: String, players: [String], createdBy: String, pack: String, packVersion: Int, rules: Rules, hard: Bool,
                length: Int, maxGuesses: Int, createdAt: Date, codes: [String], wordCheck: Int, assist: Assist?) {
        self.id = id
        self.players = players
        self.createdBy = createdBy
        self.pack = pack
        self.packVersion = packVersion
        self.rules = rules
        self.hard = hard
        self.length = length
        self.maxGuesses = maxGuesses
        self.createdAt = createdAt
        self.codes = codes
        self.wordCheck = wordCheck
        self.assist = assist
    }

    /// The other player, for a player of the match.
    public func opponent(of player: String) -> String? {
        players.contains(player) ? players.first { $0 != player } : nil
    }

    /// The id of a player's game `index` of the match: a lowercase UUID made from the three, the
    /// same on every machine of the player, so the game started on two machines is one game (as
    /// a daily game is, and by the same derivation: the key names the match, so it is never a
    /// date's).
    public func gameID(player: String, index: Int) -> String {
        DailyWord.gameID(player: player, date: "match \(id) game \(index)")
    }

    // MARK: Making a match

    /// A new match of `creator` against `opponent` on three different words of `pack` (under
    /// `rules`, the pack's own when nil), drawn with `generator` (a `SeededGenerator` draws the
    /// same match, id included, every time), preferring words not in `avoiding` (the words the
    /// maker has played). The guess limit is the pack's; both play at `assist`.
    public static func make<R: RandomNumberGenerator>(
        by creator: String, against opponent: String, pack: Pack, rules: Rules? = nil, hard: Bool = false, assist: Assist = .standard,
        createdAt: Date, lexicon: Lexicon, avoiding played: Set<String> = [], using generator: inout R
    ) throws(MatchRefusal) -> Match {
        for name in [creator, opponent] {
            if let problem = PlayerName.problem(name) { throw .badName(problem) }
        }
        if creator == opponent { throw .againstYourself(creator) }
        let rules = rules ?? pack.rules
        var codes = playable(pack, rules: rules, hard: hard, dictionary: lexicon.words(ofLength: pack.length))
        guard codes.count >= games.count else { throw .tooFewWords(pack: pack.id, rules: rules) }
        var chosen: [(word: String, code: String)] = []
        while chosen.count < games.count {
            let words = codes.map(\.word)
            guard let word = WordChoice.choose(from: words, notYet: played, using: &generator),
                  let index = words.firstIndex(of: word) else { break }
            chosen.append(codes.remove(at: index))
        }
        let id = newID(using: &generator)
        return Match(id: id, players: [creator, opponent], createdBy: creator, pack: pack.id, packVersion: pack.version, rules: rules,
                     hard: hard, length: pack.length, maxGuesses: pack.guessLimit, createdAt: createdAt,
                     codes: chosen.map(\.code), wordCheck: wordCheck(id: id, words: chosen.map(\.word)), assist: assist)
    }

    /// A pack for a match when none is named: any pack with three words to play under `rules`
    /// (each pack under its own when nil), drawn with `generator` from the packs in id order.
    public static func choosePack<R: RandomNumberGenerator>(from packs: [Pack], rules: Rules? = nil, lexicon: Lexicon,
                                                            using generator: inout R) throws(MatchRefusal) -> Pack {
        // The dictionary's words of each length, sorted once (the codes are places in them).
        var dictionaries: [Int: [String]] = [:]
        let fit = packs.sorted { $0.id < $1.id }.filter { pack in
            let dictionary = dictionaries[pack.length] ?? lexicon.words(ofLength: pack.length)
            dictionaries[pack.length] = dictionary
            return playable(pack, rules: rules ?? pack.rules, hard: false, dictionary: dictionary).count >= games.count
        }
        guard let pack = fit.randomElement(using: &generator) else { throw .noPack(rules: rules) }
        return pack
    }

    /// The pack's words that can be a match's under `rules`, with their codes, in the pack's order.
    /// `dictionary`: the dictionary's sorted words of the pack's length.
    static func playable(_ pack: Pack, rules: Rules, hard: Bool, dictionary: [String]) -> [(word: String, code: String)] {
        pack.words.compactMap { entry in
            let challenge = Challenge(pack: (id: pack.id, version: pack.version), word: entry.word, rules: rules, hard: hard)
            return (try? ChallengeCode.encode(challenge, dictionary: dictionary)).map { (entry.word, $0) }
        }
    }

    /// A random (version 4) lowercase UUID drawn from the generator.
    static func newID<R: RandomNumberGenerator>(using generator: inout R) -> String {
        let high = (generator.next() & ~0xF000) | 0x4000
        let low = (generator.next() & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        let hex = Array(String(format: "%016llx%016llx", high, low))
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }.joined(separator: "-")
    }

    /// Whether a text is a lowercase UUID, as match and game ids are.
    public static func isID(_ text: String) -> Bool {
        text.utf8.count == 36 && UUID(uuidString: text)?.uuidString.lowercased() == text
    }

    // MARK: The words

    /// The three words, decoded with this machine's dictionary and checked against the match:
    /// each code must name a word of the match's length, rules, hard setting and pack, the three
    /// different, each one of `packWords` when given (the pack's words here), and the three
    /// the words the maker drew (`wordCheck`: a dictionary that differs from the maker's decodes
    /// other words).
    public func words(lexicon: Lexicon, packWords: [String]? = nil) throws(MatchRefusal) -> [String] {
        var words: [String] = []
        for code in codes {
            let challenge: Challenge
            do { challenge = try ChallengeCode.decode(code, lexicon: lexicon, packIDs: [pack]) }
            catch { throw .wordsDoNotDecode(error.description) }
            let word = challenge.word
            guard challenge.rules == rules, challenge.hard == hard, challenge.pack?.id == pack, word.count == length else {
                throw .wordsDoNotDecode("code \(PlayerName.quoted(code)) was not made for this match")
            }
            if let packWords, !packWords.contains(word) {
                throw .wordsDoNotDecode("a word is not in pack \(PlayerName.quoted(pack)) here")
            }
            if words.contains(word) { throw .wordsDoNotDecode("two codes name the same word") }
            words.append(word)
        }
        guard Match.wordCheck(id: id, words: words) == wordCheck else {
            throw .wordsDoNotDecode("they are not the words the match was made with (another dictionary?)")
        }
        return words
    }

    /// The check of a match's words: 24 bits of a hash of the id and the words in order.
    static func wordCheck(id: String, words: [String]) -> Int {
        Int(ChallengeCode.fnv1a(Array(([id] + words).joined(separator: " ").utf8), seed: 0x3A7C) & 0xFF_FFFF)
    }

    // MARK: Checking a published match

    /// Refuses a match another machine published that cannot be one: `publisher` is the player
    /// whose records it was found in, who must be its maker. What needs the dictionary (the
    /// codes' words) is `words(lexicon:packWords:)`'s.
    public func check(publishedBy publisher: String) throws(MatchRefusal) {
        guard Match.isID(id) else { throw .badMatchID(id) }
        guard players.count == 2, players[0] != players[1] else { throw .badPlayers(count: Set(players).count) }
        for name in players {
            if let problem = PlayerName.problem(name) { throw .badName(problem) }
        }
        guard players.contains(createdBy) else { throw .creatorNotAPlayer(createdBy) }
        guard createdBy == publisher else { throw .notTheCreator(publisher: publisher, creator: createdBy) }
        guard Match.isPackID(pack) else { throw .badPack(pack) }
        guard (1...1_000_000).contains(packVersion) else { throw .badPackVersion(packVersion) }
        guard Pack.lengths.contains(length) else { throw .badLength(length) }
        guard Pack.guessLimits.contains(maxGuesses) else { throw .badGuessLimit(maxGuesses) }
        guard (946_684_800.0...32_503_680_000.0).contains(createdAt.timeIntervalSince1970) else { throw .badTime }
        guard codes.count == Match.games.count else { throw .wordCount(codes.count) }
        for code in codes where !Match.isCode(code) { throw .badCode(code) }
        guard (0...0xFF_FFFF).contains(wordCheck) else { throw .badWordCheck(wordCheck) }
    }

    /// A match is never changed once made: a version read later that differs from the one a
    /// machine keeps (other words after a player has played them, another opponent) is refused,
    /// and the kept one stays.
    public static func checkUnchanged(kept: Match, read: Match) throws(MatchRefusal) {
        guard kept == read else { throw .matchChanged(kept.id) }
    }

    /// The rules a published match names.
    public static func rules(_ text: String) throws(MatchRefusal) -> Rules {
        guard let rules = Rules(rawValue: text) else { throw .badRules(text) }
        return rules
    }

    static func isPackID(_ id: String) -> Bool {
        (1...40).contains(id.utf8.count) && id.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 45 }
            && id != Pack.practiceID
    }

    /// A code as a match holds it: exactly 12 characters of the code's alphabet.
    static func isCode(_ code: String) -> Bool {
        code.utf8.count == ChallengeCode.length && code.utf8.allSatisfy(ChallengeCode.alphabet.contains)
    }
}
