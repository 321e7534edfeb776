import Foundation
import Testing

/// The coach through the real binary: hard mode, the candidates left, hints and the review,
/// in plain mode and on the command line, with their refusals.
@Suite(.serialized) struct CoachEndToEndTests {
    @Test func aHardGameWithAHintIsWonAndReviewed() throws {
        let machine = Machine()
        defer { machine.remove() }
        // TIGER (animals, classic): CRANE scores 2; GHOST shares nothing with CRANE, so hard mode refuses it.
        let events = try machine.play(["--word", "tiger", "--hard", "--assist", "coach"], lines: ["crane", "ghost", "hint", "tiger"])
        #expect(events.map { $0["event"] as? String } == ["started", "feedback", "rejected", "hint", "feedback", "ended"])
        let game = events[0]["game"] as? [String: Any]
        #expect(game?["hard"] as? Bool == true && game?["hints"] as? Int == 0)

        let feedback = events[1]
        let candidates = try #require(feedback["candidates"] as? Int)
        #expect(candidates >= 1 && candidates < 36, "CRANE's 2 rules out some of the pack: \(candidates)")

        let refusal = events[2]
        #expect(refusal["code"] as? String == "contradicts-feedback")
        #expect(refusal["reason"] as? String == "hard mode: CRANE scored 2 in common; GHOST has 0 in common with CRANE")

        let hint = events[3]
        #expect(hint["candidates"] as? Int == candidates)
        let expected = try #require(hint["expectedLeft"] as? Double)
        #expect(expected >= 1 && expected <= Double(candidates))
        #expect((hint["word"] as? String)?.count == 5)
        #expect((hint["reason"] as? String)?.isEmpty == false)

        #expect(events[4]["candidates"] as? Int == 1, "after the winning guess only the secret fits")
        #expect(events[5]["result"] as? String == "won")
        let id = try #require(game?["id"] as? String)

        let history = try machine.run(["history", "--json"])
        let entry = try #require((history.json as? [[String: Any]])?.first)
        #expect(entry["hard"] as? Bool == true && entry["hints"] as? Int == 1)

        let review = try machine.run(["history", "show", id, "--json"])
        #expect(review.status == 0, "\(review.stderr)")
        let object = try #require(review.json as? [String: Any])
        let steps = try #require(object["guesses"] as? [[String: Any]])
        #expect(steps.map { $0["word"] as? String } == ["crane", "tiger"], "refused guesses are not in the review")
        #expect(Set(steps[0].keys) == ["word", "candidatesBefore", "candidatesAfter", "best", "bestExpected", "expected"])
        #expect(steps[0]["candidatesBefore"] as? Int == 36 && steps[0]["candidatesAfter"] as? Int == candidates)
        #expect(steps[1]["candidatesBefore"] as? Int == candidates && steps[1]["candidatesAfter"] as? Int == 1)
        let skill = try #require(object["skill"] as? Int)
        #expect((0...100).contains(skill))
        #expect(object["luck"] is Double || object["luck"] is Int)

        let text = try machine.run(["history", "show", id])
        #expect(text.status == 0 && text.stdout.contains("TIGER") && text.stdout.contains("Skill "))

        let stats = try machine.run(["stats", "--json"])
        let figures = try #require(stats.json as? [String: Any])
        #expect((figures["hard"] as? [String: Any])?["won"] as? Int == 1)
        #expect(figures["hintsTaken"] as? Int == 1 && figures["gamesWithHints"] as? Int == 1)
    }

    /// The count of candidates is the coach's alone: at `proven` and `none` plain mode's hint
    /// carries no count and its reason gives no number; under the coach it carries both.
    @Test func aHintBelowTheCoachCarriesNoCount() throws {
        for level in ["proven", "none", "coach"] {
            let machine = Machine()
            defer { machine.remove() }
            let events = try machine.play(["--word", "tiger", "--assist", level], lines: ["crane", "hint"])
            let hint = try #require(events.first { $0["event"] as? String == "hint" }, "\(level): \(events)")
            let reason = try #require(hint["reason"] as? String)
            if level == "coach" {
                #expect(hint["candidates"] is Int && hint["expectedLeft"] != nil, "\(hint)")
            } else {
                #expect(hint["candidates"] == nil && hint["expectedLeft"] == nil, "\(level): \(hint)")
                #expect(!reason.contains { $0.isNumber }, "\(level): \(reason)")
            }
            let text = try machine.run(["play", "--plain", "--word", "tiger", "--assist", level], input: "hint\n")
            let line = text.stdout.split(separator: "\n").first { $0.hasPrefix("Hint: ") } ?? ""
            #expect(level == "coach" || !line.contains { $0.isNumber }, "\(level): \(line)")
        }
    }

    @Test func badCoachInputGetsOneLineAndChangesNothing() throws {
        let machine = Machine()
        defer { machine.remove() }
        let played = try machine.play(["--word", "tiger"], lines: ["tiger", "hint", "resume abc --hard", "new --hard --hard", "new --fast"])
        #expect(played.map { $0["event"] as? String } == ["started", "feedback", "ended", "rejected", "error", "error", "error"])
        #expect(played[3]["reason"] as? String == "the game is over")
        #expect((played[4]["message"] as? String)?.contains("hard mode is chosen when a game starts") == true)
        let history = try machine.run(["history", "--json"])
        #expect((history.json as? [[String: Any]])?.first?["hints"] as? Int == 0, "the refused hint was not counted")

        // One guess is "1 guess".
        let won = try #require((played.first?["game"] as? [String: Any])?["id"] as? String)
        let review = try machine.run(["history", "show", won])
        #expect(review.stdout.hasPrefix("TIGER: won, 1 guess, "), "\(review.stdout)")

        let unknown = try machine.run(["history", "show", "no-such-game"])
        #expect(unknown.status == 64 && unknown.stderr == "qiktionary: no game with id 'no-such-game'\n")

        let open = try machine.play(["--pack", "animals"], lines: [])
        let id = try #require((open.first?["game"] as? [String: Any])?["id"] as? String)
        let inProgress = try machine.run(["history", "show", id])
        #expect(inProgress.status == 64 && inProgress.stderr.split(separator: "\n").count == 1)
        #expect(inProgress.stderr.contains("still in progress"))
    }

    @Test func playHardStartsANewHardGameRatherThanResuming() throws {
        let machine = Machine()
        defer { machine.remove() }
        let first = try machine.play(["--word", "tiger"], lines: ["crane"])
        let easyID = (first.first?["game"] as? [String: Any])?["id"] as? String
        let hard = try machine.play(["--hard"], lines: [])
        let game = try #require(hard.first?["game"] as? [String: Any])
        #expect(hard.first?["resumed"] as? Bool == false && game["hard"] as? Bool == true && game["id"] as? String != easyID)
    }
}
