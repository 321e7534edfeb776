import Foundation

/// Runs a built program of this package the way a player or a script would, for the test
/// targets that drive the real binaries (end-to-end and fuzz): one copy of how to find them, feed
/// them, read both pipes without blocking and give up on one that hangs.
public enum ProcessRunner {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        public var timedOut: Bool
    }

    /// A product built beside the test bundle (`qiktionary`, `qiktionary-bench`…), or the
    /// `QIKTIONARY_BIN` override for `qiktionary`; nil when it is not there.
    public static func builtProduct(_ name: String) -> URL? {
        if name == "qiktionary", let override = ProcessInfo.processInfo.environment["QIKTIONARY_BIN"] {
            return URL(fileURLWithPath: override)
        }
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL,
            Bundle.main.bundleURL.deletingLastPathComponent(),
        ]
        return candidates.map { $0.appendingPathComponent(name) }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs `executable` to the end (killed after `timeout` seconds), with `input` on stdin.
    ///
    /// Started with `posix_spawn`, not Foundation's `Process`: on this toolchain (Swift 6.3.1)
    /// `Process.run()` now and then crashes in a copy past the end of a directory entry while it
    /// lists /proc/self/fd, the more often the more descriptors are open. The soak test, which
    /// runs several machines on threads at once, met it in CI (fixed upstream in
    /// swift-corelibs-foundation, not yet in this toolchain).
    public static func run(_ executable: URL, _ arguments: [String], input: String = "", environment: [String: String],
                           directory: URL? = nil, timeout: TimeInterval? = nil) throws -> Result {
        let stdin = try pipe(), stdout = try pipe(), stderr = try pipe()
        let pid: pid_t
        do {
            pid = try spawn(executable.path, arguments, environment: environment, directory: directory?.path,
                            stdin: stdin.read, stdout: stdout.write, stderr: stderr.write)
        } catch {
            [stdin.read, stdin.write, stdout.read, stdout.write, stderr.read, stderr.write].forEach { _ = close($0) }
            throw error
        }
        // The child has its own copies: this side keeps only its ends.
        [stdin.read, stdout.write, stderr.write].forEach { _ = close($0) }
        // Both pipes are drained as the program writes, so a chatty one never blocks on a full pipe.
        let out = Drain(FileHandle(fileDescriptor: stdout.read, closeOnDealloc: true))
        let err = Drain(FileHandle(fileDescriptor: stderr.read, closeOnDealloc: true))
        let exit = Exit(pid)
        let input = Array(input.utf8)
        input.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let wrote = write(stdin.write, bytes.baseAddress! + offset, bytes.count - offset)
                if wrote < 0 && errno == EINTR { continue }
                if wrote <= 0 { break }
                offset += wrote
            }
        }
        _ = close(stdin.write)
        var timedOut = false
        if let timeout, !exit.wait(timeout: timeout) {
            timedOut = true
            kill(pid, SIGKILL)
        }
        return Result(status: exit.status(), stdout: out.text(), stderr: err.text(), timedOut: timedOut)
    }

    /// A pipe whose ends are closed in every child but the one they are handed to (dup2 clears
    /// the flag on the copy), so a program started at the same moment on another thread never
    /// holds this one's pipe open.
    private static func pipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard let pipe2, pipe2(&ends, O_CLOEXEC) == 0 else { throw SpawnError("pipe: \(String(cString: strerror(errno)))") }
        return (ends[0], ends[1])
    }

    private static func spawn(_ path: String, _ arguments: [String], environment: [String: String], directory: String?,
                              stdin: Int32, stdout: Int32, stderr: Int32) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        if let directory {
            guard let chdir = addChdir else { throw SpawnError("this C library cannot start a program in another directory") }
            _ = directory.withCString { chdir(&actions, $0) }
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard spawned == 0 else { throw SpawnError("could not start \(path): \(String(cString: strerror(spawned)))") }
        return pid
    }

    // `pipe2` and `posix_spawn_file_actions_addchdir_np` (glibc 2.29) are left out of Swift's
    // Glibc module: found by name.
    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private static let pipe2: Pipe2? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pipe2").map { unsafeBitCast($0, to: Pipe2.self) }
    private static let addChdir: AddChdir? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np")
        .map { unsafeBitCast($0, to: AddChdir.self) }

    public struct SpawnError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// Waits for a child on a thread of its own: its exit code, or the signal that ended it
    /// (as `Process.terminationStatus` gives them).
    private final class Exit: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var code: Int32 = -1

        init(_ pid: pid_t) {
            Thread.detachNewThread { [self] in
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                code = status & 0x7f == 0 ? (status >> 8) & 0xff : status & 0x7f
                done.signal()
            }
        }

        /// False when the child is still running after `timeout` seconds.
        func wait(timeout: TimeInterval) -> Bool {
            guard done.wait(timeout: .now() + timeout) == .success else { return false }
            done.signal()
            return true
        }

        func status() -> Int32 {
            done.wait()
            done.signal()
            return code
        }
    }
}

/// Reads a pipe to its end on a thread of its own.
public final class Drain: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    public init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    public func text() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}
