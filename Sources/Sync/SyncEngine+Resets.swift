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
}
