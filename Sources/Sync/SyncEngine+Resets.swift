import CloudStore
import Foundation
import QiktionaryCore
import Storage

extension SyncEngine {
    // MARK: Resets (README, resets)

    /// How a machine answers a reset made elsewhere.
    public enum Adoption: String, Sendable, CaseIterable {
        /// Keep this machine's games and put them in the new cloud.
        case upload
        /// Erase this machine's games and take the new cloud's.
        case erase
    }

    /// Erases the player's cloud data and starts a new generation; this machine's games stay
    /// and are uploaded into it. Other machines are told at their next sync.
    @discardableResult
    public func resetCloud() throws(SyncError) -> SyncReport {
        do {
            let generation = try cloud.resetCloud()
            try player.forgetSyncMetadata(newGeneration: generation.name)
        } catch {
            throw Self.classify(error)
        }
        return try sync()
    }

    /// Accepts a reset made on another machine, keeping or erasing this machine's games.
    @discardableResult
    public func adoptReset(_ adoption: Adoption) throws(SyncError) -> SyncReport {
        do {
            let generation = try cloud.adoptCurrentGeneration()
            switch adoption {
            case .upload: try player.forgetSyncMetadata(newGeneration: generation.name)
            case .erase: try player.eraseLocalData(keepingGeneration: generation.name)
            }
        } catch {
            throw Self.classify(error)
        }
        return try sync()
    }

    /// This machine's own files gone from the folder (someone deleted its device folder, its
    /// head or the start of its log; issue 35): its log is started afresh past where it was
    /// (`CloudDatabase.restartOwnLogWhereGone`), everything it holds is queued to be sent again
    /// (the cloud's metadata forgotten, as after a reset, tokens too, so the others' records are
    /// read again), and its shared records published again; one line says so. A reset is not
    /// this: a new generation is adopted before.
    func rewriteOwnFilesIfGone() throws {
        // Whether this machine wrote into the cloud's generation is asked of the database only
        // when its head is gone (a round with nothing to do asks nothing).
        let player = self.player
        let wrote = { () -> Bool in
            guard let generation = (try? player.syncRecord())?.generation else { return false }
            return (try? player.hasSent(generation: generation)) ?? false
        }
        let zones = SyncZone.allCases.map(\.cloudZone) + [CloudSchema.sharedZone]
        // A folder with no store in it at all is left alone: a mount point whose file system is
        // away (the send then says so, `refuseAnEmptiedFolder`), not files someone deleted.
        let restarted = try withRetries { try cloud.restartOwnLogWhereGone(zones, wroteBefore: wrote) }
        guard !restarted.isEmpty else { return }
        try player.forgetSyncMetadata()
        if restarted.contains(CloudSchema.sharedZone) { try player.forgetPublished() }
        warnings?(CloudWarning(path: "this machine's files in the cloud folder",
                               reason: "\(restarted.map(\.name).joined(separator: ", ")) were gone; everything this machine holds is written again"))
    }
}
