import TextSafety

/// The limits of a game's values and the checks of them that every gate applies: an import, a
/// cloud record, a pack file. Which characters a text may hold is `TerminalText`'s rule, which
/// these checks ask.
public enum Limits {
    /// A secret word's or a guess's length.
    public static let wordLengths = 4...7
    /// How many guesses a game or pack may allow.
    public static let maxGuesses = 1...30
    /// A fact's length, in characters.
    public static let factLength = 2_000
    /// A pack id's length, in bytes.
    public static let packIDLength = 40
    /// A guess's position in its game (two machines that guessed at once share one).
    public static let positions = 1...1_000
    /// How many hints a game may list, each at a guess count of `positions`' range or 0.
    public static let hints = 200
    /// A time a game's value may hold, in seconds since 1970: none before 1970, none from 2100 on.
    public static let seconds: ClosedRange<Double> = 0...4_102_444_800
    /// A count of a guess's feedback (letters in common, in place, elsewhere): at most a word's letters.
    public static let letterCounts = 0...wordLengths.upperBound
    /// A device's name, as another machine's record gives it, in characters.
    public static let deviceNameLength = 64
    /// A match game's result as its game keeps it (`SyncGame.matchResult`), in bytes: a status,
    /// two counts, a help level and the longest grid.
    public static let matchResultLength = 40 + MatchGrid.maxText

    /// Whether a text is a match game's result as a game keeps it (`MatchResult.text`): within
    /// `matchResultLength`, a finished status, counts of `maxGuesses`' range at most, a help
    /// level, and a grid of one row a guess under the game's rules. Which results its match
    /// allows is the match's to say, when it is shown.
    public static func isMatchResult(_ text: String, rules: Rules) -> Bool {
        guard let fields = MatchResult.fields(text, match: "", player: "", game: 1), let grid = fields.grid,
              fields.guesses <= maxGuesses.upperBound, (fields.hints ?? 0) <= maxGuesses.upperBound + 1,
              let rows = MatchGrid.parse(grid, rules: rules) else { return false }
        return rows.rows.count == fields.guesses
    }

    /// Game ids: lowercase UUIDs, 8-4-4-4-12 hexadecimal digits (what `UUID(uuidString:)`
    /// reads, in lower case).
    public static func isGameID(_ text: String) -> Bool {
        var text = text
        // The bytes in place: every game and guess of a fetch is checked.
        return text.withUTF8 { bytes in
            guard bytes.count == 36 else { return false }
            for (count, byte) in bytes.enumerated() {
                switch count {
                case 8, 13, 18, 23: guard byte == UInt8(ascii: "-") else { return false }
                default: guard (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) else { return false }
                }
            }
            return true
        }
    }

    /// A word a game may have or be guessed with: 4 to 7 letters a to z.
    public static func isWord(_ text: String) -> Bool { wordLengths.contains(text.utf8.count) && text.isLowercaseASCIIWord }

    /// A notepad mark's letter: one of a to z.
    public static func isLetter(_ text: String) -> Bool { text.utf8.count == 1 && text.isLowercaseASCIIWord }

    /// A pack's id (1 to 40 of a-z, 0-9 and '-'); the practice games' own is one.
    public static func isPackID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= packIDLength
            && id.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 45 }
    }

    /// What is wrong with a fact, said for the field it is in; nil when it may be shown. A fact
    /// is at most 2,000 characters and holds nothing a terminal would obey; a `required` one
    /// (a pack's word, a bookmark) is not blank.
    public static func factProblem(_ text: String, field: String, required: Bool) -> String? {
        if required && text.trimmingSpaces.isEmpty { return "\(field) is empty" }
        if text.count > factLength { return "\(field) is longer than \(factLength) characters" }
        return TerminalText.problem(text, field: field)
    }

    /// Hints as a game lists them: at most 200, each a guess count of 0 to 1000.
    public static func areHints(_ counts: [Int]) -> Bool {
        counts.count <= hints && counts.allSatisfy { (0...positions.upperBound).contains($0) }
    }
}
