/// The daily word: one word a day for every player on every machine, by the player's local
/// calendar date (`DailyClock`), from the shipped schedule (`DailySchedule`).
///
/// Days are counted from 1970-01-01 (day 0); a date is written "yyyy-mm-dd". Daily games are
/// numbered from the first daily, 2026-11-22 (#1), the day daily games first shipped.
public enum DailyWord {
    /// The UTC day a moment falls in (the daily word takes the local one, `DailyClock.day`).
    public static func day(secondsSince1970 seconds: Double) -> Int {
        Int((seconds / 86_400).rounded(.down))
    }

    /// "2026-11-22" for a day.
    public static func date(day: Int) -> String {
        let (year, month, dayOfMonth) = CivilDate.date(days: day)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(dayOfMonth))"
    }

    /// The day of a date written "yyyy-mm-dd", or nil when it is not a real date of that form.
    public static func day(of date: String) -> Int? {
        let parts = date.split(separator: "-", omittingEmptySubsequences: false)
        guard date.utf8.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.utf8.allSatisfy { (48...57).contains($0) } }),
              let year = Int(parts[0]), let month = Int(parts[1]), let dayOfMonth = Int(parts[2]),
              (1...12).contains(month), (1...31).contains(dayOfMonth) else { return nil }
        let day = CivilDate.days(year: year, month: month, day: dayOfMonth)
        // 31 February and the like come back as another date.
        return self.date(day: day) == date ? day : nil
    }

    public static func isDate(_ date: String) -> Bool { day(of: date) != nil }

    /// The date of daily #1: the day daily games first shipped (2026-11-22), so the games
    /// played from then on keep their place in the count. The schedule file starts here.
    public static let firstDate = "2026-11-22"
    public static let firstDay = 20_779

    /// A daily game's number: days since the first daily, #1 for the first date; nil before it
    /// or for what is not a date.
    public static func number(day: Int) -> Int? { day >= firstDay ? day - firstDay + 1 : nil }
    public static func number(date: String) -> Int? { day(of: date).flatMap { number(day: $0) } }

    /// The id of a player's daily game of a date: a lowercase UUID made from the two, the same
    /// on every machine, so that a daily game played on two machines is one game.
    public static func gameID(player: String, date: String) -> String {
        let bytes = Array("qiktionary-daily\u{0}\(player)\u{0}\(date)".utf8)
        var high: UInt64 = 0xcbf2_9ce4_8422_2325, low: UInt64 = 0x8422_2325_cbf2_9ce4
        for byte in bytes {
            high = (high ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            low = (low ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            low ^= high >> 29
        }
        // Mixed through (SplitMix64's finaliser) so neighbouring dates give unrelated ids.
        func mix(_ x: UInt64) -> UInt64 {
            var z = x &+ 0x9E37_79B9_7F4A_7C15
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        (high, low) = (mix(high ^ low), mix(low &+ high))
        // Version 8 (made here) and the RFC variant, so it reads as any other UUID.
        high = (high & ~0xF000) | 0x8000
        low = (low & ~(0xC000_0000_0000_0000 as UInt64)) | 0x8000_0000_0000_0000
        func hex(_ value: UInt64, _ digits: Int) -> String {
            let text = String(value, radix: 16)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        return "\(hex(high >> 32, 8))-\(hex((high >> 16) & 0xFFFF, 4))-\(hex(high & 0xFFFF, 4))-\(hex(low >> 48, 4))-\(hex(low & 0xFFFF_FFFF_FFFF, 12))"
    }
}
