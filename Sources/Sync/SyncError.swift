import CloudStore
import Storage

/// Why a sync did not finish, each with its exit code (README, Commands) and one line for the player.
public enum SyncError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Another machine reset the cloud; this one must adopt the reset before syncing again.
    case cloudReset
    /// The folder is missing, unmounted or read-only; every change stays queued.
    case offline(String)
    /// The folder is there but this user cannot write to it: changes stay queued until it is mended.
    case notWritable(String)
    /// The cloud stayed busy after every retry.
    case busy(String)
    /// This machine is not in its player's device set (docs/trust.md): the line says how to join.
    case notPaired(String)
    case storage(StorageError)
    case unexpected(String)

    public var exitCode: Int32 {
        switch self {
        case .cloudReset: 65
        case .offline, .notWritable: 69
        case .busy: 75
        case .notPaired: 77
        case .storage, .unexpected: 1
        }
    }

    public var description: String {
        switch self {
        case .cloudReset:
            "the cloud was reset on another machine; run 'qiktionary sync --adopt-reset upload' to put this machine's games in the new cloud, or '--adopt-reset erase' to replace them with the cloud's"
        case .offline(let reason): "offline: \(reason); your changes stay queued and sync when the folder is back"
        case .notWritable(let reason): "\(reason); give this user write access to it, or pass another with --cloud-dir (your changes stay queued)"
        case .busy(let reason): "the cloud folder is busy (\(reason)); try again shortly"
        case .notPaired(let reason): "\(reason) (your games stay here, and sync once it has joined)"
        case .storage(let error): error.description
        case .unexpected(let message): "sync failed: \(message)"
        }
    }

    /// The sentence without the state it starts with, for `status`, which names the state itself.
    public var detail: String {
        switch self {
        case .offline(let reason): "\(reason); your changes stay queued and sync when the folder is back"
        default: description
        }
    }

    /// The state recorded for `status` and the header.
    var state: String {
        switch self {
        case .cloudReset, .notPaired: "needs-attention"
        case .offline: "offline"
        case .notWritable, .busy, .storage, .unexpected: "error"
        }
    }
}

/// What one sync did (`sync --json`).
public struct SyncReport: Sendable, Equatable, Encodable {
    public var state = "synced"
    public var uploaded = 0
    public var downloaded = 0
    public var deleted = 0
    public var conflictsResolved = 0
    public var durationMs = 0
    /// Records from the cloud that were not valid and were skipped.
    public var skipped = 0
    /// Guesses and marks that arrived before their game, kept until it does.
    public var waiting = 0
    /// Records of the shared zones (matches, their plays, leaderboard lines) that arrived from
    /// other players or this player's other machines.
    public var shared = 0

    public init() {}
}
