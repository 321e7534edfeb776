import Foundation
import Testing

/// The command line's promises: exit codes, one-line errors, options anywhere, nothing lost.
@Suite(.serialized) struct CommandLineTests {
    func expectOneLineFailure(_ result: Binary.Result, status: Int32, mentioning text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == status, "\(result.stderr)", sourceLocation: sourceLocation)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("qiktionary: "), sourceLocation: sourceLocation)
        #expect(result.stderr.contains(text), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
    }

    @Test("Bad flags and arguments exit 64 with one line", arguments: [
        (["--frobnicate"], "Unknown option '--frobnicate'"),
        (["play", "--rules", "chess"], "chess"),
        (["play", "--seed", "-3"], "seed"),
        (["play", "--json"], "--json goes with --plain"),
        (["play", "--plain", "--word", "t1ger"], "letters a to z only"),
        (["history", "delete"], "game-id"),
        (["--player", "bad/name", "stats"], "player name"),
    ])
    func badFlags(arguments: [String], mentioning: String) throws {
        let machine = Machine()
        defer { machine.remove() }
        expectOneLineFailure(try machine.run(arguments), status: 64, mentioning: mentioning)
    }

    @Test("Unknown pack or word exits 64 and starts nothing", arguments: [
        (["--pack", "nope"], "no pack called 'nope'"),
        (["--word", "xqzte"], "'xqzte' is not a word of the dictionary of 4 to 7 letters, nor of any pack"),
        (["--pack", "animals", "--word", "comet"], "'comet' is not a word of the pack 'animals'"),
        (["--word", "teeth", "--rules", "classic"], "can only be played with --rules mastermind"),
    ])
    func unknownPackOrWord(arguments: [String], mentioning: String) throws {
        let machine = Machine()
        defer { machine.remove() }
        expectOneLineFailure(try machine.run(["play", "--plain", "--json"] + arguments), status: 64, mentioning: mentioning)
        #expect(try machine.run(["games", "--json"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    @Test func sharedOptionsWorkBeforeOrAfterTheCommand() throws {
        let machine = Machine()
        defer { machine.remove() }
        try machine.run(["play", "--plain", "--word", "tiger", "--player", "ann"], input: "give-up\n")
        let before = try Binary.run(["--data-dir", machine.dataDir.path, "--player", "ann", "history", "--json"])
        let after = try Binary.run(["history", "--json", "--player", "ann", "--data-dir", machine.dataDir.path])
        #expect(before.status == 0 && after.status == 0)
        #expect((before.json as? [Any])?.count == 1)
        #expect(before.stdout == after.stdout)
        // The player is remembered; another player sees nothing.
        #expect((try machine.run(["history", "--json"]).json as? [Any])?.count == 1)
        #expect((try machine.run(["history", "--json", "--player", "bob"]).json as? [Any])?.count == 0)
    }

    @Test func theDataDirComesFromTheFlagThenTheEnvironmentThenXDG() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("qk-env-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let env = root.appendingPathComponent("env"), xdg = root.appendingPathComponent("xdg")
        func dataDir(_ arguments: [String], _ environment: [String: String]) throws -> String? {
            (try Binary.run(["status", "--json"] + arguments, environment: environment).json as? [String: Any])?["dataDir"] as? String
        }
        #expect(try dataDir([], ["XDG_DATA_HOME": xdg.path]) == xdg.appendingPathComponent("qiktionary").path)
        #expect(try dataDir([], ["XDG_DATA_HOME": xdg.path, "QIKTIONARY_DATA_DIR": env.path]) == env.path)
        let flag = root.appendingPathComponent("flag").path
        #expect(try dataDir(["--data-dir", flag], ["QIKTIONARY_DATA_DIR": env.path]) == flag)
        #expect(FileManager.default.fileExists(atPath: env.appendingPathComponent("qiktionary.sqlite").path))
    }

    @Test func aDataDirThatCannotBeWrittenIsRefused() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("qk-file-\(UUID().uuidString)")
        try Data("a file, not a folder".utf8).write(to: parent)
        defer { try? FileManager.default.removeItem(at: parent) }
        let result = try Binary.run(["stats", "--data-dir", parent.appendingPathComponent("data").path])
        expectOneLineFailure(result, status: 64, mentioning: "cannot use data dir")
        #expect(try String(contentsOf: parent, encoding: .utf8) == "a file, not a folder")
    }

    @Test func theDataDirMayNotLiveInsideTheCloudFolder() throws {
        let cloud = FileManager.default.temporaryDirectory.appendingPathComponent("qk-cloud-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cloud) }
        let result = try Binary.run(["status", "--cloud-dir", cloud.path, "--data-dir", cloud.appendingPathComponent("local").path])
        expectOneLineFailure(result, status: 64, mentioning: "inside the cloud folder")
        #expect(!FileManager.default.fileExists(atPath: cloud.appendingPathComponent("local").path), "nothing was created")
    }

    @Test func aCorruptPackFileIsSkippedWithAWarningAndTheRestStillPlays() throws {
        let machine = Machine()
        defer { machine.remove() }
        let packs = machine.dataDir.appendingPathComponent("packs")
        try FileManager.default.createDirectory(at: packs, withIntermediateDirectories: true)
        try Data("{\"id\": \"broken\", \"words\": [".utf8).write(to: packs.appendingPathComponent("broken.json"))
        try Data(#"{"id":"mine","version":1,"title":"Mine","description":"A pack of my own.","length":5,"rules":"classic","words":[{"word":"plumb","fact":"Plumb comes from the Latin for lead."}]}"#.utf8)
            .write(to: packs.appendingPathComponent("mine.json"))
        let result = try machine.run(["packs", "--json"])
        #expect(result.status == 0)
        #expect(result.stderr == "qiktionary: warning: pack file broken.json is unusable: not a valid pack (not valid JSON); it was skipped\n")
        let ids = (result.json as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
        #expect(ids.contains("mine") && ids.contains("animals") && !ids.contains("broken"))
        let played = try machine.play(["--pack", "mine"], lines: ["plumb"])
        #expect(played.last?["result"] as? String == "won")
    }

    @Test func deletingFromHistoryAsksUnlessToldYes() throws {
        let machine = Machine()
        defer { machine.remove() }
        let events = try machine.play(["--word", "tiger"], lines: ["give-up"])
        let id = try #require((events.first?["game"] as? [String: Any])?["id"] as? String)
        expectOneLineFailure(try machine.run(["history", "delete", id]), status: 64, mentioning: "add --yes")
        #expect((try machine.run(["history", "--json"]).json as? [Any])?.count == 1)
        expectOneLineFailure(try machine.run(["history", "delete", "no-such-game", "--yes"]), status: 64, mentioning: "no game")
        #expect(try machine.run(["history", "delete", id, "--yes"]).status == 0)
        #expect((try machine.run(["history", "--json"]).json as? [Any])?.count == 0)
    }

    @Test func readingListAddAndRemove() throws {
        let machine = Machine()
        defer { machine.remove() }
        #expect(try machine.run(["reading-list", "add", "Comet"]).status == 0)
        expectOneLineFailure(try machine.run(["reading-list", "add", "xqzte"]), status: 64, mentioning: "no fact known")
        expectOneLineFailure(try machine.run(["reading-list", "remove", "tiger"]), status: 64, mentioning: "not on the reading list")
        #expect((try machine.run(["reading-list", "--json"]).json as? [[String: Any]])?.first?["word"] as? String == "comet")
        #expect(try machine.run(["reading-list", "remove", "comet"]).status == 0)
        #expect((try machine.run(["reading-list", "--json"]).json as? [Any])?.count == 0)
    }

    @Test func statusReportsWhoAndWhere() throws {
        let machine = Machine()
        defer { machine.remove() }
        let status = try #require(try machine.run(["status", "--json", "--device", "desk", "--player", "zoe"]).json as? [String: Any])
        #expect(status["player"] as? String == "zoe")
        #expect((status["device"] as? [String: Any])?["name"] as? String == "desk")
        #expect(status["dataDir"] as? String == machine.dataDir.path)
        #expect(((status["sync"] as? [String: Any])?["enabled"]) as? Bool == false)
        #expect(((status["games"] as? [String: Any])?["inProgress"]) as? Int == 0)
        #expect(status["readingList"] as? Int == 0)
    }

    @Test func aGuessIsOnDiskBeforeItsFeedbackIsPrinted() throws {
        let machine = Machine()
        defer { machine.remove() }
        let process = Binary.process(["play", "--plain", "--json", "--word", "tiger"] + machine.options)
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        stdin.fileHandleForWriting.write(Data("crane\n".utf8))
        var seen = ""
        while !seen.contains("\"feedback\"") {
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += String(decoding: chunk, as: UTF8.self)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(seen.contains("\"feedback\""))
        let games = try #require(try machine.run(["games", "--json"]).json as? [[String: Any]])
        #expect((games.first?["guesses"] as? [[String: Any]])?.map { $0["word"] as? String } == ["crane"])
    }

    @Test func twoProcessesShareOneDataDir() async throws {
        let machine = Machine()
        defer { machine.remove() }
        try machine.run(["packs"])
        let results = try await withThrowingTaskGroup(of: Binary.Result.self) { group in
            for word in ["tiger", "comet"] {
                group.addTask {
                    try machine.run(["play", "--plain", "--json", "--word", word],
                                    input: Words.distinct(8, length: 5, avoiding: word).joined(separator: "\n") + "\n\(word)\n")
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0.status == 0 })
        #expect(results.allSatisfy { $0.events.last?["result"] as? String == "won" })
        let history = try #require(try machine.run(["history", "--json"]).json as? [[String: Any]])
        #expect(Set(history.compactMap { $0["word"] as? String }) == ["tiger", "comet"])
    }
}
