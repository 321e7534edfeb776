/// Days since 1970-01-01 to a date of the proleptic Gregorian calendar and back (Howard
/// Hinnant's civil_from_days and days_from_civil): UTC dates by arithmetic, with no time zone
/// or formatter. Inlinable: storage writes dates this way on its hottest path.
public enum CivilDate {
    @inlinable
    public static func date(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    @inlinable
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

import Foundation

extension CivilDate {
    /// A time as lists show it, "2026-11-22 14:05", in UTC.
    public static func shortText(_ date: Date) -> String {
        let seconds = Int((date.timeIntervalSince1970).rounded(.down))
        let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let (day, second) = secondOfDay < 0 ? (days - 1, secondOfDay + 86_400) : (days, secondOfDay)
        let (year, month, dayOfMonth) = self.date(days: day)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(dayOfMonth)) \(two(second / 3_600)):\(two(second / 60 % 60))"
    }
}

/// A time as lists show it, "2026-11-22 14:05" (UTC); nothing for no time.
public func shortDate(_ date: Date?) -> String { date.map(CivilDate.shortText) ?? "" }
