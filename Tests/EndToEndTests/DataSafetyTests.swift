import Foundation
import Testing

/// Keeping the player's data safe, with the real binary: a damaged database is named with what
/// to do (exit 74) and set aside by --reset-local while the cloud brings the games back; export
/// and import carry everything to a fresh data dir; bad export files are refused (exit 65);
/// the resets write a backup first.
@Suite(.serialized) struct DataSafetyTests {
    func expectOneLineFailure(_ result: Binary.Result, status: Int32, mentioning texts: [String],
                              sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == status, "\(result.stderr)", sourceLocation: sourceLocation)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("qiktionary: "), sourceLocation: sourceLocation)
        for text in texts { #expect(result.stderr.contains(text), "stderr: \(result.stderr)", sourceLocation: sourceLocation) }
    }

    /// What a player sees of their data, command by command.
    func lists(_ run: ([String]) throws -> Binary.Result) throws -> [String: String] {
        var seen: [String: String] = [:]
        for command in ["history", "games", "reading-list", "stats"] {
            let result = try run([command, "--json", "--no-sync"])
            #expect(result.status == 0, "\(command): \(result.stderr)")
            seen[command] = result.stdout
        }
        return seen
    }

    func files(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    // MARK: A damaged database

    @Test func aDamagedDatabaseIsNamedWithWhatToDoAndExit74OnEveryCommand() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let a = pair.peer("laptop")
        _ = try a.play(["--word", "tiger"], ["crane", "tiger", "bookmark"])
        try a.sync()
        let export = pair.root.appendingPathComponent("some-export.json")
        #expect(try a.run(["export", export.path]).status == 0)
        let damaged = try Corruption.overwriteMiddle(of: a.dataDir)

        let commands: [[String]] = [
            ["games"], ["history", "--json"], ["stats"], ["status", "--json"], ["reading-list"], ["packs"], ["export"],
            ["sync"], ["play", "--plain", "--json"], ["import", export.path], ["--reset-sync"], ["--reset-cloud", "--yes"],
        ]
        for command in commands {
            expectOneLineFailure(try a.run(command), status: 74, mentioning: [
                "the database \(a.dataDir.appendingPathComponent("qiktionary.sqlite").path) is damaged (",
                "your synced games are safe in the cloud folder", "--reset-local' to set it aside and bring them back",
            ])
        }
        // The cloud folder is known from the damaged file itself when not named.
        expectOneLineFailure(try Binary.run(["stats", "--data-dir", a.dataDir.path]), status: 74,
                             mentioning: ["safe in the cloud folder", "qiktionary --data-dir \(a.dataDir.path) --reset-local"])
        #expect(try Data(contentsOf: a.dataDir.appendingPathComponent("qiktionary.sqlite")) == damaged, "nothing wrote to it")

        // A machine that never synced is told what --reset-local saves instead.
        let alone = Machine()
        defer { alone.remove() }
        _ = try alone.play(["--word", "comet"], lines: ["give-up"])
        _ = try Corruption.overwriteMiddle(of: alone.dataDir)
        for command in [["games"], ["stats", "--json"], ["export"]] {
            let result = try alone.run(command)
            expectOneLineFailure(result, status: 74, mentioning: ["is damaged (", "--reset-local' to set it aside (it is kept), save what can still be read"])
            #expect(!result.stderr.contains("cloud folder"))
        }
    }

    @Test func aCopyCutShortIsDamagedToo() throws {
        let machine = Machine()
        defer { machine.remove() }
        _ = try machine.play(["--word", "comet"], lines: ["give-up"])
        let file = machine.dataDir.appendingPathComponent("qiktionary.sqlite")
        let bytes = try Data(contentsOf: file)
        try Corruption.replace(file, with: bytes.prefix(bytes.count / 3))
        expectOneLineFailure(try machine.run(["history"]), status: 74, mentioning: ["is damaged (it is cut short"])
    }

    @Test func damageInPlaceThatNoReadReachedIsFoundByTheResets() throws {
        let machine = Machine()
        defer { machine.remove() }
        _ = try machine.play(["--word", "comet"], lines: ["pilot", "give-up", "bookmark"])
        #expect(try machine.run(["history"]).status == 0, "the file is checked and remembered")
        try Corruption.overwriteMiddleInPlace(of: machine.dataDir)
        expectOneLineFailure(try machine.run(["--reset-sync"]), status: 74, mentioning: ["is damaged ("])
        let reset = try machine.run(["--reset-local", "--yes"])
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(reset.stdout.contains("Set the damaged database aside as"), "\(reset.stdout)")
        #expect(reset.stdout.contains("1 unsynced game and 1 bookmark of player 'player' saved to"), "\(reset.stdout)")
        #expect(reset.stdout.contains("Sync was off"), "\(reset.stdout)")
        let saved = try #require(files(in: machine.dataDir).first { $0.hasSuffix(".unsynced.json") })
        #expect(try machine.run(["import", machine.dataDir.appendingPathComponent(saved).path]).status == 0)
        #expect(try machine.run(["history", "--json"]).stdout.contains("\"word\":\"comet\""))
    }

    @Test func resetLocalSetsADamagedDatabaseAsideSavesWhatWasNeverSyncedAndTheCloudBringsTheRestBack() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let a = pair.peer("laptop"), b = pair.peer("desktop")
        try b.pair(with: a)
        _ = try a.play(["--word", "tiger"], ["crane", "mark e in", "tiger", "bookmark"])
        _ = try a.play(["--word", "comet", "--hard"], ["pilot", "give-up", "bookmark"])
        _ = try b.play(["--word", "plumb"], ["crane", "plumb"])
        try b.sync()
        try a.sync()
        // Played after the last sync: only this machine has it.
        _ = try a.play(["--word", "zebra", "--no-sync"], ["crane", "give-up", "bookmark"])
        let before = try lists { try a.run($0) }
        #expect(before["history"]?.contains("zebra") == true)
        let damaged = try Corruption.overwriteMiddle(of: a.dataDir)
        #expect(try a.run(["history"]).status == 74)

        let reset = try a.run(["--reset-local", "--yes"])
        #expect(reset.status == 0, "\(reset.stderr)")
        let out = reset.stdout
        let aside = try #require(files(in: a.dataDir).first { $0.hasPrefix("qiktionary.sqlite.damaged-") && !$0.contains("-wal") && !$0.contains("-shm") && !$0.hasSuffix(".json") })
        #expect(aside.range(of: #"^qiktionary\.sqlite\.damaged-\d{8}T\d{6}Z$"#, options: .regularExpression) != nil, "\(aside)")
        #expect(try Data(contentsOf: a.dataDir.appendingPathComponent(aside)) == damaged, "the damaged file is kept as it was")
        let saved = a.dataDir.appendingPathComponent(aside + ".unsynced.json")
        #expect(FileManager.default.fileExists(atPath: saved.path))
        #expect(out.contains("Set the damaged database aside as \(a.dataDir.appendingPathComponent(aside).path)"), "\(out)")
        #expect(out.contains("1 unsynced game and 1 bookmark of player 'player' saved to \(saved.path)"), "\(out)")
        #expect(out.contains("import \(saved.path)"), "\(out)")
        #expect(out.contains("Synced with the cloud folder"), "\(out)")

        // Every synced game came back from the cloud; the unsynced one comes back by import.
        #expect(Set(try a.words("history")) == ["tiger", "comet", "plumb"])
        let imported = try a.run(["import", saved.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("1 new game"), "\(imported.stdout)")
        #expect(try lists { try a.run($0) } == before)
        // The imported game syncs as if played here.
        try a.sync()
        try b.sync()
        #expect(Set(try b.words("history")) == ["tiger", "comet", "plumb", "zebra"])
        #expect(Set(try b.words("reading-list")) == ["tiger", "comet", "zebra"])
    }

    // MARK: Export and import

    /// A player with one of everything: won with a mark, hard with a hint, the daily word,
    /// a game in progress with a mark, and a reading list.
    func playEverything(_ machine: Machine) throws {
        _ = try machine.play(["--word", "tiger"], lines: ["crane", "mark e in", "tiger", "bookmark"])
        _ = try machine.play(["--word", "comet", "--hard"], lines: ["hint", "pilot", "give-up", "bookmark"])
        _ = try machine.play(["--daily"], lines: ["give-up"])
        _ = try machine.play(["--word", "zebra"], lines: ["crane", "mark z in", "mark q out"])
    }

    @Test func exportThenImportOnAFreshDataDirGivesTheSameListsAndTwiceChangesNothing() throws {
        let machine = Machine(), fresh = Machine()
        defer { machine.remove(); fresh.remove() }
        try playEverything(machine)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("qk-export-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }

        let exported = try machine.run(["export", file.path])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout == "Exported 4 games and 2 bookmarks of player 'player' to \(file.path).\n")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        #expect(document["format"] as? String == "qiktionary-export" && document["version"] as? Int == 1)
        #expect((document["games"] as? [Any])?.count == 4 && (document["readingList"] as? [Any])?.count == 2)
        let stdout = try machine.run(["export"])
        #expect((stdout.json as? [String: Any])?["format"] as? String == "qiktionary-export", "without a file: to stdout")

        let imported = try fresh.run(["import", file.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("Imported from \(file.path): 4 new games, 4 guesses, 3 marks, 2 bookmarks."), "\(imported.stdout)")
        let original = try lists { try machine.run($0) }
        #expect(try lists { try fresh.run($0) } == original)

        for target in [fresh, machine] {
            let again = try target.run(["import", file.path, "--json"])
            #expect(again.status == 0, "\(again.stderr)")
            let report = try #require(again.json as? [String: Any])
            #expect(report["gamesAdded"] as? Int == 0 && report["gamesUpdated"] as? Int == 0 && report["guessesAdded"] as? Int == 0)
            #expect(report["marksChanged"] as? Int == 0 && report["bookmarksAdded"] as? Int == 0)
            #expect(try target.run(["import", file.path]).stdout.hasPrefix("Nothing new in \(file.path)"))
            #expect(try lists { try target.run($0) } == original)
        }
        // An export never overwrites the database.
        expectOneLineFailure(try machine.run(["export", machine.dataDir.appendingPathComponent("qiktionary.sqlite").path]),
                             status: 64, mentioning: ["is the game's database"])
        #expect(try lists { try machine.run($0) } == original)
    }

    /// A valid export, spoiled in one place.
    func spoiled(_ valid: Data, _ change: (inout [String: Any]) -> Void) throws -> Data {
        var object = try #require(try JSONSerialization.jsonObject(with: valid) as? [String: Any])
        change(&object)
        return try JSONSerialization.data(withJSONObject: object)
    }

    func firstGame(_ object: inout [String: Any], where predicate: ([String: Any]) -> Bool = { _ in true }, _ change: (inout [String: Any]) -> Void) {
        var games = object["games"] as? [[String: Any]] ?? []
        if let index = games.firstIndex(where: predicate) { change(&games[index]) }
        object["games"] = games
    }

    @Test func truncatedForeignAndHostileExportsAreRefusedWithOneLineAndExit65() throws {
        let source = Machine(), target = Machine()
        defer { source.remove(); target.remove() }
        try playEverything(source)
        _ = try target.play(["--word", "plumb"], lines: ["crane", "give-up", "bookmark"])
        let valid = try source.run(["export"]).stdout
        let data = Data(valid.utf8)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("qk-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let cases: [(String, Data, String)] = [
            ("truncated", data.prefix(data.count / 2), "not valid JSON"),
            ("foreign", Data(#"{"type": "FeatureCollection", "features": []}"#.utf8), "not a qiktionary export"),
            ("a list", Data("[\"qiktionary-export\", 1]".utf8), "not a qiktionary export"),
            ("deeply nested", Data((String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000)).utf8), "nested more than"),
            ("wrong type", try spoiled(data) { object in firstGame(&object) { $0["hard"] = "yes" } }, "games[0].hard should be true or false"),
            ("absurd value", try spoiled(data) { object in firstGame(&object) { $0["maxGuesses"] = 1_000_000_000 } }, "maxGuesses 1000000000 is not 1 to 30"),
            ("a word that is not a word", try spoiled(data) { object in firstGame(&object) { $0["word"] = "t1ger" } }, "'t1ger' is not a word"),
            ("an id that is not an id", try spoiled(data) { object in firstGame(&object) { $0["id"] = "../../etc/passwd" } }, "is not a game id"),
            ("escape codes", try spoiled(data) { object in firstGame(&object) { $0["fact"] = "\u{1b}]52;c;aGk=\u{7}" } }, #"fact holds a control character: '\x1b]52;c;aGk=\x07'"#),
            ("another player's daily game", try spoiled(data) { object in
                firstGame(&object, where: { $0["daily"] != nil }) { $0["daily"] = "2001-01-01" }
            }, "daily game"),
            ("another player's export", try spoiled(data) { $0["player"] = "bob" }, "add --player bob"),
            ("a newer format", try spoiled(data) { $0["version"] = 7 }, "newer qiktionary"),
        ]
        let before = try lists { try target.run($0) }
        for (name, bytes, expected) in cases {
            let file = folder.appendingPathComponent("\(name).json")
            try bytes.write(to: file)
            expectOneLineFailure(try target.run(["import", file.path]), status: 65, mentioning: ["cannot import \(file.path): ", expected])
        }
        // Huge: refused by its size before a byte is parsed (a sparse file takes no disk).
        let huge = folder.appendingPathComponent("huge.json")
        #expect(FileManager.default.createFile(atPath: huge.path, contents: Data("{\"format\":".utf8)))
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 300 << 20)
        try handle.close()
        expectOneLineFailure(try target.run(["import", huge.path]), status: 65, mentioning: ["300 MiB, more than the 256 MiB"])
        expectOneLineFailure(try target.run(["import", folder.appendingPathComponent("missing.json").path]), status: 66, mentioning: ["no such file"])
        #expect(try lists { try target.run($0) } == before, "nothing changed")
    }

    // MARK: Backups and the reading list

    @Test func resetLocalAndResetCloudWriteABackupFirst() throws {
        let pair = try Pair()
        defer { pair.remove() }
        let a = pair.peer("laptop")
        _ = try a.play(["--word", "tiger"], ["crane", "give-up", "bookmark"])
        try a.sync()
        let before = try lists { try a.run($0) }
        let backups = a.dataDir.appendingPathComponent("backups")

        let cloud = try a.run(["--reset-cloud", "--yes"])
        #expect(cloud.status == 0, "\(cloud.stderr)")
        let first = try #require(files(in: backups).first { $0.hasPrefix("before-reset-cloud-") })
        #expect(first.range(of: #"^before-reset-cloud-\d{8}T\d{6}Z\.json$"#, options: .regularExpression) != nil, "\(first)")
        #expect(cloud.stdout.contains(backups.appendingPathComponent(first).path), "\(cloud.stdout)")

        let local = try a.run(["--reset-local", "--yes"])
        #expect(local.status == 0, "\(local.stderr)")
        let second = try #require(files(in: backups).first { $0.hasPrefix("before-reset-local-") })
        #expect(local.stdout.contains("Saved player 'player''s games and reading list to \(backups.appendingPathComponent(second).path) first."), "\(local.stdout)")
        #expect(try a.list("history").isEmpty)

        // The backup brings it all back, on its own.
        let restored = try a.run(["import", backups.appendingPathComponent(second).path, "--no-sync"])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(try lists { try a.run($0) } == before)
        // A refused reset writes no backup.
        #expect(try a.run(["--reset-local"]).status == 64)
        #expect(files(in: backups).count == 2)
    }

    @Test func theReadingListAsMarkdown() throws {
        let machine = Machine()
        defer { machine.remove() }
        #expect(try machine.run(["reading-list", "--markdown"]).stdout.hasPrefix("# Reading list\n\nNothing bookmarked yet"))
        _ = try machine.play(["--word", "tiger"], lines: ["give-up", "bookmark"])
        #expect(try machine.run(["reading-list", "add", "comet"]).status == 0)
        let markdown = try machine.run(["reading-list", "--markdown"])
        #expect(markdown.status == 0)
        let lines = markdown.lines
        #expect(lines.first == "# Reading list")
        #expect(lines.contains("2 facts kept from games of qiktionary, newest first."))
        #expect(lines.filter { $0.hasPrefix("## ") } == ["## Comet", "## Tiger"])
        let facts = (try machine.run(["reading-list", "--json"]).json as? [[String: Any]] ?? []).compactMap { $0["fact"] as? String }
        #expect(facts.count == 2)
        #expect(lines.contains { $0.hasPrefix("*") && $0.contains("· bookmarked ") })
        expectOneLineFailure(try machine.run(["reading-list", "--markdown", "--json"]), status: 64, mentioning: ["--json and --markdown"])
    }
}

/// Damage done to a data dir's database the way it happens: a copy replaces the file.
enum Corruption {
    /// Overwrites 16 KiB in the middle of the file (whole pages) in a copy that replaces it,
    /// as a copy made while it was written would. Returns the damaged bytes.
    @discardableResult
    static func overwriteMiddle(of dataDir: URL) throws -> Data {
        let file = dataDir.appendingPathComponent("qiktionary.sqlite")
        var bytes = try Data(contentsOf: file)
        let start = bytes.count / 2 / 4_096 * 4_096, end = min(bytes.count, start + 16_384)
        bytes.replaceSubrange(start..<end, with: Data(repeating: 0x5A, count: end - start))
        try replace(file, with: bytes)
        return bytes
    }

    /// The same damage written into the file itself (the same inode), as a failing disk would.
    static func overwriteMiddleInPlace(of dataDir: URL) throws {
        let file = dataDir.appendingPathComponent("qiktionary.sqlite")
        let size = try Data(contentsOf: file).count
        let start = size / 2 / 4_096 * 4_096
        let handle = try FileHandle(forWritingTo: file)
        try handle.seek(toOffset: UInt64(start))
        try handle.write(contentsOf: Data(repeating: 0x5A, count: min(16_384, size - start)))
        try handle.close()
    }

    static func replace(_ file: URL, with bytes: Data) throws {
        let copy = file.deletingLastPathComponent().appendingPathComponent("copy-\(UUID().uuidString)")
        try bytes.write(to: copy)
        guard rename(copy.path, file.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }
}

/// Several processes opening one data dir for the first time at once (a script starting games
/// in parallel, the game and `sync --watch` started together): one creates and migrates the
/// database, the others wait for it, and every one of them goes on.
@Suite struct FirstOpenTogetherTests {
    @Test func processesOpeningANewDataDirTogetherAllSucceed() throws {
        for round in 0..<4 {
            let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("qk-together-\(round)-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: dataDir) }
            let results = try onThreads(6) { _ in try Binary.run(["stats", "--json", "--data-dir", dataDir.path]) }
            for result in results {
                #expect(result.status == 0, "round \(round): \(result.stderr)")
                #expect(result.json is [String: Any], "round \(round): \(result.stdout)")
            }
        }
    }
}
