@testable import CloudStore
import Foundation
@testable import QiktionaryCore
import Storage
import Testing

/// Every record type's merge, over random values: commutative, associative and idempotent, and
/// the same set of versions folded in any order gives the same result. A game's guesses are a
/// union of immutable records (no merge to prove); a game's fields merge by `GameMerge`; match
/// plays by `MatchPlay.merge`; leaderboard lines by `Standing.merge`; marks and bookmarks by
/// the store's last writer wins (the highest clock reading, then the device), which is how the
/// store picks the version every reader sees.
@Suite struct MergePropertyTests {
    static let cases = 500

    /// The three laws and order independence for `merge` over values drawn by `draw`.
    func laws<T: Equatable>(_ name: String, seed: UInt64, draw: (inout SeededGenerator) -> T, merge: (T, T) -> T) {
        var rng = SeededGenerator(seed: seed)
        for index in 0..<Self.cases {
            let a = draw(&rng), b = draw(&rng), c = draw(&rng)
            let context = Comment(rawValue: "\(name), case \(index) of seed \(seed):\n  a \(a)\n  b \(b)\n  c \(c)")
            #expect(merge(a, b) == merge(b, a), "commutative: \(context)")
            #expect(merge(merge(a, b), c) == merge(a, merge(b, c)), "associative: \(context)")
            #expect(merge(a, a) == a, "idempotent: \(context)")
            let versions = (0..<Int.random(in: 2...6, using: &rng)).map { _ in draw(&rng) }
            let once = versions.dropFirst().reduce(versions[0], merge)
            for _ in 0..<4 {
                var shuffled = versions.shuffled(using: &rng)
                // Some versions arrive twice.
                shuffled += shuffled.prefix(Int.random(in: 0...2, using: &rng))
                #expect(shuffled.dropFirst().reduce(shuffled[0], merge) == once, "any order, any repeats: \(context)")
            }
        }
    }

    // MARK: Games

    /// Copies of one game as two machines may hold it: what makes the game alike, and what
    /// play changes (status with its finish, the later change, help level, hard mode, hints).
    static func gameCopy(_ rng: inout SeededGenerator) -> SyncGame {
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        let status = GameStatus.allCases.randomElement(using: &rng)!
        let updated = start + Double(Int.random(in: 0...5, using: &rng))
        return SyncGame(
            id: "00000000-0000-4000-8000-000000000001", packID: "animals", secret: "tiger", fact: "stripes", rules: .classic,
            maxGuesses: 6, status: status, startedAt: start, updatedAt: updated,
            finishedAt: status.isFinished ? start + Double(Int.random(in: 1...5, using: &rng)) : nil, startedOn: "laptop",
            lastChangedOn: ["laptop", "desktop", "tablet"].randomElement(using: &rng)!, hard: Bool.random(using: &rng),
            assist: Assist.allCases.randomElement(using: &rng)!,
            hints: HintLog.text((0..<Int.random(in: 0...3, using: &rng)).map { _ in Int.random(in: 0...5, using: &rng) }),
            daily: Bool.random(using: &rng) ? "2026-11-22" : nil,
            matchResult: [nil, nil, "gave-up 2 x none 1,1", matchResult(&rng).text].randomElement(using: &rng)!)
    }

    /// A finished game's result as a match publishes it (`matchResult` drawn alone, from a
    /// small range so that ties and near ties come up).
    static func matchResult(_ rng: inout SeededGenerator) -> MatchResult {
        let rows = (0..<Int.random(in: 1...4, using: &rng)).map { _ in Feedback.common(Int.random(in: 0...2, using: &rng)) }
        return MatchResult(status: [.won, .lost, .gaveUp].randomElement(using: &rng)!, guesses: rows.count,
                           hints: Int.random(in: 0...1, using: &rng), assist: Assist.allCases.randomElement(using: &rng)!,
                           grid: MatchGrid(rows))
    }

    @Test func gameMerge() {
        laws("GameMerge.merge", seed: 1, draw: Self.gameCopy, merge: GameMerge.merge)
    }

    /// A merged game settled by its guesses (`GameMerge.settle`) is settled the same whichever
    /// copies came first: settling after any fold gives one status and finish.
    @Test func settlingAfterAMergeInAnyOrder() {
        var rng = SeededGenerator(seed: 2)
        let words = ["crane", "pilot", "mouse", "tiger", "shark", "whale", "bison"]
        for _ in 0..<Self.cases {
            let copies = (0..<Int.random(in: 2...4, using: &rng)).map { _ in Self.gameCopy(&rng) }
            let guesses = words.shuffled(using: &rng).prefix(Int.random(in: 0...7, using: &rng)).enumerated().map {
                (word: $0.element, playedAt: Date(timeIntervalSince1970: 1_790_000_000 + Double($0.offset)))
            }
            func settled(_ copies: [SyncGame]) -> String {
                let game = copies.dropFirst().reduce(copies[0], GameMerge.merge)
                let done = GameMerge.settle(status: game.status, finishedAt: game.finishedAt, secret: game.secret, maxGuesses: game.maxGuesses,
                                            guesses: guesses)
                return "\(done.status) \(String(describing: done.finishedAt))"
            }
            let first = settled(copies)
            for _ in 0..<3 { #expect(settled(copies.shuffled(using: &rng)) == first) }
        }
    }

    // MARK: Matches and leaderboards

    static func matchPlay(_ rng: inout SeededGenerator) -> MatchPlay {
        let rows = (0..<Int.random(in: 1...6, using: &rng)).map { _ in Feedback.common(Int.random(in: 0...5, using: &rng)) }
        let progress: MatchPlay.Progress = Bool.random(using: &rng)
            ? .playing(guesses: Int.random(in: 0...5, using: &rng))
            : .finished(MatchResult(status: [.won, .lost, .gaveUp].randomElement(using: &rng)!, guesses: rows.count,
                                    hints: Int.random(in: 0...2, using: &rng), assist: Assist.allCases.randomElement(using: &rng)!,
                                    grid: MatchGrid(rows)))
        return MatchPlay(match: "m1", player: "ann", index: 1, progress: progress)
    }

    @Test func matchPlayMerge() {
        laws("MatchPlay.merge", seed: 3, draw: Self.matchPlay, merge: MatchPlay.merge)
    }

    /// A game keeps the result its player's machines published furthest on (`SyncGame.matchResult`,
    /// merged by `MatchResult.furthest`): its order is the one readers merge plays by, so what a
    /// game keeps is what every reader of those plays holds.
    @Test func aKeptResultMergesAsThePlaysItWasPublishedAs() {
        laws("MatchResult.furthest", seed: 5, draw: { rng in Self.matchResult(&rng).text }, merge: { MatchResult.furthest($0, $1)! })
        var rng = SeededGenerator(seed: 6)
        for _ in 0..<Self.cases {
            let a = Self.matchResult(&rng), b = Self.matchResult(&rng)
            func play(_ result: MatchResult) -> MatchPlay { MatchPlay(match: "m1", player: "ann", index: 1, progress: .finished(result)) }
            #expect(MatchResult.furthest(a.text, b.text) == MatchPlay.merge(play(a), play(b)).result?.text, "\(a.text) and \(b.text)")
        }
    }

    static func standing(_ rng: inout SeededGenerator) -> Standing {
        var tallies: [Assist: Standing.Tally] = [:]
        for level in Assist.allCases where Bool.random(using: &rng) {
            let games = Int.random(in: 1...50, using: &rng), wins = Int.random(in: 0...games, using: &rng)
            tallies[level] = Standing.Tally(games: games, wins: wins, winGuesses: wins * Int.random(in: 1...6, using: &rng))
        }
        var days: [String: DailyResult] = [:]
        // Sometimes more dates than a line keeps, so the window's cut is merged too.
        for _ in 0..<Int.random(in: 0...(Bool.random(using: &rng) ? 8 : 120), using: &rng) {
            let day = Int.random(in: 1...150, using: &rng)
            let date = DailyWord.date(day: 20_000 + day)
            let won = Bool.random(using: &rng)
            days[date] = DailyResult(status: won ? .won : [.lost, .gaveUp].randomElement(using: &rng)!, guesses: Int.random(in: 1...6, using: &rng),
                                     hard: Bool.random(using: &rng), hints: Int.random(in: 0...2, using: &rng),
                                     assist: Assist.allCases.randomElement(using: &rng)!)
        }
        return Standing(tallies: tallies, bestDailyStreak: Int.random(in: 0...9, using: &rng), matchesWon: Int.random(in: 0...5, using: &rng), days: days)
    }

    @Test func standingMerge() {
        laws("Standing.merge", seed: 4, draw: Self.standing, merge: Standing.merge)
    }

    // MARK: Marks and bookmarks: the store's last writer wins

    /// One version of a mark or bookmark as some device wrote it: its clock reading, its device.
    struct Version: Equatable, CustomStringConvertible {
        var hlc: HLCTimestamp
        var device: String
        var value: String

        var entry: RecordEntry {
            RecordEntry(name: "bookmark-tiger", type: "Bookmark", seq: 1, hlc: hlc, deleted: value == "deleted",
                        fields: value == "deleted" ? nil : ["word": .string(value)], createdBy: DeviceID(validated: device), createdAt: hlc)
        }

        var description: String { "\(hlc) \(device) \(value)" }
    }

    static func version(_ rng: inout SeededGenerator) -> Version {
        // Few clock readings and devices, so equal readings from two devices are common.
        Version(hlc: HLCTimestamp(millis: Int64(Int.random(in: 0...3, using: &rng)), counter: UInt32(Int.random(in: 0...1, using: &rng))),
                device: ["device-0", "device-1", "device-2"].randomElement(using: &rng)!,
                value: ["in", "out", "deleted"].randomElement(using: &rng)!)
    }

    /// The winner the store keeps of the versions it has read, in the order it read them.
    static func winner(_ a: Version, _ b: Version) -> Version {
        var kept = ZoneView.Winner(entry: a.entry, device: DeviceID(validated: a.device), firstSeq: FirstSeen(DeviceID(validated: a.device), 1))
        kept.absorb(b.entry, from: DeviceID(validated: b.device))
        return kept.device.name == a.device && kept.entry.hlc == a.hlc ? a : b
    }

    /// Two versions of one record from one device with one clock reading are one version:
    /// a device never stamps two edits alike.
    static func distinct(_ versions: [Version]) -> Bool {
        Set(versions.map { "\($0.hlc) \($0.device)" }).count == Set(versions.map(\.description)).count
    }

    @Test func lastWriterWins() {
        var rng = SeededGenerator(seed: 5)
        var checked = 0
        while checked < Self.cases {
            let versions = (0..<Int.random(in: 2...6, using: &rng)).map { _ in Self.version(&rng) }
            guard Self.distinct(versions) else { continue }
            checked += 1
            let (a, b, c) = (versions[0], versions[1], versions[versions.count - 1])
            #expect(Self.winner(a, b) == Self.winner(b, a), "commutative: \(a), \(b)")
            #expect(Self.winner(Self.winner(a, b), c) == Self.winner(a, Self.winner(b, c)), "associative: \(a), \(b), \(c)")
            #expect(Self.winner(a, a) == a, "idempotent: \(a)")
            let once = versions.dropFirst().reduce(versions[0], Self.winner)
            for _ in 0..<4 {
                var shuffled = versions.shuffled(using: &rng)
                shuffled += shuffled.prefix(Int.random(in: 0...2, using: &rng))
                #expect(shuffled.dropFirst().reduce(shuffled[0], Self.winner) == once, "any order: \(versions)")
            }
        }
    }
}
