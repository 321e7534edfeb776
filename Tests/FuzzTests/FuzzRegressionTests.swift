import App
import CloudStore
import Foundation
@testable import PlainMode
import QiktionaryCore
@testable import Storage
import TestSupport
import Testing

/// The failing inputs the fuzz tests found, kept as they were found (seed and case in each name's
/// comment), so each defect stays fixed.
@Suite struct FuzzRegressionTests {
    /// Pack fuzz, seed 0x514b000400000001 case 15: a pack file named `new\nline.json` gave a
    /// two-line warning (`qiktionary: warning: pack file new` / `line.json is unusable…`).
    @Test(arguments: ["new\nline.json", "}\u{301}\u{308}\u{7F}}a\u{C}.json", "tab\there\u{2028}.json"])
    func packProblemWithAHostileFileNameIsOneLine(name: String) throws {
        let folder = temporaryFolder("qk-fuzz-regression-pack")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent(name)
        try Data("{\"id\": ".utf8).write(to: url)
        do {
            _ = try PackFile.read(url)
            Issue.record("a broken pack file was read")
        } catch {
            #expect(!Fuzz.spansLines(error.description), "\(error.description.debugDescription)")
            #expect(error.description.contains("is unusable: not a valid pack"))
        }
        // A word with a form feed is echoed in the import's reason: one line too.
        let problem = PackFile.Problem(file: "x.json", reason: "'ab\u{C}cd' is not 5 lowercase letters")
        #expect(!Fuzz.spansLines(problem.description))
    }

    /// Plain-mode fuzz, seed 0x514b000100000000 case 20: `guess\rfolio` parsed as a guess of
    /// `folio`, and the refusal echoed the raw line, carriage return and all, breaking the one-line
    /// answer in text mode.
    @Test(arguments: ["guess\rfolio", "guess\u{C}knees", "guess\u{B}gazers", "NOZZEL\r", "\u{2028}xqzt", "guess\u{85}demo"])
    func refusedGuessIsShownOnOneLine(line: String) throws {
        let fixture = try PlainFixture()
        for json in [true, false] {
            var output: [String] = []
            let session = PlainSession(games: PlayerGames(player: fixture.database.player(fixture.player), lexicon: { Fuzz.lexicon }),
                                       rules: nil, seed: 1, json: json, write: { output.append($0) })
            try session.begin(pack: "animals", word: "tiger")
            output = []
            session.handle(line)
            #expect(output.count == 1)
            for text in output { #expect(!Fuzz.spansLines(text), "\(text.debugDescription)") }
            if json, let text = output.first,
               let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] {
                #expect(object["event"] as? String == "rejected")
                #expect(object["input"] as? String == line.split(whereSeparator: \.isWhitespace).joined(separator: " "))
            }
        }
    }

    /// Cloud fuzz, seed 0x514b000500000000 case 5: a folder named `new\nline` beside the device
    /// folders gave a warning on two lines (the CLI prints warnings on stderr, one per line).
    @Test func cloudWarningForAHostileNameIsOneLine() throws {
        let root = temporaryFolder("qk-fuzz-regression-cloud")
        defer { try? FileManager.default.removeItem(at: root) }
        let writer = try FolderCloudDatabase.onDisk(root: root, player: "p", device: DeviceID("A"))
        let zone = try ZoneID("Games")
        try writer.createZone(zone)
        _ = try writer.modifyRecords(in: zone, saving: [CloudRecord(recordType: "Game", recordName: "r1", fields: ["v": .int(1)])],
                                     deleting: [], policy: .overwrite)
        for name in ["new\nline", "cr\rhere", "sep\u{2028}x", "esc\u{1B}[2J"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent("players/p/g0/devices/\(name)"), withIntermediateDirectories: true)
        }
        let warnings = Shared<[CloudWarning]>([])
        let reader = try FolderCloudDatabase.onDisk(root: root, player: "p", device: DeviceID("B"),
                                                    options: CloudStoreOptions(warnings: { w in warnings.withLock { $0.append(w) } }))
        #expect(try reader.fetchZoneChanges(zone, since: nil).changedRecords.map(\.recordName) == ["r1"])
        let all = warnings.withLock { $0 }
        #expect(all.count == 4)
        for warning in all { #expect(!Fuzz.spansLines(warning.description), "\(warning.description.debugDescription)") }
    }
}
