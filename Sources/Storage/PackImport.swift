import Foundation
import GRDB
import QiktionaryCore

/// What an import did and what it refused.
public struct PackImportReport: Sendable, Equatable {
    public var added: [String] = []
    public var updated: [String] = []
    public var refused: [PackFile.Problem] = []
}

extension AppDatabase {
    /// Loads pack files into the database: a pack that is new, or whose file has a higher version
    /// than the stored one, is written in place; games, marks and bookmarks are never touched.
    /// A file that cannot be read or fails a check is refused and the stored pack kept.
    /// The dictionary is only asked for when some pack actually needs checking.
    public func importPacks(from files: [URL], lexicon: () -> Lexicon) throws(StorageError) -> PackImportReport {
        var report = PackImportReport()
        var candidates: [(file: String, pack: Pack)] = []
        for url in files {
            do {
                candidates.append((url.lastPathComponent, try PackFile.read(url)))
            } catch {
                report.refused.append(error)
            }
        }
        let stored: [String: Int] = try read { db in
            try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT id, version FROM pack").map { ($0["id"], $0["version"]) })
        }
        var newest: [String: (file: String, pack: Pack)] = [:]
        for candidate in candidates where candidate.pack.version > stored[candidate.pack.id] ?? 0 {
            if let other = newest[candidate.pack.id], other.pack.version >= candidate.pack.version { continue }
            newest[candidate.pack.id] = candidate
        }
        guard !newest.isEmpty else { return report }
        let words = lexicon()
        var accepted: [Pack] = []
        for (file, pack) in newest.values.sorted(by: { $0.pack.id < $1.pack.id }) {
            let problems = pack.problems(lexicon: words)
            if problems.isEmpty {
                accepted.append(pack)
            } else {
                let more = problems.count > 3 ? " (and \(problems.count - 3) more)" : ""
                report.refused.append(.init(file: file, reason: problems.prefix(3).joined(separator: "; ") + more))
            }
        }
        let written = try write { db in try accepted.map { try Self.store($0, db) } }
        for (pack, outcome) in zip(accepted, written) {
            switch outcome {
            case .added: report.added.append(pack.id)
            case .updated: report.updated.append(pack.id)
            case .alreadyCurrent: break
            }
        }
        return report
    }

    private enum StoreOutcome: Sendable { case added, updated, alreadyCurrent }

    /// Writes one pack. Re-checks the version inside the transaction so two processes starting
    /// at once never write a pack twice or downgrade it.
    private static func store(_ pack: Pack, _ db: Database) throws -> StoreOutcome {
        let existing = try PackRecord.fetchOne(db, key: pack.id)
        if let existing, existing.version >= pack.version { return .alreadyCurrent }
        try PackRecord(
            id: pack.id, version: pack.version, title: pack.title, description: pack.description,
            length: pack.length, rules: pack.rules, maxGuesses: pack.maxGuesses
        ).upsert(db)
        try PackWordRecord.filter(PackWordRecord.Columns.packId == pack.id).deleteAll(db)
        for (position, entry) in pack.words.enumerated() {
            try PackWordRecord(packId: pack.id, word: entry.word, fact: entry.fact, position: position).insert(db)
        }
        return existing == nil ? .added : .updated
    }
}
