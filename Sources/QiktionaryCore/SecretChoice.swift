/// A word pack as the choice of a new game's secret reads it: what a game takes from it, not its
/// words.
public struct PackHeading: Sendable, Equatable {
    public var id: String
    public var version: Int
    public var rules: Rules
    /// The guesses a game of the pack allows; nil for the game's default.
    public var maxGuesses: Int?

    public init(id: String, version: Int, rules: Rules, maxGuesses: Int?) {
        self.id = id
        self.version = version
        self.rules = rules
        self.maxGuesses = maxGuesses
    }
}

/// What choosing a new game's secret asks of the packs here. The store answers it inside one
/// transaction; `SecretChoice.choose` asks only what the request needs.
public protocol PackShelf {
    associatedtype Failure: Error
    /// The pack with this id; nil when it is not here.
    func pack(_ id: String) throws(Failure) -> PackHeading?
    /// The first pack by length, then title; nil when no pack is here.
    func firstPack() throws(Failure) -> PackHeading?
    /// The pack of the player's most recent game of a pack still here (practice games and
    /// packs taken away skipped); nil when there is none.
    func latestPlayedPack() throws(Failure) -> PackHeading?
    /// The pack holding `word` (the one given, else the first by id) and the word's entry there.
    func entry(_ word: String, in pack: String?) throws(Failure) -> (pack: String, entry: Pack.Entry)?
    /// The words of one pack (nil: of every pack, by pack id), each pack's in its own order.
    func entries(of pack: String?) throws(Failure) -> [(pack: String, entry: Pack.Entry)]
    /// The words of a pack the player has had a game on.
    func played(in pack: String) throws(Failure) -> Set<String>
    /// Whether `word` is a word of the dictionary (a practice game's).
    func isDictionaryWord(_ word: String) -> Bool
    /// The failure a refused request is thrown as.
    static func refusing(_ refusal: SecretRefusal) -> Failure
}

/// Why no game can start on a request.
public enum SecretRefusal: Error, Sendable, Equatable {
    case unknownPack(String)
    case wordNotInPack(word: String, pack: String)
    /// A word of no pack that is no word of the dictionary of a game's length either.
    case unknownWord(String)
    case noPacks
    /// The pack has no word the rules allow.
    case packEmpty(String)
    case rulesForbidWord(String)
}

/// A new game's secret, pack and rules: the one rule of choosing them, for a game started here
/// (solo, a practice word) and a challenge made for a friend alike (a daily game's word comes
/// from the schedule, a match's from `Match.make`, each then started through here).
public struct SecretChoice: Sendable, Equatable {
    /// The pack, `Practice.packID` for a word of no pack.
    public var pack: PackHeading
    public var word: String
    public var fact: String
    /// The rules the game is played under: the request's, else the pack's.
    public var rules: Rules

    public init(pack: PackHeading, word: String, fact: String, rules: Rules) {
        self.pack = pack
        self.word = word
        self.fact = fact
        self.rules = rules
    }

    public var isPractice: Bool { pack.id == Practice.packID }
    public var maxGuesses: Int { pack.maxGuesses ?? Game.defaultMaxGuesses }

    /// Where a word is drawn from when the request names none.
    public enum Drawing: Sendable {
        /// The pack asked for, else the one the player played last (while it is here), else the
        /// first; words the player has not had yet first.
        case usualPack
        /// The pack asked for, else every pack; any of their words (a challenge for someone
        /// else, whose games are not known here).
        case everyPack
    }

    /// Chooses as `request` asks: the word it names (from the pack named, else the first pack
    /// holding it, else as practice when it is a dictionary word of a game's length), or one
    /// drawn (`Drawing`, seeded when the request has a seed). The rules must allow the word.
    public static func choose<Shelf: PackShelf>(_ request: GameRequest, on shelf: Shelf,
                                                drawing: Drawing = .usualPack) throws(Shelf.Failure) -> SecretChoice {
        let named: PackHeading?
        if let packID = request.packID {
            guard let found = try shelf.pack(packID) else { throw Shelf.refusing(.unknownPack(packID)) }
            named = found
        } else {
            named = nil
        }
        let choice: SecretChoice
        if let word = request.word?.lowercased() {
            choice = try wordNamed(word, in: named, request: request, on: shelf)
        } else {
            choice = try drawn(from: named, request: request, on: shelf, drawing: drawing)
        }
        if !choice.rules.allows(choice.word) { throw Shelf.refusing(.rulesForbidWord(choice.word)) }
        return choice
    }

    /// The heading a practice game on `word` keeps.
    public static func practicePack(for word: String) -> PackHeading {
        PackHeading(id: Practice.packID, version: 1, rules: Practice.rules(for: word), maxGuesses: nil)
    }

    private static func wordNamed<Shelf: PackShelf>(_ word: String, in named: PackHeading?, request: GameRequest,
                                                    on shelf: Shelf) throws(Shelf.Failure) -> SecretChoice {
        if let (packID, entry) = try shelf.entry(word, in: named?.id) {
            // (No `??` here or below: its right side, a closure, would lose the shelf's error type.)
            let found = if let named { named } else { try shelf.pack(packID) }
            guard let pack = found else { throw Shelf.refusing(.unknownPack(packID)) }
            return SecretChoice(pack: pack, word: entry.word, fact: entry.fact, rules: request.rules ?? pack.rules)
        }
        if let named { throw Shelf.refusing(.wordNotInPack(word: word, pack: named.id)) }
        guard Pack.lengths.contains(word.count), word.isLowercaseASCIIWord, shelf.isDictionaryWord(word) else {
            throw Shelf.refusing(.unknownWord(word))
        }
        let practice = practicePack(for: word)
        return SecretChoice(pack: practice, word: word, fact: "", rules: request.rules ?? practice.rules)
    }

    private static func drawn<Shelf: PackShelf>(from named: PackHeading?, request: GameRequest, on shelf: Shelf,
                                                drawing: Drawing) throws(Shelf.Failure) -> SecretChoice {
        var seeded = SeededGenerator(seed: request.seed ?? UInt64.random(in: .min ... .max))
        switch (drawing, named) {
        case (.everyPack, nil):
            let entries = try shelf.entries(of: nil).filter { request.rules?.allows($0.entry.word) ?? true }
            guard let (packID, entry) = entries.randomElement(using: &seeded) else { throw Shelf.refusing(.noPacks) }
            guard let pack = try shelf.pack(packID) else { throw Shelf.refusing(.unknownPack(packID)) }
            return SecretChoice(pack: pack, word: entry.word, fact: entry.fact, rules: request.rules ?? pack.rules)
        case (.everyPack, let pack?), (.usualPack, let pack?):
            return try drawn(from: pack, request: request, on: shelf, preferNew: drawing == .usualPack, using: &seeded)
        case (.usualPack, nil):
            let latest = try shelf.latestPlayedPack()
            guard let pack = if let latest { latest } else { try shelf.firstPack() } else {
                throw Shelf.refusing(.noPacks)
            }
            return try drawn(from: pack, request: request, on: shelf, preferNew: true, using: &seeded)
        }
    }

    private static func drawn<Shelf: PackShelf>(from pack: PackHeading, request: GameRequest, on shelf: Shelf, preferNew: Bool,
                                                using seeded: inout SeededGenerator) throws(Shelf.Failure) -> SecretChoice {
        let rules = request.rules ?? pack.rules
        let entries = try shelf.entries(of: pack.id).map(\.entry).filter { rules.allows($0.word) }
        let played = preferNew ? try shelf.played(in: pack.id) : []
        guard let word = WordChoice.choose(from: entries.map(\.word), notYet: played, using: &seeded),
              let entry = entries.first(where: { $0.word == word }) else {
            throw Shelf.refusing(.packEmpty(pack.id))
        }
        return SecretChoice(pack: pack, word: entry.word, fact: entry.fact, rules: rules)
    }
}
