import Foundation
import Spawn

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
    /// Started through `Spawn`, not Foundation's `Process`, which can crash on this toolchain
    /// (the soak test, running several machines on threads at once, met it in CI).
    public static func run(_ executable: URL, _ arguments: [String], input: String = "", environment: [String: String],
                           directory: URL? = nil, timeout: TimeInterval? = nil) throws -> Result {
        let stdin = try Spawn.pipe(), stdout = try Spawn.pipe(), stderr = try Spawn.pipe()
        let pid: pid_t
        do {
            pid = try Spawn.start(executable.path, arguments, environment: environment, directory: directory?.path,
                                  descriptors: [(stdin.read, 0), (stdout.write, 1), (stderr.write, 2)])
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

    /// Waits for a child on a thread of its own: its exit code, or the signal that ended it
    /// (as `Process.terminationStatus` gives them).
    private final class Exit: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var code: Int32 = -1

        init(_ pid: pid_t) {
            Thread.detachNewThread { [self] in
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                code = Spawn.status(status)
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
