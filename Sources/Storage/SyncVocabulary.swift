import Foundation

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
    /// Whether the version whose system fields are `fetched` was written before the one whose
    /// system fields are `kept` (the cloud's order: the later clock reading, then the device),
    /// false when either cannot be read. Storage keeps system fields as bytes it does not read.
    func isOlder(_ fetched: Data, than kept: Data) -> Bool
}

/// Which part of the player's data a synced row belongs to: the games (with their guesses and
/// marks) or the reading list. The raw values are what `recordDeletion.zone` and
/// `remoteRecord.zone` hold (frozen: rows written by every release carry them).
public enum SyncZone: String, Sendable, CaseIterable {
    case games = "Games"
    case readingList = "ReadingList"
}
