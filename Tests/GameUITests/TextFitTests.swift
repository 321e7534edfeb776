import Foundation
@testable import QiktionaryCore
import Screen
import Testing
@testable import GameUI

/// Text wraps or scrolls instead of being cut, at every size down to the minimum.
@Suite struct TextFitTests {
    static let sizes = [Size(width: 100, height: 30), Size(width: 80, height: 24), Size(width: 60, height: 20), Size(width: 40, height: 12)]

    /// Every word of `text` is on the screen whole (words may wrap to the next line).
    static func expectWhole(_ text: String, on screen: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let shown = Set(screen.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "│" || $0 == "|" }).map(String.init))
        for word in text.split(separator: " ").map(String.init) where !shown.contains(word) {
            Issue.record("\(what): '\(word)' is cut or missing:\n\(screen)", sourceLocation: sourceLocation)
            return
        }
    }

    @Test func aLongStatusWrapsInsteadOfBeingCut() {
        let refusal = "GHOST refused: hard mode: CRANE scored 2 in common; GHOST has 0 in common with CRANE."
        for size in Self.sizes {
            var state = Fixtures.state(.guess)
            _ = update(&state, .guessRefused(input: "ghost", reason: String(refusal.dropFirst("GHOST refused: ".count).dropLast())))
            Self.expectWhole(refusal, on: view(state, size: size).text, "the refusal at \(size.width)x\(size.height)")
            var over = Fixtures.state(.guess, game: Fixtures.won)
            _ = update(&over, .key(.character("x")))
            Self.expectWhole(over.status!.text, on: view(over, size: size).text, "the finished game's keys at \(size.width)x\(size.height)")
        }
    }

    @Test func theDailyStreakOnStatsIsWhole() {
        for size in Self.sizes.prefix(3) {
            var state = Fixtures.state(.stats)
            state.dailyStreak = DailyStreak(current: 1, best: 3)
            state.now = Fixtures.at(0)
            state.timeZone = TimeZone(identifier: "UTC")!
            _ = update(&state, .achievementsLoaded([Achievement(id: "first-win", title: "First win", detail: "Win a game.", earnedAt: Fixtures.at(0))],
                                                   dailyCurrent: 1, dailyBest: 3))
            Self.expectWhole("Daily streak: 1 (best 3)", on: view(state, size: size).text, "stats at \(size.width)x\(size.height)")
        }
    }

    @Test func theTabsAreNeverCutMidName() {
        for size in Self.sizes where size.height >= 16 {
            for pane in [Pane.guess, .inProgress, .readingList] {
                let line = view(Fixtures.state(pane), size: size).text.split(separator: "\n")[1]
                let names = Pane.screens.flatMap { [$0.screenTitle, $0.shortTitle] }
                let words = Set(names.flatMap { $0.split(separator: " ") }.map(String.init) + (1...6).map(String.init))
                for word in line.split(separator: " ").map(String.init) {
                    #expect(words.contains(word), "'\(word)' is a cut name at \(size.width)x\(size.height): \(line)")
                }
                #expect(line.contains(pane.screenTitle) || line.contains(pane.shortTitle), "the screen shown is named: \(line)")
                // Never the bare numbers: every screen keeps a name.
                for screen in Pane.screens { #expect(line.contains(screen.shortTitle) || line.contains(screen.screenTitle), "\(screen) has a name: \(line)") }
            }
        }
        let narrow = view(Fixtures.state(.inProgress), size: Size(width: 60, height: 20)).text.split(separator: "\n")[1]
        #expect(!narrow.contains("In p ") && !narrow.hasSuffix("In p"), "\(narrow)")
    }

    @Test func aWonGamesCardShowsAtEverySizeAndScrollsToItsEnd() {
        for size in Self.sizes {
            var state = Fixtures.state(.guess, game: Fixtures.won)
            state.challengeCodes["g2"] = "K7QM2X9A"
            let first = view(state, size: size).text
            #expect(first.contains("You found TIGER in 5 guesses"), "the card at \(size.width)x\(size.height):\n\(first)")
            // Down scrolls the card until the fact's end and the challenge code have been seen.
            var seen = first
            for _ in 0..<20 {
                _ = update(&state, .key(.down))
                seen += view(state, size: size).text
            }
            #expect(seen.contains("camera-trap photos."), "the fact's end at \(size.width)x\(size.height)")
            #expect(seen.contains("Challenge a friend: K7QM2X9A"), "the code at \(size.width)x\(size.height)")
            #expect(state.board.game?.id == "g2", "arrows do not leave the card")
        }
    }

    @Test func theHelpWrapsItsActionsOnANarrowScreen() {
        var state = Fixtures.state(.guess)
        _ = update(&state, .key(.function(1)))
        var seen = ""
        // Down until the help stops moving: every line has then been on the screen once.
        var last = ""
        for _ in 0..<400 {
            let screen = view(state, size: Size(width: 40, height: 12)).text
            if screen == last { break }
            seen += screen + "\n"
            last = screen
            _ = update(&state, .key(.down))
        }
        for entry in HelpKeys.sections.flatMap(\.entries) { Self.expectWhole(entry.action, on: seen, "help: \(entry.keys)") }
    }

    @Test func theReviewWrapsOrMarksWhatDoesNotFit() {
        var state = Fixtures.state(.guess, game: Fixtures.won)
        _ = update(&state, .reviewReady(Fixtures.won, CoachUITests.review))
        let screen = view(state, size: Size(width: 40, height: 12)).text
        Self.expectWhole("You found TIGER in 5 guesses.", on: screen, "the review's first line")
        for line in screen.split(separator: "\n") where line.hasPrefix("│") && line.hasSuffix("│") {
            let inside = line.dropFirst().dropLast()
            #expect(inside.last == " " || inside.hasSuffix("…") || inside.hasSuffix("↓") || inside.hasSuffix("↑"), "cut: \(line)")
        }
    }

    /// A guess's score cut by a narrow board ends in an ellipsis ("2 in place, 0 in wo" told
    /// nothing was missing), and so does the header cut by a long pack name.
    @Test func aGuessesScoreCutByANarrowBoardEndsInAnEllipsis() {
        let mastermind = Fixtures.game("m1", secret: "flute", pack: "music", rules: .mastermind, guesses: ["notes", "chord", "flint"])
        for size in Self.sizes {
            let screen = view(Fixtures.state(.guess, game: mastermind), size: size).text
            let rows = screen.split(separator: "\n").filter { $0.contains("FLINT") || $0.contains("NOTES") || $0.contains("CHORD") }
            #expect(!rows.isEmpty, "no guess shown at \(size.width)x\(size.height):\n\(screen)")
            // A mastermind score ends "in word": a row without it must show it was cut.
            for row in rows {
                #expect(row.contains("in word") || row.contains("…"), "a score cut without a sign at \(size.width)x\(size.height): \(row)")
            }
        }
    }

    @Test func aHeaderCutShortEndsInAnEllipsis() {
        var state = Fixtures.state(.guess)
        state.packs.items = state.packs.items.map { pack in
            var pack = pack
            if pack.id == "animals" { pack.title = "Animals of the northern forests and the high mountain meadows" }
            return pack
        }
        let header = view(state, size: Size(width: 40, height: 12)).line(0)
        #expect(header.contains("Animals of") && header.contains("…"), "\(header)")
    }

    /// The notepad's legend is on the board at 60x20 as at 80x24 and 100x30 (one line under the
    /// letters where the notepad sits under the guesses), and after a game it says the marks
    /// come from the word.
    @Test func theNotepadsLegendShowsAt60x20AndUp() {
        for size in Self.sizes where size.width >= 60 {
            let playing = view(Fixtures.state(.guess), size: size).text
            let level = GameUI.Canvas.legend(of: Fixtures.inPlay.game, glyphs: .unicode)
            #expect(playing.contains("unknown") && playing.contains(level), "no legend at \(size.width)x\(size.height):\n\(playing)")
        }
        let over = view(Fixtures.state(.guess, game: Fixtures.won), size: Size(width: 80, height: 24)).text
        #expect(over.contains("the word, now told") && !over.contains("coach's words left"), "\(over)")
    }

    /// The figures' labels on Stats never run into each other: a label too long for its column
    /// takes its short form ("Max stre…Avg gues…" at 60x20).
    @Test func theStatsLabelsAreWholeAtEverySize() {
        for size in Self.sizes {
            let screen = view(Fixtures.state(.stats), size: size).text
            let labels = screen.split(separator: "\n").first { $0.contains("Played") } ?? ""
            #expect(!labels.contains("…") && labels.contains("Won"), "at \(size.width)x\(size.height): \(labels)")
        }
    }
}
