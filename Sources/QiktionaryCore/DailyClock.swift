import Foundation

/// The moment and time zone the daily word is reckoned in: the player's local calendar date,
/// so the word changes at their midnight. The command line passes the system's clock and the
/// zone `TZ` names as the C library reads it (App's `Setup.systemTimeZone`: POSIX strings such
/// as `JST-9` included); tests pass any moment and zone.
public struct DailyClock: Sendable, Equatable {
    public var now: Date
    public var timeZone: TimeZone

    public init(now: Date, timeZone: TimeZone) {
        self.now = now
        self.timeZone = timeZone
    }

    /// The system's: this moment, in the zone the system (or `TZ`) names.
    public static func system(now: Date = Date()) -> DailyClock { DailyClock(now: now, timeZone: .current) }

    private var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    /// The local date as days since 1970-01-01 (`DailyWord.date(day:)` writes it).
    public var day: Int {
        let parts = calendar.dateComponents([.year, .month, .day], from: now)
        return CivilDate.days(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
    }

    /// The local date, "2026-11-22".
    public var date: String { DailyWord.date(day: day) }

    /// The moment the next local date begins (its first moment, even where a daylight-saving
    /// change skips midnight).
    public var nextDayStarts: Date {
        let calendar = self.calendar
        let today = calendar.startOfDay(for: now)
        // Noon of today plus a day is always tomorrow, whatever the clocks do overnight.
        let noon = calendar.date(byAdding: .hour, value: 12, to: today) ?? now
        let tomorrow = calendar.date(byAdding: .day, value: 1, to: noon) ?? now.addingTimeInterval(86_400)
        return calendar.startOfDay(for: tomorrow)
    }

    /// Whole seconds to the next local date.
    public var secondsToNextDay: Int { max(0, Int(nextDayStarts.timeIntervalSince(now).rounded(.up))) }

    /// "3h 12m", the time to the next local date in hours and minutes (rounded up to the
    /// minute, so "0h 1m" in its last minute).
    public var untilNextDayText: String { Self.duration(seconds: secondsToNextDay) }

    public static func duration(seconds: Int) -> String {
        let minutes = (max(0, seconds) + 59) / 60
        return "\(minutes / 60)h \(minutes % 60)m"
    }
}
