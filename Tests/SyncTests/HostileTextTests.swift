import CloudStore
import Concurrency
import Foundation
import QiktionaryCore
import Storage
import Testing
import TextSafety
@testable import Sync

/// Text a terminal would obey, written straight into the shared folder by a writer that skips
/// every check of the game (another person who can write the folder): each record that holds it,
/// of every type and in any text field, is refused with one line that shows it escaped, and the
/// machine that fetches it changes nothing else.
@Suite struct HostileTextTests {
    let folder = MemoryFolder()
    let clock = TestClock()

    static let hostile = [
        "Stripes \u{1B}[31mRED\u{1B}[0m done.",       // colour
        "Title \u{1B}]0;TITLE\u{07} set.",             // the window title
        "Clip \u{1B}]52;c;aGVsbG8=\u{07} board.",     // the clipboard
        "Right \u{202E}desrever\u{202C} left.",        // a bidirectional override
        "C1 \u{9B}31m csi.",                           // a C1 control sequence introducer
        "Delete \u{7F} here.",
    ]

    /// Every record the honest machine sent, read as the folder holds them.
    func records(_ zone: SyncZone, reader: FolderCloudDatabase) throws -> [CloudRecord] {
        try reader.fetchZoneChanges(CloudSchema.zone(zone), since: nil).changedRecords
    }

    @Test func aRecordOfEveryTypeWithControlCharactersIsRefusedAndNothingElseChanges() throws {
        let a = try Machine("laptop", folder: folder, shared: clock), b = try Machine("desktop", folder: folder, shared: clock)
        let (won, half) = try a.playWonAndHalf()
        _ = try a.player.mark("z", as: .out, gameID: half.id)
        try a.sync()
        try b.sync()
        let before = (try b.snapshot(won.id), try b.snapshot(half.id), try b.player.readingList(), try b.database.devicesSeen().map(\.name))

        // Another writer of the folder rewrites one record of each type, one text field each,
        // and adds a game of its own whose fact would command the terminal.
        let mallory = try FolderCloudDatabase.inMemory(folder, player: "player", device: DeviceID("mallory"),
                                                       options: CloudStoreOptions(now: { clock.now }))
        let games = try records(.games, reader: mallory), list = try records(.readingList, reader: mallory)
        var planted: [CloudRecord] = []
        func plant(_ record: CloudRecord?, _ field: String, _ text: String) throws {
            var record = try #require(record)
            record.fields[field] = .string(text)
            planted.append(record)
        }
        let game = games.first { $0.recordType == CloudSchema.game && $0.recordName == half.id }
        try plant(game, CloudSchema.GameKey.fact, Self.hostile[0])
        try plant(games.first { $0.recordType == CloudSchema.guess }, CloudSchema.GuessKey.playedOn, Self.hostile[1])
        try plant(games.first { $0.recordType == CloudSchema.mark }, CloudSchema.device, Self.hostile[2])
        try plant(list.first { $0.recordType == CloudSchema.bookmark }, CloudSchema.BookmarkKey.fact, Self.hostile[3])
        var stranger = try #require(game)
        stranger.recordName = "00000000-0000-4000-8000-00000000beef"
        stranger.systemFields = nil
        stranger.fields[CloudSchema.GameKey.pack] = .string(Self.hostile[4])
        stranger.fields[CloudSchema.GameKey.status] = .string("in-progress")
        planted.append(stranger)
        var nameless = try #require(game)
        nameless.recordName = "00000000-0000-4000-8000-00000000f00d"
        nameless.systemFields = nil
        nameless.fields[CloudSchema.GameKey.startedOn] = .string(Self.hostile[5])
        planted.append(nameless)
        for zone in SyncZone.allCases {
            let saving = planted.filter { ($0.recordType == CloudSchema.bookmark) == (zone == .readingList) }
            _ = try mallory.modifyRecords(in: CloudSchema.zone(zone), saving: saving, deleting: [], policy: .overwrite)
        }

        let warnings = Locked<[String]>([])
        var engine = b.engine
        engine.warnings = { warning in warnings.withLock { $0.append(warning.description) } }
        let report = try engine.sync()
        let told = warnings.withLock { $0 }
        #expect(told.count == planted.count, "\(told)")
        #expect(report.skipped >= planted.count)
        for line in told {
            #expect(!line.contains("\n"))
            #expect(TerminalText.isSafe(line), "\(line.debugDescription)")
            #expect(line.contains("holds a control character") && (line.contains("\\x") || line.contains("\\u")), "\(line)")
        }
        #expect(told.contains { $0.contains("\\x1b[31mRED") })
        #expect(told.contains { $0.contains("\\u202e") })
        #expect(told.contains { $0.contains("\\x9b") })

        // Nothing else changed: the games, the notepad, the reading list and the devices read as before.
        #expect(try b.snapshot(won.id) == before.0)
        #expect(try b.snapshot(half.id) == before.1)
        #expect(try b.game(half.id).fact == a.game(half.id).fact)
        #expect(try b.player.readingList() == before.2)
        #expect(try b.database.devicesSeen().map(\.name) == before.3)
        #expect(throws: (any Error).self) { try b.game(stranger.recordName) }
        #expect(throws: (any Error).self) { try b.game(nameless.recordName) }
    }

    /// The check every record passes, alone: any text field, a list of texts, and the name.
    @Test func theRecordCheckLooksAtEveryTextField() {
        let clean = CloudRecord(recordType: "Anything", recordName: "name", fields: ["a": .string("fine"), "b": .int(3), "c": .strings(["x", "y"])])
        #expect(CloudSchema.unsafeText(in: clean) == nil)
        for text in Self.hostile {
            for record in [
                CloudRecord(recordType: "Anything", recordName: "name", fields: ["a": .string("fine"), "z": .string(text)]),
                CloudRecord(recordType: "Anything", recordName: "name", fields: ["c": .strings(["x", text])]),
                CloudRecord(recordType: "Anything", recordName: text, fields: [:]),
            ] {
                let problem = CloudSchema.unsafeText(in: record)
                #expect(problem != nil && TerminalText.isSafe(problem!), "\(text.debugDescription)")
            }
        }
    }
}
