import Foundation

/// The daily schedule: the word of every date from the first daily on, read from the file the
/// game ships (`Resources/daily/schedule.txt`). Line n after the header is the word of daily
/// number n. The file only ever grows at its end (`scripts/extend-daily-schedule`), so every
/// version of the game agrees on every date it knows.
///
/// The file: lines starting with `#` are comments, blank lines are skipped, the first other line
/// is `first YYYY-MM-DD` (the date of daily #1), then one `pack word` per line.
///
/// Past its last line the schedule goes round again from its first: daily number n takes line
/// ((n - 1) mod count) + 1. Dates before the first daily go round the same way backwards (they
/// have no number). A version whose schedule is longer names new words on those days; a daily
/// game already started keeps the word in its record.
public struct DailySchedule: Sendable, Equatable {
    public struct Entry: Sendable, Equatable, Hashable {
        public var pack: String
        public var word: String
        public init(pack: String, word: String) {
            self.pack = pack
            self.word = word
        }
    }

    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "daily schedule, line \(line): \(message)" }
    }

    /// The day (since 1970-01-01) of daily #1.
    public let firstDay: Int
    public let entries: [Entry]

    public init(firstDay: Int, entries: [Entry]) {
        self.firstDay = firstDay
        self.entries = entries
    }

    public init(text: String) throws(Problem) {
        var first: Int?
        var entries: [Entry] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard fields.count == 2 else { throw Problem(line: index + 1, message: "expected two words, got '\(line)'") }
            if first == nil {
                guard fields[0] == "first", let day = DailyWord.day(of: fields[1]) else {
                    throw Problem(line: index + 1, message: "expected 'first YYYY-MM-DD', got '\(line)'")
                }
                first = day
                continue
            }
            guard fields[1].utf8.allSatisfy({ (97...122).contains($0) }), !fields[1].isEmpty else {
                throw Problem(line: index + 1, message: "'\(fields[1])' is not a lowercase word")
            }
            entries.append(Entry(pack: fields[0], word: fields[1]))
        }
        guard let first else { throw Problem(line: 1, message: "no 'first YYYY-MM-DD' line") }
        self.init(firstDay: first, entries: entries)
    }

    /// The date of daily #1, "2026-11-22".
    public var firstDate: String { DailyWord.date(day: firstDay) }

    /// The word of a day (days since 1970-01-01), round and round past the end; nil only for an
    /// empty schedule.
    public func entry(day: Int) -> Entry? {
        guard !entries.isEmpty else { return nil }
        let count = entries.count
        let index = day - firstDay
        return entries[((index % count) + count) % count]
    }

    /// Whether the schedule lists a day itself rather than going round to reach it.
    public func lists(day: Int) -> Bool { (firstDay..<(firstDay + entries.count)).contains(day) }

    /// The number of a day's daily game: 1 for the first date, nil before it.
    public func number(day: Int) -> Int? { day >= firstDay ? day - firstDay + 1 : nil }
}
