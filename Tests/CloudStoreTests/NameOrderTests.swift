@testable import CloudStore
import Foundation
import Testing

/// A fetch hands records over in name order, sorted through `NameOrder`'s keys: the order must be
/// exactly that of the names' UTF-8 bytes, whatever start the names share.
@Suite struct NameOrderTests {
    /// Names made to be hard on the keys: a long shared start (ids made in sequence), names that
    /// are prefixes of others, names equal in their first sixteen bytes after the shared start,
    /// bytes past ASCII, a NUL byte, and the empty name.
    static func awkwardNames() -> [String] {
        var names: [String] = ["", "\u{0}", "a", "a\u{0}", "a\u{0}b", "ab", "é", "e\u{301}", "z", "ß-1", "日本-2"]
        for game in [0, 1, 9, 10, 255, 4096, 65_535] {
            let id = "00000000-0000-4000-8000-" + String(format: "%012x", game)
            names.append(id)
            for word in ["grips", "poilu", "polar", "pola", "polarized", "aaaaaaaaaaaaaaaaaaaaz", "aaaaaaaaaaaaaaaaaaaay"] {
                names.append("\(id)-\(word)")
            }
        }
        return names
    }

    static func sortedByKeys(_ names: [String]) -> [String] {
        let keys = NameOrder.Keys(names)
        return names.map { (key: keys.key($0), name: $0) }
            .sorted { a, b in a.key != b.key ? a.key < b.key : NameOrder.precedes(a.name, b.name) }
            .map(\.name)
    }

    static func sortedByBytes(_ names: [String]) -> [String] {
        names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    @Test func theKeysOrderNamesAsTheirBytesDo() {
        var generator = SystemRandomNumberGenerator()
        let names = Self.awkwardNames()
        for _ in 0..<20 {
            let shuffled = names.shuffled(using: &generator)
            // Compared as bytes: as strings, "é" and "e\u{301}" would be equal either way round.
            #expect(Self.sortedByKeys(shuffled).map { Array($0.utf8) } == Self.sortedByBytes(names).map { Array($0.utf8) })
        }
    }

    @Test func namesThatShareTheirWholeStartAreStillOrdered() {
        // Every name shares its first 36 bytes: the keys start past them.
        let shared = "00000000-0000-4000-8000-000000000007"
        let names = [shared, shared + "-b", shared + "-a", shared + "-ab", shared + "-a\u{0}"]
        #expect(NameOrder.Keys(names).offset == shared.utf8.count)
        #expect(Self.sortedByKeys(names) == [shared, shared + "-a", shared + "-a\u{0}", shared + "-ab", shared + "-b"])
        // One name alone, and none: nothing to compare, nothing to fail.
        #expect(Self.sortedByKeys([shared]) == [shared])
        #expect(Self.sortedByKeys([]) == [])
    }

    @Test func theGamesNamesSortAsStringsDo() {
        // ASCII names, as the game writes them: the same order as comparing the strings.
        let names = Self.awkwardNames().filter { $0.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x80 } }
        #expect(names.count > 50)
        #expect(Self.sortedByKeys(names.shuffled()) == names.sorted())
    }

    @Test(arguments: Backend.allCases) func aFetchHandsRecordsOverInNameOrder(backend: Backend) throws {
        let cloud = backend.makeCloud()
        let writer = try cloud.store("A")
        try writer.createZone(games)
        let names = Self.awkwardNames().filter { !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x80 } }
        // Several commits, names in no order, so the view's table holds them in no order either.
        let shuffled = names.shuffled()
        for start in stride(from: 0, to: shuffled.count, by: 7) {
            _ = try writer.save(shuffled[start..<min(start + 7, shuffled.count)].map { record($0) })
        }
        let reader = try cloud.store("R")
        let all = try reader.fetchZoneChanges(games, since: nil)
        #expect(all.changedRecords.map(\.recordName) == names.sorted())
        // A reader that is behind gets what changed since, deletions too, each in name order.
        let deleted = Array(names.shuffled().prefix(9)), changed = Array(names.shuffled().prefix(12)).filter { !deleted.contains($0) }
        _ = try writer.delete(deleted)
        _ = try writer.save(changed.map { record($0, 1) })
        let later = try reader.fetchZoneChanges(games, since: all.token)
        #expect(later.changedRecords.map(\.recordName) == changed.sorted())
        #expect(later.deletedRecords.map(\.recordName) == deleted.sorted())
    }
}
