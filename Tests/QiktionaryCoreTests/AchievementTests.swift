import Foundation
import Testing
@testable import QiktionaryCore

/// Builds histories: each game finishes a minute after the one before, in the order built.
private struct History {
    var games: [PlayedGame] = []
    let start = Date(timeIntervalSince1970: 1_795_000_000)

    @discardableResult
    mutating func add(
        _ status: GameStatus = .won, guesses: Int = 4, max: Int = 6, pack: String = "animals",
        secret: String = "crane", rules: Rules = .classic, hard: Bool = false, hints: Int = 0,
        daily: String? = nil, id: String? = nil, at: Date? = nil
    ) -> PlayedGame {
        let n = games.count
        let game = PlayedGame(
            id: id ?? String(format: "g%04d", n), packID: pack, secret: secret, rules: rules, hard: hard,
            hints: hints, status: status, guessesUsed: guesses, maxGuesses: max,
            finishedAt: at ?? start.addingTimeInterval(Double(n) * 60), daily: daily
        )
        games.append(game)
        return game
    }
}

private func earnedAt(_ id: String, _ games: [PlayedGame], packs: [String: Set<String>] = [:]) -> Date? {
    let all = Achievements.all(games: games, packs: packs)
    let found = all.filter { $0.id == id }
    #expect(found.count == 1, "no achievement \(id)")
    return found.first?.earnedAt
}

/// "2026-11-" days from the 1st: day(3) is "2026-11-03"; past 30 it runs into December.
private func day(_ n: Int) -> String {
    n <= 30 ? String(format: "2026-11-%02d", n) : String(format: "2026-12-%02d", n - 30)
}

@Suite struct AchievementTests {
    // MARK: The list

    @Test func theListIsFixedWithUniqueKebabCaseIDsAndOneLineDetails() {
        let all = Achievements.all(games: [], packs: [:])
        #expect(all.count >= 12)
        #expect(Set(all.map(\.id)).count == all.count)
        #expect(all.map(\.id) == [
            "first-win", "quick-win", "first-guess", "last-guess", "hard-win", "no-hint-hard-win", "both-rules",
            "win-streak-5", "pack-finished", "every-pack", "daily-7", "games-10", "games-100", "practice-win",
        ])
        #expect(all.map(\.title) == [
            "First win", "Quick thinker", "Straight in", "Just in time", "Hard as nails", "On your own", "Both ways",
            "On a roll", "Pack complete", "Explorer", "Week of words", "Regular", "Centurion", "Free play",
        ])
        for achievement in all {
            #expect(achievement.earnedAt == nil)
            #expect(achievement.id.range(of: "^[a-z0-9]+(-[a-z0-9]+)*$", options: .regularExpression) != nil)
            #expect(!achievement.detail.isEmpty && !achievement.detail.contains(where: \.isNewline))
            #expect(achievement.detail.hasSuffix("."))
        }
        #expect(Achievements.earned(games: [], packs: [:]).isEmpty)
        #expect(Achievements.all(games: [], packs: ["animals": ["crane"]]) == all)
    }

    // MARK: One test per achievement

    @Test func firstWin() {
        var h = History()
        h.add(.lost, guesses: 6)
        h.add(.gaveUp, guesses: 2)
        h.add(.inProgress, guesses: 1)
        #expect(earnedAt("first-win", h.games) == nil)
        let win = h.add(.won)
        h.add(.won)
        #expect(earnedAt("first-win", h.games) == win.finishedAt)
    }

    @Test func quickWinNeedsThreeGuessesOrFewer() {
        var h = History()
        h.add(.won, guesses: 4)
        h.add(.lost, guesses: 3)
        h.add(.gaveUp, guesses: 1)
        #expect(earnedAt("quick-win", h.games) == nil)
        let quick = h.add(.won, guesses: 3)
        h.add(.won, guesses: 2)
        #expect(earnedAt("quick-win", h.games) == quick.finishedAt)
    }

    @Test func straightInNeedsAWinWithTheFirstGuess() {
        var h = History()
        h.add(.won, guesses: 2)
        h.add(.gaveUp, guesses: 1)
        h.add(.lost, guesses: 1, max: 1)
        #expect(earnedAt("first-guess", h.games) == nil)
        let first = h.add(.won, guesses: 1)
        #expect(earnedAt("first-guess", h.games) == first.finishedAt)
    }

    @Test func justInTimeNeedsAWinWithTheLastGuessAllowed() {
        var h = History()
        h.add(.lost, guesses: 6, max: 6)
        h.add(.won, guesses: 5, max: 6)
        h.add(.gaveUp, guesses: 10, max: 10)
        #expect(earnedAt("last-guess", h.games) == nil)
        let last = h.add(.won, guesses: 10, max: 10)
        h.add(.won, guesses: 6, max: 6)
        #expect(earnedAt("last-guess", h.games) == last.finishedAt)
    }

    @Test func hardAsNailsNeedsAHardWinWithOrWithoutHints() {
        var h = History()
        h.add(.lost, hard: true)
        h.add(.won, hard: false)
        h.add(.gaveUp, hard: true)
        #expect(earnedAt("hard-win", h.games) == nil)
        let hard = h.add(.won, hard: true, hints: 2)
        #expect(earnedAt("hard-win", h.games) == hard.finishedAt)
        #expect(earnedAt("no-hint-hard-win", h.games) == nil)
    }

    @Test func onYourOwnNeedsAHardWinWithoutAHint() {
        var h = History()
        h.add(.won, hard: true, hints: 1)
        h.add(.won, hard: false, hints: 0)
        h.add(.lost, hard: true, hints: 0)
        #expect(earnedAt("no-hint-hard-win", h.games) == nil)
        let alone = h.add(.won, hard: true, hints: 0)
        #expect(earnedAt("no-hint-hard-win", h.games) == alone.finishedAt)
        #expect(earnedAt("hard-win", h.games) == h.games[0].finishedAt)
    }

    @Test func bothWaysIsEarnedByTheFirstWinOfTheSecondRuleSet() {
        var h = History()
        h.add(.won, rules: .classic)
        h.add(.lost, rules: .mastermind)
        h.add(.won, rules: .classic)
        h.add(.gaveUp, rules: .mastermind)
        #expect(earnedAt("both-rules", h.games) == nil)
        let second = h.add(.won, rules: .mastermind)
        h.add(.won, rules: .classic)
        #expect(earnedAt("both-rules", h.games) == second.finishedAt)

        var m = History()
        m.add(.won, rules: .mastermind)
        m.add(.won, rules: .mastermind)
        let classic = m.add(.won, rules: .classic)
        #expect(earnedAt("both-rules", m.games) == classic.finishedAt)
    }

    @Test func onARollNeedsFiveWinsInARow() {
        var h = History()
        for _ in 0..<4 { h.add(.won) }
        h.add(.lost)
        h.add(.won)
        #expect(earnedAt("win-streak-5", h.games) == nil)
        for _ in 0..<3 { h.add(.won) }
        h.add(.gaveUp)
        #expect(earnedAt("win-streak-5", h.games) == nil)
        // Practice games count like any other; games in progress are not in the run at all.
        h.add(.won)
        h.add(.won, pack: Achievements.practicePackID)
        h.add(.inProgress)
        h.add(.won)
        h.add(.won, pack: Achievements.practicePackID)
        let fifth = h.add(.won)
        h.add(.won)
        #expect(earnedAt("win-streak-5", h.games) == fifth.finishedAt)
    }

    @Test func packCompleteNeedsEveryWordOfOnePackWonInThatPack() {
        let packs: [String: Set<String>] = ["birds": ["crane", "heron", "robin"], "trees": ["alder", "robin"]]
        var h = History()
        h.add(.won, pack: "birds", secret: "crane")
        h.add(.won, pack: "birds", secret: "heron")
        h.add(.lost, pack: "birds", secret: "robin")
        h.add(.gaveUp, pack: "birds", secret: "robin")
        h.add(.won, pack: "birds", secret: "crane")
        h.add(.won, pack: Achievements.practicePackID, secret: "robin")  // no pack
        h.add(.won, pack: "trees", secret: "robin")                       // another pack
        h.add(.won, pack: "birds", secret: "eagle")                       // no longer in the pack
        #expect(earnedAt("pack-finished", h.games, packs: packs) == nil)
        let last = h.add(.won, pack: "birds", secret: "robin")
        h.add(.won, pack: "trees", secret: "alder")
        #expect(earnedAt("pack-finished", h.games, packs: packs) == last.finishedAt)
        // Only the words the pack holds now count: without "robin" it was complete earlier.
        #expect(earnedAt("pack-finished", h.games, packs: ["birds": ["crane", "heron"]]) == h.games[1].finishedAt)
    }

    @Test func aPackWithNoWordsNeverCompletes() {
        var h = History()
        h.add(.won, pack: "empty", secret: "crane")
        h.add(.won, pack: Achievements.practicePackID, secret: "crane")
        #expect(earnedAt("pack-finished", h.games, packs: ["empty": []]) == nil)
        #expect(earnedAt("pack-finished", h.games, packs: [:]) == nil)
        #expect(earnedAt("pack-finished", h.games, packs: [Achievements.practicePackID: ["crane"]]) == nil)
    }

    @Test func explorerNeedsAFinishedGameFromEveryPack() {
        let packs: [String: Set<String>] = ["birds": ["crane"], "trees": ["alder"], "fish": ["trout"]]
        var h = History()
        h.add(.lost, pack: "birds")
        h.add(.won, pack: "trees")
        h.add(.won, pack: Achievements.practicePackID)
        h.add(.won, pack: "gone")          // a pack no longer installed
        h.add(.inProgress, pack: "fish")
        #expect(earnedAt("every-pack", h.games, packs: packs) == nil)
        let last = h.add(.gaveUp, pack: "fish")
        h.add(.won, pack: "fish")
        #expect(earnedAt("every-pack", h.games, packs: packs) == last.finishedAt)
        #expect(earnedAt("every-pack", h.games, packs: [:]) == nil)
        // A practice game is not a pack, even with a pack of that id.
        #expect(earnedAt("every-pack", h.games, packs: [Achievements.practicePackID: ["crane"]]) == nil)
    }

    @Test func weekOfWordsNeedsSevenConsecutiveWonDailyDays() {
        var h = History()
        for n in 1...3 { h.add(.won, daily: day(n)) }
        h.add(.lost, daily: day(4))           // a day without a won daily game breaks the run
        h.add(.won)                            // not a daily game
        for n in 5...10 { h.add(.won, daily: day(n)) }
        h.add(.won, daily: day(12))           // a gap day
        #expect(earnedAt("daily-7", h.games) == nil)
        let seventh = h.add(.won, daily: day(11))
        #expect(earnedAt("daily-7", h.games) == seventh.finishedAt)
    }

    @Test func weekOfWordsRunsAcrossMonthsAndYearsAndCountsALateGameFillingAGap() {
        var h = History()
        for date in ["2026-12-28", "2026-12-29", "2026-12-30", "2027-01-01", "2027-01-02", "2027-01-03"] {
            h.add(.won, daily: date)
        }
        h.add(.won, daily: "2026-12-31x")     // not a date
        h.add(.won, daily: "2026-12-32")      // not a date
        #expect(earnedAt("daily-7", h.games) == nil)
        let gap = h.add(.won, daily: "2026-12-31")
        #expect(earnedAt("daily-7", h.games) == gap.finishedAt)

        var leap = History()
        for date in ["2028-02-25", "2028-02-26", "2028-02-27", "2028-02-28", "2028-03-01", "2028-03-02"] {
            leap.add(.won, daily: date)
        }
        #expect(earnedAt("daily-7", leap.games) == nil)
        let leapDay = leap.add(.won, daily: "2028-02-29")
        #expect(earnedAt("daily-7", leap.games) == leapDay.finishedAt)
    }

    @Test func regularAndCenturionCountFinishedGames() {
        var h = History()
        let statuses: [GameStatus] = [.won, .lost, .gaveUp]
        for n in 0..<9 { h.add(statuses[n % 3]) }
        h.add(.inProgress)
        #expect(earnedAt("games-10", h.games) == nil)
        let tenth = h.add(.lost)
        #expect(earnedAt("games-10", h.games) == tenth.finishedAt)
        for n in 0..<89 { h.add(statuses[n % 3]) }
        #expect(earnedAt("games-100", h.games) == nil)
        let hundredth = h.add(.gaveUp)
        h.add(.won)
        #expect(earnedAt("games-100", h.games) == hundredth.finishedAt)
        #expect(earnedAt("games-10", h.games) == tenth.finishedAt)
    }

    @Test func freePlayNeedsAWonPracticeGame() {
        var h = History()
        h.add(.lost, pack: Achievements.practicePackID)
        h.add(.gaveUp, pack: Achievements.practicePackID)
        h.add(.won, pack: "animals")
        #expect(earnedAt("practice-win", h.games) == nil)
        let practice = h.add(.won, pack: Achievements.practicePackID)
        #expect(earnedAt("practice-win", h.games) == practice.finishedAt)
    }

    // MARK: Order and dates

    /// A history that earns every achievement, in a jumble of games and ties.
    private func richHistory() -> (games: [PlayedGame], packs: [String: Set<String>]) {
        let packs: [String: Set<String>] = ["birds": ["crane", "heron"], "trees": ["alder", "maple", "cedar"]]
        var random = SeededGenerator(seed: 42)
        var h = History()
        let secrets = ["crane", "heron", "alder", "maple", "cedar", "robin"]
        for n in 0..<130 {
            let status: GameStatus = [.won, .won, .won, .lost, .gaveUp].randomElement(using: &random)!
            let max = Int.random(in: 4...8, using: &random)
            h.add(
                status, guesses: Int.random(in: 1...max, using: &random), max: max,
                pack: ["birds", "trees", Achievements.practicePackID].randomElement(using: &random)!,
                secret: secrets.randomElement(using: &random)!,
                rules: Bool.random(using: &random) ? .classic : .mastermind,
                hard: Bool.random(using: &random), hints: Int.random(in: 0...1, using: &random),
                daily: n < 40 ? day(n / 2 + 1) : nil,
                // Ties in finishedAt, ordered by id.
                at: h.start.addingTimeInterval(Double(n / 3) * 60)
            )
        }
        return (h.games, packs)
    }

    @Test func theOrderOfTheInputDoesNotMatter() {
        let (games, packs) = richHistory()
        let expected = Achievements.all(games: games, packs: packs)
        #expect(expected.allSatisfy { $0.earnedAt != nil }, "the rich history should earn everything")
        let streaks = Achievements.dailyStreaks(games: games)
        for seed in UInt64(1)...20 {
            var random = SeededGenerator(seed: seed)
            let shuffled = games.shuffled(using: &random)
            #expect(Achievements.all(games: shuffled, packs: packs) == expected)
            #expect(Achievements.earned(games: shuffled, packs: packs) == Achievements.earned(games: games, packs: packs))
            let again = Achievements.dailyStreaks(games: shuffled)
            #expect(again.current == streaks.current && again.best == streaks.best)
        }
    }

    @Test func gamesFinishedAtTheSameMomentAreTakenInIDOrder() {
        var h = History()
        for _ in 0..<4 { h.add(.won) }
        let tie = h.start.addingTimeInterval(3_600)
        h.add(.lost, id: "b", at: tie)
        h.add(.won, id: "a", at: tie)   // "a" comes first: the fifth win in a row, then the loss
        #expect(earnedAt("win-streak-5", h.games) == tie)
        #expect(earnedAt("win-streak-5", h.games.reversed()) == tie)

        h.games[4].id = "a"
        h.games[5].id = "b"             // now the loss comes first and breaks the run
        #expect(earnedAt("win-streak-5", h.games) == nil)
        #expect(earnedAt("win-streak-5", h.games.reversed()) == nil)
    }

    @Test func earnedIsInTheOrderEarnedThenTheFixedOrder() {
        let (games, packs) = richHistory()
        let earned = Achievements.earned(games: games, packs: packs)
        let all = Achievements.all(games: games, packs: packs)
        #expect(earned.count == all.filter { $0.earnedAt != nil }.count)
        let position = Dictionary(uniqueKeysWithValues: all.enumerated().map { ($1.id, $0) })
        for (a, b) in zip(earned, earned.dropFirst()) {
            #expect(a.earnedAt! < b.earnedAt! || (a.earnedAt! == b.earnedAt! && position[a.id]! < position[b.id]!))
        }

        // One game earning several at once lists them in the fixed order.
        var h = History()
        h.add(.lost)
        let one = h.add(.won, guesses: 1, max: 1, pack: Achievements.practicePackID, hard: true)
        let list = Achievements.earned(games: h.games, packs: [:])
        #expect(list.map(\.id) == ["first-win", "quick-win", "first-guess", "last-guess", "hard-win",
                                   "no-hint-hard-win", "practice-win"])
        #expect(list.allSatisfy { $0.earnedAt == one.finishedAt })
    }

    @Test func earnedAtIsTheFinishOfTheEarningGameNotOfTheLatestOne() {
        var h = History()
        let win = h.add(.won, guesses: 3, at: Date(timeIntervalSince1970: 1_800_000_000))
        h.add(.won, guesses: 2, at: Date(timeIntervalSince1970: 1_800_000_500))
        let earlierWin = h.add(.won, guesses: 5, at: Date(timeIntervalSince1970: 1_700_000_000))
        // The game given last finished first, so it is the first win.
        #expect(earnedAt("first-win", h.games) == earlierWin.finishedAt)
        #expect(earnedAt("quick-win", h.games) == win.finishedAt)
    }

    // MARK: Daily streaks

    @Test func dailyStreaksWithNoDailyGamesAreZero() {
        var h = History()
        h.add(.won)
        h.add(.won, daily: "not-a-date")
        h.add(.inProgress, daily: day(1))
        let streaks = Achievements.dailyStreaks(games: h.games)
        #expect(streaks.current == 0 && streaks.best == 0)
        let none = Achievements.dailyStreaks(games: [])
        #expect(none.current == 0 && none.best == 0)
    }

    @Test func aGapDayBreaksTheDailyStreak() {
        var h = History()
        for n in [1, 2, 3, 5, 6] { h.add(.won, daily: day(n)) }
        let streaks = Achievements.dailyStreaks(games: h.games)
        #expect(streaks.current == 2 && streaks.best == 3)
    }

    @Test func aLostDailyGameBreaksTheStreakAndALatestLossMakesCurrentZero() {
        var h = History()
        for n in 1...4 { h.add(.won, daily: day(n)) }
        h.add(.gaveUp, daily: day(5))
        h.add(.won, daily: day(6))
        var streaks = Achievements.dailyStreaks(games: h.games)
        #expect(streaks.current == 1 && streaks.best == 4)
        h.add(.lost, daily: day(7))
        streaks = Achievements.dailyStreaks(games: h.games)
        #expect(streaks.current == 0 && streaks.best == 4)
    }

    @Test func currentIsTheRunEndingOnTheLatestDailyDateWhateverOrderTheyFinished() {
        var h = History()
        for n in 28...33 { h.add(.won, daily: day(n)) }   // Nov 28 to Dec 3
        for n in 1...3 { h.add(.won, daily: day(n)) }     // played later, dates earlier
        h.add(.won, daily: day(20))
        h.add(.won)                                        // not a daily game
        let streaks = Achievements.dailyStreaks(games: h.games)
        #expect(streaks.current == 6 && streaks.best == 6)

        // A loss on a date before the latest does not reset current; a win the same day as a loss counts.
        h.add(.lost, daily: day(29))
        h.add(.lost, daily: day(33))
        let again = Achievements.dailyStreaks(games: h.games)
        #expect(again.current == 6 && again.best == 6)

        var best = History()
        for n in 1...5 { best.add(.won, daily: day(n)) }
        for n in 8...9 { best.add(.won, daily: day(n)) }
        let split = Achievements.dailyStreaks(games: best.games)
        #expect(split.current == 2 && split.best == 5)
    }

    @Test func dailyDatesAreDaysOfTheUTCCalendar() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        var date = formatter.date(from: "2023-12-25")!
        for _ in 0..<1_200 {
            let text = formatter.string(from: date)
            #expect(Achievements.dayNumber(text) == Int(date.timeIntervalSince1970 / 86_400), "\(text)")
            date = calendar.date(byAdding: .day, value: 1, to: date)!
        }
        #expect(Achievements.dayNumber("1970-01-01") == 0)
        for bad in ["2026-02-29", "2026-13-01", "2026-00-10", "2026-04-31", "2026-4-01", "2026/04/01", "20260401xx", "", "２026-04-01"] {
            #expect(Achievements.dayNumber(bad) == nil, "\(bad)")
        }
    }
}
