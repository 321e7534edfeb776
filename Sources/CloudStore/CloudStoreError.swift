import Foundation

/// Every failure a client of the cloud store must handle; each reads as one clear line.
public enum CloudStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The record changed in the cloud since the client last saw it; merge with this and resend.
    case serverRecordChanged(serverRecord: CloudRecord)
    /// The record the client meant to update was deleted in the cloud.
    case unknownRecord(recordName: String)
    /// The token is older than what the cloud keeps; fetch again from no token.
    case changeTokenExpired
    case zoneNotFound(ZoneID)
    /// Another device reset the cloud; adopt the new generation before syncing again.
    case cloudReset(newGeneration: CloudGeneration)
    /// The folder is missing, unmounted or read-only: offline, nothing lost.
    case unavailable(reason: String)
    /// The folder is there but refuses this user's writes (permissions, a read-only mount).
    case notWritable(reason: String)
    case rateLimited(retryAfter: TimeInterval)
    /// Some records of a commit failed; nothing of the commit was written.
    case partialFailure([String: CloudStoreError])
    /// More than `CloudLimits.maxRecordsPerCommit` records in one commit; split it.
    case batchTooLarge(count: Int, limit: Int)
    /// A record name, type, field or value the store refuses (too long, empty, too many fields).
    case invalidRecord(recordName: String, reason: String)

    public var description: String {
        switch self {
        case .serverRecordChanged(let record):
            return "record \(record.recordName) changed in the cloud since it was last fetched"
        case .unknownRecord(let name):
            return "record \(name) was deleted in the cloud"
        case .changeTokenExpired:
            return "change token expired: the cloud was compacted, fetch everything again"
        case .zoneNotFound(let zone):
            return "zone \(zone.name) does not exist in the cloud"
        case .cloudReset(let generation):
            return "the cloud was reset on another device (generation \(generation.name)); adopt it to sync again"
        case .unavailable(let reason):
            return "cloud folder unavailable: \(reason)"
        case .notWritable(let reason):
            return reason
        case .rateLimited(let seconds):
            return "cloud busy: retry after \(String(format: "%.1f", seconds)) s"
        case .partialFailure(let errors):
            return "\(errors.count) record(s) of the commit failed; nothing was written"
        case .batchTooLarge(let count, let limit):
            return "commit of \(count) records is over the limit of \(limit); split it"
        case .invalidRecord(let name, let reason):
            return "record \(name) refused: \(reason)"
        }
    }
}
