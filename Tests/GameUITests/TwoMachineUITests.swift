import Foundation
@testable import QiktionaryCore
import Screen
import Testing
@testable import GameUI

/// The full-screen game when another machine plays the same games.
@Suite struct TwoMachineUITests {
    static let news = SyncNews(state: .synced(at: Fixtures.at(60)), note: "Changes from another machine arrived.", changedHere: true)

    @Test func anUnplayedGameGivesWayToANewerOneFromTheOtherMachine() {
        var state = Fixtures.state(.guess, game: Fixtures.game("e1", secret: "zebra", guesses: []))
        let effects = update(&state, .syncUpdate(Self.news))
        #expect(effects.contains(.switchToNewer(than: "e1")))
        _ = update(&state, .switchedTo(Fixtures.inPlay))
        #expect(state.board.game?.id == "g1")
        #expect(state.status?.text == "Your game from laptop is here: 4 guesses so far.")
        // A game with a guess stays on the board.
        var playing = Fixtures.state(.guess)
        #expect(!update(&playing, .syncUpdate(Self.news)).contains(.switchToNewer(than: "g1")))
    }

    @Test func aFinishedGameOnTheBoardIsReloadedToo() {
        var state = Fixtures.state(.guess, game: Fixtures.won)
        #expect(update(&state, .syncUpdate(Self.news)).contains(.reload(gameID: "g2")))
    }

    @Test func theEndMessageSaysWhereTheWordWasFoundAndGuessesAfterTheWinAreMarked() {
        var saved = Fixtures.game("g9", secret: "tiger", guesses: ["slate", "tiger", "brick"], status: .won, finished: 40)
        saved.guessDevices = ["laptop", "laptop", "desktop"]
        #expect(endLine(saved) == "You found TIGER on laptop in 2 guesses. Score 14.")
        let screen = view(Fixtures.state(.guess, game: saved), size: Size(width: 100, height: 30)).text
        #expect(screen.contains("SLATE") && screen.contains("(on laptop)"))
        #expect(screen.contains("(on desktop, after the win)"))
        var alone = saved
        alone.guessDevices = ["laptop", "laptop", "laptop"]
        #expect(endLine(alone) == "You found TIGER in 2 guesses. Score 14.", "one machine: nothing to say about where")
    }

    @Test func theHeaderCountsAnImport() {
        var state = Fixtures.state(.guess)
        _ = update(&state, .syncUpdate(SyncNews(state: .importing(done: 4_000, total: 10_000))))
        #expect(view(state, size: Size(width: 100, height: 30)).text.contains("importing 4000 of 10000…"))
        _ = update(&state, .syncUpdate(SyncNews(state: .importing(done: 2_000, total: nil))))
        #expect(state.syncText == "importing 2000…")
    }

    @Test func theHeaderCountsALongUpload() {
        var state = Fixtures.state(.guess)
        _ = update(&state, .syncUpdate(SyncNews(state: .sending(done: 8_000, total: 84_776))))
        #expect(view(state, size: Size(width: 100, height: 30)).text.contains("sending 8000 of 84776…"))
    }
}
