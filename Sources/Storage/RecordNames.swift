/// The cloud's name for each local row. Names are derived from what makes a row unique, so two
/// machines that make the same thing (the same guess in a game, a bookmark on the same word)
/// make the same record, and sync can never duplicate it.
public enum RecordName {
    public static func game(_ gameID: String) -> String { gameID }
    public static func guess(gameID: String, word: String) -> String { "\(gameID)-\(word)" }
    /// Whether `name` is `guess(gameID:word:)`, compared byte by byte without building it (a full
    /// fetch checks 75,000). For the ASCII ids and words it is given, the same as `==`.
    public static func isGuess(_ name: String, gameID: String, word: String) -> Bool {
        let name = name.utf8, game = gameID.utf8, word = word.utf8
        guard name.count == game.count + 1 + word.count else { return false }
        var index = name.startIndex
        for byte in game {
            guard name[index] == byte else { return false }
            index = name.index(after: index)
        }
        guard name[index] == UInt8(ascii: "-") else { return false }
        return name[name.index(after: index)...].elementsEqual(word)
    }
    public static func mark(gameID: String, letter: Character) -> String { "\(gameID)-mark-\(letter)" }
    public static func bookmark(word: String) -> String { "bookmark-\(word)" }

    /// The zones records live in, one per kind of data (CloudKit custom zones).
    public enum Zone: String, Sendable, CaseIterable {
        case games = "Games"
        case readingList = "ReadingList"
    }
}
