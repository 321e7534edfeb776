import Foundation
import Testing

/// The end message says where the word was found when it was not on this machine alone.
@Suite struct EndMessageTests {
    @Test func plainModeNamesTheMachineTheWordWasFoundOn() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let a = pair.peer("laptop"), b = pair.peer("desktop")
        try b.pair(with: a)
        // A game of one machine: the device is in the JSON, and the text does not name it.
        let alone = try a.play(["--word", "tiger"], ["tiger"])
        #expect(alone.last?["foundOn"] as? String == "laptop")
        let aloneText = try a.run(["play", "--plain", "--word", "comet"], input: "comet\n")
        #expect(aloneText.stdout.contains("You won! The word was COMET. Score"), "\(aloneText.stdout)")
        // Started on A, found on B: B's end message names desktop, in JSON and in text.
        _ = try a.play(["--word", "tiger"], ["crane"])
        let won = try b.play([], ["tiger"])
        #expect(won.last?["event"] as? String == "ended")
        #expect(won.last?["foundOn"] as? String == "desktop")
        _ = try a.play(["--word", "flute"], ["crane"])
        let text = try b.run(["play", "--plain"], input: "flute\n")
        #expect(text.stdout.contains("You won! The word was FLUTE, found on desktop. Score"), "\(text.stdout)")
    }
}
