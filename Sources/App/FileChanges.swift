import Foundation

/// Whether files changed since last asked: their sizes and modification times, read with one
/// `stat` each (cheap enough for every frame of the full-screen game, which follows another
/// process's writes to the same data dir through it).
public final class FileChanges {
    private let paths: [String]
    private var last: [String]

    public init(_ files: [URL]) {
        paths = files.map(\.path)
        last = Self.read(paths)
    }

    /// True when any file's size or modification time differs from the last call (or from
    /// `init` for the first), a file appearing or going included.
    public func changed() -> Bool {
        let now = Self.read(paths)
        defer { last = now }
        return now != last
    }

    private static func read(_ paths: [String]) -> [String] {
        paths.map { path in
            var info = stat()
            guard stat(path, &info) == 0 else { return "none" }
            return "\(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        }
    }
}
