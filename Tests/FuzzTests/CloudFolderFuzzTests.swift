@testable import CloudStore
import Foundation
import QiktionaryCore
import Storage
import Sync
import TestSupport
import Testing

/// Cloud-folder files, fuzzed: a real cloud written by two machines through the sync engine,
/// then for each case one file damaged (bytes flipped, truncated, random, a valid header over
/// edited JSON, huge declared lengths, too big, a FIFO or a symlink in its place) or hostile
/// entries added (`..`, control characters, long names, conflict copies, symlinks out of the
/// folder). A fresh reader must not crash or hang, must warn rather than fail, must still
/// return every record that the damaged file did not carry, and must write nothing outside.
@Suite struct CloudFolderFuzzTests {
    static let batches = 4
    static let casesPerBatch = Fuzz.count(400)

    @Test(arguments: 0..<batches)
    func damagedOrHostileCloudFilesAreSkippedAndLoseNothingElse(batch: Int) throws {
        let seed = Fuzz.seed(kind: 5, batch: batch)
        let start = Date()
        defer { Fuzz.report("cloud", batch: batch, cases: Self.casesPerBatch, since: start) }
        var rng = SeededGenerator(seed: seed)
        let fixture = try CloudFixture()
        defer { fixture.remove() }
        let outside = try FuzzBinary.fingerprint(fixture.outside)

        for index in 0..<Self.casesPerBatch {
            let label = Fuzz.label(seed, index)
            let damage = try CloudDamage.apply(&rng, fixture)
            defer { fixture.restore(damage) }
            let description = "\(label) \(damage.description)"
            Fuzz.bounded(description) { fixture.expectReaderSurvives(damage, description) }
            if index % 25 == 0 {
                Fuzz.bounded("sync \(description)") { fixture.expectSyncSurvives(damage, description) }
                fixture.restoreAll()
            }
        }
        fixture.restoreAll()
        #expect(try FuzzBinary.fingerprint(fixture.outside) == outside, "files outside the cloud folder changed")
        #expect(fixture.currentFiles() == fixture.pristine, "the pristine cloud was not restored")
    }
}

/// The file format's reader on its own, at volume: every kind of file, damaged every way.
@Suite struct CloudFileFormatFuzzTests {
    static let batches = 2
    static let casesPerBatch = Fuzz.count(20_000)

    @Test(arguments: 0..<batches)
    func damagedCloudFilesDecodeOrAreRefusedWithAReason(batch: Int) throws {
        let seed = Fuzz.seed(kind: 6, batch: batch)
        let start = Date()
        defer { Fuzz.report("cloud-format", batch: batch, cases: Self.casesPerBatch, since: start) }
        var rng = SeededGenerator(seed: seed)
        let fixture = try CloudFixture()
        defer { fixture.remove() }
        let files = fixture.pristine.keys.sorted().map { ($0, fixture.pristine[$0]!) }
        for index in 0..<Self.casesPerBatch {
            let (path, original) = rng.pick(files)
            let data: Data
            switch rng.int(0...5) {
            case 0, 1: data = rng.mutate(original)
            case 2: data = original.prefix(rng.int(0...original.count))
            case 3: data = Data(rng.bytes(rng.length(upTo: 200, rarely: 20_000)))
            default: data = CloudBodies.resealed(original, &rng)
            }
            let label = "\(Fuzz.label(seed, index)) \(path)"
            Fuzz.bounded(label) {
                for problem in Self.decodeAll(data) {
                    // The reason may quote the damaged header; the warning that carries it is one line.
                    let warning = CloudWarning(path: path, reason: problem).description
                    #expect(!problem.isEmpty && !Fuzz.spansLines(warning), "\(label) a bad warning: \(warning.debugDescription)")
                }
            }
        }
    }

    /// Decodes the bytes as every kind of file; the reasons given for refusing them.
    static func decodeAll(_ data: Data) -> [String] {
        var problems: [String] = []
        func note<T>(_ result: Result<T, FormatProblem>) { if case .failure(let p) = result { problems.append(p.reason) } }
        note(CloudFileFormat.decode(data, kind: .segment, as: SegmentBody.self))
        note(CloudFileFormat.decode(data, kind: .snapshot, as: SnapshotBody.self))
        note(CloudFileFormat.decode(data, kind: .snapshot, as: SnapshotManifest.self))
        note(CloudFileFormat.decode(data, kind: .part, as: SnapshotBody.self))
        note(CloudFileFormat.decode(data, kind: .head, as: HeadBody.self))
        note(CloudFileFormat.decode(data, kind: .generation, as: GenerationBody.self))
        return problems
    }
}

/// A cloud folder two machines filled through the sync engine, kept pristine between cases.
final class CloudFixture {
    static let player = "fuzz"
    static let zones = [try! ZoneID("Games"), try! ZoneID("ReadingList")]

    let root: URL
    let cloud: URL
    /// Files outside the cloud that symlinks in it point at: they must never change.
    let outside: URL
    /// Every regular file of the cloud by relative path.
    let pristine: [String: Data]
    /// What a fresh reader sees: zone -> record name -> record.
    let baseline: [ZoneID: [String: CloudRecord]]
    /// The device folders: `players/fuzz/<generation>/devices/<id>`.
    let devicePaths: [String]

    init() throws {
        root = temporaryFolder("qk-fuzz-cloud")
        cloud = root.appendingPathComponent("cloud")
        outside = root.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("not the store's\n".utf8).write(to: outside.appendingPathComponent("file"))
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)

        let a = try Machine(name: "laptop", cloud: cloud)
        var game = try a.player.startGame(GameRequest(packID: "animals", word: "tiger"))
        for word in ["crane", "tiger"] { _ = try a.player.submitGuess(word, gameID: game.id, lexicon: Fuzz.lexicon) }
        _ = try a.player.bookmarkGame(id: game.id)
        try a.engine().sync()
        // A reset leaves a generation marker, the file every reader starts from.
        try a.engine().resetCloud()
        game = try a.player.startGame(GameRequest(packID: "space", word: "orbit"))
        _ = try a.player.submitGuess("crane", gameID: game.id, lexicon: Fuzz.lexicon)
        _ = try a.player.mark("q", as: .out, gameID: game.id)
        try a.engine().sync()

        let b = try Machine(name: "desktop", cloud: cloud)
        try b.engine().sync()
        let other = try b.player.startGame(GameRequest(packID: "animals", word: "zebra"))
        for word in ["crane", "zebra"] { _ = try b.player.submitGuess(word, gameID: other.id, lexicon: Fuzz.lexicon) }
        _ = try b.player.bookmarkGame(id: other.id)
        _ = try b.player.submitGuess("plant", gameID: game.id, lexicon: Fuzz.lexicon)
        try b.engine().sync()

        try a.engine().sync()
        _ = try a.player.submitGuess("ghost", gameID: game.id, lexicon: Fuzz.lexicon)
        try a.engine().sync()
        // A snapshot file too.
        let store = try SyncEngine.openCloud(folder: cloud, player: a.player)
        _ = try store.compact(Self.zones[0], keepingRecent: 1)

        pristine = Self.files(cloud)
        devicePaths = Set(pristine.keys.compactMap { path -> String? in
            let parts = path.split(separator: "/")
            guard let i = parts.firstIndex(of: "devices"), parts.count > i + 1 else { return nil }
            return parts[...(i + 1)].joined(separator: "/")
        }).sorted()
        let reader = try FolderCloudDatabase.onDisk(root: cloud, player: Self.player, device: DeviceID("reader"))
        var baseline: [ZoneID: [String: CloudRecord]] = [:]
        for zone in Self.zones {
            baseline[zone] = Dictionary(uniqueKeysWithValues: try reader.fetchZoneChanges(zone, since: nil).changedRecords.map { ($0.recordName, $0) })
        }
        self.baseline = baseline
        precondition(devicePaths.count == 2 && baseline.values.map(\.count).reduce(0, +) > 8, "the fixture cloud is not as planned: \(pristine.keys.sorted())")
    }

    /// One machine: its own database and profile, syncing with the cloud.
    struct Machine {
        let database: AppDatabase
        let profile: Profile
        var player: PlayerDatabase { database.player(profile) }
        let cloud: URL

        init(name: String, cloud: URL) throws {
            database = try AppDatabase.inMemory()
            _ = try database.importPacks(from: Fuzz.packFiles, lexicon: { Fuzz.lexicon })
            profile = try database.profile(player: CloudFixture.player, device: name, hostName: name)
            self.cloud = cloud
        }

        func engine() throws -> SyncEngine {
            let store = try SyncEngine.openCloud(folder: cloud, player: database.player(profile))
            return SyncEngine(player: database.player(profile), cloud: store, pause: { _ in })
        }
    }

    static func files(_ folder: URL) -> [String: Data] {
        var result: [String: Data] = [:]
        for path in (try? FileManager.default.subpathsOfDirectory(atPath: folder.path)) ?? [] {
            let url = folder.appendingPathComponent(path)
            if let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .isSymbolicLinkKey]),
               values.isRegularFile == true, values.isSymbolicLink != true {
                result[path] = try? Data(contentsOf: url)
            }
        }
        return result
    }

    func currentFiles() -> [String: Data] { Self.files(cloud) }

    // MARK: Expectations

    /// A fresh reader fetches everything; the damaged device's records may be missing or older,
    /// every other record is returned as it was.
    func expectReaderSurvives(_ damage: CloudDamage, _ label: String) {
        let warnings = Shared<[CloudWarning]>([])
        do {
            let reader = try FolderCloudDatabase.onDisk(root: cloud, player: Self.player, device: DeviceID("reader"),
                                                        options: CloudStoreOptions(warnings: { w in warnings.withLock { $0.append(w) } }))
            _ = try reader.fetchDatabaseChanges(since: nil)
            for zone in Self.zones {
                let changes: ZoneChanges
                do {
                    changes = try reader.fetchZoneChanges(zone, since: nil)
                } catch .zoneNotFound where damage.mayHideZones {
                    continue
                }
                expectKept(changes.changedRecords, zone: zone, damage: damage, label)
                // The token it hands out works for the next fetch.
                _ = try reader.fetchZoneChanges(zone, since: changes.token)
            }
        } catch {
            if !damage.touchesGeneration {
                Issue.record("\(label) the reader failed: \(error)")
            }
        }
        for warning in warnings.withLock({ $0 }) {
            #expect(!warning.description.contains("\n"), "\(label) a warning spans lines: \(warning.description.debugDescription)")
        }
    }

    func expectKept(_ records: [CloudRecord], zone: ZoneID, damage: CloudDamage, _ label: String) {
        guard !damage.touchesGeneration else { return }
        let returned = Dictionary(records.map { ($0.recordName, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(returned.count == records.count, "\(label) a record came back twice")
        for (name, record) in baseline[zone] ?? [:] {
            guard let writer = record.systemFields?.modifiedBy.name, !damage.mayAffect(device: writer) else { continue }
            #expect(returned[name] == record, "\(label) \(zone) record \(name) of an undamaged device was lost or changed")
        }
    }

    /// A fresh machine syncs from the damaged folder: it may skip records, never crash or stop.
    func expectSyncSurvives(_ damage: CloudDamage, _ label: String) {
        do {
            let machine = try Machine(name: "fresh", cloud: cloud)
            let store = try SyncEngine.openCloud(folder: cloud, player: machine.player,
                                                 options: CloudStoreOptions(warnings: { _ in }))
            let engine = SyncEngine(player: machine.player, cloud: store, pause: { _ in })
            do {
                try engine.sync()
            } catch {
                if !damage.touchesGeneration && !damage.mayHideZones {
                    Issue.record("\(label) sync failed: \(error)")
                }
                return
            }
            let finished = try machine.player.history()
            let playing = try machine.player.gamesInProgress()
            if !damage.touchesGeneration && !damage.mayAffectAnyDevice {
                #expect(finished.count == 2 && playing.count == 1, "\(label) sync of an intact folder brought \(finished.count) finished and \(playing.count) in progress")
            }
            // The fresh machine plays on and sends: its own files only.
            if let game = playing.first {
                _ = try? machine.player.giveUp(gameID: game.id)
                _ = try? engine.sync()
            }
        } catch {
            Issue.record("\(label) setting up a fresh machine failed: \(error)")
        }
    }

    // MARK: Restoring

    /// Puts back what a case changed: removes what it added, rewrites what it damaged.
    func restore(_ damage: CloudDamage) {
        for path in damage.added { try? FileManager.default.removeItem(at: cloud.appendingPathComponent(path)) }
        for path in damage.changed {
            let url = cloud.appendingPathComponent(path)
            try? FileManager.default.removeItem(at: url)
            if let data = pristine[path] { try? data.write(to: url) }
        }
        if damage.needsFullRestore { restoreAll() }
    }

    /// Makes the folder exactly pristine again (after a sync wrote files of its own).
    func restoreAll() {
        let paths = ((try? FileManager.default.subpathsOfDirectory(atPath: cloud.path)) ?? []).sorted(by: >)
        let keep = Set(pristine.keys.flatMap { path -> [String] in
            var parts = path.split(separator: "/").map(String.init)
            var all: [String] = []
            while !parts.isEmpty { all.append(parts.joined(separator: "/")); parts.removeLast() }
            return all
        })
        for path in paths where !keep.contains(path) {
            try? FileManager.default.removeItem(at: cloud.appendingPathComponent(path))
        }
        for (path, data) in pristine {
            let url = cloud.appendingPathComponent(path)
            if (try? Data(contentsOf: url)) != data {
                try? FileManager.default.removeItem(at: url)
                try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try? data.write(to: url)
            }
        }
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
}

/// One case's damage, and what it may legitimately hide.
struct CloudDamage: CustomStringConvertible {
    var description: String
    /// Paths (relative to the cloud) rewritten from the pristine copy afterwards.
    var changed: [String] = []
    /// Paths added, removed afterwards.
    var added: [String] = []
    /// The device folders whose records may be missing or older.
    var devices: Set<String> = []
    var touchesGeneration = false
    var mayHideZones = false
    var needsFullRestore = false
    var mayAffectAnyDevice: Bool { !devices.isEmpty }

    func mayAffect(device: String) -> Bool { devices.contains(device) }

    static func device(of path: String) -> String? {
        let parts = path.split(separator: "/")
        guard let i = parts.firstIndex(of: "devices"), parts.count > i + 1 else { return nil }
        return String(parts[i + 1])
    }

    static func apply(_ rng: inout SeededGenerator, _ fixture: CloudFixture) throws -> CloudDamage {
        let fm = FileManager.default
        if rng.chance(0.8) {
            // Damage one file of the store.
            let path = rng.pick(fixture.pristine.keys.sorted())
            let url = fixture.cloud.appendingPathComponent(path)
            let original = fixture.pristine[path]!
            var damage = CloudDamage(description: "", changed: [path])
            if let device = device(of: path) { damage.devices = [device] }
            damage.touchesGeneration = path.contains("/generations/")
            damage.mayHideZones = path.hasSuffix("/head")
            let how: String
            switch rng.int(0...12) {
            case 0, 1:
                how = "bytes changed"
                try rng.mutate(original).write(to: url)
            case 2:
                let keep = rng.int(0...max(0, original.count - 1))
                how = "truncated to \(keep) bytes"
                try original.prefix(keep).write(to: url)
            case 3:
                how = "random bytes"
                try Data(rng.bytes(rng.length(upTo: 400, rarely: 100_000))).write(to: url)
            case 4, 5, 6:
                how = "a valid header over edited JSON"
                // A well-formed edit is a real write: it may claim any record, so only no crash is expected.
                damage.devices = Set(fixture.devicePaths.compactMap { device(of: $0) })
                damage.mayHideZones = true
                try CloudBodies.resealed(original, &rng).write(to: url)
            case 7:
                how = "a huge declared length"
                let body = CloudBodies.body(of: original)
                let header = CloudBodies.header(of: original).split(separator: " ").prefix(4).joined(separator: " ")
                try (Data((header + " " + rng.pick(["99999999999", "9223372036854775807", "99999999999999999999", "-1", "0x10"]) + "\n").utf8) + body).write(to: url)
            case 8:
                how = "over the size limits (sparse)"
                try original.write(to: url)
                let handle = try FileHandle(forWritingTo: url)
                try handle.truncate(atOffset: UInt64(rng.pick([65 << 10, 9 << 20, 300 << 20])))
                try handle.close()
            case 9:
                how = "replaced by a FIFO"
                try fm.removeItem(at: url)
                guard mkfifo(url.path, 0o644) == 0 else { throw CocoaError(.fileWriteUnknown) }
            case 10:
                how = "replaced by a symlink out of the folder"
                try fm.removeItem(at: url)
                try fm.createSymbolicLink(at: url, withDestinationURL: rng.chance(0.5)
                    ? fixture.outside.appendingPathComponent("file")
                    : fixture.cloud.appendingPathComponent(rng.pick(fixture.pristine.keys.sorted())))
            case 11:
                how = "replaced by a directory"
                try fm.removeItem(at: url)
                try fm.createDirectory(at: url.appendingPathComponent("x"), withIntermediateDirectories: true)
            default:
                how = "removed"
                try fm.removeItem(at: url)
            }
            damage.description = "\(path): \(how)"
            return damage
        }
        // Add hostile entries beside the real ones.
        let base = rng.pick(fixture.devicePaths + fixture.devicePaths.map { $0 + "/zones/Games" } + [
            "players/fuzz/generations", fixture.devicePaths[0].split(separator: "/").dropLast().joined(separator: "/"),
        ])
        var name = rng.hostileName()
        // The file system itself refuses these; the store never sees them.
        name = String(name.unicodeScalars.filter { $0 != "/" && $0 != "\u{0}" }.map(Character.init))
        while name.utf8.count > 200 { name.removeLast() }
        if name.isEmpty || name == "." || name == ".." { name = rng.pick(["...", "..x", ".x"]) }
        let path = base + "/" + name
        let url = fixture.cloud.appendingPathComponent(path)
        var damage = CloudDamage(description: "added \(path.debugDescription)", added: [path])
        if fixture.pristine[path] != nil || fm.fileExists(atPath: url.path) {
            // The name is one of the store's own: this replaces a real file.
            try? fm.removeItem(at: url)
            damage.changed = [path]
            damage.added = []
            damage.devices = Set(fixture.devicePaths.compactMap { device(of: $0) })
            damage.mayHideZones = true
            damage.touchesGeneration = base.hasSuffix("generations")
        }
        damage.touchesGeneration = base.hasSuffix("generations") && CloudGeneration.accepts(String(name.dropLast(4)))
        switch rng.int(0...4) {
        case 0:
            try fixture.pristine[rng.pick(fixture.pristine.keys.sorted())]!.write(to: url)
        case 1:
            try Data(rng.bytes(rng.int(0...300))).write(to: url)
        case 2:
            try fm.createSymbolicLink(at: url, withDestinationURL: rng.chance(0.5) ? fixture.outside : fixture.outside.appendingPathComponent("file"))
        case 3:
            // A device folder (or something named like one) full of junk and links out.
            try fm.createDirectory(at: url.appendingPathComponent("zones/Games"), withIntermediateDirectories: true)
            try Data(rng.bytes(64)).write(to: url.appendingPathComponent("head"))
            try fm.createSymbolicLink(at: url.appendingPathComponent("zones/Games/000000000001.seg"),
                                      withDestinationURL: fixture.outside.appendingPathComponent("file"))
        default:
            try fm.createDirectory(at: url, withIntermediateDirectories: true)
        }
        return damage
    }
}

/// The store's file format, as the fuzz needs it: header, body, resealing with a valid CRC-32.
enum CloudBodies {
    static func newline(_ data: Data) -> Int? { data.firstIndex(of: UInt8(ascii: "\n")) }

    static func header(of data: Data) -> String {
        guard let n = newline(data) else { return "" }
        return String(decoding: data[data.startIndex..<n], as: UTF8.self)
    }

    static func body(of data: Data) -> Data {
        guard let n = newline(data) else { return data }
        return Data(data[data.index(after: n)...])
    }

    /// The file with its JSON body edited (or its bytes changed) under a header that checks out.
    static func resealed(_ data: Data, _ rng: inout SeededGenerator) -> Data {
        let parts = header(of: data).split(separator: " ")
        let kind = parts.dropFirst(2).first.map(String.init) ?? "seg"
        // Version 2 bodies are compressed: edit the JSON inside and compress it again, or
        // damage the compressed bytes themselves under a valid checksum.
        let compressed = parts.dropFirst().first == "2"
        var body = body(of: data)
        if rng.chance(0.2) {
            body = rng.mutate(body)
        } else if var object = try? JSONSerialization.jsonObject(with: compressed ? Deflate.decompress(body, limit: 1 << 24) ?? body : body) {
            for _ in 0..<rng.int(1...3) { object = edit(object, &rng) }
            body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])) ?? body
            if compressed { body = Deflate.compress(body) }
        }
        let crc = String(crc32(body), radix: 16)
        let header = "QKCS \(compressed ? 2 : 1) \(kind) \(String(repeating: "0", count: 8 - crc.count) + crc) \(body.count)\n"
        return Data(header.utf8) + body
    }

    nonisolated(unsafe) static let hostileValues: [Any] = [
        Int64.max, Int64.min, -1, 0, 4_294_967_295, 4_294_967_296, 1e300, -0.5, "", "..", "../../x", "g0", "g9", "A",
        String(repeating: "x", count: 5_000), NSNull(), true, [Any](), [String: Any](), ["millis": Int64.max, "counter": 4_294_967_295],
        ["millis": -1, "counter": 0], ["int": Int64.max], ["date": Int64.max], ["date": Int64.min], ["string": "\u{0}\n"],
        ["bytes": "not base64"], ["strings": [1]], ["int": 1, "string": "x"], ["seq": Int.max, "snapshotBase": Int.max],
        ["seq": -5, "snapshotBase": 7],
    ]

    /// Changes one value somewhere in a JSON tree.
    static func edit(_ value: Any, _ rng: inout SeededGenerator, depth: Int = 0) -> Any {
        if var object = value as? [String: Any], !object.isEmpty, depth < 6, rng.chance(0.8) {
            let key = rng.pick(object.keys.sorted())
            switch rng.int(0...9) {
            case 0: object[key] = nil
            case 1: object[rng.hostileName()] = object[key]
            case 2: object[key] = rng.pick(hostileValues)
            default: object[key] = edit(object[key]!, &rng, depth: depth + 1)
            }
            return object
        }
        if var array = value as? [Any], !array.isEmpty, depth < 6, rng.chance(0.8) {
            let i = rng.int(0...array.count - 1)
            switch rng.int(0...5) {
            case 0: array.remove(at: i)
            case 1: array.append(contentsOf: Array(repeating: array[i], count: rng.pick([1, 2, 401, 500])))
            case 2: array[i] = rng.pick(hostileValues)
            default: array[i] = edit(array[i], &rng, depth: depth + 1)
            }
            return array
        }
        if value is String, rng.chance(0.5) { return rng.pick(["", "..", "g0", rng.hostileName(), rng.unicodeString(4)]) }
        return rng.pick(hostileValues)
    }

    static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// CRC-32 (IEEE), as in zip and the store's headers.
    static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
