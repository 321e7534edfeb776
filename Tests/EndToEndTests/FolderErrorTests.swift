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

    /// A data dir to be made inside a file: one line naming the file, not Foundation's
    /// "NSCocoaErrorDomain error 512".
    @Test func aDataDirUnderAFileSaysWhichFile() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("qk-file-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try Data().write(to: root)
        let dataDir = root.appendingPathComponent("data").path
        let result = try Binary.run(["history", "--data-dir", dataDir])
        #expect(result.status == 64)
        #expect(result.stderr == "qiktionary: cannot use data dir \(dataDir): \(root.path) is a file, not a folder; pass a writable folder with --data-dir\n")
    }
}
