import Foundation
import TestSupport
import Testing

/// The cloud folder going bad under a player: emptied like an unmounted mount point, full,
/// changed mid-sync. Play goes on, changes stay queued, sync recovers when the folder does.
@Suite(.serialized) struct FolderGoingBadTests {
    @Test func anEmptiedFolderIsNeverWrittenIntoUntilItIsBack() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let a = pair.peer("laptop"), b = pair.peer("desktop")
        try b.pair(with: a)
        _ = try a.play(["--word", "comet"], ["give-up"])
        // The file system goes away: its mount point is an empty folder again.
        let away = pair.root.appendingPathComponent("mounted-elsewhere")
        try FileManager.default.moveItem(at: pair.cloud, to: away)
        try FileManager.default.createDirectory(at: pair.cloud, withIntermediateDirectories: true)
        let played = try a.run(["play", "--plain", "--json", "--word", "tiger"], input: "crane\ntiger\n")
        #expect(played.status == 0 && played.events.last?["result"] as? String == "won")
        let refused = try a.run(["sync"])
        #expect(refused.status == 69)
        #expect(refused.stderr.contains("is it mounted?") && refused.stderr.split(separator: "\n").count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: pair.cloud.path).isEmpty, "nothing written into the mount point")
        #expect((try a.status()["sync"] as? [String: Any])?["pendingChanges"] as? Int == 3)
        // Mounted again: everything queued goes.
        try FileManager.default.removeItem(at: pair.cloud)
        try FileManager.default.moveItem(at: away, to: pair.cloud)
        try a.sync()
        try b.sync()
        #expect(Set(try b.words("history")) == ["comet", "tiger"])
    }

    /// A real full disk: the cloud folder on a small tmpfs (needs root and mount; skipped otherwise).
    @Test func aFullDiskKeepsChangesQueuedUntilThereIsRoom() throws {
        let pair = try Pair()
        defer { pair.remove() }
        guard SmallDisk.mount(at: pair.cloud, size: "512k") else {
            print("skipped: cannot mount a tmpfs here (needs root)")
            return
        }
        defer { SmallDisk.unmount(pair.cloud) }
        let a = pair.peer("laptop"), b = pair.peer("desktop")
        try b.pair(with: a)
        _ = try a.play(["--word", "comet"], ["give-up"])
        let filler = pair.cloud.appendingPathComponent("filler")
        #expect(FileManager.default.createFile(atPath: filler.path, contents: nil))
        let handle = try FileHandle(forWritingTo: filler)
        // Fill every byte that is left.
        while (try? handle.write(contentsOf: Data(count: 16 << 10))) != nil {}
        try? handle.close()
        let played = try a.run(["play", "--plain", "--json", "--word", "tiger"], input: "crane\ntiger\n")
        #expect(played.status == 0 && played.events.last?["result"] as? String == "won")
        let failed = try a.run(["sync"])
        #expect(failed.status == 69)
        #expect(failed.stderr.contains("No space left on device") && failed.stderr.split(separator: "\n").count == 1, "\(failed.stderr)")
        #expect((try a.status()["sync"] as? [String: Any])?["pendingChanges"] as? Int == 3)
        let leftovers = Copier.files(below: pair.cloud).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty, "no half-written file left behind: \(leftovers)")
        try FileManager.default.removeItem(at: filler)
        try a.sync()
        try b.sync()
        #expect(Set(try b.words("history")) == ["comet", "tiger"])
    }

    /// Files the game makes keep to the user's umask: a private umask means private files.
    @Test func filesFollowTheUsersUmask() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let a = pair.peer("laptop")
        let script = "umask 077; exec \"$0\" \"$@\""
        let result = try Binary.run(["-c", script, Binary.url.path, "play", "--plain", "--word", "tiger"] + a.options,
                                    input: "crane\ngive-up\n", executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(result.status == 0, "\(result.stderr)")
        let files = Copier.files(below: pair.cloud).map { pair.cloud.appendingPathComponent($0) }
            + [a.dataDir.appendingPathComponent("qiktionary.sqlite")]
        #expect(files.count > 2)
        for file in files {
            let mode = ((try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions]) as? Int) ?? 0o777
            #expect(mode & 0o077 == 0, "\(file.path) is \(String(mode, radix: 8))")
        }
    }
}
