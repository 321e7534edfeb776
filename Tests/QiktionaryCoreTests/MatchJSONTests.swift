import Foundation
import Testing
@testable import QiktionaryCore

@Suite struct MatchJSONTests {
    let p: MatchPlays
    let words = ["tiger", "zebra", "camel"]

    init() throws {
        var match = try MatchFixture.match()
        match.id = "6f1c2a4e-0b8d-4c3a-9e1f-2b3c4d5e6f70"
        p = MatchPlays(match: match)
    }

    /// As the command line prints it (`JSONLine`): keys sorted, slashes as they are.
    func json(_ plays: [MatchPlay], declined: Bool = false, words: [String]? = nil) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let view = MatchJSON(MatchState(match: p.match, plays: plays, declined: declined), words: words ?? self.words)
        return String(decoding: try encoder.encode(view), as: UTF8.self)
    }

    let head = #"{"assist":"proven","createdBy":"alice","#
    let tail = #""hard":false,"id":"6f1c2a4e-0b8d-4c3a-9e1f-2b3c4d5e6f70","pack":"animals","players":["alice","ben"],"rules":"classic","#

    @Test func aNewMatch() throws {
        #expect(try json([]) == head + #""games":[{"index":1,"results":{},"winner":null},{"index":2,"results":{},"winner":null},"#
            + #"{"index":3,"results":{},"winner":null}],"# + tail + #""score":{"alice":0,"ben":0},"status":"playing","winner":null}"#)
    }

    @Test func aMatchUnderWayShowsOnlyTheWordsOfGamesBothFinished() throws {
        let plays = [p.won("alice", 1, 3, hints: 1), p.won("ben", 1, 4), p.finished("alice", 2, .gaveUp, 2), p.playing("ben", 2, 5)]
        #expect(try json(plays) == head
            + #""games":[{"index":1,"results":{"alice":{"guesses":3,"hints":1,"status":"won"},"ben":{"guesses":4,"hints":0,"status":"won"}},"#
            + #""winner":"alice","word":"tiger"},"#
            + #"{"index":2,"results":{"alice":{"guesses":2,"hints":0,"status":"gave-up"},"ben":{"guesses":5,"status":"in-progress"}},"#
            + #""winner":null},{"index":3,"results":{},"winner":null}],"#
            + tail + #""score":{"alice":1,"ben":0},"status":"playing","winner":null}"#)
    }

    @Test func aFinishedMatch() throws {
        let plays = p.oneAll() + [p.won("alice", 3, 2), p.won("ben", 3, 2)]
        #expect(try json(plays) == head
            + #""games":[{"index":1,"results":{"alice":{"guesses":3,"hints":0,"status":"won"},"ben":{"guesses":4,"hints":0,"status":"won"}},"#
            + #""winner":"alice","word":"tiger"},"#
            + #"{"index":2,"results":{"alice":{"guesses":6,"hints":0,"status":"won"},"ben":{"guesses":5,"hints":0,"status":"won"}},"#
            + #""winner":"ben","word":"zebra"},"#
            + #"{"index":3,"results":{"alice":{"guesses":2,"hints":0,"status":"won"},"ben":{"guesses":2,"hints":0,"status":"won"}},"#
            + #""winner":"tie","word":"camel"}],"#
            + tail + #""score":{"alice":1,"ben":1},"status":"finished","winner":"tie"}"#)
        // Words this machine cannot decode are left out.
        #expect(try !json(plays, words: []).contains("word"))
    }

    @Test func aDeclinedMatch() throws {
        let text = try json([p.won("alice", 1, 3)], declined: true)
        #expect(text.hasSuffix(#""score":{"alice":0,"ben":0},"status":"declined","winner":null}"#))
        #expect(text.contains(#"{"index":1,"results":{"alice":{"guesses":3,"hints":0,"status":"won"}},"winner":null}"#))
    }

    @Test func everyMachineOfEitherPlayerPrintsTheSame() throws {
        let plays = p.oneAll() + [p.playing("ben", 3, 2)]
        var generator = SeededGenerator(seed: 4)
        let first = try json(plays)
        for _ in 0..<10 { #expect(try json(plays.shuffled(using: &generator)) == first) }
    }
}
