@testable import App
import Concurrency
import Foundation
import QiktionaryCore
import Sync
import Testing

/// What the commands and the full-screen game took from App rather than put together
/// themselves: `history show`'s review, the reading list's document, the full screen's
/// opening, the progress line, the data dir's changes, the friends and devices lines.
@Suite struct FrontEndUseCaseTests {
    let cases = try! UseCaseTests()
    var games: PlayerGames { cases.games }

    @Test func aReviewedGameHasItsReviewAndChallengeCodeAndAGameInPlayIsRefused() throws {
        let game = try cases.started()
        _ = try games.submitGuess("crane", gameID: game.id)
        #expect(throws: (any Error).self) { try games.reviewedGame(idOrPrefix: game.id) }
        _ = try games.submitGuess("tiger", gameID: game.id)
        let reviewed = try games.reviewedGame(idOrPrefix: String(game.id.prefix(8)))
        #expect(reviewed.saved.id == game.id && reviewed.review.steps.map(\.word) == ["crane", "tiger"])
        let code = try #require(reviewed.challenge)
        #expect(try games.challengeRequest(code: code).word == "tiger")
    }

    @Test func theReadingListComesWithThePacksTitles() throws {
        let game = try cases.started()
        _ = try games.submitGuess("tiger", gameID: game.id)
        _ = try games.bookmarkGame(id: game.id)
        let (facts, titles) = try games.readingListWithTitles()
        #expect(facts.map(\.word) == ["tiger"])
        let packs = try games.packs()
        let animals = try #require(packs.first { $0.id == "animals" })
        #expect(titles["animals"] == animals.title && titles.count == packs.count)
    }

    @Test func theFullScreenOpensOnARequestChecked() throws {
        #expect(try games.opening(GameOptions()) == .begin(GameRequest()))
        #expect(try games.opening(GameOptions(pack: "animals", hard: true)) == .begin(GameRequest(packID: "animals", hard: true)))
        #expect(try games.opening(GameOptions(daily: true)) == .begin(try games.dailyRequest()))
        // A pack or word that cannot be played is refused before the screen opens; nothing starts.
        #expect(throws: (any Error).self) { try games.opening(GameOptions(pack: "no-such-pack")) }
        #expect(throws: (any Error).self) { try games.opening(GameOptions(pack: "animals", word: "qqqqq")) }
        #expect(try games.gamesInProgress().isEmpty && games.latestGameInProgress() == nil)
        // A level asked for is the player's from then on.
        _ = try games.opening(GameOptions(assist: .coach))
        #expect(try games.assistLevel() == .coach)
    }

    @Test func aMatchsGameIsStartedBeforeTheScreenOpens() throws {
        #expect(throws: (any Error).self) { try games.opening(GameOptions(match: "nosuchmatch")) }
        try games.player.keepFriend("ben", joinedAt: UseCaseTests.now)
        let made = try games.newMatch(against: "ben", packID: "animals", rules: nil, hard: false, seed: 7)
        guard case .resume(let gameID) = try games.opening(GameOptions(match: made.state.match.id)) else {
            Issue.record("a match's game opens as a game to resume")
            return
        }
        #expect(try games.matchOverview(ofGame: gameID)?.state.match.id == made.state.match.id)
    }

    @Test func theProgressLineIsRewrittenInPlaceAndWipedOnlyWhenDrawn() {
        let written = Locked<[String]>([])
        let line = ProgressLine(throttle: SyncService.Throttle(interval: 3600, now: { UseCaseTests.now })) { text in
            written.withLock { $0.append(text) }
        }
        line.clear()
        #expect(written.withLock { $0 }.isEmpty, "nothing to wipe before a line is drawn")
        line.show(.importing, done: 10, total: 40)
        line.show(.importing, done: 20, total: 40)
        line.show(.sending, done: 5, total: 5)
        line.draw(.importing(done: 1, total: nil))
        line.draw(.ended)
        line.clear()
        #expect(written.withLock { $0 } == [
            "\r\u{1B}[Kimporting 10 of 40 records",
            // 20 of 40 came within the throttle's interval; the last of a total always shows.
            "\r\u{1B}[Ksending 5 of 5 records",
            "\r\u{1B}[Kimporting 1 records",
            "\r\u{1B}[K",
        ])
    }

    @Test func fileChangesSeeAWriteAFileAppearingAndNothingElse() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("changes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (file, log) = (folder.appendingPathComponent("db"), folder.appendingPathComponent("db-wal"))
        try Data("a".utf8).write(to: file)
        let changes = FileChanges([file, log])
        #expect(!changes.changed(), "nothing written since it started")
        try Data("ab".utf8).write(to: file)
        #expect(changes.changed(), "the file grew")
        #expect(!changes.changed(), "asked again with nothing written")
        try Data("x".utf8).write(to: log)
        #expect(changes.changed(), "the log appeared")
    }

    @Test func devicesAndFriendsAreShownOneLineEach() {
        #expect(Setup.DeviceLine(name: "laptop", fingerprint: "ab12 cd34", thisMachine: true).text == "laptop  ab12 cd34  (this machine)")
        #expect(Setup.DeviceLine(name: "desk", fingerprint: "ef56", thisMachine: false).text == "desk  ef56")
        #expect(Setup.FriendLine(name: "ben", fingerprint: "ab12", fingerprints: ["ab12", "cd34"]).text == "ben  ab12, cd34")
        #expect(Setup.FriendLine(name: "ben", fingerprint: nil, fingerprints: []).text == "ben")
    }

    @Test func joiningTheFolderNeedsOneAndFriendsAreListedWithoutIt() throws {
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("setup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dataDir) }
        let warnings = Locked<[String]>([])
        let voice = Voice(say: { _ in }, warn: { line in warnings.withLock { $0.append(line) } }, note: { _ in },
                          stop: { failure in fatalError(failure.message) })
        let setup = try Setup.open(Setup.Options(dataDir: dataDir.path, cloudDir: nil, player: "ana", device: "laptop", noSync: false),
                                   voice: voice, environment: [:])
        defer { setup.finish(succeeded: true) }
        let refusal = #expect(throws: Failure.self) { try setup.joinFolder() }
        #expect(refusal?.message.hasPrefix("friends --join needs a cloud folder") == true, "\(refusal?.message ?? "")")
        #expect(try setup.friendLines().isEmpty)
        try setup.games.player.keepFriend("ben", joinedAt: UseCaseTests.now)
        #expect(try setup.friendLines() == [Setup.FriendLine(name: "ben", fingerprint: nil, fingerprints: [])])
        #expect(warnings.withLock { $0 }.isEmpty, "\(warnings.withLock { $0 })")
    }
}
