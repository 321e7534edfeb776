import Foundation
import QiktionaryCore
import Storage
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
        for id in ids { #expect(Limits.isGameID(id) == foundation(id), "\(id)") }
    }

    /// The byte-by-byte check of a guess's record name says what `==` on the built name says,
    /// for the names a cloud file could hold (Unicode look-alikes included).
    @Test func guessNamesAreCheckedAsEqualityWould() {
        let game = "00000000-0000-4000-8000-00000000000a", word = "crane"
        var names = [CloudSchema().guess(gameID: game, word: word), "", "-", game, "\(game)-", "\(game)-cran", "\(game)-cranes", "\(game)_crane",
                     "\(game)-crane ", "\(game)-cr\u{0061}ne", "\(game)-\u{212A}rane", "\(game)-cra\u{0301}ne", "\(game.uppercased())-crane"]
        var rng = SeededGenerator(seed: 5)
        let alphabet = Array("abcdef0123456789-é\u{301}\u{212A}K")
        for _ in 0..<5_000 {
            var name = Array(CloudSchema().guess(gameID: game, word: word))
            for _ in 0..<Int.random(in: 0...2, using: &rng) {
                switch rng.next() % 3 {
                case 0: name[Int.random(in: 0..<name.count, using: &rng)] = alphabet.randomElement(using: &rng)!
                case 1: name.insert(alphabet.randomElement(using: &rng)!, at: Int.random(in: 0...name.count, using: &rng))
                default: if !name.isEmpty { name.remove(at: Int.random(in: 0..<name.count, using: &rng)) }
                }
            }
            names.append(String(name))
        }
        for name in names {
            #expect(CloudSchema.isGuess(name, gameID: game, word: word) == (name == CloudSchema().guess(gameID: game, word: word)), "\(name)")
        }
    }
}
