import Foundation
import QiktionaryResources
import Testing

/// Where the game finds its packs and dictionary: beside an installed binary, then the build
/// folder's resource bundle, then `QIKTIONARY_RESOURCES`; and what it says when none holds them.
@Suite struct ResourceLookupTests {
    let top = FileManager.default.temporaryDirectory.appendingPathComponent("qk-lookup-\(UUID().uuidString)")

    func makeContent(_ folder: URL) throws {
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("packs"), withIntermediateDirectories: true)
        try Data("tiger\n".utf8).write(to: folder.appendingPathComponent("words.txt"))
    }

    var executable: URL { top.appendingPathComponent("prefix/bin/qiktionary") }
    var installed: URL { top.appendingPathComponent("prefix/share/qiktionary") }
    var bundle: URL { top.appendingPathComponent("prefix/bin/\(BundledContent.bundleName)") }
    var override: URL { top.appendingPathComponent("elsewhere") }

    @Test func theFolderBesideTheBinaryComesFirstThenTheBundleThenTheVariable() throws {
        defer { try? FileManager.default.removeItem(at: top) }
        for folder in [installed, bundle, override] { try makeContent(folder) }
        let environment = ["QIKTIONARY_RESOURCES": override.path]
        #expect(try BundledContent.locate(executable: executable, environment: environment).get().path == installed.path)

        try FileManager.default.removeItem(at: installed)
        #expect(try BundledContent.locate(executable: executable, environment: environment).get().path == bundle.path)

        try FileManager.default.removeItem(at: bundle)
        #expect(try BundledContent.locate(executable: executable, environment: environment).get().path == override.path)
    }

    @Test func aFolderWithoutBothTheDictionaryAndThePacksDoesNotCount() throws {
        defer { try? FileManager.default.removeItem(at: top) }
        try makeContent(override)
        // The packs but no dictionary beside the binary; a dictionary that is a folder in the bundle.
        try FileManager.default.createDirectory(at: installed.appendingPathComponent("packs"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: bundle.appendingPathComponent("words.txt"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: bundle.appendingPathComponent("packs"), withIntermediateDirectories: true)
        let found = try BundledContent.locate(executable: executable, environment: ["QIKTIONARY_RESOURCES": override.path]).get()
        #expect(found.path == override.path)
    }

    @Test func noneThereIsOneLineNamingEveryPlaceLookedAt() throws {
        defer { try? FileManager.default.removeItem(at: top) }
        let result = BundledContent.locate(executable: executable, environment: ["QIKTIONARY_RESOURCES": override.path])
        guard case .failure(let missing) = result else {
            Issue.record("found content in an empty folder: \(result)")
            return
        }
        #expect(missing.looked == [installed.path, bundle.path, override.path])
        #expect(!missing.description.contains("\n"))
        #expect(missing.description.contains(installed.path) && missing.description.contains("QIKTIONARY_RESOURCES"))

        // Without the variable it looks only beside the binary.
        guard case .failure(let bare) = BundledContent.locate(executable: executable, environment: [:]) else {
            Issue.record("found content with nothing there")
            return
        }
        #expect(bare.looked == [installed.path, bundle.path])
    }

    @Test func theTestsThemselvesFindTheBuildFoldersBundle() throws {
        let found = try BundledContent.require()
        #expect(found.lastPathComponent == BundledContent.bundleName)
    }
}
