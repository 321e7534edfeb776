import CloudStore
import Foundation
import TestSupport
import Testing

/// Whatever lands in the folder, the store skips it with a warning and loses nothing else.
@Suite struct HostileFolderTests {
    private func devices(_ root: URL) -> URL { root.appendingPathComponent("players/alice/g0/devices") }

    private func write(_ data: Data, _ url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    @Test func hostileContentIsSkippedWithWarningsAndNothingElseIsLost() throws {
        let cloud = Backend.disk.makeCloud()
        let root = try #require(cloud.root)
        let a = try cloud.store("A")
        try a.createZone(games)
        try a.save([record("r1", 1), record("r2", 2)])
        try a.save([record("r3", 3)])
        let segment = devices(root).appendingPathComponent("A/zones/Games/000000000001.seg")
        let valid = try Data(contentsOf: segment)
        let outside = temporaryFolder("cloudstore-tests")

        // Another device whose files are truncated, random, or enormous.
        try write(valid.prefix(valid.count / 2), devices(root).appendingPathComponent("T/zones/Games/000000000001.seg"))
        try write(Data((0..<4096).map { _ in UInt8.random(in: 0...255) }), devices(root).appendingPathComponent("T/head"))
        try write(Data((0..<512).map { _ in UInt8.random(in: 0...255) }), devices(root).appendingPathComponent("R/zones/Games/000000000001.seg"))
        let huge = devices(root).appendingPathComponent("H/zones/Games/000000000001.seg")
        try write(Data(), huge)
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 200 << 20)
        try handle.close()
        try write(Data("QKCS 1 head 00000000 99999999999\n".utf8), devices(root).appendingPathComponent("H/head"))
        // Names that must never be taken for a device, and symlinks pointing outside.
        for name in ["..hidden", "bad\u{01}name", "x.sync-conflict-20240101-120000-ABCDEFG", "A (conflicted copy 2024-01-01)"] {
            try FileManager.default.createDirectory(at: devices(root).appendingPathComponent(name), withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(at: devices(root).appendingPathComponent("A"), to: outside.appendingPathComponent("A"))
        try FileManager.default.createSymbolicLink(at: devices(root).appendingPathComponent("L"), withDestinationURL: outside.appendingPathComponent("A"))
        try FileManager.default.createDirectory(at: devices(root).appendingPathComponent("S/zones/Games"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: devices(root).appendingPathComponent("S/zones/Games/000000000001.seg"), withDestinationURL: segment)
        try FileManager.default.createSymbolicLink(at: devices(root).appendingPathComponent("S/head"), withDestinationURL: devices(root).appendingPathComponent("A/head"))
        // Conflict copies and junk beside the real files, and a bogus generation marker.
        try write(valid, devices(root).appendingPathComponent("A/zones/Games/000000000001.sync-conflict-20240101-120000-ABCDEFG.seg"))
        try write(Data("junk".utf8), devices(root).appendingPathComponent("A/head (conflicted copy 2024-01-01)"))
        try write(Data("junk".utf8), root.appendingPathComponent("players/alice/generations/g9999.gen"))
        try write(Data("junk".utf8), root.appendingPathComponent("players/alice/generations/..g9.gen"))

        let b = try cloud.store("B")
        #expect(try b.liveValues() == ["r1": .int(1), "r2": .int(2), "r3": .int(3)])
        #expect(try b.currentGeneration() == .initial)
        #expect(try b.fetchDatabaseChanges(since: nil).changedZones == [games])
        let warned = Set(cloud.warnings.all.map(\.path))
        for path in ["devices/T/zones/Games/000000000001.seg", "devices/T/head", "devices/R/zones/Games/000000000001.seg",
                     "devices/H/zones/Games/000000000001.seg", "devices/H/head", "devices/..hidden", "devices/bad\u{01}name",
                     "devices/x.sync-conflict-20240101-120000-ABCDEFG", "devices/L", "devices/S/zones/Games/000000000001.seg",
                     "devices/S/head", "generations/g9999.gen", "generations/..g9.gen"] {
            #expect(warned.contains { $0.hasSuffix(path) }, "no warning for \(path) in \(warned.sorted())")
        }
        // The enormous file was refused by its size, never read.
        #expect((cloud.folder.statistics.bytesRead) < 1 << 20)

        // The real writer carries on, and nothing was written outside the root.
        try a.save([record("r4", 4)])
        #expect(try b.liveValues().count == 4)
        let outsideFiles = try FileManager.default.subpathsOfDirectory(atPath: outside.path)
        #expect(outsideFiles.filter { $0.hasSuffix(".seg") }.count == 2)
    }

    @Test func aDamagedFileInAWritersOwnLogIsReplacedNotAppliedHalf() throws {
        let cloud = Backend.disk.makeCloud()
        let root = try #require(cloud.root)
        let a = try cloud.store("A")
        try a.createZone(games)
        try a.save([record("r1", 1)])
        let next = devices(root).appendingPathComponent("A/zones/Games/000000000002.seg")
        try write(Data("QKCS 1 seg 12345678 10\n{\"x\":1}".utf8), next)

        let b = try cloud.store("B")
        #expect(try b.liveValues() == ["r1": .int(1)])
        try a.save([record("r2", 2)])
        #expect(try b.liveValues() == ["r1": .int(1), "r2": .int(2)])
        #expect(cloud.warnings.all.contains { $0.path.hasSuffix("000000000002.seg") })
    }

    @Test func anUnavailableOrReadOnlyFolderSaysSoAndKeepsNothingHalfDone() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("cloudstore-missing-\(UUID().uuidString)")
        let store = try FolderCloudDatabase.onDisk(root: missing, player: "alice", device: DeviceID("A"))
        #expect {
            try store.fetchDatabaseChanges(since: nil)
        } throws: { error in
            guard case .unavailable = error as? CloudStoreError else { return false }
            return true
        }

        let root = temporaryFolder("cloudstore-tests")
        let writer = try FolderCloudDatabase.onDisk(root: root, player: "alice", device: DeviceID("A"))
        try writer.createZone(games)
        try writer.save([record("r1")])
        guard getuid() != 0 else { return } // root ignores permissions; the rest needs a real read-only folder
        chmod(root.appendingPathComponent("players/alice/g0/devices/A/zones/Games").path, 0o555)
        defer { chmod(root.appendingPathComponent("players/alice/g0/devices/A/zones/Games").path, 0o755) }
        #expect(throws: CloudStoreError.self) { try writer.save([record("r2")]) }
        #expect(try writer.liveValues().keys.sorted() == ["r1"])
    }
}

/// A folder whose files vanish the moment they are read (a replicator removing a file, a user
/// tidying up): the reader must take it as a file not there yet, never crash or skip past it.
final class VanishingFolder: CloudFolder, @unchecked Sendable {
    let inner: DiskFolder
    let root: URL
    private let lock = NSLock()
    private var vanished: [String: Data] = [:]
    var armed = true

    init(root: URL) {
        self.root = root
        inner = DiskFolder(root: root)
    }

    func checkAvailable() throws(CloudStoreError) { try inner.checkAvailable() }
    func list(_ directory: FolderPath) throws(CloudStoreError) -> [FolderEntry] { try inner.list(directory) }
    func fileExists(_ file: FolderPath) -> Bool { inner.fileExists(file) }
    func write(_ data: Data, to file: FolderPath, mode: WriteMode, step: WriteStepHook) throws(CloudStoreError) -> Bool {
        try inner.write(data, to: file, mode: mode, step: step)
    }
    func remove(_ path: FolderPath) { inner.remove(path) }
    func withExclusiveLock<T>(_ directory: FolderPath, _ body: () throws(CloudStoreError) -> T) throws(CloudStoreError) -> T {
        try inner.withExclusiveLock(directory, body)
    }
    var statistics: FolderStatistics { inner.statistics }

    /// Every segment vanishes just before it is read, once.
    func read(_ file: FolderPath, limit: Int) -> FileRead {
        let url = root.appendingPathComponent(file.components.joined(separator: "/"))
        let vanish: Bool = lock.withLock { armed && (file.components.last ?? "").hasSuffix(".seg") && vanished[url.path] == nil }
        if vanish, let data = try? Data(contentsOf: url) {
            lock.withLock { vanished[url.path] = data }
            try? FileManager.default.removeItem(at: url)
        }
        return inner.read(file, limit: limit)
    }

    /// Puts every vanished file back, as a replicator would deliver it again.
    func restore() {
        lock.withLock {
            armed = false
            for (path, data) in vanished { try? data.write(to: URL(fileURLWithPath: path)) }
        }
    }
}

extension HostileFolderTests {
    @Test func aFileThatVanishesWhileReadIsWaitedForNotSkipped() throws {
        let root = temporaryFolder("cloudstore-tests")
        let writer = try FolderCloudDatabase.onDisk(root: root, player: "alice", device: DeviceID("A"))
        try writer.createZone(games)
        try writer.save([record("r1", 1)])
        try writer.save([record("r2", 2)])
        let folder = VanishingFolder(root: root)
        let reader = try FolderCloudDatabase(folder: folder, player: "alice", device: DeviceID("B"))
        var replica = Replica()
        try replica.pull(from: reader)
        #expect(replica.records.isEmpty, "nothing half-read")
        folder.restore()
        try replica.pull(from: reader)
        #expect(replica.values == ["r1": .int(1), "r2": .int(2)])
    }
}
