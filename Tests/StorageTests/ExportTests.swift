import Foundation
import GRDB
import Testing
import QiktionaryCore
@testable import Storage
import Sync

/// `export` and `import`: everything of a player as one document, merged back by ids, and
/// every file that is not a sound export refused with nothing changed.
@Suite struct ExportTests {
    let lexicon = Fixtures.lexicon
    let fields = Data("system fields".utf8)
    let now = Date(timeIntervalSince1970: 1_795_000_000)

    /// A player with one of everything: won, lost, given up, hard with hints, daily, practice,
    /// in progress with marks, and a reading list.
    func playedDatabase() throws -> (AppDatabase, Profile) {
        let (db, profile) = try Fixtures.database()
        var clock = Date(timeIntervalSince1970: 1_790_000_000.123)
        func tick() -> Date { clock += 61.007; return clock }
        let won = try db.player(profile).startGame(GameRequest(word: "flint"), now: tick())
        _ = try db.player(profile).mark("z", as: .out, gameID: won.id, now: tick())
        _ = try db.player(profile).submitGuess("amber", gameID: won.id, lexicon: lexicon, now: tick())
        _ = try db.player(profile).submitGuess("flint", gameID: won.id, lexicon: lexicon, now: tick())
        let lost = try db.player(profile).startGame(GameRequest(word: "queue", rules: .mastermind), now: tick())
        for word in ["geese", "blaze", "crisp"] { _ = try db.player(profile).submitGuess(word, gameID: lost.id, lexicon: lexicon, now: tick()) }
        let hard = try db.player(profile).startGame(GameRequest(word: "crisp", hard: true, assist: .noHelp), now: tick())
        _ = try db.player(profile).recordHint(gameID: hard.id, now: tick())
        _ = try db.player(profile).submitGuess("dwarf", gameID: hard.id, lexicon: lexicon, now: tick())
        _ = try db.player(profile).recordHint(gameID: hard.id, now: tick())
        _ = try db.player(profile).giveUp(gameID: hard.id, now: tick())
        let daily = try db.player(profile).startGame(GameRequest(packID: "stones", word: "amber", assist: .coach, daily: "2026-11-22"), now: tick())
        _ = try db.player(profile).submitGuess("amber", gameID: daily.id, lexicon: lexicon, now: tick())
        let practice = try db.player(profile).startGame(GameRequest(word: "tiger"), lexicon: { Fixtures.lexicon }, now: tick())
        _ = try db.player(profile).submitGuess("crane", gameID: practice.id, lexicon: lexicon, now: tick())
        let open = try db.player(profile).startGame(GameRequest(word: "dwarf"), now: tick())
        _ = try db.player(profile).submitGuess("blaze", gameID: open.id, lexicon: lexicon, now: tick())
        _ = try db.player(profile).mark("b", as: .out, gameID: open.id, now: tick())
        _ = try db.player(profile).mark("d", as: .in, gameID: open.id, now: tick())
        try db.player(profile).addBookmark(word: "flint", now: tick())
        try db.player(profile).addBookmark(word: "amber", now: tick())
        return (db, profile)
    }

    /// Everything a player sees of their data, for before-and-after comparisons.
    struct Snapshot: Equatable {
        var export: Data
        var games: [SavedGame]
        var statistics: Statistics
        var readingList: [Bookmark]
    }

    func snapshot(_ db: AppDatabase, _ profile: Profile) throws -> Snapshot {
        Snapshot(export: try db.player(profile).exportDocument(cloudDir: nil, now: now).encoded(),
                 games: try db.player(profile).history() + db.player(profile).gamesInProgress(),
                 statistics: try db.player(profile).statistics(), readingList: try db.player(profile).readingList())
    }

    func roundTrip(_ document: ExportDocument) throws -> ExportDocument {
        try ExportDocument.decode(document.encoded())
    }

    /// A game's hard mode, help level and daily date survive an import into a machine that
    /// already holds the game: the merge keeps the whole value (the higher level, the daily date).
    @Test func anImportMergedIntoAGameHereKeepsHardModeTheHelpLevelAndTheDailyDate() throws {
        let (db, profile) = try playedDatabase()
        let document = try db.player(profile).exportDocument(cloudDir: nil, now: now)
        #expect(Set(document.games.compactMap(\.assist)) == ["none", "proven", "coach"], "every level is exported")
        // The other machine holds the same games, its copies at the lowest level and without the daily date.
        let (other, otherProfile) = try Fixtures.database()
        var lowered = document
        for i in lowered.games.indices {
            lowered.games[i].assist = "none"
            lowered.games[i].hard = false
            lowered.games[i].daily = nil
            lowered.games[i].guesses = []
        }
        _ = try other.player(otherProfile).importDocument(roundTrip(lowered), lexicon: lexicon)
        _ = try other.player(otherProfile).importDocument(roundTrip(document), lexicon: lexicon)
        for game in document.games {
            let merged = try other.player(otherProfile).game(id: game.id)
            #expect(merged.game.assist.rawValue == game.assist, "\(game.word)")
            #expect(merged.game.hard == game.hard, "\(game.word)")
            #expect(merged.daily == game.daily, "\(game.word)")
        }
        // A help level no version knows is refused in one line.
        var bad = document
        bad.games[0].assist = "everything"
        #expect(throws: StorageError.self) { try other.player(otherProfile).importDocument(bad, lexicon: lexicon) }
    }

    @Test func exportThenImportIntoAFreshDatabaseGivesTheSameGamesGuessesMarksAndBookmarks() throws {
        let (db, profile) = try playedDatabase()
        let document = try db.player(profile).exportDocument(cloudDir: "/mnt/shared/qk", now: now)
        #expect(document.format == "qiktionary-export" && document.version == 1)
        #expect(document.games.count == 6 && document.readingList.map(\.word) == ["amber", "flint"])
        #expect(document.settings == .init(device: "laptop", cloudDir: "/mnt/shared/qk"))

        let (fresh, freshProfile) = try Fixtures.database()
        let report = try fresh.player(freshProfile).importDocument(roundTrip(document), lexicon: lexicon)
        #expect(report.gamesAdded == 6 && report.guessesAdded == 9 && report.marksChanged == 3 && report.bookmarksAdded == 2)
        for game in document.games {
            #expect(try fresh.player(freshProfile).game(id: game.id) == db.player(profile).game(id: game.id))
        }
        #expect(try snapshot(fresh, freshProfile) == snapshot(db, profile))
        #expect(try fresh.player(freshProfile).history() == db.player(profile).history())
        #expect(try fresh.player(freshProfile).gamesInProgress() == db.player(profile).gamesInProgress())
        #expect(try fresh.player(freshProfile).statistics() == db.player(profile).statistics())
        #expect(try fresh.player(freshProfile).readingList() == db.player(profile).readingList())
        #expect(try fresh.player(freshProfile).achievements() == db.player(profile).achievements())
    }

    @Test func importedGamesAndBookmarksAreQueuedToSyncAsLocalWritesAre() throws {
        let (db, profile) = try playedDatabase()
        let (fresh, freshProfile) = try Fixtures.database()
        _ = try fresh.player(freshProfile).importDocument(db.player(profile).exportDocument(cloudDir: nil), lexicon: lexicon)
        let mine = try db.player(profile).outgoingChanges(naming: CloudSchema()), imported = try fresh.player(freshProfile).outgoingChanges(naming: CloudSchema())
        #expect(Set(imported.games.map(\.game.id)) == Set(mine.games.map(\.game.id)))
        let allNew = imported.games.allSatisfy(\.isNew)
        #expect(allNew)
        #expect(Set(imported.guesses.map { CloudSchema().guess(gameID: $0.gameID, word: $0.word) }) == Set(mine.guesses.map { CloudSchema().guess(gameID: $0.gameID, word: $0.word) }))
        #expect(Set(imported.marks.map { CloudSchema().mark(gameID: $0.mark.gameID, letter: $0.mark.letter) }) == Set(mine.marks.map { CloudSchema().mark(gameID: $0.mark.gameID, letter: $0.mark.letter) }))
        #expect(Set(imported.bookmarks.map(\.bookmark.word)) == ["amber", "flint"])
    }

    @Test func importingTwiceOrWhatIsAlreadyHereChangesNothing() throws {
        let (db, profile) = try playedDatabase()
        let document = try db.player(profile).exportDocument(cloudDir: nil)
        // Into the database it came from, even once everything was sent.
        try db.player(profile).acknowledge(db.player(profile).outgoingChanges(naming: CloudSchema()), saved: allSaved(db, profile), deleted: [], naming: CloudSchema())
        let before = try snapshot(db, profile)
        let again = try db.player(profile).importDocument(document, lexicon: lexicon)
        #expect(!again.changedAnything && again.gamesInFile == 6 && again.bookmarksInFile == 2)
        #expect(try db.player(profile).pendingChangeCount() == 0, "nothing queued for the cloud")
        #expect(try snapshot(db, profile) == before)

        // Into a fresh one, twice.
        let (fresh, freshProfile) = try Fixtures.database()
        #expect(try fresh.player(freshProfile).importDocument(document, lexicon: lexicon).changedAnything)
        let once = try snapshot(fresh, freshProfile), pending = try fresh.player(freshProfile).pendingChangeCount()
        #expect(try !fresh.player(freshProfile).importDocument(document, lexicon: lexicon).changedAnything)
        #expect(try snapshot(fresh, freshProfile) == once)
        #expect(try fresh.player(freshProfile).pendingChangeCount() == pending)
    }

    func allSaved(_ db: AppDatabase, _ profile: Profile) throws -> [String: Data] {
        let out = try db.player(profile).outgoingChanges(naming: CloudSchema())
        let names = out.games.map { CloudSchema().game($0.game.id) } + out.guesses.map { CloudSchema().guess(gameID: $0.gameID, word: $0.word) } + out.marks.map { CloudSchema().mark(gameID: $0.mark.gameID, letter: $0.mark.letter) }
            + out.bookmarks.map { CloudSchema().bookmark(word: $0.bookmark.word) }
        return Dictionary(uniqueKeysWithValues: names.map { ($0, fields) })
    }

    @Test func importMergesAGameByItsIdAsSyncWould() throws {
        let (db, profile) = try Fixtures.database()
        let game = try db.player(profile).startGame(GameRequest(word: "flint"))
        _ = try db.player(profile).submitGuess("amber", gameID: game.id, lexicon: lexicon)
        let old = try db.player(profile).exportDocument(cloudDir: nil)
        // The same data dir played on; an older export brings nothing back.
        _ = try db.player(profile).submitGuess("blaze", gameID: game.id, lexicon: lexicon)
        _ = try db.player(profile).mark("q", as: .out, gameID: game.id)
        _ = try db.player(profile).submitGuess("flint", gameID: game.id, lexicon: lexicon)
        let newer = try db.player(profile).exportDocument(cloudDir: nil)
        let played = try snapshot(db, profile)
        #expect(try !db.player(profile).importDocument(old, lexicon: lexicon).changedAnything)
        #expect(try snapshot(db, profile) == played)

        // The newer export into a copy that has only the older state: guesses, mark and the win arrive.
        let (copy, copyProfile) = try Fixtures.database()
        _ = try copy.player(copyProfile).importDocument(old, lexicon: lexicon)
        try copy.player(copyProfile).acknowledge(copy.player(copyProfile).outgoingChanges(naming: CloudSchema()), saved: allSaved(copy, copyProfile), deleted: [], naming: CloudSchema())
        let report = try copy.player(copyProfile).importDocument(newer, lexicon: lexicon)
        #expect(report.gamesAdded == 0 && report.gamesUpdated == 1 && report.guessesAdded == 2 && report.marksChanged == 1)
        #expect(try copy.player(copyProfile).game(id: game.id) == db.player(profile).game(id: game.id))
        let queued = try copy.player(copyProfile).outgoingChanges(naming: CloudSchema())
        #expect(Set(queued.guesses.map(\.word)) == ["blaze", "flint"] && queued.marks.map(\.mark.letter) == ["q"])
        #expect(queued.games.first?.changedFields.isSuperset(of: [.status, .finishedAt]) == true, "the win goes to the cloud")
    }

    // MARK: Refused

    /// A valid export as a JSON object to spoil.
    func exportObject() throws -> [String: Any] {
        let (db, profile) = try playedDatabase()
        return try #require(JSONSerialization.jsonObject(with: db.player(profile).exportDocument(cloudDir: nil).encoded()) as? [String: Any])
    }

    func spoiled(_ change: (inout [String: Any]) -> Void) throws -> Data {
        var object = try exportObject()
        change(&object)
        return try JSONSerialization.data(withJSONObject: object)
    }

    func game(_ object: inout [String: Any], _ index: Int = 0, _ change: (inout [String: Any]) -> Void) {
        var games = object["games"] as! [[String: Any]]
        change(&games[index])
        object["games"] = games
    }

    func guess(_ object: inout [String: Any], _ change: (inout [String: Any]) -> Void) {
        game(&object) { game in
            var guesses = game["guesses"] as! [[String: Any]]
            change(&guesses[0])
            game["guesses"] = guesses
        }
    }

    func badFiles() throws -> [(String, Data, String)] {
        let valid = try JSONSerialization.data(withJSONObject: exportObject())
        var cases: [(String, Data, String)] = [
            ("truncated", valid.prefix(valid.count / 2), "not valid JSON"),
            ("empty", Data(), "not valid JSON"),
            ("not JSON", Data("qiktionary.sqlite\u{0}\u{1}".utf8), "not valid JSON"),
            ("a list", Data("[1, 2, 3]".utf8), "not a qiktionary export"),
            ("another object", Data(#"{"name": "qiktionary", "games": 3}"#.utf8), "not a qiktionary export"),
            ("a number as format", Data(#"{"format": 7, "version": 1}"#.utf8), "not a qiktionary export"),
            ("deeply nested", Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8), "nested"),
            ("nested inside", try spoiled { $0["extra"] = (0..<40).reduce([Any]()) { list, _ in [list] } }, "nested"),
            ("newer version", try spoiled { $0["version"] = 2 }, "newer qiktionary"),
            ("no version", try spoiled { $0["version"] = nil }, "no \"version\""),
            ("no games", try spoiled { $0["games"] = nil }, "games is missing"),
            ("games not a list", try spoiled { $0["games"] = "all of them" }, "games should be a list"),
            ("a number as text", try spoiled { game(&$0) { $0["maxGuesses"] = "15" } }, "games[0].maxGuesses should be a whole number"),
            ("a huge number", try spoiled { game(&$0) { $0["maxGuesses"] = 1e300 } }, "out of range"),
            ("null where text goes", try spoiled { game(&$0) { $0["word"] = NSNull() } }, "games[0].word"),
            ("absurd limit", try spoiled { game(&$0) { $0["maxGuesses"] = 1_000_000 } }, "maxGuesses 1000000 is not 1 to 30"),
            ("absurd date", try spoiled { game(&$0) { $0["startedAt"] = "3026-11-22T23:15:00.000Z" } }, "startedAt"),
            ("not a date", try spoiled { game(&$0) { $0["startedAt"] = "yesterday" } }, "startedAt 'yesterday'"),
            ("February 30th", try spoiled { game(&$0) { $0["updatedAt"] = "2026-02-30T10:00:00.000Z" } }, "updatedAt"),
            ("not a word", try spoiled { game(&$0) { $0["word"] = "t1ger" } }, "'t1ger' is not a word"),
            ("a word of no dictionary", try spoiled { game(&$0) { $0["word"] = "xqzte" } }, "'xqzte' is not a word"),
            ("a long word", try spoiled { game(&$0) { $0["word"] = String(repeating: "a", count: 100_000) } }, "is not a word"),
            ("not an id", try spoiled { game(&$0) { $0["id"] = "../../etc/passwd" } }, "is not a game id"),
            ("an id twice", try spoiled { object in
                var games = object["games"] as! [[String: Any]]
                games[1]["id"] = games[0]["id"]
                object["games"] = games
            }, "there twice"),
            ("unknown rules", try spoiled { game(&$0) { $0["rules"] = "chess" } }, "neither classic nor mastermind"),
            ("unknown status", try spoiled { game(&$0) { $0["status"] = "winning" } }, "not a game status"),
            ("a finished game with no finish", try spoiled { game(&$0) { $0["finishedAt"] = nil } }, "finishedAt is missing"),
            ("absurd hints", try spoiled { game(&$0) { $0["hintsAt"] = [5_000_000] } }, "hintsAt"),
            ("a match result no game gives", try spoiled { game(&$0) { $0["matchResult"] = "won 99 0 proven 5" } },
             "matchResult 'won 99 0 proven 5' is not a match game's result"),
            ("escape codes in a match result", try spoiled { game(&$0) { $0["matchResult"] = "won 1 0 proven 5\u{1b}[2J" } },
             "is not a match game's result"),
            ("escape codes in a fact", try spoiled { game(&$0) { $0["fact"] = "Flint \u{1b}[2J sparks." } }, #"fact holds a control character: 'Flint \x1b[2J sparks.'"#),
            ("a huge fact", try spoiled { game(&$0) { $0["fact"] = String(repeating: "Flint. ", count: 2_000) } }, "longer than 2000"),
            ("a wrong score", try spoiled { guess(&$0) { $0["common"] = 5 } }, "but scores 0 common against the word"),
            ("a negative position", try spoiled { guess(&$0) { $0["position"] = -1 } }, "position -1"),
            ("a guess not a word", try spoiled { guess(&$0) { $0["word"] = "zzzzz" } }, "'zzzzz' is not a dictionary word"),
            ("a device name of control characters", try spoiled { guess(&$0) { $0["playedOn"] = "\u{7}\u{7}" } }, "not a device name"),
            ("a mark not a letter", try spoiled { game(&$0) { $0["marks"] = [["letter": "é", "state": "in", "markedAt": "2026-11-22T10:00:00.000Z"]] } }, "not a letter"),
            ("another player's daily game", try spoiled { object in
                game(&object, 3) { $0["daily"] = "2026-11-23" }
            }, "daily game"),
            ("another player", try spoiled { $0["player"] = "bob" }, "player 'bob'"),
            ("not a player name", try spoiled { $0["player"] = "../bob" }, "not a player name"),
            ("a bookmark without a fact", try spoiled { object in
                var list = object["readingList"] as! [[String: Any]]
                list[0]["fact"] = ""
                object["readingList"] = list
            }, "readingList[0]: fact is empty"),
        ]
        // Too many guesses for any game.
        cases.append(("too many guesses", try spoiled { game(&$0) { game in
            game["guesses"] = Array(repeating: (game["guesses"] as! [[String: Any]])[0], count: 1_001)
        } }, "more than 1000"))
        return cases
    }

    @Test func badFilesAreRefusedWithOneLineAndNothingChanges() throws {
        let (db, profile) = try playedDatabase()
        let before = try snapshot(db, profile), pending = try db.player(profile).pendingChangeCount()
        for (name, data, expected) in try badFiles() {
            do {
                let document = try ExportDocument.decode(data)
                _ = try db.player(profile).importDocument(document, lexicon: lexicon)
                Issue.record("\(name): accepted")
            } catch {
                let message = "\(error)"
                #expect(message.contains(expected), "\(name): \(message)")
                #expect(!message.contains("\n") && message.count < 400, "\(name): \(message)")
            }
        }
        #expect(try snapshot(db, profile) == before)
        #expect(try db.player(profile).pendingChangeCount() == pending)
    }

    @Test func aGameWithTheIdOfAnotherPlayersGameIsRefusedAndNothingIsWritten() throws {
        let (db, profile) = try playedDatabase()
        let document = try db.player(profile).exportDocument(cloudDir: nil)
        let (other, ann) = try Fixtures.database(player: "ann")
        // Bob has a game with the id of one of ann's export.
        let bob = try other.profile(player: "bob", device: "laptop", hostName: "h")
        let bobs = try other.player(bob).startGame(GameRequest(word: "amber"))
        var spoiled = document
        spoiled.player = "ann"
        spoiled.games = spoiled.games.filter { $0.daily == nil }
        spoiled.games[spoiled.games.count - 1].id = bobs.id
        let ann2 = try other.profile(player: "ann", device: "laptop", hostName: "h")
        #expect(ann2.playerID == ann.playerID)
        let before = try snapshot(other, ann2)
        #expect(throws: StorageError.self) { try other.player(ann2).importDocument(spoiled, lexicon: lexicon) }
        #expect(try snapshot(other, ann2) == before, "the games before the refused one were rolled back")
        #expect(try other.player(ann2).history().isEmpty && other.player(ann2).gamesInProgress().isEmpty)
    }

    @Test func exportedTimesKeepTheirMilliseconds() {
        let date = AppDatabase.stamp(Date(timeIntervalSince1970: 1_795_000_000.987))
        #expect(ExportDate.text(date) == "2026-11-18T11:06:40.987Z")
        #expect(ExportDate.parse(ExportDate.text(date)) == date)
        #expect(ExportDate.parse("2026-11-18T11:06:40Z") == AppDatabase.stamp(Date(timeIntervalSince1970: 1_795_000_000)))
        for bad in ["2026-11-18 09:46:40.987Z", "2026-11-18T09:46:40.987", "2026-13-18T09:46:40.987Z", "1969-12-31T23:59:59.999Z",
                    "2101-01-01T00:00:00.000Z", "2026-11-18T24:00:00.000Z", "２026-11-18T09:46:40.987Z", ""] {
            #expect(ExportDate.parse(bad) == nil, "\(bad)")
        }
    }

    // MARK: Damage

    /// A database on disk, as the command line opens it.
    func onDisk() throws -> (URL, AppDatabase, Profile) {
        let dir = try Fixtures.folder([:])
        let packs = try Fixtures.folder(["stones.json": Fixtures.stones, "doubles.json": Fixtures.doubles])
        defer { try? FileManager.default.removeItem(at: packs) }
        let db = try AppDatabase.open(dataDir: dir)
        _ = try db.importPacks(from: PackFile.files(in: packs), lexicon: { Fixtures.lexicon })
        return (dir, db, try db.profile(player: nil, device: "laptop", hostName: "h"))
    }

    /// Everything into the main file, then closed, so the file alone is the database.
    func checkpointAndClose(_ db: AppDatabase) throws {
        _ = try db.writer.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        try db.close()
    }

    @Test func aFileThatIsNotADatabaseOrIsCutShortIsDamagedOnOpen() throws {
        let (dir, db, profile) = try onDisk()
        defer { try? FileManager.default.removeItem(at: dir) }
        for n in 0..<40 { _ = try db.player(profile).startGame(GameRequest(word: n % 2 == 0 ? "amber" : "flint")) }
        try checkpointAndClose(db)
        let file = dir.appendingPathComponent(AppDatabase.fileName)
        let bytes = try Data(contentsOf: file)
        try? FileManager.default.removeItem(atPath: file.path + "-wal")
        try? FileManager.default.removeItem(atPath: file.path + "-shm")

        try bytes.prefix(bytes.count / 2).write(to: file)
        #expect { try AppDatabase.open(dataDir: dir) } throws: { error in
            guard case StorageError.damaged(let path, let reason) = error else { return false }
            return path == file.path && reason.contains("cut short")
        }
        try Data("not a database at all, but long enough to have a header of one hundred bytes...............................".utf8).write(to: file)
        #expect { try AppDatabase.open(dataDir: dir) } throws: { error in
            guard case StorageError.damaged(_, let reason) = error else { return false }
            return reason.contains("not an SQLite database")
        }
    }

    @Test func aDamagedCopyIsFoundByItsFirstCheckAndAGoodOneIsCheckedOnce() throws {
        let (dir, db, profile) = try onDisk()
        defer { try? FileManager.default.removeItem(at: dir) }
        for n in 0..<200 {
            let game = try db.player(profile).startGame(GameRequest(word: n % 2 == 0 ? "amber" : "flint"))
            _ = try db.player(profile).submitGuess(n % 2 == 0 ? "flint" : "amber", gameID: game.id, lexicon: lexicon)
        }
        try checkpointAndClose(db)
        let file = dir.appendingPathComponent(AppDatabase.fileName)
        var bytes = try Data(contentsOf: file)
        // A copy of the file (another inode) is checked once, then remembered.
        let good = try Fixtures.folder([:]), bad = try Fixtures.folder([:])
        defer { try? FileManager.default.removeItem(at: good); try? FileManager.default.removeItem(at: bad) }
        try bytes.write(to: good.appendingPathComponent(AppDatabase.fileName))
        let reopened = try AppDatabase.open(dataDir: good)
        #expect(try reopened.player(profile).history().isEmpty)
        #expect(try reopened.player(profile).gamesInProgress().count == 200)
        #expect(try reopened.read { db in try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = 'checkedFile'") }
                == Damage.identity(ofFileAt: good.appendingPathComponent(AppDatabase.fileName).path))
        try reopened.close()
        // The same bytes with pages in the middle overwritten.
        let middle = bytes.count / 2 / 4_096 * 4_096
        bytes.replaceSubrange(middle..<middle + 8_192, with: Data(repeating: 0x5A, count: 8_192))
        try bytes.write(to: bad.appendingPathComponent(AppDatabase.fileName))
        let before = try Data(contentsOf: bad.appendingPathComponent(AppDatabase.fileName))
        #expect { try AppDatabase.open(dataDir: bad) } throws: { error in
            guard case StorageError.damaged(let path, _) = error else { return false }
            return path == bad.appendingPathComponent(AppDatabase.fileName).path && !"\(error)".contains("\n")
        }
        #expect(try Data(contentsOf: bad.appendingPathComponent(AppDatabase.fileName)) == before, "finding the damage wrote nothing to it")
    }

    @Test func aSalvageKeepsOnlyWhatTheCloudDoesNotHave() throws {
        let (dir, db, profile) = try onDisk()
        defer { try? FileManager.default.removeItem(at: dir) }
        try db.remember(.cloudDir, "/mnt/shared")
        let synced = try db.player(profile).startGame(GameRequest(word: "amber"))
        _ = try db.player(profile).submitGuess("flint", gameID: synced.id, lexicon: lexicon)
        let later = try db.player(profile).startGame(GameRequest(word: "flint"))
        _ = try db.player(profile).submitGuess("amber", gameID: later.id, lexicon: lexicon)
        try db.player(profile).addBookmark(word: "crisp")
        try db.player(profile).acknowledge(db.player(profile).outgoingChanges(naming: CloudSchema()), saved: allSaved(db, profile), deleted: [], naming: CloudSchema())
        // After the last sync: a new game, a guess in a synced one, a bookmark.
        let unsynced = try db.player(profile).startGame(GameRequest(word: "dwarf"))
        _ = try db.player(profile).submitGuess("amber", gameID: unsynced.id, lexicon: lexicon)
        _ = try db.player(profile).submitGuess("crisp", gameID: later.id, lexicon: lexicon)
        try db.player(profile).addBookmark(word: "amber")
        let bob = try db.profile(player: "bob", device: "laptop", hostName: "h")
        _ = try db.player(bob).startGame(GameRequest(word: "amber"))
        try db.close()

        let salvage = Damage.salvage(file: dir.appendingPathComponent(AppDatabase.fileName), player: "player", lexicon: lexicon, now: now)
        #expect(salvage.settings == [.player: "bob", .device: "laptop", .cloudDir: "/mnt/shared"])
        #expect(salvage.knewWhatWasSynced && salvage.unreadable == 0)
        #expect(salvage.exports.map(\.player) == ["player", "bob"], "the player asked for first")
        let mine = try #require(salvage.exports.first)
        #expect(Set(mine.games.map(\.id)) == [unsynced.id, later.id])
        #expect(mine.games.first { $0.id == later.id }?.guesses.map(\.word) == ["amber", "crisp"], "a game goes whole")
        #expect(mine.readingList.map(\.word) == ["amber"])
        // It imports as it is.
        let (fresh, freshProfile) = try Fixtures.database()
        #expect(try fresh.player(freshProfile).importDocument(try roundTrip(mine), lexicon: lexicon).gamesAdded == 2)
    }
}
