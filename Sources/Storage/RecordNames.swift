/// The cloud's name for each local row. Names are derived from what makes a row unique, so two
/// machines that make the same thing (the same guess in a game, a bookmark on the same word)
/// make the same record, and sync can never duplicate it.
public enum RecordName {
    public static func game(_ gameID: String) -> String { gameID }
    public static func guess(gameID: String, word: String) -> String { "\(gameID)-\(word)" }
    public static func mark(gameID: String, letter: Character) -> String { "\(gameID)-mark-\(letter)" }
    public static func bookmark(word: String) -> String { "bookmark-\(word)" }

    /// The zones records live in, one per kind of data (CloudKit custom zones).
    public enum Zone: String, Sendable, CaseIterable {
        case games = "Games"
        case readingList = "ReadingList"
    }
}
