import Foundation

/// Where the store keeps its files: a disk folder (shared or replicated) or memory.
/// Paths are lists of allow-listed names, so nothing can address a file outside the root.
public protocol CloudFolder: Sendable {
    /// Throws `unavailable` when the root is missing, not a directory, or unreadable.
    func checkAvailable() throws(CloudStoreError)
    /// The entries of a directory (empty when it does not exist), never following symlinks.
    func list(_ directory: FolderPath) throws(CloudStoreError) -> [FolderEntry]
    /// A regular file's bytes; `.rejected` for symlinks, non-files and files over `limit`.
    func read(_ file: FolderPath, limit: Int) -> FileRead
    /// Files of one directory, each as `read` reads it, in order.
    func read(_ names: [String], in directory: FolderPath, limit: Int) -> [FileRead]
    func fileExists(_ file: FolderPath) -> Bool
    /// How many of `names`, in order, are regular files of `directory` before the first that is not.
    func leadingFiles(_ names: [String], in directory: FolderPath) -> Int
    /// Write through a temporary name, flush, then publish: `.createNew` never replaces an
    /// existing file (returns false instead), `.replace` swaps atomically.
    @discardableResult
    func write(_ data: Data, to file: FolderPath, mode: WriteMode, step: WriteStepHook) throws(CloudStoreError) -> Bool
    /// Removes a file or a whole tree, never following symlinks.
    func remove(_ path: FolderPath)
    /// Runs `body` holding an exclusive lock on `directory` (shared by threads and processes).
    func withExclusiveLock<T>(_ directory: FolderPath, _ body: () throws(CloudStoreError) -> T) throws(CloudStoreError) -> T
    var statistics: FolderStatistics { get }
    /// A short text that changes whenever the file or directory at `path` is written, replaced,
    /// created or removed (a directory's changes when an entry is added, renamed in or removed),
    /// from its metadata alone; nil when this folder cannot tell, and then the caller reads.
    func stamp(_ path: FolderPath) -> String?
}

extension CloudFolder {
    /// Folders with no cheaper way read each file on its own.
    public func read(_ names: [String], in directory: FolderPath, limit: Int) -> [FileRead] {
        names.map { read(directory.appending($0), limit: limit) }
    }

    public func leadingFiles(_ names: [String], in directory: FolderPath) -> Int {
        names.prefix { fileExists(directory.appending($0)) }.count
    }

    /// Folders that cannot tell a change from metadata say so: their callers always read.
    public func stamp(_ path: FolderPath) -> String? { nil }
}

public typealias WriteStepHook = (WriteStep, StepTiming) throws(CloudStoreError) -> Void

/// The steps of publishing one file; fault injection can stop a writer before or after each.
public enum WriteStep: String, Sendable, CaseIterable, Codable {
    case writeTemporary, flushTemporary, publish, flushDirectory
}

public enum StepTiming: String, Sendable, CaseIterable, Codable {
    case before, after
}

public enum WriteMode: Sendable {
    case createNew, replace
}

public enum FileRead: Sendable, Equatable {
    case missing
    case data(Data)
    case rejected(reason: String)
}

public struct FolderEntry: Sendable, Equatable {
    public enum Kind: Sendable { case file, directory, symlink, other }
    public var name: String
    public var kind: Kind
    /// Bytes, for a regular file (0 otherwise): lets compaction weigh a log without reading it.
    public var size: Int

    public init(name: String, kind: Kind, size: Int = 0) {
        self.name = name
        self.kind = kind
        self.size = size
    }
}

/// Counts of folder operations, so tests and the benchmark can see what a fetch costs.
public struct FolderStatistics: Sendable, Equatable {
    public var filesRead = 0
    public var bytesRead = 0
    public var existenceChecks = 0
    public var listings = 0
    public var filesWritten = 0
    public var bytesWritten = 0
    /// Metadata looks (`stamp`): no file opened.
    public var stamps = 0

    public init() {}
}

/// A path below the folder's root. Each component passed the allow-list when it was built.
public struct FolderPath: Hashable, Sendable, CustomStringConvertible {
    public let components: [String]

    init(_ components: [String]) { self.components = components }

    static let root = FolderPath([])

    func appending(_ component: String) -> FolderPath { FolderPath(components + [component]) }

    var parent: FolderPath { FolderPath(Array(components.dropLast())) }
    var name: String { components.last ?? "" }

    public var description: String { components.joined(separator: "/") }
}
