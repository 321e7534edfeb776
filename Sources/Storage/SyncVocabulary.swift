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
