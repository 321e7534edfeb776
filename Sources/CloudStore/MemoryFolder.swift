import Concurrency
import Foundation

/// The store's folder kept in memory: the in-memory cloud for tests and previews. It runs the
/// same engine as the disk folder, so the contract tests prove one set of rules; writes still
/// go through a temporary name, so crash points leave the same debris as on disk.
public final class MemoryFolder: CloudFolder {
    private struct State {
        var files: [FolderPath: Data] = [:]
        var directories: Set<FolderPath> = [.root]
        var locks: [FolderPath: NSLock] = [:]
        var statistics = FolderStatistics()
        var temporaryCounter = 0
        /// Bumped by every change anywhere: each path's stamp, so any change reads again.
        var changes = 0
    }

    private let state = Locked(State())

    public init() {}

    public var statistics: FolderStatistics { state.withLock { $0.statistics } }

    public func checkAvailable() throws(CloudStoreError) {}

    public func list(_ directory: FolderPath) throws(CloudStoreError) -> [FolderEntry] {
        state.withLock { state in
            state.statistics.listings += 1
            let depth = directory.components.count + 1
            let files = state.files.filter { $0.key.components.count == depth && $0.key.parent == directory }
                .map { FolderEntry(name: $0.key.name, kind: .file, size: $0.value.count) }
            let directories = state.directories.filter { $0.components.count == depth && $0.parent == directory }
                .map { FolderEntry(name: $0.name, kind: .directory) }
            return files + directories
        }
    }

    public func read(_ file: FolderPath, limit: Int) -> FileRead {
        state.withLock { state in
            state.statistics.filesRead += 1
            guard let data = state.files[file] else { return .missing }
            guard data.count <= limit else { return .rejected(reason: "\(data.count) bytes is over the limit of \(limit)") }
            state.statistics.bytesRead += data.count
            return .data(data)
        }
    }

    /// Memory keeps no metadata per path: a stamp changes with any change in the folder,
    /// which never hides one.
    public func stamp(_ path: FolderPath) -> String? {
        state.withLock { state in
            state.statistics.stamps += 1
            return "\(state.changes)"
        }
    }

    public func fileExists(_ file: FolderPath) -> Bool {
        state.withLock { state in
            state.statistics.existenceChecks += 1
            return state.files[file] != nil
        }
    }

    /// Puts raw bytes at a path, as another machine or a hostile copier would.
    public func place(_ data: Data, at path: [String]) {
        state.withLock { state in
            let file = FolderPath(path)
            state.files[file] = data
            state.changes += 1
            var directory = file.parent
            while !directory.components.isEmpty {
                state.directories.insert(directory)
                directory = directory.parent
            }
        }
    }

    /// The paths of every file, for tests that inspect or damage what was written.
    public var allFiles: [String] { state.withLock { $0.files.keys.map(\.description).sorted() } }

    public func contents(of path: String) -> Data? {
        state.withLock { $0.files[FolderPath(path.split(separator: "/").map(String.init))] }
    }

    @discardableResult
    public func write(_ data: Data, to file: FolderPath, mode: WriteMode, step: WriteStepHook) throws(CloudStoreError) -> Bool {
        let temporary = state.withLock { state -> FolderPath in
            state.temporaryCounter += 1
            return file.parent.appending(".tmp-\(state.temporaryCounter)-\(file.name)")
        }
        try step(.writeTemporary, .before)
        place(data, at: temporary.components)
        try step(.writeTemporary, .after)
        try step(.flushTemporary, .before)
        try step(.flushTemporary, .after)
        try step(.publish, .before)
        let published = state.withLock { state -> Bool in
            state.files[temporary] = nil
            state.changes += 1
            if mode == .createNew, state.files[file] != nil { return false }
            state.files[file] = data
            state.statistics.filesWritten += 1
            state.statistics.bytesWritten += data.count
            return true
        }
        try step(.publish, .after)
        try step(.flushDirectory, .before)
        try step(.flushDirectory, .after)
        return published
    }

    public func remove(_ path: FolderPath) {
        state.withLock { state in
            let prefix = path.components
            state.changes += 1
            state.files = state.files.filter { !$0.key.components.starts(with: prefix) }
            state.directories = state.directories.filter { !$0.components.starts(with: prefix) || $0 == .root }
        }
    }

    public func withExclusiveLock<T>(_ directory: FolderPath, _ body: () throws(CloudStoreError) -> T) throws(CloudStoreError) -> T {
        let lock = state.withLock { state -> NSLock in
            state.directories.insert(directory)
            if let lock = state.locks[directory] { return lock }
            let lock = NSLock()
            state.locks[directory] = lock
            return lock
        }
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
