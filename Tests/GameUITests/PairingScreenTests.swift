import Foundation
@testable import QiktionaryCore
import Screen
import Testing
@testable import GameUI

/// The pairing screen (docs/trust.md): offered once when sync finds this machine not one of its
/// player's machines, a code typed as `devices add` printed it, joined with Enter, put off with
/// Esc and brought back with F5.
@Suite struct PairingScreenTests {
    static let code = "ABCD-EFGH-JKMN-PQRS-TVWX-YZ12"

    /// The board, sync just told this machine it is not paired.
    static func notPaired() -> AppState {
        var state = Fixtures.state(.guess)
        state.player = "ann"
        _ = update(&state, .syncUpdate(SyncNews(state: .notPaired)))
        return state
    }

    static func type(_ text: String, on start: AppState) -> AppState {
        press(text.map { Key.character($0) }, on: start).0
    }

    @Test func theFirstNewsOfNotPairedOpensTheScreenWithTheCommandAndTheCode() {
        let state = Self.notPaired()
        #expect(state.pairing == PairingEntry())
        #expect(state.sync == .notPaired)
        let screen = view(state, size: Size(width: 100, height: 30)).text
        #expect(screen.contains("Pair this machine"))
        #expect(screen.contains("ann already syncs in this folder from another machine"))
        #expect(screen.contains("qiktionary devices add"))
        #expect(screen.contains("Code: ____-____-____-____-____-____"))
        #expect(screen.contains("not paired (F5)"), "the header says why nothing syncs")
        #expect(screen.contains("Enter join") && screen.contains("Esc later"), "the footer names the keys")
    }

    @Test func lettersAndDigitsMakeTheCodeGroupedAsPrintedAndDashesAreSkipped() {
        var state = Self.type("abcd-efgh jk", on: Self.notPaired())
        #expect(state.pairing?.code == "ABCDEFGHJK")
        #expect(view(state, size: Size(width: 100, height: 30)).text.contains("Code: ABCD-EFGH-JK__-____-____-____"))
        state = press(.backspace, on: state).0
        #expect(state.pairing?.code == "ABCDEFGHJ")
        state = Self.type(String(repeating: "7", count: 30), on: state)
        #expect(state.pairing?.code.count == PairingEntry.length, "no more than a code's length is kept")
        state = press(.control("u"), on: state).0
        #expect(state.pairing?.code == "")
    }

    @Test func enterWithAShortCodeSaysHowLongACodeIsAndSendsNothing() {
        let (state, effects) = press(.enter, on: Self.type("ABCD", on: Self.notPaired()))
        #expect(effects.isEmpty)
        #expect(state.pairing?.problem == "A pairing code is 24 letters and digits; 4 typed.")
        #expect(view(state, size: Size(width: 100, height: 30)).text.contains("4 typed"))
        // The next key clears the problem and goes on with the code.
        #expect(press(.character("e"), on: state).0.pairing?.problem == nil)
    }

    @Test func enterWithAWholeCodeJoinsAndKeysWaitForTheAnswer() {
        let typed = Self.type(Self.code, on: Self.notPaired())
        var (state, effects) = press(.enter, on: typed)
        #expect(effects == [.joinDevices(code: Self.code)])
        #expect(state.pairing?.joining == true)
        #expect(view(state, size: Size(width: 100, height: 30)).text.contains("Joining"))
        (state, effects) = press([.character("x"), .escape, .enter], on: state)
        #expect(effects.isEmpty && state.pairing?.code == typed.pairing?.code, "nothing changes while the join is under way")
        // Refused: the reason shows and the code stays to be corrected.
        _ = update(&state, .pairingRefused("the code does not match the pairing in the cloud folder"))
        #expect(state.pairing?.joining == false)
        #expect(view(state, size: Size(width: 100, height: 30)).text.contains("The code does not match the pairing in the cloud folder."))
        #expect(state.pairing?.code == typed.pairing?.code)
        // Joined: the screen closes and says so.
        _ = update(&state, .paired("Joined ann's machines (laptop, desktop): your games sync now."))
        #expect(state.pairing == nil)
        #expect(state.status?.text == "Joined ann's machines (laptop, desktop): your games sync now.")
    }

    @Test func escPutsItOffAndOnlyF5BringsItBack() {
        var (state, _) = press(.escape, on: Self.notPaired())
        #expect(state.pairing == nil)
        #expect(state.status?.text == "Not one of ann's machines yet: your games stay here. F5 to type a pairing code.")
        // The next rounds say nothing new and do not open it again.
        _ = update(&state, .syncUpdate(SyncNews(state: .syncing)))
        _ = update(&state, .syncUpdate(SyncNews(state: .notPaired)))
        #expect(state.pairing == nil)
        // Letters go to the guess again.
        state = Self.type("crane", on: state)
        #expect(state.board.input == "crane")
        let effects: [Effect]
        (state, effects) = press(.function(5), on: state)
        #expect(state.pairing == PairingEntry())
        #expect(effects == [.syncNow], "a sync too, in case it was paired from the command line meanwhile")
    }

    @Test func pairedFromTheCommandLineMeanwhileTheNextGoodRoundClosesIt() {
        var state = Self.type("AB", on: Self.notPaired())
        _ = update(&state, .syncUpdate(SyncNews(state: .synced(at: Fixtures.at(5)))))
        #expect(state.pairing == nil)
        #expect(state.status?.text == "This machine is one of ann's machines now: your games sync.")
    }

    /// The game started here because nothing could sync gives way, after the first good round,
    /// to the player's game in progress from the other machine, however old; once only.
    @Test func afterJoiningTheFirstGoodRoundBringsTheOtherMachinesGameToTheBoard() {
        var state = Self.notPaired()
        state.board.game = EffectInterpreterTests.unplayed("g6", startedMinute: 40)
        _ = update(&state, .paired("Joined."))
        #expect(update(&state, .syncUpdate(SyncNews(state: .syncing))).isEmpty)
        let effects = update(&state, .syncUpdate(SyncNews(state: .synced(at: Fixtures.at(41)), changedHere: true)))
        #expect(effects.contains(.switchToNewer(than: "g6", anyAge: true)))
        #expect(!effects.contains(.switchToNewer(than: "g6")), "asked once, for any age")
        let later = update(&state, .syncUpdate(SyncNews(state: .synced(at: Fixtures.at(42)), changedHere: true)))
        #expect(later.contains(.switchToNewer(than: "g6")) && !later.contains(.switchToNewer(than: "g6", anyAge: true)))
    }

    /// A reload queued for the old game in the same frame as the switch (the database's own
    /// change noticed with the sync's news) does not put the old game back on the board.
    @Test func aReloadOfTheGameSwitchedAwayFromIsDropped() {
        var state = Self.notPaired()
        let unplayed = EffectInterpreterTests.unplayed("g6", startedMinute: 40)
        state.board.game = unplayed
        _ = update(&state, .switchedTo(Fixtures.inPlay))
        #expect(update(&state, .gameReloaded(unplayed)).isEmpty)
        #expect(state.board.game?.id == Fixtures.inPlay.id)
        // The game on the board reloads as before.
        var moved = Fixtures.inPlay
        moved.lastChangedOn = "desktop"
        _ = update(&state, .gameReloaded(moved))
        #expect(state.board.game?.lastChangedOn == "desktop")
    }

    @Test(arguments: [Size(width: 40, height: 12), Size(width: 60, height: 20), Size(width: 80, height: 24)])
    func theCommandAndTheCodeShowAtEverySize(_ size: Size) {
        let state = Self.type("ABCD", on: Self.notPaired())
        let screen = view(state, size: size).text
        #expect(screen.contains("qiktionary devices add"), "\(screen)")
        #expect(screen.contains("Code: ABCD-____-____-____-____-____"), "\(screen)")
    }

    @Test func theInterpreterJoinsThenSyncsAndPassesOnARefusal() {
        let rig = EffectInterpreterTests.Rig()
        #expect(rig.perform(.joinDevices(code: "0000-0000-0000-0000-0000-0000")) == [.paired("Joined.")])
        #expect(rig.calls == ["join(0000-0000-0000-0000-0000-0000)", "request(manual: false)"])
        let refused = EffectInterpreterTests.Rig()
        #expect(refused.perform(.joinDevices(code: Self.code)) == [.pairingRefused("the code does not match")])
        #expect(refused.calls == ["join(\(Self.code))"], "no round after a refusal")
        #expect(EffectInterpreterTests.Rig(sync: false).perform(.joinDevices(code: Self.code))
            == [.pairingRefused("Sync is off: there is nothing to pair with.")])
    }
}
