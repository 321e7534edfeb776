import Foundation
import QiktionaryCore
import Storage
import TestSupport

/// A small world for storage tests: two packs written as files, and a lexicon that knows them.
enum Fixtures {
    static let lexicon = Lexicon([
        "amber", "blaze", "crisp", "dwarf", "ember", "flint", "queue", "geese", "crane", "ghost", "honey", "tiger",
        "lamp", "rope", "kite",
    ])

    static func packJSON(id: String = "stones", version: Int = 1, rules: String = "classic", length: Int = 5,
                         maxGuesses: Int? = nil, words: [(String, String)]) -> String {
        let entries = words.map { #"{"word":"\#($0.0)","fact":"\#($0.1)"}"# }.joined(separator: ",")
        let limit = maxGuesses.map { #","maxGuesses":\#($0)"# } ?? ""
        return #"{"id":"\#(id)","version":\#(version),"title":"Title \#(id)","description":"About \#(id).","length":\#(length),"rules":"\#(rules)"\#(limit),"words":[\#(entries)]}"#
    }

    static let stones = packJSON(words: [("amber", "Amber is fossil tree resin."), ("flint", "Flint sparks against steel."),
                                         ("crisp", "Crisp fact."), ("dwarf", "Dwarf fact.")])
    static let doubles = packJSON(id: "doubles", rules: "mastermind", maxGuesses: 3,
                                  words: [("queue", "Queue comes from the French for tail."), ("geese", "Geese fact.")])

    /// A temporary folder holding the given files, removed by the caller's `defer`.
    static func folder(_ files: [String: String]) throws -> URL {
        let url = temporaryFolder("qk")
        for (name, text) in files { try Data(text.utf8).write(to: url.appendingPathComponent(name)) }
        return url
    }

    /// An in-memory database with both packs loaded, and a profile on it.
    static func database(player: String? = nil) throws -> (AppDatabase, Profile) {
        let db = try AppDatabase.inMemory()
        let dir = try folder(["stones.json": stones, "doubles.json": doubles])
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = try db.importPacks(from: PackFile.files(in: dir), lexicon: { lexicon })
        precondition(report.refused.isEmpty, "\(report.refused)")
        return (db, try db.profile(player: player, device: "laptop", hostName: "host"))
    }
}
