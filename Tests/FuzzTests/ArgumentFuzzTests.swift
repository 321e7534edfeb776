import ArgumentParser
import Foundation
import TestSupport
@testable import qiktionary
import QiktionaryCore
import Testing

/// Command lines, fuzzed: known commands and options shuffled, truncated, duplicated, given
/// random values, unknown flags, hostile paths, huge numbers, empty strings and Unicode.
/// In process they must parse or fail as a usage error (64) or a clean exit (help, version)
/// with a message; the built binary must exit with a documented code and one clear line.
@Suite struct ArgumentFuzzTests {
    static let batches = 2
    static let casesPerBatch = Fuzz.count(300)

    @Test(arguments: 0..<batches)
    func generatedCommandLinesParseOrFailAsUsageErrors(batch: Int) {
        let seed = Fuzz.seed(kind: 2, batch: batch)
        let start = Date()
        defer { Fuzz.report("arguments", batch: batch, cases: Self.casesPerBatch, since: start) }
        var rng = SeededGenerator(seed: seed)
        for index in 0..<Self.casesPerBatch {
            let arguments = CommandLines.next(&rng, hostilePaths: true)
            var label: String { "\(Fuzz.label(seed, index)) \(arguments.debugDescription.prefix(400))" }
            Fuzz.bounded(label) { Self.expectParsesOrFailsCleanly(arguments, label, checkMessage: index % 8 == 0) }
        }
    }

    /// Rendering a message builds the help of the whole command tree, which costs more than the
    /// parse itself in a debug build: every eighth failure has its message checked.
    static func expectParsesOrFailsCleanly(_ arguments: [String], _ label: String, checkMessage: Bool = true) {
        do {
            if Reset.wanted(arguments) {
                _ = try Reset.parse(arguments)
            } else {
                _ = try Qiktionary.parseAsRoot(arguments)
            }
        } catch {
            let code = Qiktionary.exitCode(for: error)
            #expect(code == .success || code == .validationFailure, "\(label) exit code \(code.rawValue) for \(error)")
            if checkMessage {
                let message = Qiktionary.message(for: error)
                #expect(!message.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(label) no message for \(error)")
            }
        }
    }

    // MARK: The built binary

    static let binaryCases = Fuzz.count(120)
    static let binaryLanes = 3

    @Test func theBinaryExitsWithADocumentedCodeAndOneLineAndLeavesOtherDataAlone() throws {
        let binary = try #require(FuzzBinary.url, "qiktionary binary not found next to the tests; build it or set QIKTIONARY_BIN")
        let root = temporaryFolder("qk-fuzz-cli")
        defer { try? FileManager.default.removeItem(at: root) }
        // A data dir no case names: it must come out byte for byte the same.
        let unrelated = root.appendingPathComponent("unrelated")
        let prepared = try FuzzBinary.run(binary, ["play", "--plain", "--json", "--pack", "animals", "--data-dir", unrelated.path],
                                          input: "crane\nbookmark\ngive-up\nbookmark\n", home: root, cwd: root)
        #expect(prepared.status == 0, "preparing the unrelated data dir failed: \(prepared.stderr)")
        // A data dir with packs loaded, copied for each case so each starts from the same state.
        let template = root.appendingPathComponent("template")
        _ = try FuzzBinary.run(binary, ["play", "--plain", "--json", "--data-dir", template.path], input: "crane\n", home: root, cwd: root)
        let fingerprint = try FuzzBinary.fingerprint(unrelated)

        let seed = Fuzz.seed(kind: 3, batch: 0)
        let start = Date()
        defer { Fuzz.report("binary", batch: 0, cases: Self.binaryCases, since: start) }
        let failures = Shared<[String]>([])
        let cases = (0..<Self.binaryCases).map { index -> [String] in
            var rng = SeededGenerator(seed: seed &+ UInt64(index))
            return CommandLines.next(&rng, hostilePaths: false)
        }
        DispatchQueue.concurrentPerform(iterations: Self.binaryLanes) { lane in
            for index in stride(from: lane, to: cases.count, by: Self.binaryLanes) {
                let label = Fuzz.label(seed &+ UInt64(index), 0)
                do {
                    if let problem = try Self.runCase(binary, cases[index], index: index, root: root, template: template) {
                        failures.withLock { $0.append("\(label) \(cases[index].debugDescription.prefix(300)): \(problem)") }
                    }
                } catch {
                    failures.withLock { $0.append("\(label) could not run: \(error)") }
                }
            }
        }
        for failure in failures.withLock({ $0 }) { Issue.record(Comment(rawValue: failure)) }
        #expect(try FuzzBinary.fingerprint(unrelated) == fingerprint, "the unrelated data dir changed")
    }

    /// The process runs as whoever runs the tests (root, in CI): a path the generator made
    /// absolute by mutation is made relative, so every file a case creates stays in its folder.
    static func confined(_ arguments: [String]) -> [String] {
        arguments.map { argument in
            var argument = argument.replacingOccurrences(of: "=/", with: "=./")
            if argument.hasPrefix("/") { argument = "." + argument }
            return argument
        }
    }

    /// One binary run in its own folder (data dir, HOME and working directory); nil when it behaved.
    static func runCase(_ binary: URL, _ generated: [String], index: Int, root: URL, template: URL) throws -> String? {
        let folder = root.appendingPathComponent("case-\(index)")
        let cwd = folder.appendingPathComponent("a/b/c/d/e/f")
        try FileManager.default.createDirectory(at: cwd, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data")
        try FileManager.default.copyItem(at: template, to: data)
        // `--watch` runs until interrupted: that is its job, not a hang.
        var arguments = confined(generated.filter { $0 != "--watch" })
        if index % 3 != 0 { arguments += ["--data-dir", data.path] }
        let result = try FuzzBinary.run(binary, arguments, input: "crane\nhelp\nnope\n", home: folder, cwd: cwd)
        if result.timedOut { return "still running after \(FuzzBinary.timeout) s" }
        if ![0, 64, 65, 69, 75].contains(result.status) {
            return "exit \(result.status); stderr: \(result.stderr.prefix(500))"
        }
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
        if result.status != 0 {
            let errors = lines.filter { !$0.hasPrefix("qiktionary: warning: ") }
            if errors.count != 1 || !errors[0].hasPrefix("qiktionary: ") {
                return "exit \(result.status) without exactly one 'qiktionary: ' line on stderr: \(result.stderr.prefix(500))"
            }
        }
        for marker in ["Fatal error", "Stack dump", "backtrace", "Crash", "SIGSEGV", "#0 "] where result.stderr.contains(marker) {
            return "a crash report on stderr: \(result.stderr.prefix(500))"
        }
        return nil
    }
}

/// Command lines built from the parts the real ones are made of.
enum CommandLines {
    static let commands: [[String]] = [
        [], ["play"], ["sync"], ["games"], ["history"], ["history", "delete"], ["history", "list"], ["reading-list"],
        ["reading-list", "add"], ["reading-list", "remove"], ["reading-list", "list"], ["packs"], ["stats"], ["status"],
        ["help"], ["help", "play"], ["history", "delete", "00000000-0000-0000-0000-000000000000"], ["reading-list", "add", "tiger"],
    ]
    static let flags = ["--no-sync", "--plain", "--json", "--watch", "--yes", "--reset-local", "--reset-sync", "--reset-cloud",
                        "--help", "-h", "--version", "--", "-", "--frobnicate", "-x", "-pj", "--json=1", "--no-sync=false"]
    static let options = ["--data-dir", "--cloud-dir", "--player", "--device", "--pack", "--word", "--rules", "--seed", "--adopt-reset"]

    static func value(for option: String, _ rng: inout SeededGenerator, hostilePaths: Bool) -> String {
        if rng.chance(0.3) { return rng.pick(["", " ", "-", "--", "--json", "\u{0}", "é", rng.unicodeString(rng.int(1...10)), rng.hostileName()]) }
        switch option {
        case "--data-dir", "--cloud-dir":
            if hostilePaths {
                return rng.pick(["/", "/etc", "/dev/null", "/proc/self", "..", "../..", "~", "/nonexistent/\(rng.int(0...999))",
                                 String(repeating: "a/", count: rng.int(1...600)), "dir\u{0}x", "sub dir/é"])
            }
            // Paths the binary may really create: relative to its own working directory, inside the case folder.
            return rng.pick(["..", "../..", "here", "sub dir/é", "./x/../y", "cloud", "a:b", "\(rng.int(0...9))",
                             String(repeating: "a/", count: rng.int(1...60)), "../c", "-dir", String(repeating: "n", count: 300)])
        case "--player", "--device":
            return rng.pick(["player", "bob", "A", "a-b_c", String(repeating: "p", count: rng.int(30...100)), "../x", "x/y", ".hidden",
                             "名前", "bad\u{1}name", "tab\there"])
        case "--pack": return rng.pick(["animals", "space", "nope", "../x", "ANIMALS", "animals.json", String(repeating: "a", count: 500)])
        case "--word": return rng.pick(["tiger", "TIGER", "crane", "xqzt", "zzzzz", "a", "café", "ti ger", String(repeating: "a", count: 200), "eerie"])
        case "--rules": return rng.pick(["classic", "mastermind", "CLASSIC", "chess", "", "classic,mastermind"])
        case "--seed":
            return rng.pick(["0", "1", "-1", "18446744073709551615", "18446744073709551616", "99999999999999999999999999",
                             "0x10", "1e9", "NaN", " 7", "7 ", "+7", String(rng.next()), String(repeating: "9", count: 400)])
        default: return rng.pick(["upload", "erase", "UPLOAD", "both", ""])
        }
    }

    static func next(_ rng: inout SeededGenerator, hostilePaths: Bool) -> [String] {
        var arguments = rng.pick(commands)
        for _ in 0..<rng.int(0...6) {
            let part: [String]
            switch rng.int(0...9) {
            case 0...3:
                let option = rng.pick(options)
                let value = value(for: option, &rng, hostilePaths: hostilePaths)
                part = rng.chance(0.15) ? ["\(option)=\(value)"] : rng.chance(0.1) ? [option] : [option, value]
            case 4...6: part = [rng.pick(flags)]
            case 7: part = [rng.pick(commands.flatMap { $0 })]
            case 8: part = [rng.chance(0.5) ? rng.hostileName() : rng.unicodeString(rng.int(0...12))]
            default: part = arguments.isEmpty ? [] : [rng.pick(arguments)]
            }
            arguments.insert(contentsOf: part, at: rng.int(0...arguments.count))
        }
        if rng.chance(0.1) { arguments.shuffle(using: &rng) }
        if rng.chance(0.1), !arguments.isEmpty { arguments.removeLast(rng.int(1...arguments.count)) }
        if rng.chance(0.05) { arguments = arguments.map { rng.chance(0.3) ? rng.mutate($0) : $0 } }
        return arguments
    }
}

/// Runs the built executable with a time limit.
enum FuzzBinary {
    static let timeout: TimeInterval = 30

    static let url: URL? = ProcessRunner.builtProduct("qiktionary")

    typealias Result = ProcessRunner.Result

    static func run(_ binary: URL, _ arguments: [String], input: String, home: URL, cwd: URL) throws -> Result {
        var environment = Fuzz.environment
        for key in ["QIKTIONARY_DATA_DIR", "QIKTIONARY_CLOUD_DIR", "XDG_DATA_HOME", "QIKTIONARY_CLOCK_OFFSET", "TERM"] {
            environment[key] = nil
        }
        environment["HOME"] = home.path
        return try ProcessRunner.run(binary, arguments, input: input, environment: environment, directory: cwd, timeout: timeout)
    }

    /// Every file below a folder, by path (directories as empty data).
    static func fingerprint(_ folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted() {
            let url = folder.appendingPathComponent(path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                result[path] = Data()
                continue
            }
            result[path] = try Data(contentsOf: url)
        }
        return result
    }
}

/// Reads a pipe to its end on a thread of its own, so a chatty child never blocks.
/// A value shared between threads behind a lock.
final class Shared<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
