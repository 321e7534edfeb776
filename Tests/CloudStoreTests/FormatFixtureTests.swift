@testable import CloudStore
import Foundation
import Testing

/// Frozen files of the format in docs/cloud-format.md. Today's code must read them, and must
/// write exactly the newest ones, so any change to the format is deliberate (new fixtures, new
/// version). `Fixtures/cloud` holds the files of format version 1 (plain JSON everywhere),
/// `Fixtures/cloud-v2` those of version 2 (compressed segments and single-file snapshots), both
/// still read; `Fixtures/cloud-v3` the same history as written today (the snapshot a list of
/// parts, version 3, in two parts, the list naming each part's first record), and
/// `Fixtures/cloud-v3-unnamed-parts` as version 3 wrote it before lists named them, still read.
/// Regenerate only on purpose:
/// QIKTIONARY_WRITE_FIXTURES=1 swift test --filter FormatFixture
@Suite struct FormatFixtureTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let fixtures = folder.appendingPathComponent("cloud-v3")
    static let unnamedParts = folder.appendingPathComponent("cloud-v3-unnamed-parts")
    static let versionTwo = folder.appendingPathComponent("cloud-v2")
    static let versionOne = folder.appendingPathComponent("cloud")
    static let clock = Date(timeIntervalSince1970: 1_700_000_000)

    static let everyField: [String: FieldValue] = [
        "word": .string("crane"), "guesses": .int(4), "ratio": .double(0.5), "won": .bool(true),
        "finishedAt": .date(Date(timeIntervalSince1970: 1_700_000_123.456)), "notes": .bytes(Data([0, 1, 254, 255])),
        "letters": .strings(["c", "r", "a"]),
    ]

    /// The history the fixtures record: A creates a zone, saves two games, deletes one, saves
    /// a third, compacts all but the last segment (a snapshot with a tombstone, one segment; in
    /// two parts, the part size lowered so each entry takes one); B then resets the cloud (its own folder).
    static func writeScenario(into cloud: MemoryFolder, resetInto resetCloud: MemoryFolder) throws {
        let options = CloudStoreOptions(now: { clock })
        let a = try FolderCloudDatabase.inMemory(cloud, player: "alice", device: DeviceID("A"), options: options)
        try a.createZone(games)
        try a.save([CloudRecord(recordType: "Game", recordName: "game-1", fields: everyField), record("game-2", 2)])
        try a.delete(["game-2"])
        try a.save([record("game-3", 3)])
        a.limitSnapshots(partBytes: 200)
        _ = try a.compact(games, keepingRecent: 1)
        let b = try FolderCloudDatabase.inMemory(resetCloud, player: "alice", device: DeviceID("B"), options: options)
        _ = try b.resetCloud()
    }

    static func files(in folder: MemoryFolder) -> [String: Data] {
        Dictionary(uniqueKeysWithValues: folder.allFiles.filter { !$0.split(separator: "/").last!.hasPrefix(".") }
            .map { ($0, folder.contents(of: $0)!) })
    }

    static func frozenFiles(in fixtures: URL = fixtures) throws -> [String: Data] {
        let paths = FileManager.default.enumerator(atPath: fixtures.path)?.allObjects as? [String] ?? []
        var files: [String: Data] = [:]
        for path in paths {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: fixtures.appendingPathComponent(path).path, isDirectory: &isDirectory)
            if exists && !isDirectory.boolValue { files[path] = try Data(contentsOf: fixtures.appendingPathComponent(path)) }
        }
        return files
    }

    @Test func todaysCodeWritesExactlyTheFrozenFiles() throws {
        let cloud = MemoryFolder(), reset = MemoryFolder()
        try Self.writeScenario(into: cloud, resetInto: reset)
        let written = Self.files(in: cloud).merging(Self.files(in: reset)) { first, _ in first }
        if ProcessInfo.processInfo.environment["QIKTIONARY_WRITE_FIXTURES"] == "1" {
            for (path, data) in written {
                let url = Self.fixtures.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try data.write(to: url)
            }
        }
        let frozen = try Self.frozenFiles()
        #expect(written.keys.sorted() == frozen.keys.sorted())
        for (path, data) in frozen {
            #expect(written[path] == data, "\(path) is no longer written the same way")
        }
    }

    @Test(arguments: [fixtures, unnamedParts, versionTwo, versionOne])
    func theFrozenFilesReadAsDocumented(_ fixtures: URL) throws {
        let files = try Self.frozenFiles(in: fixtures)
        #expect(files.count == ([Self.fixtures, Self.unnamedParts].contains(fixtures) ? 6 : 4))
        let cloud = MemoryFolder()
        for (path, data) in files where !path.contains("generations") {
            cloud.place(data, at: path.split(separator: "/").map(String.init))
        }
        let reader = try FolderCloudDatabase.inMemory(cloud, player: "alice", device: DeviceID("R"))
        let changes = try reader.fetchZoneChanges(games, since: nil)
        let game = try #require(changes.changedRecords.first)
        #expect(changes.changedRecords.map(\.recordName) == ["game-1", "game-3"])
        #expect(changes.changedRecords.last?.fields == ["value": .int(3)])
        #expect(game.recordName == "game-1" && game.recordType == "Game")
        #expect(game.fields == Self.everyField)
        let stamp = HLCTimestamp(millis: 1_700_000_000_000, counter: 0)
        let a = try DeviceID("A")
        #expect(game.systemFields == SystemFields(changeTag: "1700000000000.00000-A", createdBy: a, createdAt: stamp,
                                                  modifiedBy: a, modifiedAt: stamp))
        #expect(try reader.fetchDatabaseChanges(since: nil).changedZones == [games])
        #expect(changes.token.generation == .initial)

        for (path, data) in files where path.contains("generations") {
            cloud.place(data, at: path.split(separator: "/").map(String.init))
        }
        #expect(try reader.currentGeneration().name == "g170000000000000000-B")
    }

    @Test func segmentsAndPartsAreCompressedTheSnapshotIsAListAndTheSmallFilesArePlain() throws {
        let versions = try Self.frozenFiles().mapValues { String(decoding: $0.prefix(7), as: UTF8.self) }
        #expect(versions.keys.filter { $0.hasSuffix(".part") }.count == 2)
        for (path, version) in versions {
            let expected = path.hasSuffix(".seg") || path.hasSuffix(".part") ? "QKCS 2 " : path.hasSuffix(".snap") ? "QKCS 3 " : "QKCS 1 "
            #expect(version == expected, "\(path)")
        }
        let old = try Self.frozenFiles(in: Self.versionOne)
        for (path, data) in try Self.frozenFiles(in: Self.versionTwo) where path.hasSuffix(".snap") || path.hasSuffix(".seg") {
            #expect(data.count < old[path]!.count, "\(path) is no smaller compressed")
        }
    }
}
