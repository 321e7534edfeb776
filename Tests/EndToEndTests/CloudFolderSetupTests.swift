import Foundation
import Testing

/// `--cloud-dir` as a person first gives it: a folder not made yet, or a share not mounted.
@Suite struct CloudFolderSetupTests {
    @Test func aFolderWhoseParentExistsIsMadeAndThePlayerToldOnce() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("qk-cloudsetup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let cloud = root.appendingPathComponent("Sync-qiktionary"), data = root.appendingPathComponent("data")
        let first = try Binary.run(["sync", "--json", "--data-dir", data.path, "--cloud-dir", cloud.path])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr == "qiktionary: made the cloud folder \(cloud.path); share it with your other machine\n")
        #expect(first.json is [String: Any], "stdout stays pure JSON")
        let again = try Binary.run(["sync", "--json", "--data-dir", data.path])
        #expect(again.status == 0 && again.stderr.isEmpty, "told once: \(again.stderr)")
        #expect(!again.stdout.contains("importing"), "no progress line in JSON or into a pipe")
    }

    @Test func aShareThatIsNotMountedStaysOfflineInOneClearSentence() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("qk-cloudsetup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let cloud = root.appendingPathComponent("mnt/share/qiktionary"), data = root.appendingPathComponent("data")
        let sync = try Binary.run(["sync", "--data-dir", data.path, "--cloud-dir", cloud.path])
        #expect(sync.status == 69)
        #expect(sync.stderr == "qiktionary: offline: the cloud folder \(cloud.path) is not there (is the share mounted?); your changes stay queued and sync when the folder is back\n")
        #expect(!FileManager.default.fileExists(atPath: cloud.path), "nothing made where the parent is missing")
        let status = try Binary.run(["status", "--data-dir", data.path])
        let line = status.stdout.split(separator: "\n").first { $0.hasPrefix("Sync") } ?? ""
        #expect(line.contains("offline: the cloud folder") && !line.contains("offline: offline"), "\(line)")
    }
}

extension CloudFolderSetupTests {
    static let scriptTool: String? = ["/usr/bin/script", "/bin/script"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// A long first sync on a terminal shows "importing n of m records" on stderr, and a long
    /// first upload "sending n of m records", and wipes it before the summary; `script` gives
    /// the command a terminal.
    @Test(.enabled(if: scriptTool != nil, "util-linux's script is not installed; it gives the sync a terminal"))
    func aLongSyncOnATerminalShowsItsProgress() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("qk-progress-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let seeded = root.appendingPathComponent("seeded"), fresh = root.appendingPathComponent("fresh")
        let cloud = root.appendingPathComponent("cloud")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let bench = Binary.url.deletingLastPathComponent().appendingPathComponent("qiktionary-bench")
        #expect(try Binary.run(["--seed", "300", seeded.path], executable: bench).status == 0)
        let sending = root.appendingPathComponent("sending")
        let upload = [Binary.url.path, "sync", "--data-dir", seeded.path, "--cloud-dir", cloud.path, "--player", "bench"]
            .map { "'\($0)'" }.joined(separator: " ")
        let up = try Binary.run(["-qec", upload, sending.path], executable: URL(fileURLWithPath: Self.scriptTool!))
        #expect(up.status == 0, "\(up.stderr)")
        let sent = try String(contentsOf: sending, encoding: .utf8)
        #expect(sent.range(of: #"sending [0-9]+ of [0-9]+ records"#, options: .regularExpression) != nil, "\(sent)")
        #expect(sent.contains("\u{1B}[KSynced: "), "the line is wiped before the summary")
        let added = try Binary.run(["devices", "add", "--json", "--data-dir", seeded.path, "--cloud-dir", cloud.path, "--player", "bench"])
        let code = try #require((added.json as? [String: Any])?["code"] as? String, "devices add: \(added.stderr)")
        let joined = try Binary.run(["devices", "join", code, "--data-dir", fresh.path, "--cloud-dir", cloud.path, "--player", "bench"])
        #expect(joined.status == 0, "devices join: \(joined.stderr)")
        let typescript = root.appendingPathComponent("typescript")
        let command = [Binary.url.path, "sync", "--data-dir", fresh.path, "--cloud-dir", cloud.path, "--player", "bench"]
            .map { "'\($0)'" }.joined(separator: " ")
        let run = try Binary.run(["-qec", command, typescript.path], executable: URL(fileURLWithPath: Self.scriptTool!))
        #expect(run.status == 0, "\(run.stderr)")
        let shown = try String(contentsOf: typescript, encoding: .utf8)
        #expect(shown.contains("importing 2000 of "), "\(shown)")
        #expect(shown.contains("\u{1B}[KSynced: 0 sent, "), "the line is wiped before the summary")
    }
}
