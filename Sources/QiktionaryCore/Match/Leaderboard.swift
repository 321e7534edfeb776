/// The leaderboards of the players visible in the shared folder, from their published lines
/// (`Standing`, each already merged from every version read): the day's word and all time.
/// Games played with more help are ranked apart: one group per help level, no help first.
/// Ranks are shared by equals (1, 2, 2, 4); equals are listed by name.
public enum Leaderboard {
    public struct Group<Row: Sendable & Equatable>: Sendable, Equatable {
        public var assist: Assist
        public var rows: [Row]
    }

    public struct DailyRow: Sendable, Equatable {
        public var rank: Int
        public var player: String
        public var result: DailyResult
    }

    public struct AllTimeRow: Sendable, Equatable {
        public var rank: Int
        public var player: String
        /// The player's games at the group's help level.
        public var tally: Standing.Tally
        /// The longest run of daily words won at the group's help level.
        public var bestDailyStreak: Int
        public var matchesWon: Int
    }

    /// The day's word of `date`: the players who finished it, by help level; a win before a loss
    /// or a give-up, then fewer guesses, fewer hints, and hard mode before the rest.
    public static func daily(_ date: String, standings: [String: Standing]) -> [Group<DailyRow>] {
        let results = standings.compactMap { player, standing in standing.days[date].map { (player: player, result: $0) } }
        return groups(results, level: \.result.assist) { entries in
            ranked(entries, name: \.player, key: { e in
                [e.result.status == .won ? 0 : 1, e.result.status == .won ? e.result.guesses : 0, e.result.hints, e.result.hard ? 0 : 1]
            }).map { DailyRow(rank: $0.rank, player: $0.item.player, result: $0.item.result) }
        }
    }

    /// All time: each player in the group of every help level they played at; more wins first,
    /// then the higher win rate, then fewer guesses a win.
    public static func allTime(_ standings: [String: Standing]) -> [Group<AllTimeRow>] {
        let entries = standings.flatMap { player, standing in
            standing.tallies.filter { $0.value.games > 0 }.map { (player: player, assist: $0.key, tally: $0.value, standing: standing) }
        }
        return groups(entries, level: \.assist) { entries in
            ranked(entries, name: \.player, key: { e in [-Double(e.tally.wins), -e.tally.winRate, e.tally.meanGuesses] }).map {
                AllTimeRow(rank: $0.rank, player: $0.item.player, tally: $0.item.tally,
                           bestDailyStreak: $0.item.tally.bestDailyStreak, matchesWon: $0.item.standing.matchesWon)
            }
        }
    }

    /// The entries by help level, no help first, each level's rows made by `rows`.
    static func groups<Entry, Row>(_ entries: [Entry], level: (Entry) -> Assist, rows: ([Entry]) -> [Row]) -> [Group<Row>] {
        Assist.allCases.compactMap { assist in
            let here = entries.filter { level($0) == assist }
            return here.isEmpty ? nil : Group(assist: assist, rows: rows(here))
        }
    }

    /// The items by `key` (lower is better, compared in order), then by name; an item equal to
    /// the one before by key shares its rank.
    static func ranked<Item, Key: Comparable>(_ items: [Item], name: (Item) -> String, key: (Item) -> [Key]) -> [(rank: Int, item: Item)] {
        let sorted = items.map { (key: key($0), name: name($0), item: $0) }.sorted {
            $0.key != $1.key ? $0.key.lexicographicallyPrecedes($1.key) : $0.name < $1.name
        }
        var ranked: [(rank: Int, item: Item)] = []
        for (position, entry) in sorted.enumerated() {
            let rank = position > 0 && sorted[position - 1].key == entry.key ? ranked[position - 1].rank : position + 1
            ranked.append((rank, entry.item))
        }
        return ranked
    }
}
