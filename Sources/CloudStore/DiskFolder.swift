#if canImport(Glibc)
import Concurrency
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The store's folder on a real file system (local, NFS, SMB, sshfs, or a Syncthing/Dropbox
/// folder). Uses POSIX calls directly for what Foundation does not promise: no symlink is ever
/// followed below the root, files are fsynced before they are published, publishing a new file
/// never replaces one (link(2)), and directories are fsynced after a publish.
public final class DiskFolder: CloudFolder {
    public let root: URL
    private let rootPath: String
    private let counters = Locked(FolderStatistics())
    private let temporaryCounter = Locked(0)

    public init(root: URL) {
        self.root = root
        self.rootPath = root.path
    }

    public var statistics: FolderStatistics { counters.withLock { $0 } }

    private func count(_ update: (inout FolderStatistics) -> Void) { counters.withLock(update) }

    private func absolute(_ path: FolderPath) -> String {
        path.components.isEmpty ? rootPath : rootPath + "/" + path.components.joined(separator: "/")
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }

    private func unavailable(_ action: String, _ path: FolderPath) -> CloudStoreError {
        // Refused permission to change the folder: not offline, and waiting will not mend it.
        if ["create", "write", "publish", "lock", "flush"].contains(action), [EACCES, EPERM, EROFS].contains(errno) {
            return .notWritable(reason: "the cloud folder \(rootPath) is not writable by this user (cannot \(action) \(path.components.isEmpty ? rootPath : path.description): \(Self.errorText()))")
        }
        return .unavailable(reason: "cannot \(action) \(path.components.isEmpty ? rootPath : path.description): \(Self.errorText())")
    }

    private static func fileType(_ path: String) -> mode_t? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }

    private enum Parents { case directories, missing, notDirectories }

    /// Every directory between the root and `path` must be a real directory, not a symlink.
    private func parents(of path: FolderPath) -> Parents {
        var current = rootPath
        for component in path.components.dropLast() {
            current += "/" + component
            switch Self.fileType(current) {
            case S_IFDIR: continue
            case nil: return .missing
            default: return .notDirectories
            }
        }
        return .directories
    }

    /// A directory's entry names without `.` and `..`; nil (errno set) when it cannot be opened.
    private static func names(in path: String) -> [String]? {
        guard let handle = opendir(path) else { return nil }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    public func checkAvailable() throws(CloudStoreError) {
        var info = stat()
        // The root itself may be a symlink (a user's ~/Dropbox often is); what is below may not.
        guard stat(rootPath, &info) == 0 else {
            // The usual way a folder goes missing: a share that is not mounted, or a synced
            // folder not made yet. Said plainly, for the player.
            if errno == ENOENT { throw .unavailable(reason: "the cloud folder \(rootPath) is not there (is the share mounted?)") }
            throw unavailable("open", .root)
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .unavailable(reason: "\(rootPath) is not a directory") }
        guard access(rootPath, R_OK | X_OK) == 0 else { throw unavailable("read", .root) }
    }

    public func list(_ directory: FolderPath) throws(CloudStoreError) -> [FolderEntry] {
        count { $0.listings += 1 }
        guard parents(of: directory) == .directories else { return [] }
        let path = absolute(directory)
        if !directory.components.isEmpty, Self.fileType(path) != S_IFDIR { return [] }
        guard let names = Self.names(in: path) else {
            if errno == ENOENT || errno == ENOTDIR { return [] }
            throw unavailable("list", directory)
        }
        var entries: [FolderEntry] = []
        for name in names.prefix(CloudLimits.maxEntriesPerDirectory) {
            var info = stat()
            let known = lstat(path + "/" + name, &info) == 0
            let kind: FolderEntry.Kind
            switch known ? info.st_mode & S_IFMT : nil {
            case S_IFREG: kind = .file
            case S_IFDIR: kind = .directory
            case S_IFLNK: kind = .symlink
            default: kind = .other
            }
            entries.append(FolderEntry(name: name, kind: kind, size: kind == .file ? Int(info.st_size) : 0))
        }
        return entries
    }

    public func read(_ file: FolderPath, limit: Int) -> FileRead {
        count { $0.filesRead += 1 }
        switch parents(of: file) {
        case .directories: break
        case .missing: return .missing
        case .notDirectories: return .rejected(reason: "a directory on its path is not a real directory")
        }
        return readOpened(open(absolute(file), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK), limit: limit)
    }

    /// The files through one handle on their directory: the path to it is checked once, and
    /// each file opened from the handle (as `read`, never through a symlink), so reading a
    /// folder of many small files costs a few calls each, not a check of every folder above.
    public func read(_ names: [String], in directory: FolderPath, limit: Int) -> [FileRead] {
        count { $0.filesRead += names.count }
        let handle: Int32
        switch openDirectory(directory) {
        case .failure(let outcome): return names.map { _ in outcome.read }
        case .success(let opened): handle = opened
        }
        defer { close(handle) }
        return names.map { name in readOpened(openat(handle, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK), limit: limit) }
    }

    /// As `fileExists` for each name, through one handle on the folder (checked as `read` checks it).
    public func leadingFiles(_ names: [String], in directory: FolderPath) -> Int {
        guard !names.isEmpty, case .success(let handle) = openDirectory(directory) else { return 0 }
        defer { close(handle) }
        var found = 0
        for name in names {
            count { $0.existenceChecks += 1 }
            var info = stat()
            guard fstatat(handle, name, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFREG else { break }
            found += 1
        }
        return found
    }

    /// Why a directory could not be opened, as a read of a file in it would say.
    private struct DirectoryUnread: Error { let read: FileRead }

    /// A handle on `directory`, every folder on its way checked to be a real one and the
    /// directory itself opened without following a link; or what a read in it would get.
    private func openDirectory(_ directory: FolderPath) -> Result<Int32, DirectoryUnread> {
        let notReal = FileRead.rejected(reason: "a directory on its path is not a real directory")
        switch parents(of: directory.appending(".")) {
        case .directories: break
        case .missing: return .failure(DirectoryUnread(read: .missing))
        case .notDirectories: return .failure(DirectoryUnread(read: notReal))
        }
        let handle = open(absolute(directory), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard handle < 0 else { return .success(handle) }
        switch errno {
        case ENOENT: return .failure(DirectoryUnread(read: .missing))
        case ELOOP, ENOTDIR: return .failure(DirectoryUnread(read: notReal))
        default: return .failure(DirectoryUnread(read: .rejected(reason: Self.errorText())))
        }
    }

    /// A file just opened (a negative descriptor: `errno` says why not), read whole and closed.
    private func readOpened(_ descriptor: Int32, limit: Int) -> FileRead {
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT: return .missing
            case ELOOP: return .rejected(reason: "symbolic link")
            default: return .rejected(reason: Self.errorText())
            }
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            return .rejected(reason: "not a regular file")
        }
        guard info.st_size <= limit else { return .rejected(reason: "\(info.st_size) bytes is over the limit of \(limit)") }
        // Never trust st_size alone: read at most limit + 1 bytes whatever the file claims.
        var data = Data(count: Int(info.st_size) + 1)
        var total = 0
        while total < data.count {
            let got = data.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress! + total, buffer.count - total)
            }
            if got < 0, errno == EINTR { continue }
            if got < 0 { return .rejected(reason: Self.errorText()) }
            if got == 0 { break }
            total += got
            if total > limit { return .rejected(reason: "grew over the limit of \(limit) bytes") }
            if total == data.count { data.count += 64 << 10 }
        }
        data.count = total
        count { $0.bytesRead += total }
        return .data(data)
    }

    /// The inode, size, and change and modification times to the nanosecond: a file replaced
    /// through a new name (as this folder and replicators publish) has a new inode, one written
    /// in place new times, and a directory new times when an entry comes, goes or is renamed in.
    /// "absent" for nothing there.
    public func stamp(_ path: FolderPath) -> String? {
        count { $0.stamps += 1 }
        var info = stat()
        guard lstat(absolute(path), &info) == 0 else { return errno == ENOENT || errno == ENOTDIR ? "absent" : nil }
        return "\(info.st_ino).\(info.st_size).\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec).\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec)"
    }

    public func fileExists(_ file: FolderPath) -> Bool {
        count { $0.existenceChecks += 1 }
        return Self.fileType(absolute(file)) == S_IFREG
    }

    private func makeDirectories(_ directory: FolderPath) throws(CloudStoreError) {
        var current = rootPath
        for component in directory.components {
            current += "/" + component
            if mkdir(current, 0o755) != 0, errno != EEXIST { throw unavailable("create", directory) }
            guard Self.fileType(current) == S_IFDIR else {
                throw .unavailable(reason: "\(directory) is not a real directory")
            }
        }
    }

    private func fsyncDirectory(_ directory: FolderPath) {
        let descriptor = open(absolute(directory), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        // Some network file systems refuse fsync on directories; the rename is still atomic there.
        _ = fsync(descriptor)
        close(descriptor)
    }

    @discardableResult
    public func write(_ data: Data, to file: FolderPath, mode: WriteMode, step: WriteStepHook) throws(CloudStoreError) -> Bool {
        try checkAvailable()
        try makeDirectories(file.parent)
        let number = temporaryCounter.withLock { value -> Int in value += 1; return value }
        let temporary = file.parent.appending(".tmp-\(getpid())-\(number)-\(file.name)")
        let temporaryPath = absolute(temporary)
        let finalPath = absolute(file)

        try step(.writeTemporary, .before)
        let descriptor = open(temporaryPath, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw unavailable("write", temporary) }
        var written = 0
        let failed = data.withUnsafeBytes { buffer -> Bool in
            while written < buffer.count {
                let put = Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if put < 0, errno == EINTR { continue }
                if put <= 0 { return true }
                written += put
            }
            return false
        }
        if failed {
            let error = unavailable("write", temporary)
            close(descriptor)
            unlink(temporaryPath)
            throw error
        }
        try step(.writeTemporary, .after)
        try step(.flushTemporary, .before)
        let flushFailed = fsync(descriptor) != 0
        close(descriptor)
        if flushFailed {
            let error = unavailable("flush", temporary)
            unlink(temporaryPath)
            throw error
        }
        try step(.flushTemporary, .after)

        try step(.publish, .before)
        let published = try publish(temporaryPath, as: finalPath, mode: mode, file: file)
        try step(.publish, .after)
        try step(.flushDirectory, .before)
        fsyncDirectory(file.parent)
        try step(.flushDirectory, .after)
        count { $0.filesWritten += 1; $0.bytesWritten += data.count }
        return published
    }

    private func publish(_ temporaryPath: String, as finalPath: String, mode: WriteMode, file: FolderPath) throws(CloudStoreError) -> Bool {
        defer { unlink(temporaryPath) }
        switch mode {
        case .replace:
            guard rename(temporaryPath, finalPath) == 0 else { throw unavailable("publish", file) }
            return true
        case .createNew:
            // link(2) fails rather than replace, so a new file can never overwrite a published one.
            if link(temporaryPath, finalPath) == 0 { return true }
            if errno == EEXIST { return false }
            guard [EPERM, ENOTSUP, EOPNOTSUPP, ENOSYS, EXDEV, EMLINK].contains(errno) else { throw unavailable("publish", file) }
            // No hard links here (some FUSE mounts): callers hold the device lock, so check then rename.
            if Self.fileType(finalPath) != nil { return false }
            guard rename(temporaryPath, finalPath) == 0 else { throw unavailable("publish", file) }
            return true
        }
    }

    public func remove(_ path: FolderPath) {
        removeTree(absolute(path))
    }

    private func removeTree(_ path: String) {
        if Self.fileType(path) == S_IFDIR, let names = Self.names(in: path) {
            for name in names { removeTree(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    public func withExclusiveLock<T>(_ directory: FolderPath, _ body: () throws(CloudStoreError) -> T) throws(CloudStoreError) -> T {
        try checkAvailable()
        try makeDirectories(directory)
        let lockPath = absolute(directory.appending(".lock"))
        let descriptor = open(lockPath, O_CREAT | O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw unavailable("lock", directory) }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw unavailable("lock", directory) }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
