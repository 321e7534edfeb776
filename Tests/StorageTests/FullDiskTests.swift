import Foundation
import GRDB
import Testing
import TestSupport
@testable import Storage

/// The database on a real small disk (a tmpfs the test mounts; needs root, skipped otherwise).
@Suite(.serialized) struct StorageFullDiskTests {
    /// A log that another connection's long read kept from being folded fills the disk; once the
    /// read ends, the next write meets the full disk, folds the log (which frees its room) and
    /// is saved. Before, it failed with "database or disk is full".
    @Test func aWriteThatMeetsAFullDiskFoldsTheLogAndTriesOnceMore() throws {
        try onASmallDisk("a write on a full disk") { disk, dataDir in
            let database = try AppDatabase.open(dataDir: dataDir)
            defer { try? database.close() }
            try database.remember(.device, "first")
            try database.checkpoint()
            let log = dataDir.appendingPathComponent(AppDatabase.fileName + "-wal")

            // A reader holds its snapshot: no checkpoint can fold the log past it, so it grows.
            var readOnly = Configuration()
            readOnly.readonly = true
            readOnly.allowsUnsafeTransactions = true
            let reader = try DatabaseQueue(path: dataDir.appendingPathComponent(AppDatabase.fileName).path, configuration: readOnly)
            try reader.inDatabase { db in
                try db.beginTransaction(.deferred)
                _ = try String.fetchAll(db, sql: "SELECT value FROM setting")
            }
            for n in 0..<120 { try database.remember(.device, "device \(n)") }
            #expect(SmallDisk.size(log) > 300 << 10, "the log grew behind the reader: \(SmallDisk.size(log)) bytes")
            try reader.inDatabase { db in try db.rollback() }
            try reader.close()

            let filler = try Filler(disk)
            defer { try? filler.remove() }
            try database.remember(.device, "after")
            #expect(try database.setting(.device) == "after")
            #expect(SmallDisk.size(log) < 64 << 10, "the log was emptied: \(SmallDisk.size(log)) bytes")
        }
    }

    /// On a disk full to the last byte the database opens read-only: what is saved reads, a
    /// write is `diskFull` naming the data dir, and a profile known here is read, not written.
    @Test func aFullDiskOpensReadOnlyAndAWriteSaysTheDiskIsFull() throws {
        try onASmallDisk("a read on a full disk") { disk, dataDir in
            let first = try AppDatabase.open(dataDir: dataDir)
            let profile = try first.profile(player: "ann", device: "laptop", hostName: "h")
            try first.checkpoint()
            try first.close()

            let filler = try Filler(disk)
            defer { try? filler.remove() }
            let database = try AppDatabase.open(dataDir: dataDir)
            defer { try? database.close() }
            #expect(try database.profile(player: "ann", device: nil, hostName: "h") == profile)
            #expect(try database.setting(.player) == "ann")
            #expect(throws: StorageError.diskFull(dataDir.path)) { try database.remember(.device, "desktop") }
            #expect(throws: StorageError.diskFull(dataDir.path)) { try database.profile(player: "ben", device: nil, hostName: "h") }
        }
    }

    /// Runs `body` with a data dir on a 2 MiB tmpfs of its own (skipped where it cannot be mounted).
    private func onASmallDisk(_ what: String, _ body: (_ disk: URL, _ dataDir: URL) throws -> Void) throws {
        let disk = temporaryFolder("qk-small-disk")
        defer { try? FileManager.default.removeItem(at: disk) }
        try SmallDisk.mounted(at: disk, size: "2m", for: what) { try body(disk, disk.appendingPathComponent("data")) }
    }
}
