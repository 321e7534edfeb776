#if os(Linux)
import Concurrency
import Glibc
import Foundation

/// Watches the whole cloud folder tree with inotify, adding new directories as they appear.
/// Only events of this machine's kernel arrive (local writes, Syncthing/Dropbox clients);
/// `CombinedChangeWatcher` pairs it with polling for NFS and other network file systems.
public final class InotifyChangeWatcher: CloudChangeWatcher {
    private struct State {
        var descriptor: Int32 = -1
        var running = false
        var paths: [Int32: String] = [:]
    }

    private static let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE | IN_MOVED_FROM | IN_ONLYDIR | IN_DONT_FOLLOW)
    private static let maxWatches = 10_000
    private let root: URL
    private let state = Locked(State())

    public init(root: URL) { self.root = root }

    public func start(onChange: @escaping @Sendable () -> Void) throws(CloudStoreError) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw .unavailable(reason: "inotify: \(String(cString: strerror(errno)))") }
        state.withLock { $0.descriptor = descriptor; $0.running = true; $0.paths = [:] }
        // A folder that cannot be watched (not there yet, no watches left) is a failure to
        // start, so the caller knows inotify sees nothing and polling alone must do.
        if let failure = addTree(root.path) {
            state.withLock { $0.running = false; $0.descriptor = -1 }
            close(descriptor)
            throw .unavailable(reason: "inotify cannot watch \(root.path): \(failure)")
        }
        let thread = Thread { [self] in
            run(descriptor, onChange: onChange)
            close(descriptor)
        }
        thread.name = "cloud-inotify"
        thread.start()
    }

    public func stop() { state.withLock { $0.running = false } }

    /// Watches `path` and the folders under it; why `path` itself could not be watched, if not.
    @discardableResult
    private func addTree(_ path: String, depth: Int = 0) -> String? {
        guard depth < 12 else { return "too deep" }
        let failure = state.withLock { state -> String? in
            guard state.paths.count < Self.maxWatches else { return "more than \(Self.maxWatches) folders" }
            let watch = inotify_add_watch(state.descriptor, path, Self.mask)
            guard watch >= 0 else { return String(cString: strerror(errno)) }
            state.paths[watch] = path
            return nil
        }
        guard failure == nil, let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return failure }
        for name in names {
            var info = stat()
            let child = path + "/" + name
            // lstat: a symlinked directory is never entered.
            if lstat(child, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { addTree(child, depth: depth + 1) }
        }
        return nil
    }

    private func run(_ descriptor: Int32, onChange: @Sendable () -> Void) {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while state.withLock({ $0.running }) {
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&request, 1, 200) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { continue }
            var offset = 0
            // struct inotify_event: wd, mask, cookie, len (4 bytes each), then len bytes of name.
            while offset + 16 <= count {
                let (watch, mask, length) = buffer.withUnsafeBytes { bytes in
                    (bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                     bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                     Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
                }
                let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                if mask & UInt32(IN_ISDIR) != 0, mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0,
                   let parent = state.withLock({ $0.paths[watch] }), let name = String(bytes: nameBytes, encoding: .utf8) {
                    addTree(parent + "/" + name)
                }
                offset += 16 + length
            }
            onChange()
        }
    }
}
#endif
