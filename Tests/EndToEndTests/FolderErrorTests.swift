import Foundation
import Testing

/// A folder that cannot be used says why in one clear sentence.
@Suite struct FolderErrorTests {
    @Test func aDataDirThatIsAFileSaysSo() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("qk-file-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try Data().write(to: root)
        let result = try Binary.run(["history", "--data-dir", root.path])
        #expect(result.status == 64)
        #expect(result.stderr == "qiktionary: cannot use data dir \(root.path): it is a file, not a folder; pass a writable folder with --data-dir\n")
    }

    /// (Root writes anywhere, so the folder refuses writes only to another user.)
    @Test(.enabled(if: getuid() != 0, "root can write to any folder")) func anUnwritableCloudFolderIsNotCalledOffline() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("qk-ro-\(UUID().uuidString)")
        defer {
            _ = chmod(root.appendingPathComponent("cloud").path, 0o755)
            try? FileManager.default.removeItem(at: root)
        }
        let cloud = root.appendingPathComponent("cloud")
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
        #expect(chmod(cloud.path, 0o555) == 0)
        let result = try Binary.run(["sync", "--data-dir", root.appendingPathComponent("data").path, "--cloud-dir", cloud.path])
        #expect(result.status == 69)
        #expect(result.stderr.contains("is not writable by this user") && !result.stderr.contains("offline"), "\(result.stderr)")
    }
}
