/// The daily word: one word a day for every player on every machine, by the UTC calendar.
///
/// Days are counted from 1970-01-01 (day 0), so the caller turns its clock into a day with
/// `day(secondsSince1970:)` and nothing here depends on a time zone.
public enum DailyWord {
    /// The UTC day a moment falls in.
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

    /// The day's word among the packs' words. The words are put in one fixed order (shuffled
    /// once by a fixed seed, so neighbouring days come from different packs) and day n takes the
    /// nth, round and round: the same on every machine that has the same packs.
    public static func choose(day: Int, from entries: [(pack: String, word: String)]) -> (pack: String, word: String)? {
        guard !entries.isEmpty else { return nil }
        var order = entries.sorted { ($0.pack, $0.word) < ($1.pack, $1.word) }
        var random = SeededGenerator(seed: 0x0DA1_1A0D)
        order.shuffle(using: &random)
        let count = order.count
        return order[((day % count) + count) % count]
    }

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
