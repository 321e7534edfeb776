import Foundation
import QiktionaryCore
import Storage
import Sync

/// A failure the person can act on: one line of text and a sysexits code (README, Commands).
public struct Failure: Error, CustomStringConvertible {
    public static let usage: Int32 = 64
    public static let unexpected: Int32 = 1
    /// Something the game needs is not there: its own packs and dictionary (sysexits' EX_UNAVAILABLE).
    public static let unavailable: Int32 = 69
    /// sysexits: EX_DATAERR, EX_NOINPUT, EX_IOERR.
    public static let dataError: Int32 = 65
    public static let noInput: Int32 = 66
    public static let ioError: Int32 = 74

    public var message: String
    public var code: Int32

    public init(_ message: String, code: Int32 = Failure.usage) {
        self.message = message
        self.code = code
    }

    public var description: String { message }

    /// A storage error as a person reads it, with its code; `damage` words the advice for a
    /// damaged database (asked for only then: it opens the database again).
    public init(_ error: StorageError, damage: () -> DamageAdvice) {
        switch error {
        case .database: self.init(Wording.sentence(error), code: Failure.unexpected)
        case .damaged(let path, let reason): self.init(damage().advice(file: path, reason: reason), code: Failure.ioError)
        case .diskFull: self.init(Wording.sentence(error), code: Failure.ioError)
        case .badExport, .exportOfAnotherPlayer: self.init(Wording.sentence(error), code: Failure.dataError)
        default: self.init(Wording.sentence(error), code: Failure.usage)
        }
    }

    /// Any error a command ends with, as one line and a code; nil for one that is not the
    /// game's (the argument parser's own).
    public init?(reporting error: any Error, damage: () -> DamageAdvice) {
        switch error {
        case let error as Failure: self = error
        case let error as PlayerDataError: self.init(error.cause, damage: damage)
        case let error as StorageError: self.init(error, damage: damage)
        case let error as GuessRejection: self.init(error.reason)
        case let error as SyncError:
            // A damaged database or a full disk found during a sync is the database's problem, not the cloud's.
            if case .storage(let inner) = error, inner.isDamage || inner.isDiskFull { self.init(inner, damage: damage) } else {
                self.init(error.description, code: error.exitCode)
            }
        default: return nil
        }
    }
}

/// What a person reads of the game's errors: what happened, then what to do about it where a
/// flag of the command line helps.
public enum Wording {
    public static func sentence(_ error: StorageError) -> String {
        switch error {
        case .dataDirUnusable: "\(error); pass a writable folder with --data-dir"
        case .damaged: "\(error); run 'qiktionary --reset-local' to set it aside (it is kept) and start afresh"
        case .diskFull: "\(error): nothing more can be saved until some space is freed there (what was saved is kept)"
        case .unknownPack: "\(error) (see 'qiktionary packs')"
        case .rulesForbidWord: "\(error), so it can only be played with --rules mastermind"
        case .exportOfAnotherPlayer(let player, _): "\(error); add --player \(player) to import them as \(player); nothing was changed"
        default: error.description
        }
    }

    /// A sync's outcome in one line: what was sent, received, deleted, merged and skipped.
    public static func sentence(_ report: SyncReport) -> String {
        var parts = ["Synced: \(report.uploaded) sent, \(report.downloaded) received"]
        if report.deleted > 0 { parts.append("\(report.deleted) deleted") }
        if report.conflictsResolved > 0 { parts.append("\(report.conflictsResolved) merged") }
        if report.skipped > 0 { parts.append("\(report.skipped) skipped") }
        if report.waiting > 0 { parts.append("\(report.waiting) waiting for their game") }
        return parts.joined(separator: ", ") + " (\(report.durationMs) ms)."
    }

    /// Any error of a use case, as the status line or plain mode's error event says it.
    public static func sentence(_ error: any Error) -> String {
        switch error {
        case let rejection as GuessRejection: rejection.reason
        case let error as StorageError: sentence(error)
        default: String(describing: error)
        }
    }
}

/// An error of the player's data as the front ends get it from the use cases: its description
/// is the sentence a person reads (`Wording`). A guess the rules refuse is thrown as the bare
/// `GuessRejection` instead.
public struct PlayerDataError: Error, CustomStringConvertible, Equatable {
    public let cause: StorageError

    public init(_ cause: StorageError) { self.cause = cause }

    public var description: String { Wording.sentence(cause) }

    /// No game is on the board yet.
    public static let noCurrentGame = PlayerDataError(.noGame("(none: type 'new')"))
}
