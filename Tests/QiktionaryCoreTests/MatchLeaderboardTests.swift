import Foundation
import Testing
@testable import QiktionaryCore

private func game(_ status: GameStatus, _ guesses: Int, assist: Assist = .proven, hard: Bool = false, hints: Int = 0,
                  daily: String? = nil) -> HistoryGame {
    HistoryGame(FinishedGame(status: status, guessesUsed: guesses, hard: hard, hints: hints, assist: assist), daily: daily)
}

private func date(_ day: Int) -> String { DailyWord.date(day: DailyWord.firstDay + day) }

/// A seeded history of `count` games, about one in three a daily game of its own date.
private func history(_ count: Int, seed: UInt64) -> [HistoryGame] {
    var generator = SeededGenerator(seed: seed)
    return (0..<count).map { n in
        let status: GameStatus = [.won, .won, .won, .lost, .gaveUp].randomElement(using: &generator)!
        let guesses = status == .lost ? 15 : Int.random(in: 1...15, using: &generator)
        return game(status, guesses, assist: Assist.allCases.randomElement(using: &generator)!, hard: Bool.random(using: &generator),
                    hints: Int.random(in: 0...2, using: &generator), daily: n % 3 == 0 ? date(n / 3) : nil)
    }
}

/// Whether every number of `a` is at most `b`'s, and every daily result `a` has is `b`'s (the
/// histories here hold fewer daily games than a line keeps).
private func isBelow(_ a: Standing, _ b: Standing) -> Bool {
    let levels = a.tallies.allSatisfy { level, t in
        let u = b.tallies[level] ?? Standing.Tally()
        return t.games <= u.games && t.wins <= u.wins && t.winGuesses <= u.winGuesses
    }
    let days = a.days.allSatisfy { date, result in b.days[date] == result }
    return levels && days && a.bestDailyStreak <= b.bestDailyStreak && a.matchesWon <= b.matchesWon
}

@Suite struct StandingTests {
    @Test func aLineIsWorkedOutFromTheWholeHistory() {
        let line = Standing(history: [
            game(.won, 4), game(.lost, 15), game(.inProgress, 3),
            game(.won, 3, assist: .noHelp, daily: date(0)), game(.won, 5, assist: .noHelp, hard: true, hints: 1, daily: date(1)),
            game(.lost, 15, daily: date(2)),
            game(.won, 2, daily: date(3)), game(.won, 6, assist: .coach, hints: 3, daily: date(4)), game(.gaveUp, 1, daily: date(6)),
            game(.won, 7, daily: date(5)),
            game(.won, 40, assist: .coach),
        ], matchesWon: 2)
        // Each level's streak counts the days won at that level: days 0 and 1 without help; day 4
        // won with the coach breaks the proven run of days 3 and 5.
        #expect(line.tallies == [.proven: .init(games: 6, wins: 3, winGuesses: 13, bestDailyStreak: 1),
                                 .noHelp: .init(games: 2, wins: 2, winGuesses: 8, bestDailyStreak: 2),
                                 .coach: .init(games: 2, wins: 2, winGuesses: 36, bestDailyStreak: 1)])
        #expect(line.total == .init(games: 10, wins: 7, winGuesses: 57))
        #expect(line.tallies[.proven]?.winRate == 0.5 && line.tallies[.coach]?.meanGuesses == 18)
        // Days 3, 4 and 5 won in a row at any level; day 2 lost.
        #expect(line.bestDailyStreak == 3 && line.matchesWon == 2)
        #expect(line.days.count == 7)
        #expect(line.days[date(1)] == DailyResult(status: .won, guesses: 5, hard: true, hints: 1, assist: .noHelp))
        #expect(line.days[date(6)] == DailyResult(status: .gaveUp, guesses: 1, hard: false, hints: 0, assist: .proven))
        #expect(Standing.Tally().winRate == 0 && Standing.Tally().meanGuesses == 0)
        #expect(Standing(history: [], matchesWon: 0) == Standing())
    }

    @Test func aStoredGameIsReadAsTheStatisticsReadIt() {
        let won = matchGame("tiger", ["crane", "tiger", "slate"], assist: .coach)
        var synced = SyncGame.started(id: won.id, packID: won.packID, secret: won.secret, fact: "", rules: won.rules, maxGuesses: won.maxGuesses,
                                      hard: won.hard, assist: won.assist, daily: "2026-11-25", at: Date(), on: "a")
        synced.status = won.status
        synced.finishedAt = Date()
        synced.hints = "0,1"
        let saved = SavedGame(synced, guesses: won.guesses, marks: won.marks, bookmarked: false, guessDevices: [])
        #expect(HistoryGame(saved) == game(.won, 2, assist: .coach, hints: 2, daily: "2026-11-25"))
        var playing = saved
        playing.game = matchGame("tiger", ["crane"])
        #expect(HistoryGame(playing) == nil)
    }

    @Test func aStreakIsOfDaysInARow() {
        #expect(Standing.longestRun([]) == 0)
        #expect(Standing.longestRun([5]) == 1)
        #expect(Standing.longestRun([1, 2, 3, 5, 6]) == 3)
        #expect(Standing.longestRun([10, 8, 9, 11, 20, 21]) == 4)
    }

    @Test func aPartialHistoryNeverGivesAHigherLineAndMergingNeverLowersOne() {
        let full = history(240, seed: 1)
        let whole = Standing(history: full, matchesWon: 5)
        var generator = SeededGenerator(seed: 2)
        var parts: [Standing] = []
        for _ in 0..<40 {
            let part = full.filter { _ in Bool.random(using: &generator) }
            let line = Standing(history: part.shuffled(using: &generator), matchesWon: Int.random(in: 0...5, using: &generator))
            #expect(isBelow(line, whole))
            #expect(Standing.merge(line, whole) == whole && Standing.merge(whole, line) == whole)
            parts.append(line)
        }
        for (a, b) in zip(parts, parts.dropFirst()) {
            let ab = Standing.merge(a, b)
            #expect(ab == Standing.merge(b, a) && Standing.merge(ab, ab) == ab && isBelow(a, ab) && isBelow(b, ab))
            #expect(Standing.merge(ab, parts[0]) == Standing.merge(a, Standing.merge(b, parts[0])))
        }
    }

    @Test func aNewMachineNeverLowersTheLineAndComesToTheSameOne() {
        let old = history(120, seed: 3)
        let published = Standing(history: old, matchesWon: 4)
        // The new machine has synced a few games and played one of its own.
        let played = game(.won, 1, assist: .noHelp, daily: date(200))
        let early = Standing(history: Array(old.prefix(12)) + [played], matchesWon: 4)
        let merged = Standing.merge(published, early)
        #expect(isBelow(published, merged) && isBelow(early, merged))
        #expect(merged.days[date(200)] != nil && merged.tallies[.noHelp]!.wins >= published.tallies[.noHelp]!.wins)
        // After its first full sync both machines work out the whole line, which the merge comes to.
        let synced = Standing(history: old + [played], matchesWon: 4)
        #expect(Standing.merge(merged, synced) == synced && Standing.merge(synced, merged) == synced)
    }

    @Test func onlyTheLatestDaysAreKept() {
        let days = (0..<100).map { game(.won, 3, daily: date($0)) }
        let line = Standing(history: days, matchesWon: 0)
        #expect(line.days.count == Standing.dayWindow && line.days[date(99)] != nil && line.days[date(9)] == nil && line.days[date(10)] != nil)
        #expect(line.bestDailyStreak == 100 && line.tallies[.proven]?.bestDailyStreak == 100)
        let older = Standing(history: days.prefix(50), matchesWon: 0)
        #expect(Standing.merge(older, line).days == line.days)
        // One date's two versions merge to the one further on.
        let a = Standing(history: [game(.lost, 15, daily: date(0))], matchesWon: 0)
        let b = Standing(history: [game(.won, 4, hints: 1, daily: date(0))], matchesWon: 0)
        #expect(Standing.merge(a, b).days[date(0)]?.status == .won && Standing.merge(b, a) == Standing.merge(a, b))
    }
}

@Suite struct PublishedStandingTests {
    @Test func dailyResultsTravelAsLines() throws {
        let line = Standing(history: history(90, seed: 5), matchesWon: 1)
        #expect(line.dayLines.count == 30 && line.dayLines == line.dayLines.sorted())
        #expect(try Standing.days(lines: line.dayLines) == line.days)
        let result = DailyResult(status: .won, guesses: 4, hard: true, hints: 1, assist: .proven)
        #expect(result.line(date: "2026-11-25") == "2026-11-25 won 4 1 proven hard")
        #expect(try DailyResult.parse("2026-11-25 won 4 1 proven hard") == ("2026-11-25", result) as (String, DailyResult))
        #expect(try DailyResult.parse("2026-11-25 gave-up 0 1 none").result == DailyResult(status: .gaveUp, guesses: 0, hard: false,
                                                                                            hints: 1, assist: .noHelp))
        // The history's days run past today's date: checked as of its own last day.
        try line.check(latestDay: String(try #require(line.dayLines.last).prefix(10)))
        #expect(throws: MatchRefusal.self) { try line.check(latestDay: "2000-01-01") }
    }

    @Test func everyImpossibleDailyResultIsRefusedWithOneLine() {
        let cases: [(String, MatchRefusal)] = [
            ("2026-11-25 won 4 1 proven soft", .badDay("2026-11-25 won 4 1 proven soft")),
            ("2026-11-25 won 4 1", .badDay("2026-11-25 won 4 1")),
            ("2026-02-30 won 4 1 proven", .badDay("2026-02-30 won 4 1 proven")),
            ("2026-11-25 won four 1 proven", .badDay("2026-11-25 won four 1 proven")),
            ("2026-11-25  won 4 1 proven", .badDay("2026-11-25  won 4 1 proven")),
            ("2026-11-25 won 4 1 proven hard \u{1B}[2J", .badDay("2026-11-25 won 4 1 proven hard \u{1B}[2J")),
            ("2026-11-25 in-progress 4 1 proven", .badStatus("in-progress")),
            ("2026-11-25 won 4 1 all", .badAssist("all")),
            ("2026-11-25 won 0 0 proven", .winInNoGuesses),
            ("2026-11-25 lost 0 0 proven", .lossBeforeLimit(0, limit: 1)),
            ("2026-11-25 won 31 0 proven", .tooManyGuesses(31, limit: 30)),
            ("2026-11-25 won 3 5 proven", .tooManyHints(5, guesses: 3)),
            ("2026-11-25 won -3 0 proven", .negative("guesses", -3)),
            ("2026-11-25 won 3 -1 proven", .negative("hints", -1)),
        ]
        for (line, expected) in cases {
            #expect(throws: expected, "\(line)") { try DailyResult.parse(line) }
            #expect(MatchFixture.isOneSafeLine(expected))
        }
        #expect(throws: MatchRefusal.badDay(String(repeating: "9", count: 61))) { try DailyResult.parse(String(repeating: "9", count: 61)) }
        let twice = ["2026-11-25 won 4 1 proven", "2026-11-25 lost 15 0 proven"]
        #expect(throws: MatchRefusal.badStanding("holds 2026-11-25 twice")) { try Standing.days(lines: twice) }
        let many = (0..<91).map { DailyResult(status: .won, guesses: 2, hard: false, hints: 0, assist: .proven).line(date: date($0)) }
        #expect(throws: MatchRefusal.badStanding("holds 91 days, more than 90")) { try Standing.days(lines: many) }
    }

    @Test func everyImpossibleLineIsRefusedWithOneLine() {
        let won = DailyResult(status: .won, guesses: 2, hard: false, hints: 0, assist: .proven)
        let cases: [(MatchRefusal, (inout Standing) -> Void)] = [
            (.negative("games (proven)", -1), { $0.tallies[.proven] = .init(games: -1) }),
            (.negative("wins (coach)", -1), { $0.tallies[.coach] = .init(games: 1, wins: -1) }),
            (.badStanding("counts 10000001 games (none)"), { $0.tallies[.noHelp] = .init(games: 10_000_001) }),
            (.badStanding("has 3 wins in 2 games (proven)"), { $0.tallies[.proven] = .init(games: 2, wins: 3, winGuesses: 3) }),
            (.badStanding("has 1 guesses for 2 wins (proven)"), { $0.tallies[.proven] = .init(games: 2, wins: 2, winGuesses: 1) }),
            (.badStanding("has 61 guesses for 2 wins (proven)"), { $0.tallies[.proven] = .init(games: 2, wins: 2, winGuesses: 61) }),
            (.badStanding("counts -1 matches won"), { $0.matchesWon = -1 }),
            (.badStanding("has a daily streak of 3 with 2 wins"), { $0.tallies[.proven] = .init(games: 2, wins: 2, winGuesses: 4); $0.bestDailyStreak = 3 }),
            (.badStanding("has a daily streak of -1 with 0 wins"), { $0.bestDailyStreak = -1 }),
            (.badStanding("has a daily streak of 3 with 2 wins (coach)"), {
                $0.tallies[.coach] = .init(games: 3, wins: 2, winGuesses: 4, bestDailyStreak: 3); $0.tallies[.proven] = .init(games: 1, wins: 1, winGuesses: 1)
                $0.bestDailyStreak = 3
            }),
            (.badStanding("has a daily streak of 2 (coach), longer than its whole one of 1"), {
                $0.tallies[.coach] = .init(games: 5, wins: 5, winGuesses: 10, bestDailyStreak: 2); $0.bestDailyStreak = 1
            }),
            (.badDay("2026-13-01"), { $0.days = ["2026-13-01": won] }),
            (.winInNoGuesses, { $0.days = ["2026-11-25": DailyResult(status: .won, guesses: 0, hard: false, hints: 0, assist: .proven)] }),
            (.badStanding("holds 91 days, more than 90"), { line in
                line.days = Dictionary(uniqueKeysWithValues: (0..<91).map { (date($0), won) })
            }),
        ]
        for (expected, change) in cases {
            var line = Standing()
            change(&line)
            #expect(throws: expected) { try line.check() }
            #expect(MatchFixture.isOneSafeLine(expected))
        }
    }
}

@Suite struct LeaderboardTests {
    func line(_ days: [String: DailyResult] = [:], tallies: [Assist: Standing.Tally] = [:], streak: Int = 0, matches: Int = 0) -> Standing {
        Standing(tallies: tallies, bestDailyStreak: streak, matchesWon: matches, days: days)
    }

    func day(_ status: GameStatus, _ guesses: Int, hints: Int = 0, hard: Bool = false, assist: Assist = .proven) -> [String: DailyResult] {
        ["2026-11-25": DailyResult(status: status, guesses: guesses, hard: hard, hints: hints, assist: assist)]
    }

    @Test func theDaysWordIsRankedByHelpLevelThenResultGuessesHintsAndHardMode() {
        let standings = [
            "ada": line(day(.won, 4)), "ben": line(day(.won, 3, hints: 1)), "cy": line(day(.won, 3)), "dee": line(day(.won, 3, hard: true)),
            "eve": line(day(.lost, 15)), "fay": line(day(.gaveUp, 2)), "gus": line(day(.won, 4)),
            "hal": line(day(.won, 2, assist: .coach)), "ivy": line(day(.won, 5, assist: .noHelp)), "jo": line(),
            "kim": line(["2026-11-24": day(.won, 1)["2026-11-25"]!]),
        ]
        let groups = Leaderboard.daily("2026-11-25", standings: standings)
        #expect(groups.map(\.assist) == [.noHelp, .proven, .coach])
        #expect(groups[0].rows.map(\.player) == ["ivy"] && groups[2].rows.map(\.player) == ["hal"])
        let proven = groups[1].rows
        #expect(proven.map(\.player) == ["dee", "cy", "ben", "ada", "gus", "eve", "fay"])
        #expect(proven.map(\.rank) == [1, 2, 3, 4, 4, 6, 6])
        #expect(proven[0].result == day(.won, 3, hard: true)["2026-11-25"])
        #expect(Leaderboard.daily("2026-11-26", standings: standings).isEmpty)
    }

    @Test func allTimeIsRankedByHelpLevelThenWinsWinRateAndGuesses() {
        let standings = [
            "ada": line(tallies: [.proven: .init(games: 10, wins: 8, winGuesses: 40, bestDailyStreak: 1),
                                  .coach: .init(games: 3, wins: 3, winGuesses: 9, bestDailyStreak: 3)],
                        streak: 4, matches: 2),
            "ben": line(tallies: [.proven: .init(games: 9, wins: 8, winGuesses: 40)], streak: 1),
            "cy": line(tallies: [.proven: .init(games: 9, wins: 8, winGuesses: 32)]),
            "dee": line(tallies: [.proven: .init(games: 9, wins: 8, winGuesses: 32), .noHelp: .init(games: 0)]),
            "eve": line(tallies: [.proven: .init(games: 30, wins: 9, winGuesses: 90)]),
            "fay": line(),
        ]
        let groups = Leaderboard.allTime(standings)
        #expect(groups.map(\.assist) == [.proven, .coach])
        let proven = groups[0].rows
        #expect(proven.map(\.player) == ["eve", "cy", "dee", "ben", "ada"])
        #expect(proven.map(\.rank) == [1, 2, 2, 4, 5])
        // Each group shows the streak of its own level, never the whole one.
        #expect(proven[4].tally == .init(games: 10, wins: 8, winGuesses: 40, bestDailyStreak: 1) && proven[4].bestDailyStreak == 1
            && proven[4].matchesWon == 2)
        #expect(groups[1].rows == [Leaderboard.AllTimeRow(rank: 1, player: "ada", tally: .init(games: 3, wins: 3, winGuesses: 9, bestDailyStreak: 3),
                                                          bestDailyStreak: 3, matchesWon: 2)])
    }
}
