import Sync

extension Wording {
    /// The line the full-screen game's status line gives a sync event, nil for none: what a
    /// round asked for by the player did, changes that arrived, a new cloud joined, why a round
    /// asked for could not reach the folder, a failure.
    public static func note(for event: SyncService.Event) -> String? {
        switch event {
        case .synced(let report, _, let manual):
            manual ? sentence(report) : report.downloaded + report.deleted > 0 ? "Changes from another machine arrived." : nil
        case .adopted(let report, _):
            "Joined the new cloud: \(report.uploaded) sent, \(report.downloaded) received."
        case .offline(let reason, let manual):
            manual ? "Offline: \(reason). Your moves are kept and sent later." : nil
        case .failed(let message, _), .notPaired(let message):
            message
        case .watching, .syncing, .importing, .sending, .cloudReset:
            nil
        }
    }
}
