/// What storage needs to know of sync, in its own terms. The cloud's names for records, fields
/// and zones are the cloud schema's (`CloudSchema` in Sync); storage keeps and compares the
/// names it is given and never spells one.

/// How the cloud names each kind of synced row, given by the sync engine. Names are derived from
/// what makes a row unique, so two machines that make the same thing make the same record.
public protocol RecordNaming: Sendable {
    func game(_ gameID: String) -> String
    func guess(gameID: String, word: String) -> String
    func mark(gameID: String, letter: String) -> String
    func bookmark(word: String) -> String
}

/// Which part of the player's data a synced row belongs to: the games (with their guesses and
/// marks) or the reading list. The raw values are what `recordDeletion.zone` and
/// `remoteRecord.zone` hold (frozen: rows written by every release carry them).
public enum SyncZone: String, Sendable, CaseIterable {
    case games = "Games"
    case readingList = "ReadingList"
}

/// The game row's columns that change after it starts, and so are sent on their own. The raw
/// values are what `gameChange.changedFields` holds (frozen, as above).
public enum GameField: String, Sendable, CaseIterable, Comparable {
    case status, finishedAt, updatedAt, lastChangedOn, hints
    /// Fixed at the start, but two machines may start one daily game differently (at two help
    /// levels, one in hard mode): what the merge keeps goes back up.
    case assist, hard, daily

    public static func < (a: GameField, b: GameField) -> Bool { a.rawValue < b.rawValue }
}
