import Foundation

/// A small disk of a test's own, for a real full disk: a tmpfs mounted on a folder (needs root
/// and permission to mount; `mount` answers false where this machine does not allow it).
public enum SmallDisk {
    public static func mount(at folder: URL, size: String) -> Bool {
        guard getuid() == 0 else { return false }
        return run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", folder.path])
    }

    public static func unmount(_ folder: URL) { _ = run("/bin/umount", [folder.path]) }

    /// Runs `body` with a tmpfs of `size` mounted on `folder` (made if missing), unmounted after;
    /// where mounting is not allowed, `body` does not run and the test says it skipped `what`.
    public static func mounted(at folder: URL, size: String, for what: String, _ body: () throws -> Void) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        guard mount(at: folder, size: size) else {
            return print("SKIPPED: \(what): cannot mount a tmpfs here (needs root and permission to mount)")
        }
        defer { unmount(folder) }
        try body()
    }

    private static func run(_ tool: String, _ arguments: [String]) -> Bool {
        let ran = try? ProcessRunner.run(URL(fileURLWithPath: tool), arguments, environment: ProcessInfo.processInfo.environment, timeout: 30)
        return ran?.status == 0
    }

    /// Bytes free on the disk holding `folder`.
    public static func room(_ folder: URL) -> Int {
        var info = statvfs()
        guard statvfs(folder.path, &info) == 0 else { return 0 }
        return Int(info.f_bavail) * Int(info.f_frsize)
    }

    /// A file's size, 0 when it is not there.
    public static func size(_ file: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: file.path)[.size]) as? NSNumber)?.intValue ?? 0
    }
}

/// A file that takes the room of a small disk: all of it, or all but `leaving` bytes.
public struct Filler {
    public let file: URL

    public init(_ disk: URL, leaving: Int = 0) throws {
        file = disk.appendingPathComponent("filler-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        let page = Data(count: 4096)
        while SmallDisk.room(disk) > leaving, (try? handle.write(contentsOf: page)) != nil {}
    }

    /// Frees the room it took.
    public func remove() throws { try FileManager.default.removeItem(at: file) }
}
