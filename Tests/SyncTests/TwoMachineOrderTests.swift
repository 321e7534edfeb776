import CloudStore
import Foundation
import QiktionaryCore
import Storage
import Testing
@testable import Sync

/// Where and in what order each guess was played, on two machines whose clocks disagree, and
/// what a game finished on both at once counts.
@Suite struct TwoMachineOrderTests {
    let folder = MemoryFolder()
    let clock = TestClock()

    @Test func aGuessMadeAfterSeeingAnotherComesAfterItWhateverTheClocks() throws {
        let a = try Machine("laptop", folder: folder, shared: clock)
        let b = try Machine("desktop", folder: folder, clockOffset: -86_400, shared: clock)
        let game = try a.start("tiger")
        try a.guess("slate", in: game.id)
        try a.sync()
        try b.sync()
        // B's clock is a day behind: its guess carries an earlier time, yet it came after SLATE.
        try b.guess("crane", in: game.id)
        try b.sync()
        try a.sync()
        for machine in [a, b] {
            let saved = try machine.game(game.id)
            #expect(saved.game.guesses.map(\.word) == ["slate", "crane"], "\(machine.name)")
            #expect(saved.guessDevices == ["laptop", "desktop"] && saved.playedOnSeveralDevices)
        }
    }

    @Test func aWinAndAGuessPlayedAtOnceElsewhere() throws {
        let a = try Machine("laptop", folder: folder, shared: clock), b = try Machine("desktop", folder: folder, shared: clock)
        let game = try a.start("tiger")
        try a.guess("slate", in: game.id)
        try a.sync()
        try b.sync()
        // At once, neither knowing of the other: A finds the word, B plays another guess.
        try a.guess("tiger", in: game.id)
        try b.guess("brick", in: game.id)
        try a.sync(); try b.sync(); try a.sync()
        for machine in [a, b] {
            let saved = try machine.game(game.id)
            #expect(saved.game.status == .won, "\(machine.name)")
            #expect(saved.game.guesses.map(\.word) == ["slate", "tiger", "brick"], "the win first, the guess after it shown after")
            #expect(saved.game.guessesUsed == 2 && saved.game.score == 14, "a guess after the win does not count")
            #expect(saved.foundOn == "laptop")
        }
        #expect(try b.player.statistics().distribution == [2: 1])
        #expect(try a.player.playedGames().first?.guessesUsed == 2)
    }

    @Test func aGameNeverPlayedIsNeitherSentNorListedButIsResumed() throws {
        let a = try Machine("laptop", folder: folder, shared: clock), b = try Machine("desktop", folder: folder, shared: clock)
        let empty = try a.start("tiger")
        #expect(try a.player.pendingChangeCount() == 0)
        #expect(try a.player.gamesInProgress().isEmpty)
        #expect(try a.player.latestGameInProgress()?.id == empty.id, "resumed next time")
        try a.sync()
        try b.sync()
        #expect(try b.player.latestGameInProgress() == nil, "nothing reached the other machine")
        // Its first guess sends it with everything it has.
        try a.guess("crane", in: empty.id)
        try a.sync()
        try b.sync()
        #expect(try b.player.gamesInProgress().map(\.id) == [empty.id])
    }

    @Test func theGamePlayedElsewhereIsResumedBeforeOneOpenedHereAndLeft() throws {
        let a = try Machine("laptop", folder: folder, shared: clock), b = try Machine("desktop", folder: folder, shared: clock)
        let played = try a.start("tiger")
        try a.guess("crane", in: played.id)
        try a.sync()
        let opened = try b.start("zebra")
        try b.sync()
        #expect(opened.startedAt > played.startedAt)
        #expect(try b.player.latestGameInProgress()?.id == played.id)
    }
}
