import Foundation
import TestSupport

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
        guard let url = ProcessRunner.builtProduct("qiktionary") else {
            fatalError("qiktionary binary not found next to the tests; build it or set QIKTIONARY_BIN")
        }
        return url
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
        let ran = try ProcessRunner.run(executable ?? url, arguments, input: input, environment: environment.merging(extra) { $1 })
        return Result(status: ran.status, stdout: ran.stdout, stderr: ran.stderr)
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
        guard result.status == 0 else { throw PlayFailed(device: nil, status: result.status, stderr: result.stderr) }
        return result.events
    }

    func remove() { try? FileManager.default.removeItem(at: dataDir) }
}

/// A plain game that exited with an error: thrown, so one failing game fails its test with the
/// program's own words instead of stopping every test in the process.
struct PlayFailed: Error, CustomStringConvertible {
    var device: String?
    var status: Int32
    var stderr: String
    var description: String { "play failed\(device.map { " on \($0)" } ?? "") (exit \(status)): \(stderr)" }
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
