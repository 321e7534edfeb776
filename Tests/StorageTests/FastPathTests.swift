import Foundation
import GRDB
import QiktionaryCore
@testable import Storage
import Testing

/// The hand-made fast paths of a full fetch give exactly what the general code gives.
@Suite struct FastPathTests {
    /// Times are kept as whole milliseconds (migration v8): a stamped time and a time as the
    /// cloud gives it back (whole milliseconds, not stamped) are the same integer and the same
    /// `Date` read back; the export's text, made by arithmetic, is what GRDB's formatter writes.
    @Test func timesAreWholeMillisecondsEverywhereAndExportTextIsTheCalendars() {
        var rng = SeededGenerator(seed: 42)
        // Every year from 1970 to 2100 at random moments, plus the edges of days, months and leap years.
        var samples: [Double] = [0, 86_399.999, 86_400, 951_782_400, 951_868_799.999, 4_102_444_800, 1_780_000_000.123]
        for _ in 0..<20_000 { samples.append(Double(UInt64.random(in: 0...4_102_444_800_000, using: &rng)) / 1000) }
        for _ in 0..<2_000 { samples.append(Double(UInt64.random(in: 0...4_102_444_800, using: &rng)) + Double.random(in: 0..<1, using: &rng)) }
        var mismatches = 0
        for seconds in samples {
            let millis = Int64((seconds * 1000).rounded())
            let stamped = AppDatabase.stamp(Date(timeIntervalSince1970: seconds))
            let fromCloud = Date(timeIntervalSince1970: Double(millis) / 1000)
            let grdbText = String.fromDatabaseValue(stamped.databaseValue).map { $0.replacingOccurrences(of: " ", with: "T") + "Z" }
            let fine = AppDatabase.millis(stamped) == millis && AppDatabase.millis(fromCloud) == millis && stamped == fromCloud
                && AppDatabase.stamp(stamped) == stamped && AppDatabase.time(millis) == stamped && ExportDate.text(stamped) == grdbText
            if !fine {
                mismatches += 1
                if mismatches < 5 { Issue.record("\(seconds): \(AppDatabase.millis(stamped)) / \(ExportDate.text(stamped)) / \(grdbText ?? "nil")") }
            }
        }
        #expect(mismatches == 0)
        #expect(ExportDate.text(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00.000Z")
    }

    @Test func recordsAndTheFastPathKeepTimesAsTheSameIntegers() throws {
        let (db, profile) = try Fixtures.database()
        let game = try db.player(profile).startGame(GameRequest(word: "amber"), now: Date(timeIntervalSince1970: 1_795_000_000.1234))
        try db.writer.read { database in
            let row = try #require(try Row.fetchOne(database, sql: "SELECT startedAt, typeof(startedAt) AS kind FROM game WHERE id = ?",
                                                     arguments: [game.id]))
            #expect(row["kind"] as String == "integer")
            #expect(row["startedAt"] as Int64 == 1_795_000_000_123)
        }
        #expect(try db.player(profile).game(id: game.id).startedAt == Date(timeIntervalSince1970: 1_795_000_000.123))
    }

    @Test func deviceNamesAreCheckedTheSameOnTheFastPath() {
        let slow: (String) -> Bool = { name in
            (1...64).contains(name.count) && !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
                && !name.trimmingCharacters(in: .whitespaces).isEmpty
        }
        var names = ["laptop", " ", "   x  ", "", String(repeating: "a", count: 64), String(repeating: "a", count: 65), "tab\there",
                     "del\u{7f}", "new\nline", "café", "  ", "~!@#$%^&*()", "\u{00a0}", "ok\r\n"]
        var rng = SeededGenerator(seed: 9)
        for _ in 0..<5_000 {
            names.append(String((0..<Int.random(in: 0...70, using: &rng)).map { _ in
                Character(UnicodeScalar(UInt8.random(in: rng.next() % 4 == 0 ? 0...0x7f : 0x1f...0x7f, using: &rng)))
            }))
        }
        for name in names { #expect(AppDatabase.isValidDeviceName(name) == slow(name), "\(name.debugDescription)") }
    }
}
