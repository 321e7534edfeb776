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
    public static func run(_ executable: URL, _ arguments: [String], input: String = "", environment: [String: String],
                           directory: URL? = nil, timeout: TimeInterval? = nil) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        if let directory { process.currentDirectoryURL = directory }
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        // Both pipes are drained as the program writes, so a chatty one never blocks on a full pipe.
        let out = Drain(stdout.fileHandleForReading), err = Drain(stderr.fileHandleForReading)
        try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
        try? stdin.fileHandleForWriting.close()
        var timedOut = false
        if let timeout, finished.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            kill(process.processIdentifier, SIGKILL)
            finished.wait()
        } else if timeout == nil {
            finished.wait()
        }
        return Result(status: process.terminationStatus, stdout: out.text(), stderr: err.text(), timedOut: timedOut)
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
