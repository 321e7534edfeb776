import TextSafety

/// A word pack as shipped in a pack file: a theme, a length and secret words with their facts.
public struct Pack: Sendable, Equatable, Codable {
    public struct Entry: Sendable, Equatable, Codable {
        public var word: String
        public var fact: String

        public init(word: String, fact: String) {
            self.word = word
            self.fact = fact
        }
    }

    public var id: String
    /// Raised whenever the content changes; a newer version replaces the stored pack.
    public var version: Int
    public var title: String
    public var description: String
    public var length: Int
    /// The pack's own rule set. Classic packs hold no word with repeated letters.
    public var rules: Rules
    public var maxGuesses: Int?
    public var words: [Entry]

    public init(
        id: String, version: Int, title: String, description: String, length: Int,
        rules: Rules, maxGuesses: Int? = nil, words: [Entry]
    ) {
        self.id = id
        self.version = version
        self.title = title
        self.description = description
        self.length = length
        self.rules = rules
        self.maxGuesses = maxGuesses
        self.words = words
    }

    public static let lengths = Limits.wordLengths
    /// The pack id a game on a word of no pack keeps: a practice game. No pack may take it.
    public static let practiceID = "practice"
    public static let guessLimits = Limits.maxGuesses

    /// The guesses a game of this pack allows: its own limit, or the game's standard one.
    public var guessLimit: Int { maxGuesses ?? Game.defaultMaxGuesses }

    /// Everything wrong with the pack, each as a phrase; empty when it may be loaded.
    public func problems(lexicon: Lexicon) -> [String] {
        var problems: [String] = []
        if !Limits.isPackID(id) { problems.append("id must be 1 to 40 of a-z, 0-9 and '-'") }
        if id == Pack.practiceID { problems.append("id '\(id)' is kept for practice games") }
        if version < 1 { problems.append("version must be 1 or more") }
        if title.trimmingSpaces.isEmpty { problems.append("title is empty") }
        // Text a terminal would obey (escape sequences, bidirectional overrides) is refused.
        if let problem = TerminalText.problem(title, field: "title") { problems.append(problem) }
        if description.contains(where: \.isNewline) { problems.append("description must be one line") }
        else if let problem = TerminalText.problem(description, field: "description") { problems.append(problem) }
        if !Pack.lengths.contains(length) { problems.append("length must be 4 to 7") }
        if let limit = maxGuesses, !Pack.guessLimits.contains(limit) {
            problems.append("maxGuesses must be 1 to 30")
        }
        if words.isEmpty { problems.append("it has no words") }
        var seen = Set<String>()
        for entry in words {
            let word = entry.word
            if !seen.insert(word).inserted { problems.append("'\(word)' appears twice") }
            if !word.isLowercaseASCIIWord || word.count != length {
                problems.append("'\(word)' is not \(length) lowercase letters")
            } else if !lexicon.contains(word) {
                problems.append("'\(word)' is not in the dictionary")
            } else if !rules.allows(word) {
                problems.append("'\(word)' repeats a letter in a classic pack")
            }
            // The fact rule of every gate (`Limits.factProblem`), a blank one said as a pack's.
            if entry.fact.trimmingSpaces.isEmpty { problems.append("'\(word)' has no fact") }
            else if let problem = Limits.factProblem(entry.fact, field: "the fact of '\(oneLine(word))'", required: true) { problems.append(problem) }
        }
        return problems
    }
}
