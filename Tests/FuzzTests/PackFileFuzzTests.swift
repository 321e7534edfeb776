import Foundation
import QiktionaryCore
import Storage
import TestSupport
import Testing

/// Pack files, fuzzed: the shipped packs with bytes flipped, truncated, keys duplicated, wrong
/// types, huge numbers, enormous strings, deep nesting, words not in the dictionary, repeated
/// letters in classic packs, hostile ids. Each must be refused with a one-line reason or
/// imported as a valid pack; the packs and the game already in the database stay as they were.
@Suite struct PackFileFuzzTests {
    static let batches = 4
    static let casesPerBatch = Fuzz.count(750)

    @Test(arguments: 0..<batches)
    func damagedPackFilesAreRefusedInOneLineAndChangeNothingElse(batch: Int) throws {
        let seed = Fuzz.seed(kind: 4, batch: batch)
        let start = Date()
        defer { Fuzz.report("pack", batch: batch, cases: Self.casesPerBatch, since: start) }
        var rng = SeededGenerator(seed: seed)
        let folder = temporaryFolder("qk-fuzz-packs")
        defer { try? FileManager.default.removeItem(at: folder) }
        var database = try PackFixture()

        for index in 0..<Self.casesPerBatch {
            let label = Fuzz.label(seed, index)
            let (name, data) = PackMutations.next(&rng)
            let url = folder.appendingPathComponent(name)
            try data.write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }

            let pack: Pack?
            do {
                pack = try Fuzz.bounded("PackFile.read \(label)") { try PackFile.read(url) }
            } catch let problem as PackFile.Problem {
                Self.expectOneLine(problem.description, label)
                pack = nil
            } catch {
                Issue.record("\(label) PackFile.read threw \(error), not a PackFile.Problem")
                pack = nil
            }
            // Import only a fraction of the cases that decode: checking costs a lexicon pass.
            guard let pack, index % 8 == 0 else { continue }
            let report: PackImportReport
            do {
                report = try Fuzz.bounded("importPacks \(label)") { try database.database.importPacks(from: [url], lexicon: { Fuzz.lexicon }) }
            } catch {
                Issue.record("\(label) importPacks threw \(error) for a file PackFile.read accepted")
                continue
            }
            for problem in report.refused { Self.expectOneLine(problem.description, label) }
            let imported = report.added + report.updated
            #expect(imported.isEmpty || pack.problems(lexicon: Fuzz.lexicon).isEmpty, "\(label) a pack with problems was imported")
            #expect(imported.allSatisfy { $0 == pack.id }, "\(label) imported \(imported) from a file of pack \(pack.id)")
            if imported.isEmpty {
                try database.expectUnchanged(label)
            } else {
                try database.expectUnchanged(label, except: pack.id)
                // What the import legitimately changed is the new normal for the next cases.
                database = try database.rebaselined()
            }
        }
    }

    static func expectOneLine(_ text: String, _ label: String) {
        #expect(!text.isEmpty && !Fuzz.spansLines(text), "\(label) not one line: \(text.debugDescription.prefix(300))")
        #expect(!Fuzz.commandsTheTerminal(text), "\(label) a character a terminal would obey: \(text.debugDescription.prefix(300))")
    }
}

/// A database with the shipped packs and a game in progress, and what it looked like.
struct PackFixture {
    let database: AppDatabase
    let profile: Profile
    var player: PlayerDatabase { database.player(profile) }
    let gameID: String
    let packs: [PackProgress]
    let game: SavedGame

    private init(database: AppDatabase, profile: Profile, gameID: String) throws {
        self.database = database
        self.profile = profile
        self.gameID = gameID
        game = try database.player(profile).game(id: gameID)
        packs = try database.player(profile).packs()
    }

    func rebaselined() throws -> PackFixture { try PackFixture(database: database, profile: profile, gameID: gameID) }

    init() throws {
        database = try AppDatabase.inMemory()
        _ = try database.importPacks(from: Fuzz.packFiles, lexicon: { Fuzz.lexicon })
        profile = try database.profile(player: "packs", device: "d", hostName: "h")
        let started = try database.player(profile).startGame(GameRequest(packID: "animals", word: "tiger"))
        _ = try database.player(profile).submitGuess("crane", gameID: started.id, lexicon: Fuzz.lexicon)
        gameID = started.id
        game = try database.player(profile).game(id: gameID)
        packs = try database.player(profile).packs()
    }

    func expectUnchanged(_ label: String, except replaced: String? = nil) throws {
        #expect(try database.player(profile).game(id: gameID) == game, "\(label) the game in progress changed")
        let now = try database.player(profile).packs().filter { $0.id != replaced }
        #expect(now.filter { packs.map(\.id).contains($0.id) } == packs.filter { $0.id != replaced }, "\(label) another pack changed")
    }
}

enum PackMutations {
    /// A file name and contents: a shipped pack damaged in one of many ways.
    static func next(_ rng: inout SeededGenerator) -> (String, Data) {
        let (name, original) = rng.pick(Fuzz.packData)
        let fileName = rng.chance(0.9) ? name : sanitizedFileName(rng.hostileName()) + ".json"
        switch rng.int(0...11) {
        case 0, 1:
            return (fileName, rng.mutate(original))
        case 2:
            return (fileName, original.prefix(rng.int(0...original.count)))
        case 3:
            return (fileName, Data(rng.bytes(rng.length(upTo: 2_000, rarely: 200_000))))
        case 4:
            return (fileName, Data(rng.byteString(rng.int(0...500)).utf8))
        case 5:
            // Deep nesting, in a value or as the whole document.
            let depth = rng.int(100...rng.pick([1_000, 20_000]))
            let nest = String(repeating: "[", count: depth) + String(repeating: "]", count: rng.chance(0.5) ? depth : 0)
            if rng.chance(0.5) { return (fileName, Data(nest.utf8)) }
            return (fileName, edit(original, &rng) { object, _ in object["words"] = nest })
        case 6:
            // A header that looks right and a body that is not.
            return (fileName, Data(("{\"id\": \"x\", \"version\": 2, " + rng.byteString(rng.int(0...200))).utf8))
        default:
            return (fileName, edit(original, &rng) { object, rng in structural(&object, &rng) })
        }
    }

    /// File names must be names the folder could hold: no slash, no NUL, not too long.
    static func sanitizedFileName(_ name: String) -> String {
        var cleaned = String(name.unicodeScalars.filter { $0 != "/" && $0 != "\u{0}" }.map(Character.init))
        // Names over 255 bytes are refused by the file system itself, before any reader sees them.
        while cleaned.utf8.count > 200 { cleaned.removeLast() }
        return cleaned.isEmpty || cleaned == "." || cleaned == ".." ? "x" : String(cleaned)
    }

    /// Decodes the JSON, changes it, and encodes it again (or the raw text when the change is textual).
    static func edit(_ data: Data, _ rng: inout SeededGenerator, _ change: (inout [String: Any], inout SeededGenerator) -> Void) -> Data {
        guard var object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return data }
        change(&object, &rng)
        // Values that are JSON text already (nesting, duplicated keys) are spliced in raw.
        var raw: [String: String] = [:]
        for (key, value) in object {
            if let text = value as? String, text.hasPrefix("\u{1}RAW") { raw[key] = String(text.dropFirst(4)); object[key] = "\u{2}\(key)" }
            if let text = value as? String, text.hasPrefix("[[") { raw[key] = text; object[key] = "\u{2}\(key)" }
        }
        guard var text = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])).map({ String(decoding: $0, as: UTF8.self) }) else {
            return data
        }
        for (key, value) in raw { text = text.replacingOccurrences(of: "\"\\u0002\(key)\"", with: value) }
        return Data(text.utf8)
    }

    static let keys = ["id", "version", "title", "description", "length", "rules", "maxGuesses", "words"]

    static func structural(_ object: inout [String: Any], _ rng: inout SeededGenerator) {
        var words = (object["words"] as? [[String: Any]]) ?? []
        let length = object["length"] as? Int ?? 5
        // Usually raise the version so the import really checks the pack.
        if rng.chance(0.7) { object["version"] = rng.int(2...1000) }
        let choice = rng.int(0...13)
        switch choice {
        case 0: object[rng.pick(keys)] = nil
        case 1: object[rng.pick(keys)] = rng.pick([NSNull(), "text", 3, -1, 2.5, true, [1, 2], ["k": "v"]] as [Any])
        case 2: object[rng.pick(["version", "length", "maxGuesses"])] = rng.pick([Int.max, Int.min, 0, -5, 31, 1_000_000, 8, 3] as [Int])
        case 3: object[rng.pick(["version", "length", "maxGuesses"])] = rng.pick(["1e400", "9223372036854775808", "-0", "1.5"].map { "\u{1}RAW" + $0 })
        case 4: object[rng.pick(["title", "description", "id"])] = String(repeating: rng.pick(["a", "é", "\n", "\u{0}", " "]), count: rng.int(1...300_000))
        case 5: object["id"] = rng.pick(["../x", "..", "", "UPPER", "a/b", "a b", "animals", "space", "x\u{0}", String(repeating: "a", count: 41), "ok-id-\(rng.int(0...9))"])
        case 6:
            // Words that are not in the dictionary, of the wrong length, with other characters.
            if !words.isEmpty {
                let i = rng.int(0...words.count - 1)
                words[i]["word"] = rng.pick(["xqzt", "zzzzz", rng.word(length: length + 1), rng.word(length: max(0, length - 1)),
                                             "TIGER", "tigé", "ti-er", "", "t1ger", rng.mutate(words[i]["word"] as? String ?? "")])
            }
        case 7:
            // A repeated letter in a classic pack, a repeated word, an empty fact.
            if !words.isEmpty {
                let i = rng.int(0...words.count - 1)
                switch rng.int(0...2) {
                case 0: words[i]["word"] = rng.pick(["eerie", "llama", "geese", "sheep", "apple", "hello"].filter { $0.count == length } + ["mammal"])
                case 1: words.append(words[i])
                default: words[i]["fact"] = rng.pick(["", " ", "\n", "\u{3000}"])
                }
            }
            // Text a terminal would obey, in a fact, the title or the description.
            if rng.chance(0.5) {
                let sequence = rng.pick(Fuzz.terminalSequences) + rng.unicodeString(rng.int(0...3))
                if rng.chance(0.5), !words.isEmpty {
                    words[rng.int(0...words.count - 1)]["fact"] = "Facts " + sequence + " end."
                } else {
                    object[rng.pick(["title", "description"])] = "Text " + sequence
                }
            }
        case 8: words = []
        case 9: words = Array(repeating: words.first ?? [:], count: rng.int(2...5_000))
        case 10: object["rules"] = rng.pick(["mastermind", "classic", "Classic", "", "chess"])
        case 11:
            // A duplicated key: the text has the key twice with different values.
            object["title"] = "\u{1}RAW\"T\", \"title\": " + rng.pick(["7", "null", "\"Other\"", "[]"])
        case 12:
            if !words.isEmpty { words[rng.int(0...words.count - 1)] = ["word": rng.pick([1, NSNull(), ["a"]] as [Any])] }
        default:
            object["extra\(rng.int(0...9))"] = rng.pick(["x", 1, [1]] as [Any])
            words = words.shuffled(using: &rng)
        }
        if (6...9).contains(choice) || choice >= 12 { object["words"] = words }
    }
}
