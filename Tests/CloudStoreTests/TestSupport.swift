import CloudStore
import Foundation
import TestSupport
import Testing

/// The two folders every contract test runs against.
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case disk, memory

    var testDescription: String { rawValue }

    /// A fresh cloud, and a way to open a store on it as any device.
    func makeCloud() -> TestCloud {
        switch self {
        case .disk: TestCloud(folder: DiskFolder(root: temporaryFolder("cloudstore-tests")))
        case .memory: TestCloud(folder: MemoryFolder())
        }
    }
}

final class TestCloud: Sendable {
    let folder: any CloudFolder
    let warnings = WarningLog()

    init(folder: any CloudFolder) { self.folder = folder }

    func store(_ device: String, now: @escaping @Sendable () -> Date = { Date() }, faults: CloudFaults? = nil, generation: CloudGeneration? = nil) throws -> FolderCloudDatabase {
        try FolderCloudDatabase(folder: folder, player: "alice", device: DeviceID(device), generation: generation,
                                options: CloudStoreOptions(now: now, warnings: warnings.sink, faults: faults))
    }

    var root: URL? { (folder as? DiskFolder)?.root }
}

/// Collects the warnings a store gives, so tests can assert a bad file was reported.
final class WarningLog: Sendable {
    private let lock = NSLock()
    nonisolated(unsafe) private var collected: [CloudWarning] = []

    var sink: CloudWarningSink { { warning in self.lock.withLock { self.collected.append(warning) } } }
    var all: [CloudWarning] { lock.withLock { collected } }
}

let games = try! ZoneID("Games")

func record(_ name: String, _ value: Int64 = 0, type: String = "Game") -> CloudRecord {
    CloudRecord(recordType: type, recordName: name, fields: ["value": .int(value)])
}

extension FolderCloudDatabase {
    @discardableResult
    func save(_ records: [CloudRecord], in zone: ZoneID = games, policy: SavePolicy = .overwrite) throws -> CommitResult {
        try modifyRecords(in: zone, saving: records, deleting: [], policy: policy)
    }

    @discardableResult
    func delete(_ names: [String], in zone: ZoneID = games) throws -> CommitResult {
        try modifyRecords(in: zone, saving: [], deleting: names, policy: .overwrite)
    }

    /// Every live record as a full fetch returns it: name -> value field.
    func liveValues(in zone: ZoneID = games) throws -> [String: FieldValue?] {
        let changes = try fetchZoneChanges(zone, since: nil)
        return Dictionary(uniqueKeysWithValues: changes.changedRecords.map { ($0.recordName, $0.fields["value"]) })
    }
}

/// Folds change fetches into a local copy, as the sync engine does, to check convergence.
struct Replica {
    var records: [String: CloudRecord] = [:]
    var token: ChangeToken?

    mutating func pull(from store: FolderCloudDatabase, zone: ZoneID = games) throws {
        let changes = try store.fetchZoneChanges(zone, since: token)
        if token == nil { records = [:] }
        for record in changes.changedRecords { records[record.recordName] = record }
        for deleted in changes.deletedRecords { records[deleted.recordName] = nil }
        token = changes.token
    }

    mutating func apply(_ result: CommitResult) {
        for record in result.savedRecords { records[record.recordName] = record }
        for name in result.deletedRecordNames { records[name] = nil }
    }

    var values: [String: FieldValue?] { records.mapValues { $0.fields["value"] } }
}

/// The probe executable built next to the tests (override with QIKTIONARY_PROBE_BIN).
func probeBinary() throws -> URL {
    if let path = ProcessInfo.processInfo.environment["QIKTIONARY_PROBE_BIN"] { return URL(fileURLWithPath: path) }
    var candidates = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
    if let executable = Bundle.main.executableURL { candidates.append(executable.deletingLastPathComponent()) }
    var directory = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { directory.deleteLastPathComponent() }
    candidates.append(directory.appendingPathComponent(".build/debug"))
    for candidate in candidates {
        let probe = candidate.appendingPathComponent("cloudstore-probe")
        if FileManager.default.isExecutableFile(atPath: probe.path) { return probe }
    }
    throw CloudStoreError.unavailable(reason: "cloudstore-probe not found near \(candidates.map(\.path))")
}
