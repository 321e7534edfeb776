#if canImport(Glibc)
import Glibc
#endif

/// Starts a program with `posix_spawn`: for the benchmark, which times the real program, and for
/// the tests that drive it. Not Foundation's `Process`: on Swift 6.3.1 its `run()` now and then
/// crashes copying past the end of a directory entry while it lists /proc/self/fd (fixed in
/// swift-corelibs-foundation after this toolchain).
public enum Spawn {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// Starts `path` with `arguments` and exactly `environment`, in `directory` if given. Each
    /// `(from, to)` of `descriptors` becomes the child's descriptor `to`; `closing` are closed
    /// in the child. Returns the child's pid.
    public static func start(_ path: String, _ arguments: [String], environment: [String: String], directory: String? = nil,
                             descriptors: [(from: Int32, to: Int32)], closing: [Int32] = []) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (from, to) in descriptors { posix_spawn_file_actions_adddup2(&actions, from, to) }
        for fd in closing { posix_spawn_file_actions_addclose(&actions, fd) }
        if let directory {
            guard let chdir = addChdir else { throw Failure("this C library cannot start a program in another directory") }
            _ = directory.withCString { chdir(&actions, $0) }
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard spawned == 0 else { throw Failure("could not start \(path): \(String(cString: strerror(spawned)))") }
        return pid
    }

    /// A pipe whose ends are closed in every started program but the one they are handed to
    /// (dup2 clears the flag on the copy), so a program started at the same moment on another
    /// thread never holds it open.
    public static func pipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard let pipe2, pipe2(&ends, O_CLOEXEC) == 0 else { throw Failure("pipe: \(String(cString: strerror(errno)))") }
        return (ends[0], ends[1])
    }

    /// How a waited-for child ended, as `Process.terminationStatus` gives it: its exit code, or
    /// the signal that ended it.
    public static func status(_ waited: Int32) -> Int32 {
        waited & 0x7f == 0 ? (waited >> 8) & 0xff : waited & 0x7f
    }

    // `pipe2` and `posix_spawn_file_actions_addchdir_np` (glibc 2.29) are left out of Swift's
    // Glibc module: found by name.
    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private static let pipe2: Pipe2? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pipe2").map { unsafeBitCast($0, to: Pipe2.self) }
    private static let addChdir: AddChdir? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np")
        .map { unsafeBitCast($0, to: AddChdir.self) }
}
