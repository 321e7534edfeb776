// Timings of the cloud store on a disk folder (build with -c release):
//   cloudstore-bench [RECORDS...]     default: 1000 10000
// For each size: a change fetch with nothing new (database + zone level, from a fresh store as
// a new process would be, with the files it reads), a one-record commit, and a full fetch.
// Each figure is the median of several runs.
import CloudStore
import Foundation

func median(_ runs: Int, _ body: () throws -> Void) rethrows -> Double {
    var times: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
    }
    return times.sorted()[runs / 2]
}

func bench(records: Int) throws -> [String] {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("cloudstore-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    let zone = try ZoneID("Games")
    let writer = try FolderCloudDatabase.onDisk(root: root, player: "bench", device: DeviceID("A"))
    try writer.createZone(zone)
    for start in stride(from: 0, to: records, by: CloudLimits.maxRecordsPerCommit) {
        let batch = (start..<min(records, start + CloudLimits.maxRecordsPerCommit)).map {
            CloudRecord(recordType: "Game", recordName: "game-\($0)", fields: ["word": .string("crane"), "guesses": .int(4), "won": .bool(true)])
        }
        _ = try writer.modifyRecords(in: zone, saving: batch, deleting: [], policy: .overwrite)
    }
    func reader() throws -> FolderCloudDatabase { try FolderCloudDatabase.onDisk(root: root, player: "bench", device: DeviceID("B")) }

    var full: ZoneChanges?
    let fullFetch = try median(5) { full = try reader().fetchZoneChanges(zone, since: nil) }
    guard let full, full.changedRecords.count == records else { throw CloudStoreError.unavailable(reason: "full fetch returned \(full?.changedRecords.count ?? 0)") }
    let databaseToken = try reader().fetchDatabaseChanges(since: nil).token

    var filesRead = 0, checks = 0
    let nothingNew = try median(9) {
        let store = try reader()
        let before = store.folder.statistics
        let changed = try store.fetchDatabaseChanges(since: databaseToken).changedZones
        let changes = try store.fetchZoneChanges(zone, since: full.token)
        guard changed.isEmpty, changes.changedRecords.isEmpty else { throw CloudStoreError.unavailable(reason: "unexpected changes") }
        filesRead = store.folder.statistics.filesRead - before.filesRead
        checks = store.folder.statistics.existenceChecks - before.existenceChecks
    }
    var counter = 0
    let commit = try median(9) {
        counter += 1
        _ = try writer.modifyRecords(in: zone, saving: [CloudRecord(recordType: "Game", recordName: "game-\(counter)", fields: ["guesses": .int(5)])], deleting: [], policy: .overwrite)
    }
    return [
        String(format: "| %6d | nothing new (database + zone fetch) | %8.2f ms | %2d files read, %2d existence checks |", records, nothingNew, filesRead, checks),
        String(format: "| %6d | one-record commit (warm store)      | %8.2f ms | |", records, commit),
        String(format: "| %6d | full fetch (fresh store)            | %8.2f ms | %d records |", records, fullFetch, records),
    ]
}

let sizes = CommandLine.arguments.dropFirst().compactMap { Int($0) }
print("| records | operation | median | reads |")
print("|---|---|---|---|")
do {
    for size in sizes.isEmpty ? [1_000, 10_000] : sizes {
        for line in try bench(records: size) { print(line) }
    }
} catch {
    print("cloudstore-bench: \(error)")
    exit(1)
}
