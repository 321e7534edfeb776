import Foundation
import TestSupport
import Testing

/// Records in a player's own zones that no play could have made, written as valid files by
/// another device folder of hers (a machine whose database was changed by hand, as a bug or a
/// person with write access to the folder could): `qiktionary sync` on her machine exits 0, says
/// one line for each refused record, and none of them shows anywhere (issue 35).
@Suite(.serialized) struct OwnZoneRulesEndToEndTests {
    func sql(_ peer: Peer, _ statements: String) throws {
        let ran = try ProcessRunner.run(URL(fileURLWithPath: TerminalTextTests.sqlite3!), [peer.dataDir.appendingPathComponent("qiktionary.sqlite").path],
                                        input: statements, environment: ProcessInfo.processInfo.environment)
        #expect(ran.status == 0, "\(ran.stderr)")
    }

    @Test(.enabled(if: TerminalTextTests.sqlite3 != nil, "sqlite3 is not installed (CI installs it)"))
    func recordsNoPlayCouldHaveMadeAreRefusedOneLineEachAndNeverShown() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let laptop = pair.peer("laptop"), evil = pair.peer("evil")
        try evil.pair(with: laptop)
        let tiger = try #require(gameID(try laptop.play(["--word", "tiger"], ["crane", "tiger"])))
        try evil.sync()
        // The other device plays a game of its own and bookmarks TIGER, without syncing; then its
        // database is changed: that game's word is no word, and the won game gets three guesses
        // no play could have given it (a forged score, no word, a place beyond the limit).
        #expect(try evil.run(["play", "--plain", "--no-sync", "--word", "comet"], input: "pilot\ncomet\n").status == 0)
        #expect(try evil.run(["reading-list", "add", "tiger", "--no-sync"]).status == 0)
        try sql(evil, """
            UPDATE game SET secret = 'qqqqq', rules = 'mastermind' WHERE secret = 'comet';
            INSERT INTO guess (gameId, position, word, common, inPlace, inWord, playedAt, playedOn, uploaded) VALUES
              ('\(tiger)', 3, 'fable', 5, NULL, NULL, 1790000000000, 'evil', 0),
              ('\(tiger)', 3, 'qxzjv', 0, NULL, NULL, 1790000000000, 'evil', 0),
              ('\(tiger)', 99, 'lemon', 1, NULL, NULL, 1790000000000, 'evil', 0);
            UPDATE bookmark SET fact = 'Tigers are made of cheese: https://example.com/t';
            """)
        let sent = try evil.sync()
        #expect(sent["uploaded"] as? Int == 7, "\(sent)")

        let before = try laptop.list("history")
        let synced = try laptop.run(["sync"])
        #expect(synced.status == 0, "\(synced.stderr)")
        let warnings = synced.stderr.split(separator: "\n").map(String.init).filter { $0.contains("cloud folder: skipped") }
        #expect(warnings.count == 7, "\(synced.stderr)")
        for record in ["Game record", "Guess record \(tiger)-fable", "Guess record \(tiger)-qxzjv", "Guess record \(tiger)-lemon",
                       "-pilot", "-comet", "Bookmark record bookmark-tiger"] {
            #expect(warnings.filter { $0.contains(record) }.count == 1, "\(record): \(warnings)")
        }
        #expect(synced.stdout.contains("0 received, 7 skipped"), "\(synced.stdout)")

        // Nothing of them shows: the history is the one won game with its two guesses, nothing
        // is in progress, the reading list is empty, and a second sync tells nothing again.
        let history = try laptop.list("history")
        #expect(history.count == 1 && history.first?["id"] as? String == tiger, "\(history)")
        #expect(history.first?["guesses"] as? Int == 2)
        #expect(history.count == before.count)
        #expect(try laptop.list("games").isEmpty)
        #expect(try laptop.list("reading-list").isEmpty)
        let again = try laptop.run(["sync"])
        #expect(again.status == 0 && !again.stderr.contains("skipped"), "\(again.stderr)")
    }
}
