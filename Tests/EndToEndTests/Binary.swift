import Foundation

/// Runs the built `qiktionary` executable the way a player or a script would.
struct Binary {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }
        /// stdout as JSON Lines.
        var events: [[String: Any]] {
            lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
        var json: Any? { try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) }
    }

    static let url: URL = {
        if let override = ProcessInfo.processInfo.environment["QIKTIONARY_BIN"] { return URL(fileURLWithPath: override) }
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL,
            Bundle.main.bundleURL.deletingLastPathComponent(),
        ]
        for dir in candidates {
            let url = dir.appendingPathComponent("qiktionary")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        fatalError("qiktionary binary not found next to the tests; build it or set QIKTIONARY_BIN")
    }()

    /// The repository's top folder, for reading the shipped dictionary in tests.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let environment: [String: String] = {
        var env = ProcessInfo.processInfo.environment
        for key in ["QIKTIONARY_DATA_DIR", "QIKTIONARY_CLOUD_DIR", "XDG_DATA_HOME"] { env[key] = nil }
        env["HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("qk-home-\(UUID().uuidString)").path
        return env
    }()

    static func process(_ arguments: [String]) -> Process {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.environment = environment
        return process
    }

    @discardableResult
    static func run(_ arguments: [String], input: String = "", environment extra: [String: String] = [:], executable: URL? = nil) throws -> Result {
        let process = process(arguments)
        if let executable { process.executableURL = executable }
        process.environment = environment.merging(extra) { $1 }
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        // Read both pipes before waiting so a chatty process never blocks on a full pipe.
        let err = ReadAll(stderr.fileHandleForReading)
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self), stderr: err.text())
    }
}

/// Drains a pipe on a background thread.
final class ReadAll: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func text() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}

/// A fresh data dir per test.
struct Machine {
    let dataDir: URL

    init() {
        dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("qk-e2e-\(UUID().uuidString)")
    }

    var options: [String] { ["--data-dir", dataDir.path] }

    @discardableResult
    func run(_ arguments: [String], input: String = "") throws -> Binary.Result {
        try Binary.run(arguments + options, input: input)
    }

    /// Plays a plain-mode session with the given lines and returns its events.
    func play(_ extra: [String] = [], lines: [String]) throws -> [[String: Any]] {
        let result = try run(["play", "--plain", "--json"] + extra, input: lines.map { $0 + "\n" }.joined())
        precondition(result.status == 0, "play failed: \(result.stderr)")
        return result.events
    }

    func remove() { try? FileManager.default.removeItem(at: dataDir) }
}

/// Words of the shipped dictionary, for guesses that are valid but wrong.
enum Words {
    static let all: [String] = {
        let text = (try? String(contentsOf: Binary.repository.appendingPathComponent("Resources/dictionary/words.txt"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }()

    /// `count` dictionary words of `length` letters, none repeating a letter, none equal to `avoid`.
    static func distinct(_ count: Int, length: Int, avoiding avoid: String) -> [String] {
        Array(all.lazy.filter { $0.count == length && Set($0).count == length && $0 != avoid }.prefix(count))
    }
}
