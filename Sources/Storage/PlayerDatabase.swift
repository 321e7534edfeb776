import Foundation
import GRDB

/// One player's games, reading list, statistics and sync state on this machine: every read and
/// write that belongs to a player goes through here, so no call names the player again. Made
/// once the profile is known (`AppDatabase.player(_:)`).
public struct PlayerDatabase: Sendable {
    /// The whole database, for what belongs to no player (packs, settings, devices).
    public let database: AppDatabase
    public let profile: Profile

    public init(database: AppDatabase, profile: Profile) {
        self.database = database
        self.profile = profile
    }

    /// The wall clock every write is stamped with (`AppDatabase`'s, injected there).
    public var clock: @Sendable () -> Date { database.clock }
    /// The time by the database's clock (a test's own clock in tests).
    public func now() -> Date { database.clock() }

    func read<T: Sendable>(_ body: (Database) throws -> T) throws(StorageError) -> T { try database.read(body) }

    func write<T: Sendable>(_ body: (Database) throws -> T) throws(StorageError) -> T { try database.write(body) }
}

extension AppDatabase {
    /// The player's handle on this database.
    public func player(_ profile: Profile) -> PlayerDatabase { PlayerDatabase(database: self, profile: profile) }
}
