import Foundation
import QiktionaryCore
import Testing

/// The daily word's day is the player's local date: numbered, and counted down to local midnight.
@Suite struct DailyClockTests {
    static func zone(_ id: String) throws -> TimeZone { try #require(TimeZone(identifier: id)) }
    /// A UTC moment, "2027-03-14T06:30:00Z".
    static func at(_ text: String) throws -> Date { try #require(ISO8601DateFormatter().date(from: text)) }

    @Test func twoZonesOnEitherSideOfMidnightUTCEachGetTheirOwnDate() throws {
        let schedule = try DailySchedule(text: "first 2026-11-22\na tiger\nb crane\nc plumb\nd slate\n")
        // 23:30 UTC on 23 November: already the 24th in Tokyo, still the 23rd in Los Angeles.
        let now = try Self.at("2026-11-23T23:30:00Z")
        let tokyo = DailyClock(now: now, timeZone: try Self.zone("Asia/Tokyo"))
        let losAngeles = DailyClock(now: now, timeZone: try Self.zone("America/Los_Angeles"))
        #expect(tokyo.date == "2026-11-24" && losAngeles.date == "2026-11-23")
        #expect(schedule.entry(day: tokyo.day)?.word == "plumb" && schedule.entry(day: losAngeles.day)?.word == "crane")
        #expect(DailyWord.number(day: tokyo.day) == 3 && DailyWord.number(day: losAngeles.day) == 2)
        // Half an hour later (midnight UTC) UTC moves on, neither zone does.
        let later = DailyClock(now: now.addingTimeInterval(1_800), timeZone: try Self.zone("America/Los_Angeles"))
        #expect(later.date == "2026-11-23")
        #expect(DailyClock(now: now.addingTimeInterval(1_800), timeZone: try Self.zone("UTC")).date == "2026-11-24")
        // Each changes at its own midnight: Tokyo's next word at 15:00 UTC, Los Angeles's at 08:00 UTC.
        #expect(tokyo.nextDayStarts == (try Self.at("2026-11-24T15:00:00Z")))
        #expect(losAngeles.nextDayStarts == (try Self.at("2026-11-24T08:00:00Z")))
        #expect(losAngeles.untilNextDayText == "8h 30m" && tokyo.untilNextDayText == "15h 30m")
    }

    @Test func theCountdownAndNumberAreRightAcrossADaylightSavingChange() throws {
        let newYork = try Self.zone("America/New_York")
        // 14 March 2027: clocks go forward at 02:00, the day is 23 hours long.
        let spring = DailyClock(now: try Self.at("2027-03-14T05:30:00Z"), timeZone: newYork)  // 00:30 EST
        #expect(spring.date == "2027-03-14" && spring.untilNextDayText == "22h 30m")
        #expect(spring.nextDayStarts == (try Self.at("2027-03-15T04:00:00Z")))  // midnight EDT
        let after = DailyClock(now: spring.nextDayStarts, timeZone: newYork)
        #expect(after.date == "2027-03-15" && DailyWord.number(day: after.day) == DailyWord.number(day: spring.day).map { $0 + 1 })
        #expect(after.untilNextDayText == "24h 0m")
        // 7 November 2027: clocks go back at 02:00, the day is 25 hours long.
        let autumn = DailyClock(now: try Self.at("2027-11-07T04:30:00Z"), timeZone: newYork)  // 00:30 EDT
        #expect(autumn.date == "2027-11-07" && autumn.untilNextDayText == "24h 30m")
        #expect(DailyWord.number(day: autumn.day) == 351)
        #expect(DailyWord.number(day: DailyClock(now: autumn.nextDayStarts, timeZone: newYork).day) == 352)
        // A minute before midnight, and its last seconds, round up to the minute.
        let late = DailyClock(now: try Self.at("2027-11-08T04:59:01Z"), timeZone: newYork)  // 23:59:01 EST
        #expect(late.date == "2027-11-07" && late.secondsToNextDay == 59 && late.untilNextDayText == "0h 1m")
    }

    @Test func aZoneWhoseMidnightIsSkippedStillGetsItsNextDay() throws {
        // São Paulo moved its clocks forward at midnight on 4 November 2018: that day began at 01:00.
        let saoPaulo = try Self.zone("America/Sao_Paulo")
        let clock = DailyClock(now: try Self.at("2018-11-04T01:00:00Z"), timeZone: saoPaulo)  // 22:00 on the 3rd
        #expect(clock.date == "2018-11-03")
        #expect(clock.nextDayStarts == (try Self.at("2018-11-04T03:00:00Z")))
        #expect(DailyClock(now: clock.nextDayStarts, timeZone: saoPaulo).date == "2018-11-04")
        #expect(clock.untilNextDayText == "2h 0m")
    }
}
