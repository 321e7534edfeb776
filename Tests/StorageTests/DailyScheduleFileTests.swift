import Foundation
import QiktionaryCore
import QiktionaryResources
import Storage
import Testing

/// The shipped daily schedule (docs/architecture.md, "The daily word"): its start never
/// changes, it names only shipped words, and it names every one of them.
@Suite struct DailyScheduleFileTests {
    static let shipped = try! BundledContent.schedule()
    /// A frozen copy of the schedule as first written: every later version must begin with it.
    static let frozen = try! DailySchedule(text: String(contentsOf: URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("Fixtures/daily-schedule-start.txt"), encoding: .utf8))

    @Test func theStartOfTheScheduleNeverChanges() {
        #expect(Self.shipped.firstDay == DailyWord.firstDay && Self.shipped.firstDate == "2026-11-22")
        #expect(Self.frozen.entries.count == 864)
        #expect(Array(Self.shipped.entries.prefix(Self.frozen.entries.count)) == Self.frozen.entries,
                "a line of the schedule was changed, moved or removed: extend it only at its end")
        // The days played before the schedule existed keep the words the earlier draw gave them.
        #expect(Self.shipped.entries.prefix(4).map(\.word) == ["hailed", "alien", "vernal", "hoop"])
    }

    @Test func theScheduleNamesEveryShippedWordOnceAndNothingElse() throws {
        var packWords = Set<DailySchedule.Entry>()
        for file in PackFile.files(in: BundledContent.packsFolder) {
            let pack = try PackFile.read(file)
            for word in pack.words { packWords.insert(.init(pack: pack.id, word: word.word)) }
        }
        let scheduled = Self.shipped.entries
        #expect(Set(scheduled).count == scheduled.count, "a word is scheduled twice")
        let unknown = Set(scheduled).subtracting(packWords)
        #expect(unknown.isEmpty, "scheduled but not shipped: \(unknown.sorted { $0.word < $1.word })")
        let missing = packWords.subtracting(scheduled)
        #expect(missing.isEmpty, "shipped but not scheduled (run scripts/extend-daily-schedule): \(missing.count) words")
    }

    @Test func neighbouringDaysComeFromDifferentPacks() {
        // The days the earlier draw gave (the first four) apart.
        let days = Self.shipped.entries.dropFirst(3)
        let repeats = zip(days, days.dropFirst()).filter { $0.pack == $1.pack }
        #expect(repeats.isEmpty, "\(repeats.prefix(3))")
    }

    @Test func theDailyRequestTakesTheScheduledWordOfTheLocalDate() throws {
        let db = try AppDatabase.inMemory()
        _ = try db.importPacks(from: PackFile.files(in: BundledContent.packsFolder), lexicon: { try! BundledContent.lexicon() })
        let profile = try db.profile(player: "ann", device: "laptop", hostName: "laptop")
        // 23:30 UTC on 23 November 2026: the 24th (#3) in Tokyo, the 23rd (#2) in Los Angeles.
        let now = Date(timeIntervalSince1970: Double(DailyWord.firstDay + 1) * 86_400 + 23.5 * 3_600)
        for (zone, date, number) in [("Asia/Tokyo", "2026-11-24", 3), ("America/Los_Angeles", "2026-11-23", 2)] {
            let clock = DailyClock(now: now, timeZone: try #require(TimeZone(identifier: zone)))
            let request = try db.dailyRequest(day: clock.day, schedule: Self.shipped)
            #expect(request.daily == date && DailyWord.number(date: date) == number)
            #expect(request.word == Self.shipped.entries[number - 1].word && request.packID == Self.shipped.entries[number - 1].pack)
            let game = try db.player(profile).startGame(request, now: now)
            #expect(game.id == DailyWord.gameID(player: profile.playerID, date: date) && game.game.secret == request.word)
        }
    }
}
