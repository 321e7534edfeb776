@testable import CloudStore
import Foundation
import TestSupport
import Testing

/// Many files of one folder read through one handle on it: each file read exactly as on its
/// own, never through a symbolic link, whether the link is the file or a folder on its way.
@Suite struct DiskFolderReadTests {
    let root = temporaryFolder("cloudstore-tests")
    let outside = temporaryFolder("cloudstore-tests")

    private func put(_ text: String, _ path: String, under base: URL? = nil) throws {
        let url = (base ?? root).appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    @Test func manyFilesReadThroughOneHandleAsEachAlone() throws {
        try put("one", "a/b/1")
        try put("two", "a/b/2")
        try put(String(repeating: "x", count: 100), "a/b/big")
        try put("secret", "elsewhere", under: outside)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("a/b/link"), withDestinationURL: outside.appendingPathComponent("elsewhere"))
        try FileManager.default.createDirectory(at: root.appendingPathComponent("a/b/dir"), withIntermediateDirectories: true)
        let folder = DiskFolder(root: root), directory = FolderPath(["a", "b"])
        let names = ["1", "2", "missing", "big", "link", "dir"]
        let together = folder.read(names, in: directory, limit: 50)
        let alone = names.map { folder.read(directory.appending($0), limit: 50) }
        #expect(together == alone)
        #expect(together[0] == .data(Data("one".utf8)) && together[1] == .data(Data("two".utf8)) && together[2] == .missing)
        for index in 3...5 {
            guard case .rejected = together[index] else {
                Issue.record("\(names[index]) was read: \(together[index])")
                continue
            }
        }
        #expect(folder.statistics.filesRead == 2 * names.count)
    }

    @Test(arguments: [["a", "b"], ["a"]])
    func aFolderOnTheWayThatIsALinkIsNeverFollowed(_ linked: [String]) throws {
        try put("secret", "real/b/1", under: outside)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("a"), withIntermediateDirectories: true)
        // Either the folder itself (a/b) or one above it (a, holding b) is a link out of the root.
        let link = root.appendingPathComponent(linked.joined(separator: "/"))
        let target = linked.count == 2 ? outside.appendingPathComponent("real/b") : outside.appendingPathComponent("real")
        if linked.count == 1 { try FileManager.default.removeItem(at: link) }
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let reads = DiskFolder(root: root).read(["1", "2"], in: FolderPath(["a", "b"]), limit: 1 << 20)
        for read in reads {
            guard case .rejected = read else {
                Issue.record("read through a link: \(read)")
                continue
            }
        }
    }

    @Test func aMissingFolderHasNoFiles() throws {
        #expect(DiskFolder(root: root).read(["1", "2"], in: FolderPath(["no", "such"]), limit: 10) == [.missing, .missing])
        try put("x", "here")
        #expect(DiskFolder(root: root).read(["1"], in: FolderPath(["here"]), limit: 10).allSatisfy { if case .rejected = $0 { true } else { false } })
    }

    @Test func filesAreCountedUpToTheFirstThatIsNotOne() throws {
        for name in ["1", "2", "4"] { try put(name, "z/\(name)") }
        try put("elsewhere", "3", under: outside)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("z/3"), withDestinationURL: outside.appendingPathComponent("3"))
        let folder = DiskFolder(root: root), directory = FolderPath(["z"])
        #expect(folder.leadingFiles(["1", "2", "3", "4"], in: directory) == 2, "a link is not a file")
        #expect(folder.leadingFiles(["1", "2"], in: directory) == 2)
        #expect(folder.leadingFiles(["4", "5", "1"], in: directory) == 1, "the first missing one stops the count")
        #expect(folder.leadingFiles(["1"], in: FolderPath(["nowhere"])) == 0)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("y"), withDestinationURL: root.appendingPathComponent("z"))
        #expect(folder.leadingFiles(["1"], in: FolderPath(["y"])) == 0, "a linked folder is not followed")
        // The same answers one by one.
        #expect(["1", "2", "3", "4"].prefix { folder.fileExists(directory.appending($0)) }.count == 2)
    }
}
