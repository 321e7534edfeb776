@testable import CloudStore
import Concurrency
import Foundation
import Testing

/// Signed files, device sets and pairing on the in-memory folder (docs/trust.md).
@Suite struct TrustedFolderTests {
    /// A machine of `player` on `folder`, with a key of its own and pins in memory.
    struct Machine {
        let book: TrustBook
        let folder: TrustedFolder
        var warnings: Locked<[String]>

        init(_ player: String, _ device: String, on folder: MemoryFolder, now: @escaping @Sendable () -> Date = { Date() }) {
            let warnings = Locked<[String]>([])
            book = TrustBook(player: player, device: DeviceID(validated: device), key: DeviceKey(), file: nil,
                             warnings: { warning in warnings.withLock { $0.append(warning.description) } }, now: now)
            self.folder = TrustedFolder(folder, book: book)
            self.warnings = warnings
        }

        func store() throws -> FolderCloudDatabase {
            try FolderCloudDatabase(folder: folder, player: book.player, device: book.device)
        }

        func save(_ names: [String], zone: String = "Games") throws {
            let store = try store()
            let zone = ZoneID(validated: zone)
            try store.createZone(zone)
            _ = try store.modifyRecords(in: zone, saving: names.map { CloudRecord(recordType: "Item", recordName: $0, fields: [:]) }, deleting: [],
                                        policy: .overwrite)
        }

        /// The names of the records of `player`'s zone as this machine reads them.
        func names(of player: String, zone: String = "Games") throws -> [String] {
            let reader = try FolderCloudDatabase.reader(of: player, in: folder)
            guard try reader.zones().contains(ZoneID(validated: zone)) else { return [] }
            return try reader.fetchZoneChanges(ZoneID(validated: zone), since: nil).changedRecords.map(\.recordName).sorted()
        }
    }

    func headPath(_ folder: MemoryFolder, _ player: String, _ device: String) -> FolderPath {
        FolderPath(["players", player, "g0", "devices", device, "head"])
    }

    @Test func aSignedFileReadsOnlyAtItsOwnPathWithItsOwnBytes() throws {
        let key = DeviceKey(), other = DeviceKey()
        let path = FolderPath(["players", "ann", "g0", "devices", "laptop", "head"])
        let sealed = SignedFile.seal(Data("body".utf8), path: path, counter: 7, key: key)
        guard case .signed(let opened) = SignedFile.read(sealed) else { Issue.record("not read as signed"); return }
        #expect(opened.body == Data("body".utf8))
        #expect(SignedFile.verify(opened, path: path, key: key.publicKey))
        #expect(!SignedFile.verify(opened, path: FolderPath(["players", "ann", "g0", "devices", "laptop2", "head"]), key: key.publicKey))
        #expect(!SignedFile.verify(opened, path: path, key: other.publicKey))
        var changed = opened
        changed.body = Data("bodY".utf8)
        #expect(!SignedFile.verify(changed, path: path, key: key.publicKey))
        changed = opened
        changed.counter = 8
        #expect(!SignedFile.verify(changed, path: path, key: key.publicKey))
        if case .malformed = SignedFile.read(Data("QKSIG 1 zz 1 x\nbody".utf8)) {} else { Issue.record("a damaged signature line was not refused") }
    }

    @Test func aNewPlayersFirstMachineStartsTheSetAndItsFilesReadForAFriend() throws {
        let folder = MemoryFolder()
        let ann = Machine("ann", "laptop", on: folder), ben = Machine("ben", "pc", on: folder)
        #expect(try ann.book.enroll(in: folder) == .founded(takenIn: []))
        try ann.save(["a", "b"])
        #expect(try ann.book.enroll(in: folder) == .member)
        #expect(try ben.names(of: "ann") == ["a", "b"])
        #expect(ben.book.pinned("ann").map(\.key) == [ann.book.key.publicKey])
    }

    @Test func aMachineNotInTheSetIsNotReadAndIsToldHowToJoin() throws {
        let folder = MemoryFolder()
        let laptop = Machine("ann", "laptop", on: folder), desktop = Machine("ann", "desktop", on: folder)
        _ = try laptop.book.enroll(in: folder)
        try laptop.save(["a"])
        #expect(throws: PairingError.notAMember(player: "ann")) { try desktop.book.enroll(in: folder) }
        #expect(PairingError.notAMember(player: "ann").description.contains("devices join CODE"))
        // What it writes anyway (signed with its own key) is not read by the set's machines.
        let stranger = try FolderCloudDatabase(folder: SigningOnly(inner: folder, key: desktop.book.key), player: "ann", device: DeviceID(validated: "desktop"))
        try stranger.createZone(ZoneID(validated: "Games"))
        _ = try stranger.modifyRecords(in: ZoneID(validated: "Games"), saving: [CloudRecord(recordType: "Item", recordName: "forged", fields: [:])],
                                       deleting: [], policy: .overwrite)
        #expect(try laptop.names(of: "ann") == ["a"])
        #expect(laptop.warnings.withLock { $0 }.contains { $0.contains("devices/desktop") })
    }

    @Test func aCodeFromAddLetsOneMachineJoin_andTheFirstMachineSeesItWithoutRunningAgain() throws {
        let folder = MemoryFolder()
        let laptop = Machine("ann", "laptop", on: folder), desktop = Machine("ann", "desktop", on: folder)
        let friend = Machine("ben", "pc", on: folder)
        _ = try laptop.book.enroll(in: folder)
        try laptop.save(["a"])
        #expect(try friend.names(of: "ann") == ["a"])
        let (code, expires) = try laptop.book.invite(in: folder)
        #expect(code.count == 29 && expires > Date())
        let joined = try desktop.book.join(code: code.lowercased(), in: folder)
        #expect(Set(joined.members.values.map(\.device)) == ["laptop", "desktop"])
        try desktop.save(["b"])
        #expect(try laptop.names(of: "ann") == ["a", "b"])
        // A friend who pinned the laptop first sees the desktop too: added by a signature of a pinned machine.
        #expect(try friend.names(of: "ann") == ["a", "b"])
        // The folder holds no more of the code than its first four characters.
        let invite = try #require(try folder.list(KeyFolder.directory("ann")).first { $0.name.hasPrefix("invite-") })
        guard case .data(let bytes) = folder.read(KeyFolder.directory("ann").appending(invite.name), limit: 1 << 20) else { Issue.record(); return }
        let secret = String(code.filter { $0 != "-" }.dropFirst(4))
        #expect(!String(decoding: bytes, as: UTF8.self).contains(secret))
    }

    @Test func aWrongExpiredOrSpentCodeLetsNobodyIn() throws {
        let folder = MemoryFolder()
        let clock = Locked(Date())
        let laptop = Machine("ann", "laptop", on: folder, now: { clock.withLock { $0 } })
        _ = try laptop.book.enroll(in: folder)
        let (code, _) = try laptop.book.invite(in: folder)
        #expect(throws: PairingError.badCode) { try Machine("ann", "x", on: folder).book.join(code: "ABC", in: folder) }
        var wrong = Array(code)
        wrong[wrong.count - 1] = wrong[wrong.count - 1] == "0" ? "1" : "0"
        #expect(throws: PairingError.codeMismatch) { try Machine("ann", "y", on: folder).book.join(code: String(wrong), in: folder) }
        clock.withLock { $0 += TrustBook.codeLifetime + 1 }
        let late = Machine("ann", "late", on: folder, now: { clock.withLock { $0 } })
        #expect(throws: PairingError.self) { try late.book.join(code: code, in: folder) }
        // A code lets one machine in: a second is told it was used.
        clock.withLock { $0 -= TrustBook.codeLifetime + 1 }
        let (again, _) = try laptop.book.invite(in: folder)
        let one = Machine("ann", "one", on: folder), two = Machine("ann", "two", on: folder)
        _ = try one.book.join(code: again, in: folder)
        #expect(throws: PairingError.used(by: "one")) { try two.book.join(code: again, in: folder) }
        laptop.book.forgetSets()
        #expect(Set(try #require(laptop.book.deviceSet(of: "ann", in: folder)).members.values.map { $0.device }) == ["laptop", "one"])
        // Two keys naming one invitation (two joins at once on a replicated folder): neither is let in.
        let body = KeyFileBody(player: "ann", device: "two", key: two.book.key.publicKey, label: "two", how: .invited,
                               by: laptop.book.key.publicKey.id, invite: String(again.prefix(4)),
                               grant: two.book.key.sign(KeyFileBody.grantMessage(player: "ann", key: two.book.key.publicKey)), at: Date())
        let path = KeyFolder.keyPath("ann", two.book.key.publicKey.id)
        try folder.write(KeyFolder.encode(body, path: path, key: two.book.key), to: path, mode: .replace) { _, _ in }
        laptop.book.forgetSets()
        #expect(Set(try #require(laptop.book.deviceSet(of: "ann", in: folder)).members.values.map { $0.device }) == ["laptop", "one"])
    }

    @Test func aKeyFileAnyoneWritesLetsNoMachineIn() throws {
        let folder = MemoryFolder()
        let laptop = Machine("ann", "laptop", on: folder), ben = Machine("ben", "pc", on: folder)
        _ = try laptop.book.enroll(in: folder)
        try laptop.save(["a"])
        #expect(try ben.names(of: "ann") == ["a"])
        // Ben's key, "added" by the laptop with a grant he signed himself, and a second founder.
        let evil = DeviceKey()
        for (device, how) in [("evil", KeyFileBody.How.added), ("evil2", .founder)] {
            let key = device == "evil" ? evil : DeviceKey()
            let body = KeyFileBody(player: "ann", device: device, key: key.publicKey, label: nil, how: how,
                                   by: how == .added ? laptop.book.key.publicKey.id : key.publicKey.id, invite: nil,
                                   grant: key.sign(KeyFileBody.grantMessage(player: "ann", key: key.publicKey)), at: Date())
            let path = KeyFolder.keyPath("ann", key.publicKey.id)
            try folder.write(KeyFolder.encode(body, path: path, key: key), to: path, mode: .replace) { _, _ in }
        }
        let forger = TrustBook(player: "ann", device: DeviceID(validated: "evil"), key: evil, file: nil)
        forger.pin("ann", members: [evil.publicKey.id: .init(device: "evil", key: evil.publicKey)], removed: [])
        let store = try FolderCloudDatabase(folder: TrustedFolder(folder, book: forger), player: "ann", device: DeviceID(validated: "evil"))
        try store.createZone(ZoneID(validated: "Games"))
        _ = try store.modifyRecords(in: ZoneID(validated: "Games"), saving: [CloudRecord(recordType: "Item", recordName: "forged", fields: [:])],
                                    deleting: [], policy: .overwrite)
        laptop.book.forgetSets()
        ben.book.forgetSets()
        #expect(try laptop.names(of: "ann") == ["a"])
        #expect(try ben.names(of: "ann") == ["a"])
        #expect(ben.warnings.withLock { $0 }.contains { $0.contains("friends trust ann") })
        // A friend meeting the folder now for the first time sees two founders and pins neither.
        let cat = Machine("cat", "tablet", on: folder)
        #expect(try cat.names(of: "ann") == [])
        #expect(cat.warnings.withLock { $0 }.contains { $0.contains("friends trust ann FINGERPRINT") })
        // After comparing fingerprints, the person picks the laptop's.
        let set = try cat.book.trust(friend: "ann", fingerprint: laptop.book.key.publicKey.fingerprint, in: folder)
        #expect(set.members.values.map(\.device) == ["laptop"])
        #expect(try cat.names(of: "ann") == ["a"])
    }

    @Test func anOlderCopyOfAHeadIsRefused() throws {
        let folder = MemoryFolder()
        let laptop = Machine("ann", "laptop", on: folder), ben = Machine("ben", "pc", on: folder)
        _ = try laptop.book.enroll(in: folder)
        try laptop.save(["a"])
        let head = headPath(folder, "ann", "laptop")
        guard case .data(let old) = folder.read(head, limit: 1 << 20) else { Issue.record("no head"); return }
        try laptop.save(["b"])
        #expect(try ben.names(of: "ann") == ["a", "b"])
        try folder.write(old, to: head, mode: .replace) { _, _ in }
        if case .rejected(let reason) = ben.folder.read(head, limit: 1 << 20) {
            #expect(reason.contains("rolled back"))
        } else {
            Issue.record("an older head was read")
        }
    }

    /// The newest head read is kept with the pins at the end of a round: a later process (a new
    /// book from the same pins file) refuses the older copy too, and the same head read again
    /// is not a rollback.
    @Test func aHeadRolledBackIsRefusedByALaterProcessToo() throws {
        let folder = MemoryFolder()
        let laptop = Machine("ann", "laptop", on: folder)
        _ = try laptop.book.enroll(in: folder)
        try laptop.save(["a"])
        let head = headPath(folder, "ann", "laptop")
        guard case .data(let old) = folder.read(head, limit: 1 << 20) else { Issue.record("no head"); return }
        try laptop.save(["b"])
        let pins = FileManager.default.temporaryDirectory.appendingPathComponent("trust-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: pins) }
        let benKey = DeviceKey()
        func ben() -> TrustedFolder {
            TrustedFolder(folder, book: TrustBook(player: "ben", device: DeviceID(validated: "pc"), key: benKey, file: pins))
        }
        func names(_ trusted: TrustedFolder) throws -> [String] {
            let reader = try FolderCloudDatabase.reader(of: "ann", in: trusted)
            return try reader.fetchZoneChanges(ZoneID(validated: "Games"), since: nil).changedRecords.map(\.recordName).sorted()
        }
        let first = ben()
        #expect(try names(first) == ["a", "b"])
        guard case .data = first.read(head, limit: 1 << 20) else { Issue.record("the same head read again was refused"); return }
        first.book.keepHeads()
        try folder.write(old, to: head, mode: .replace) { _, _ in }
        let later = ben()
        if case .rejected(let reason) = later.read(head, limit: 1 << 20) {
            #expect(reason.contains("rolled back"))
        } else {
            Issue.record("a later process read the older head")
        }
    }

    @Test func aRemovedMachinesLaterFilesAreRefused() throws {
        let folder = MemoryFolder()
        let laptop = Machine("ann", "laptop", on: folder), desktop = Machine("ann", "desktop", on: folder)
        _ = try laptop.book.enroll(in: folder)
        _ = try desktop.book.join(code: try laptop.book.invite(in: folder).code, in: folder)
        #expect(throws: PairingError.removingSelf) { try laptop.book.remove(device: "laptop", in: folder) }
        #expect(throws: PairingError.unknownDevice("tv")) { try laptop.book.remove(device: "tv", in: folder) }
        try laptop.book.remove(device: "desktop", in: folder)
        // The removed machine learns it is out, and what it writes still (signed) is not read.
        desktop.book.forgetSets()
        _ = desktop.book.deviceSet(of: "ann", in: folder)
        #expect(throws: PairingError.notAMember(player: "ann")) { try desktop.book.enroll(in: folder) }
        let late = try FolderCloudDatabase(folder: SigningOnly(inner: folder, key: desktop.book.key), player: "ann", device: DeviceID(validated: "desktop"))
        try late.createZone(ZoneID(validated: "Games"))
        _ = try late.modifyRecords(in: ZoneID(validated: "Games"), saving: [CloudRecord(recordType: "Item", recordName: "late", fields: [:])],
                                   deleting: [], policy: .overwrite)
        #expect(try laptop.names(of: "ann") == [])
        let ben = Machine("ben", "pc", on: folder)
        #expect(try ben.names(of: "ann") == [])
    }

    @Test func anUpgradeTakesInTheDeviceFoldersAsTheyWere_andNothingWrittenSince() throws {
        let folder = MemoryFolder()
        // Two machines of a version before signing.
        for device in ["laptop", "desktop"] {
            let store = try FolderCloudDatabase(folder: folder, player: "ann", device: DeviceID(validated: device))
            try store.createZone(ZoneID(validated: "Games"))
            _ = try store.modifyRecords(in: ZoneID(validated: "Games"), saving: [CloudRecord(recordType: "Item", recordName: device, fields: [:])],
                                        deleting: [], policy: .overwrite)
        }
        let laptop = Machine("ann", "laptop", on: folder)
        #expect(try laptop.book.enroll(in: folder, upgrading: true) == .founded(takenIn: ["desktop"]))
        #expect(try laptop.names(of: "ann") == ["desktop", "laptop"])
        // The desktop, still on the old version, writes again: unsigned and new, it is refused.
        let old = try FolderCloudDatabase(folder: folder, player: "ann", device: DeviceID(validated: "desktop"))
        _ = try old.modifyRecords(in: ZoneID(validated: "Games"), saving: [CloudRecord(recordType: "Item", recordName: "later", fields: [:])],
                                  deleting: [], policy: .overwrite)
        laptop.book.forgetSets()
        #expect(try laptop.names(of: "ann") == ["desktop", "laptop"])
        // Upgraded, it claims its place and signs its files; its later writes count again.
        let desktop = Machine("ann", "desktop", on: folder)
        #expect(try desktop.book.enroll(in: folder, upgrading: true) == .claimed)
        try desktop.save(["signed"])
        laptop.book.forgetSets()
        #expect(try laptop.names(of: "ann") == ["desktop", "laptop", "later", "signed"])
    }

    @Test func aMachineNewToTheFolderTakesInNothingPlantedBeforeIt() throws {
        let folder = MemoryFolder()
        let planted = try FolderCloudDatabase(folder: folder, player: "cat", device: DeviceID(validated: "evil"))
        try planted.createZone(ZoneID(validated: "Shared"))
        _ = try planted.modifyRecords(in: ZoneID(validated: "Shared"), saving: [CloudRecord(recordType: "Player", recordName: "player", fields: [:])],
                                      deleting: [], policy: .overwrite)
        let cat = Machine("cat", "tablet", on: folder)
        #expect(try cat.book.enroll(in: folder) == .founded(takenIn: []))
        #expect(try cat.names(of: "cat", zone: "Shared") == [])
    }
}

/// A folder that signs what it writes with `key` and reads without checking: a machine that
/// goes on writing whatever its player's set says.
struct SigningOnly: CloudFolder {
    let inner: MemoryFolder
    let key: DeviceKey

    func checkAvailable() throws(CloudStoreError) {}
    func list(_ directory: FolderPath) throws(CloudStoreError) -> [FolderEntry] { try inner.list(directory) }
    func read(_ file: FolderPath, limit: Int) -> FileRead {
        let read = inner.read(file, limit: limit + SignedFile.maxLine)
        if case .data(let data) = read, case .signed(let opened) = SignedFile.read(data) { return .data(opened.body) }
        return read
    }
    func fileExists(_ file: FolderPath) -> Bool { inner.fileExists(file) }
    func write(_ data: Data, to file: FolderPath, mode: WriteMode, step: WriteStepHook) throws(CloudStoreError) -> Bool {
        try inner.write(SignedFile.seal(data, path: file, counter: UInt64(Date().timeIntervalSince1970 * 1000), key: key), to: file, mode: mode, step: step)
    }
    func remove(_ path: FolderPath) { inner.remove(path) }
    func withExclusiveLock<T>(_ directory: FolderPath, _ body: () throws(CloudStoreError) -> T) throws(CloudStoreError) -> T {
        try inner.withExclusiveLock(directory, body)
    }
    var statistics: FolderStatistics { inner.statistics }
}
