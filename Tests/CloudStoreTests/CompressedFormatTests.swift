@testable import CloudStore
import Foundation
import Testing

/// Format version 2: segment and snapshot bodies are zlib streams. A damaged, truncated,
/// padded or oversized stream is refused with a reason and never half-read.
@Suite struct CompressedFormatTests {
    static func sealed(_ body: Data, kind: String = "seg", version: Int = 2) -> Data {
        let crc = String(CRC32.checksum(body), radix: 16)
        return Data("QKCS \(version) \(kind) \(String(repeating: "0", count: 8 - crc.count) + crc) \(body.count)\n".utf8) + body
    }

    static let segment = SegmentBody(
        generation: .initial, device: DeviceID(validated: "A"), zone: ZoneID(validated: "Games"), seq: 1,
        hlc: HLCTimestamp(millis: 1_700_000_000_000, counter: 0),
        entries: (1...50).map { n in
            RecordEntry(name: "game-\(n)", type: "Game", seq: 1, hlc: HLCTimestamp(millis: 1_700_000_000_000, counter: 0), deleted: false,
                        fields: ["word": .string("crane"), "n": .int(Int64(n))], createdBy: DeviceID(validated: "A"),
                        createdAt: HLCTimestamp(millis: 1_700_000_000_000, counter: 0))
        })

    @Test func aSegmentIsWrittenCompressedAndReadsBackEqual() throws {
        let file = CloudFileFormat.encode(Self.segment, kind: .segment)
        #expect(file.starts(with: Data("QKCS 2 seg ".utf8)))
        let plain = BodyCoding.encode(Self.segment)
        #expect(file.count * 4 < plain.count, "50 similar records compress at least fourfold")
        #expect(try CloudFileFormat.decode(file, kind: .segment, as: SegmentBody.self).get() == Self.segment)
        // The same body as version 1 (plain JSON) still reads.
        #expect(try CloudFileFormat.decode(Self.sealed(plain, version: 1), kind: .segment, as: SegmentBody.self).get() == Self.segment)
    }

    @Test func headsAndMarkersStayPlain() {
        let head = HeadBody(generation: .initial, device: DeviceID(validated: "A"), clock: .zero, zones: [:])
        let file = CloudFileFormat.encode(head, kind: .head)
        #expect(String(decoding: file, as: UTF8.self).hasPrefix("QKCS 1 head "))
        #expect(String(decoding: file, as: UTF8.self).contains("\"device\":\"A\""))
    }

    @Test func aDamagedStreamUnderAValidChecksumIsRefused() throws {
        let stream = Deflate.compress(BodyCoding.encode(Self.segment))
        var flipped = stream
        flipped[flipped.count / 2] ^= 0x5a
        let cases: [String: Data] = [
            "flipped byte": flipped,
            "truncated": stream.prefix(stream.count - 5),
            "trailing bytes": stream + Data([1, 2, 3]),
            "not zlib at all": Data("{\"generation\":\"g0\"}".utf8),
            "empty": Data(),
        ]
        for (label, body) in cases {
            let result = CloudFileFormat.decode(Self.sealed(body), kind: .segment, as: SegmentBody.self)
            guard case .failure(let problem) = result else {
                Issue.record("\(label): accepted")
                continue
            }
            #expect(!problem.incomplete, "\(label)")
            #expect(!problem.reason.isEmpty && !problem.reason.contains("\n"), "\(label)")
        }
    }

    @Test func aBombThatInflatesPastTheLimitIsRefused() {
        // 9 MiB of spaces compress to a few kilobytes; a segment may hold at most 8 MiB.
        let bomb = Deflate.compress(Data(repeating: 0x20, count: CloudLimits.maxSegmentBytes + (1 << 20)))
        #expect(bomb.count < 20_000)
        guard case .failure(let problem) = CloudFileFormat.decode(Self.sealed(bomb), kind: .segment, as: SegmentBody.self) else {
            Issue.record("the bomb was accepted")
            return
        }
        #expect(problem.reason.contains("larger than"))
        #expect(Deflate.decompress(bomb, limit: CloudLimits.maxSegmentBytes) == nil)
        #expect(Deflate.decompress(bomb, limit: CloudLimits.maxSegmentBytes + (1 << 20))?.count == CloudLimits.maxSegmentBytes + (1 << 20))
    }

    @Test func anUnknownVersionIsRefusedByName() {
        let file = Self.sealed(BodyCoding.encode(Self.segment), version: 3)
        guard case .failure(let problem) = CloudFileFormat.decode(file, kind: .segment, as: SegmentBody.self) else {
            Issue.record("version 3 was accepted")
            return
        }
        #expect(problem.reason == "format version 3 is not supported")
    }
}

@Suite struct UnwritableValueTests {
    @Test func aDoubleThatIsNotFiniteIsRefusedBeforeAnythingIsWritten() throws {
        let folder = MemoryFolder()
        let store = try FolderCloudDatabase.inMemory(folder, player: "alice", device: DeviceID("A"))
        let zone = try ZoneID("Games")
        try store.createZone(zone)
        let before = folder.allFiles.sorted()
        for value in [Double.nan, .infinity, -.infinity] {
            let record = CloudRecord(recordType: "Game", recordName: "game-1", fields: ["ratio": .double(value)])
            #expect(throws: CloudStoreError.self) {
                _ = try store.modifyRecords(in: zone, saving: [record], deleting: [], policy: .overwrite)
            }
        }
        #expect(folder.allFiles.sorted() == before)
        let fine = CloudRecord(recordType: "Game", recordName: "game-1", fields: ["ratio": .double(0.5)])
        _ = try store.modifyRecords(in: zone, saving: [fine], deleting: [], policy: .overwrite)
        #expect(try store.fetchRecords(in: zone, named: ["game-1"])["game-1"]?.fields == ["ratio": .double(0.5)])
    }
}

@Suite struct OversizedSnapshotTests {
    /// Device A's store with `count` one-record commits in its Games zone.
    static func storeWithCommits(_ count: Int, padding: Int = 0) throws -> (MemoryFolder, FolderCloudDatabase, ZoneID) {
        let folder = MemoryFolder()
        let store = try FolderCloudDatabase.inMemory(folder, player: "alice", device: DeviceID("A"))
        let zone = try ZoneID("Games")
        try store.createZone(zone)
        for n in 1...count {
            let record = CloudRecord(recordType: "Game", recordName: "game-\(n)",
                                     fields: ["word": .string("crane"), "n": .int(Int64(n)), "notes": .string(String(repeating: "a", count: padding))])
            _ = try store.modifyRecords(in: zone, saving: [record], deleting: [], policy: .overwrite)
        }
        return (folder, store, zone)
    }

    @Test func aLargeSnapshotIsWrittenInPartsAndReadsBackWhole() throws {
        let (folder, store, zone) = try OversizedSnapshotTests.storeWithCommits(40, padding: 500)
        store.limitSnapshots(partBytes: 4_000)
        #expect(try store.compact(zone, keepingRecent: 0).segmentsRemoved == 40)
        let parts = folder.allFiles.filter { $0.hasSuffix(".part") }.sorted()
        #expect(parts.count >= 5, "\(parts)")
        #expect(parts.first?.hasSuffix("snapshot-000000000040-0001.part") == true)
        let list = try #require(folder.allFiles.first { $0.hasSuffix(".snap") }.flatMap { folder.contents(of: $0) })
        #expect(list.starts(with: Data("QKCS 3 snap ".utf8)))
        // Every part but the last holds at least the part size, and at most one entry more.
        for path in parts.dropLast() {
            let json = try CloudFileFormat.unseal(folder.contents(of: path)!, kind: .part).get()
            #expect(json.count >= 4_000 && json.count < 4_000 + 1_000, "\(path): \(json.count)")
        }
        // The head weighs the whole snapshot: its list and every part.
        let head = try #require(folder.allFiles.first { $0.hasSuffix("/A/head") }.flatMap { folder.contents(of: $0) })
        let snapshotBytes = (parts + [folder.allFiles.first { $0.hasSuffix(".snap") }!]).reduce(0) { $0 + folder.contents(of: $1)!.count }
        #expect(String(decoding: head, as: UTF8.self).contains("\"snapshotBytes\":\(snapshotBytes)"))
        let reader = try FolderCloudDatabase.inMemory(folder, player: "alice", device: DeviceID("B"))
        let changes = try reader.fetchZoneChanges(zone, since: nil)
        #expect(changes.isComplete)
        #expect(changes.changedRecords.map(\.recordName).sorted() == (1...40).map { "game-\($0)" }.sorted())
        #expect(changes.changedRecords.allSatisfy { $0.fields["notes"] == .string(String(repeating: "a", count: 500)) })
    }

    @Test func compactionGoesOnAtAnySizeAndRemovesTheOldParts() throws {
        let (folder, store, zone) = try OversizedSnapshotTests.storeWithCommits(30, padding: 500)
        store.limitSnapshots(partBytes: 3_000)
        _ = try store.compact(zone, keepingRecent: 0)
        let firstParts = Set(folder.allFiles.filter { $0.hasSuffix(".part") })
        #expect(firstParts.count >= 5)
        for n in 31...60 {
            let record = CloudRecord(recordType: "Game", recordName: "game-\(n)", fields: ["notes": .string(String(repeating: "b", count: 500))])
            _ = try store.modifyRecords(in: zone, saving: [record], deleting: [], policy: .overwrite)
        }
        #expect(try store.compact(zone, keepingRecent: 0).snapshotBase == 60)
        let files = folder.allFiles.filter { $0.contains("/zones/") }
        #expect(firstParts.isDisjoint(with: files), "the parts of the older snapshot are gone")
        #expect(files.allSatisfy { $0.contains("snapshot-000000000060") }, "\(files)")
        let reader = try FolderCloudDatabase.inMemory(folder, player: "alice", device: DeviceID("B"))
        #expect(try reader.fetchZoneChanges(zone, since: nil).changedRecords.count == 60)
    }
}

@Suite struct CompactionDecisionTests {
    @Test func theHeadKeepsTheLogSizeSoDecidingReadsNoFolderListing() throws {
        let (folder, store, zone) = try OversizedSnapshotTests.storeWithCommits(40)
        let segments = folder.allFiles.filter { $0.hasSuffix(".seg") }
        let onDisk = segments.reduce(0) { $0 + (folder.contents(of: $1)?.count ?? 0) }
        let head = try #require(folder.allFiles.first { $0.hasSuffix("/A/head") }.flatMap { folder.contents(of: $0) })
        #expect(String(decoding: head, as: UTF8.self).contains("\"logBytes\":\(onDisk)"))

        let listings = folder.statistics.listings
        #expect(try store.compactIfWorthwhile(zone) == nil, "40 small commits are far below 64 KiB")
        // One listing, of the generation markers, as every operation makes: not the zone folder.
        #expect(folder.statistics.listings == listings + 1)
    }
}

@Suite struct SystemFieldsEncodingTests {
    static func randomFields(_ n: Int, _ rng: inout SeededGenerator) throws -> SystemFields {
        let names = ["A", "laptop-1", "0a1b2c3d-0000-4000-8000-00000000abcd", "x_y"]
        func stamp(_ rng: inout SeededGenerator) -> HLCTimestamp {
            HLCTimestamp(millis: Int64.random(in: 0...Int64.max, using: &rng), counter: UInt32.random(in: 0...UInt32.max, using: &rng))
        }
        let modifiedBy = try DeviceID(names[(n + 1) % 4]), modifiedAt = stamp(&rng)
        // Half carry the tag the store builds, half one it never builds.
        let tag = n % 2 == 0 ? SystemFields.changeTag(modifiedAt, modifiedBy)
            : ["1700000000000.00000-A", "a\"quote", "back\\slash", "slash/", "tab\tnew\nline\u{1}", "é😀"][n % 6]
        // Some created by their last writer at that moment, as most records are.
        let created = n % 3 == 0 ? (modifiedBy, modifiedAt) : (try DeviceID(names[n % 4]), stamp(&rng))
        return SystemFields(changeTag: tag, createdBy: created.0, createdAt: created.1, modifiedBy: modifiedBy, modifiedAt: modifiedAt)
    }

    @Test func encodedSystemFieldsReadBackEqual() throws {
        var rng = SeededGenerator(seed: 11)
        for n in 0..<2_000 {
            let fields = try Self.randomFields(n, &rng)
            #expect(SystemFields(encoded: fields.encoded) == fields, "\(fields)")
        }
    }

    @Test func theStoresOwnTagsTakeTheShortFormAndOthersStayJSON() throws {
        let device = try DeviceID("0a1b2c3d-0000-4000-8000-00000000abcd")
        let at = HLCTimestamp(millis: 1_795_341_135_595, counter: 3)
        let same = SystemFields(changeTag: SystemFields.changeTag(at, device), createdBy: device, createdAt: at, modifiedBy: device, modifiedAt: at)
        #expect(String(decoding: same.encoded, as: UTF8.self) == "1795341135595.00003 0a1b2c3d-0000-4000-8000-00000000abcd")
        var edited = same
        edited.createdAt = HLCTimestamp(millis: 1_795_341_000_000, counter: 0)
        edited.createdBy = try DeviceID("laptop")
        #expect(String(decoding: edited.encoded, as: UTF8.self) == "1795341135595.00003 0a1b2c3d-0000-4000-8000-00000000abcd 1795341000000.00000 laptop")
        var foreign = same
        foreign.changeTag = "tag from elsewhere"
        #expect(foreign.encoded.first == UInt8(ascii: "{"))
        #expect(try JSONDecoder().decode(SystemFields.self, from: foreign.encoded) == foreign)
    }

    /// Databases written by earlier builds keep the JSON object `JSONEncoder` wrote.
    @Test func earlierBuildsJSONStillReads() throws {
        var rng = SeededGenerator(seed: 12)
        let encoder = JSONEncoder()
        for n in 0..<500 {
            let fields = try Self.randomFields(n, &rng)
            #expect(SystemFields(encoded: try encoder.encode(fields)) == fields)
        }
    }

    /// A damaged row reads as nothing or as fields that encode to those very bytes: never a crash,
    /// never fields that stand for other bytes.
    @Test func damagedBytesReadAsNothingOrAsThemselves() throws {
        var rng = SeededGenerator(seed: 13)
        let broken = ["", " ", "1.0", "1.0 ", " A", "1.0 A 2.0", "1.0 A 2.0 B C", "x.0 A", "1.x A", "1 A", "1.0.0 A", "1.0 a/b",
                      "1.0 A 99999999999999999999.0 B", "1.99999999999 A", "{", "{\"changeTag\":1}", "1.0\u{0}A"]
        for text in broken { #expect(SystemFields(encoded: Data(text.utf8)) == nil, "\(text)") }
        for n in 0..<3_000 {
            var bytes = [UInt8](try Self.randomFields(n, &rng).encoded)
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let at = Int.random(in: 0..<bytes.count, using: &rng)
                switch rng.next() % 3 {
                case 0: bytes[at] = UInt8.random(in: 0...255, using: &rng)
                case 1: bytes.remove(at: at)
                default: bytes.insert([UInt8(ascii: " "), UInt8(ascii: "."), UInt8(ascii: "7")].randomElement(using: &rng)!, at: at)
                }
                if bytes.isEmpty { break }
            }
            guard let read = SystemFields(encoded: Data(bytes)), bytes.first != UInt8(ascii: "{") else { continue }
            #expect([UInt8](read.encoded) == bytes, "\(String(decoding: bytes, as: UTF8.self))")
        }
    }
}

extension CompactionDecisionTests {
    @Test func aHeadWithoutSizesIsWeighedFromOneListing() throws {
        let (folder, _, zone) = try OversizedSnapshotTests.storeWithCommits(30)
        // The head as a build before the sizes were kept wrote it.
        let path = try #require(folder.allFiles.first { $0.hasSuffix("/A/head") })
        var head = try CloudFileFormat.decode(folder.contents(of: path)!, kind: .head, as: HeadBody.self).get()
        head.zones["Games"]?.logBytes = nil
        head.zones["Games"]?.snapshotBytes = nil
        folder.place(CloudFileFormat.encode(head, kind: .head), at: path.split(separator: "/").map(String.init))
        let fresh = try FolderCloudDatabase.inMemory(folder, player: "alice", device: DeviceID("A"))
        fresh.limitSnapshots(partBytes: SnapshotFiles.partBytes, smallestLog: 1)
        let listings = folder.statistics.listings
        let report = try #require(try fresh.compactIfWorthwhile(zone))
        #expect(report.segmentsRemoved == 30 - FolderCloudDatabase.recentSegmentsKept)
        #expect(folder.statistics.listings > listings + 1, "the zone folder was listed")
        // Compaction writes the sizes back, and they match the files.
        let rewritten = String(decoding: folder.contents(of: path)!, as: UTF8.self)
        let kept = folder.allFiles.filter { $0.hasSuffix(".seg") }.reduce(0) { $0 + (folder.contents(of: $1)?.count ?? 0) }
        #expect(rewritten.contains("\"logBytes\":\(kept)"))
        #expect(try FolderCloudDatabase.inMemory(folder, player: "alice", device: DeviceID("B")).fetchZoneChanges(zone, since: nil).changedRecords.count == 30)
    }
}

/// A device that first writes into a zone another device started (it never creates the zone
/// itself) keeps its log's sizes in its head from its first commit, as the device that created it does.
@Suite struct HeadSizesOfAJoiningDeviceTests {
    @Test func aDeviceJoiningAZoneAnotherStartedKeepsItsLogSizes() throws {
        let (folder, _, zone) = try OversizedSnapshotTests.storeWithCommits(3)
        let joining = try FolderCloudDatabase.inMemory(folder, player: "alice", device: DeviceID("B"))
        for n in 1...20 {
            let record = CloudRecord(recordType: "Game", recordName: "b-\(n)", fields: ["word": .string("slate"), "n": .int(Int64(n))])
            _ = try joining.modifyRecords(in: zone, saving: [record], deleting: [], policy: .overwrite)
        }
        let written = folder.allFiles.filter { $0.contains("/B/") && $0.hasSuffix(".seg") }
            .reduce(0) { $0 + (folder.contents(of: $1)?.count ?? 0) }
        let path = try #require(folder.allFiles.first { $0.hasSuffix("/B/head") })
        let head = try CloudFileFormat.decode(folder.contents(of: path)!, kind: .head, as: HeadBody.self).get()
        #expect(head.zones["Games"] == HeadBody.ZoneLog(seq: 20, snapshotBase: 0, logBytes: written, snapshotBytes: 0))

        // So deciding whether to compact reads the head alone: no listing of the zone folder.
        let listings = folder.statistics.listings
        #expect(try joining.compactIfWorthwhile(zone) == nil, "20 small commits are far below 64 KiB")
        #expect(folder.statistics.listings == listings + 1, "only the generation markers were listed")
    }
}
