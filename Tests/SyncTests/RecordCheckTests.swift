import Foundation
import QiktionaryCore
@testable import Sync
import Testing

/// The byte-level check of game IDs accepts exactly the UUIDs in their canonical lowercase form
/// (Foundation's reader also takes some oddly dashed spellings, which no machine of ours writes).
@Suite struct RecordCheckTests {
    @Test func gameIDsAreCheckedAsFoundationWould() {
        let foundation: (String) -> Bool = { s in UUID(uuidString: s)?.uuidString.lowercased() == s }
        var ids = ["00000000-0000-4000-8000-000000000001", UUID().uuidString, UUID().uuidString.lowercased(), "", "-",
                   "00000000-0000-4000-8000-0000000000011", "00000000-0000-4000-8000-00000000001", "00000000_0000-4000-8000-000000000001",
                   "0000000g-0000-4000-8000-000000000001", "00000000-0000-4000-8000-00000000000é", "{00000000-0000-4000-8000-000000000001}"]
        var rng = SeededGenerator(seed: 3)
        let alphabet = Array("0123456789abcdefABCDEFg-")
        for _ in 0..<20_000 {
            var id = Array(UUID().uuidString.lowercased())
            for _ in 0..<Int.random(in: 0...2, using: &rng) { id[Int.random(in: 0..<id.count, using: &rng)] = alphabet.randomElement(using: &rng)! }
            if rng.next() % 10 == 0 { id.removeLast() }
            ids.append(String(id))
        }
        for id in ids { #expect(UUIDLike.isValid(id) == foundation(id), "\(id)") }
    }
}
