import TextSafety
import Foundation
import GRDB
import QiktionaryCore

/// Everything the storage layer can refuse or fail at, each described as what happened (what to
/// do about it is the application's wording, `App.Wording`).
public enum StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    case dataDirUnusable(String, reason: String)
    case unknownPack(String)
    case unknownWord(String)
    case wordNotInPack(word: String, pack: String)
    case rulesForbidWord(String)
    case packEmpty(String)
    case noGame(String)
    /// A short id that starts more than one of the player's games.
    case ambiguousGame(String, count: Int)
    case gameInProgress(String)
    case gameNotFinished
    case notBookmarked(String)
    case noFact(String)
    case badPlayerName(String)
    case badDeviceName(String)
    case rejected(GuessRejection)
    case noHint
    case challenge(ChallengeError)
    case noShareYet
    case notFinishedForReview(String)
    case database(String)
    /// The database file is damaged (SQLite found it corrupt or not a database at all). The path
    /// is the file's, when known where the damage was found.
    case damaged(String?, reason: String)
    /// The disk holding the data dir (the path) is full: nothing more could be written. What
    /// was saved before is kept.
    case diskFull(String)
    /// An export file that cannot be imported: not JSON, not an export, or a value in it that
    /// fails a check. The reason names the place in the file. Nothing was changed.
    case badExport(String)
    /// An export of another player's games (the player it names, the player of this run).
    case exportOfAnotherPlayer(String, current: String)

    public var description: String {
        switch self {
        case .dataDirUnusable(let path, let reason):
            "cannot use data dir \(path): \(reason)"
        case .unknownPack(let id): "no pack called '\(id)'"
        case .unknownWord(let word): "'\(word)' is not a word of the dictionary of 4 to 7 letters, nor of any pack"
        case .wordNotInPack(let word, let pack): "'\(word)' is not a word of the pack '\(pack)'"
        case .rulesForbidWord(let word): "'\(word)' repeats a letter"
        case .packEmpty(let id): "the pack '\(id)' has no word for these rules"
        case .noGame(let id): "no game with id '\(id)'"
        case .ambiguousGame(let prefix, let count): "'\(prefix)' starts the ids of \(count) games; give more of the id"
        case .gameInProgress(let id): "game '\(id)' is still in progress; only finished games can be deleted"
        case .gameNotFinished: "finish the game first: its word is still secret"
        case .notBookmarked(let word): "'\(word)' is not on the reading list"
        case .noFact(let word): "no fact known for '\(word)': it is not a word of any pack or game"
        case .badPlayerName(let name):
            "player name '\(oneLine(name))' must be 1 to 32 of letters, digits, '_' and '-', starting with a letter or digit"
        case .badDeviceName(let name):
            TerminalText.problem(name, field: "device name") ?? "device name '\(name)' must be 1 to 64 printable characters"
        case .rejected(let rejection): rejection.reason
        case .noHint: "no hint: no word of the answer set fits every guess so far"
        case .challenge(let error): error.description
        case .noShareYet: "finish the game first: the summary would give its guesses away"
        case .notFinishedForReview(let id): "game '\(id)' is still in progress; a review is for finished games"
        case .database(let message): "database error: \(message)"
        case .damaged(let path, let reason):
            "the database\(path.map { " \($0)" } ?? "") is damaged (\(reason))"
        case .diskFull(let folder): "the disk holding \(folder) is full"
        case .badExport(let reason): "not a usable qiktionary export: \(reason); nothing was changed"
        case .exportOfAnotherPlayer(let player, let current):
            "the export holds player '\(player)''s games, not '\(current)''s"
        }
    }

    init(_ error: any Error) {
        switch error {
        case let error as StorageError: self = error
        case let error as GuessRejection: self = .rejected(error)
        case let error where Self.isCorruption(error): self = .damaged(nil, reason: StorageError.describe(error))
        default: self = .database(StorageError.describe(error))
        }
    }

    /// Whether SQLite said the file is damaged: corrupt pages, or not a database at all.
    public static func isCorruption(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode.primaryResultCode)
    }

    /// Whether SQLite said the disk is full (SQLITE_FULL), or failed at I/O on the database in
    /// `folder` (or refused to write to it) while the disk holding it has no room left
    /// (growing its shared-memory file fails so).
    static func isDiskFull(_ error: any Error, folder: String) -> Bool {
        if let error = error as? StorageError { return error.isDiskFull }
        if let error = error as? DatabaseError {
            switch error.resultCode.primaryResultCode {
            case .SQLITE_FULL: return true
            // A read-only pool is what a full disk's opening gave.
            case .SQLITE_IOERR, .SQLITE_CANTOPEN, .SQLITE_READONLY: return hasNoRoom(folder)
            default: return false
            }
        }
        if let error = error as? CocoaError, let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError {
            return underlying.code == Int(ENOSPC)
        }
        return false
    }

    /// Whether the file system holding `folder` (or its nearest existing parent) has less than
    /// a few pages left.
    static func hasNoRoom(_ folder: String) -> Bool {
        var info = statvfs()
        var path = folder
        while statvfs(path, &info) != 0 {
            let parent = (path as NSString).deletingLastPathComponent
            guard parent != path, !parent.isEmpty else { return false }
            path = parent
        }
        return UInt64(info.f_bavail) * UInt64(info.f_frsize) < 64 << 10
    }

    /// Whether this is the disk holding the data being full.
    public var isDiskFull: Bool {
        if case .diskFull = self { return true }
        return false
    }

    /// Whether this is the database being damaged, wherever it was found.
    public var isDamage: Bool {
        if case .damaged = self { return true }
        return false
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return error.message ?? "\(error.resultCode)"
        }
        if let error = error as? CocoaError, let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return (error as NSError).localizedDescription
    }
}
