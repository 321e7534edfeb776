import Foundation
import TestSupport
import Testing

/// The daily word through the real binary and the real schedule script: the player's local
/// date (`TZ`), the number, and a schedule that adding a pack does not change.
@Suite struct DailyScheduleEndToEndTests {
    /// The schedule's `pack word` lines, header and comments left out.
    static func entries(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.hasPrefix("first ") && !$0.isEmpty }
    }

    @Test func twoZonesEitherSideOfMidnightUTCEachPlayTheirOwnDatesWord() throws {
        // 23:30 UTC on 23 November 2026: the 24th in Tokyo (#3), the 23rd in Los Angeles (#2).
        let target = ISO8601DateFormatter().date(from: "2026-11-23T23:30:00Z")!.timeIntervalSince1970
        let schedule = Self.entries(try String(contentsOf: Binary.repository.appendingPathComponent("Resources/daily/schedule.txt"), encoding: .utf8))
        // POSIX TZ strings as the C library (and `date`) reads them: JST-9 is nine hours ahead
        // of UTC, UTC+09 nine hours behind it.
        for (zone, date, number) in [("Asia/Tokyo", "2026-11-24", 3), ("America/Los_Angeles", "2026-11-23", 2),
                                     ("JST-9", "2026-11-24", 3), ("UTC+09", "2026-11-23", 2), (":Asia/Tokyo", "2026-11-24", 3)] {
            let machine = Machine()
            defer { machine.remove() }
            let env = ["TZ": zone, "QIKTIONARY_CLOCK_OFFSET": String(target - Date().timeIntervalSince1970)]
            let result = try Binary.run(["play", "--plain", "--json", "--daily", "--no-sync"] + machine.options, input: "", environment: env)
            #expect(result.status == 0, "\(result.stderr)")
            let game = try #require(result.events.first?["game"] as? [String: Any])
            #expect(game["daily"] as? String == date && game["dailyNumber"] as? Int == number, "\(zone): \(game)")
            let scheduled = schedule[number - 1].split(separator: " ").map(String.init)
            #expect(game["pack"] as? String == scheduled[0], "\(zone)")
            // Given up, the game says its word: the schedule's for that date.
            let over = try Binary.run(["play", "--plain", "--json", "--daily", "--no-sync"] + machine.options, input: "give-up\nshare\n", environment: env)
            let ended = try #require(over.events.first { $0["event"] as? String == "ended" })
            #expect(ended["word"] as? String == scheduled[1], "\(zone)")
            #expect((ended["nextDailyInSeconds"] as? Int).map { (0...86_400).contains($0) } == true)
            let share = try #require(over.events.first { $0["event"] as? String == "share" })
            #expect((share["text"] as? String)?.hasPrefix("Qiktionary daily #\(number) ·") == true, "\(share)")
            // History carries the number.
            let history = try Binary.run(["history", "--json"] + machine.options, environment: env)
            #expect(history.stdout.contains("\"dailyNumber\" : \(number)") || history.stdout.contains("\"dailyNumber\":\(number)"), "\(history.stdout)")
        }
    }

    @Test func addingAPackChangesNoDayAlreadyScheduled() throws {
        let repository = Binary.repository
        let temp = FileManager.default.temporaryDirectory.appendingPathComponent("qk-schedule-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: temp) }
        let resources = temp.appendingPathComponent("Resources")
        try FileManager.default.createDirectory(at: resources.appendingPathComponent("daily"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: repository.appendingPathComponent("Resources/packs"), to: resources.appendingPathComponent("packs"))
        let schedule = resources.appendingPathComponent("daily/schedule.txt")
        try FileManager.default.copyItem(at: repository.appendingPathComponent("Resources/daily/schedule.txt"), to: schedule)
        let before = try String(contentsOf: schedule, encoding: .utf8)
        let script = repository.appendingPathComponent("scripts/extend-daily-schedule")
        func extend() throws {
            let ran = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, resources.path],
                                            environment: ProcessInfo.processInfo.environment)
            #expect(ran.status == 0, "\(ran.stderr)")
        }
        // Nothing new: nothing changes.
        try extend()
        #expect(try String(contentsOf: schedule, encoding: .utf8) == before)
        // A new pack of 20 words: appended after the last day, every earlier day as it was.
        let words = (1...20).map { n in "{ \"word\": \"w\(String(UnicodeScalar(96 + n)!))ord\", \"fact\": \"A fact.\" }" }
        try """
            { "id": "extra", "version": 1, "title": "Extra", "description": "More.", "length": 5, "rules": "classic",
              "words": [\(words.joined(separator: ", "))] }
            """.write(to: resources.appendingPathComponent("packs/extra.json"), atomically: true, encoding: .utf8)
        try extend()
        let after = try String(contentsOf: schedule, encoding: .utf8)
        #expect(after.hasPrefix(before), "the lines already there are kept, byte for byte")
        let old = Self.entries(before), new = Self.entries(after)
        #expect(new.count == old.count + 20 && Set(new.suffix(20)).count == 20 && new.suffix(20).allSatisfy { $0.hasPrefix("extra ") })
        // The next 365 days (and every day already listed) keep their words.
        let today = Int(Date().timeIntervalSince1970 / 86_400) - 20_779
        for day in max(0, today)..<(max(0, today) + 365) where day < old.count { #expect(new[day] == old[day]) }
        #expect(Array(new.prefix(old.count)) == old)
        // Run again: nothing more.
        try extend()
        #expect(try String(contentsOf: schedule, encoding: .utf8) == after)
    }
}
