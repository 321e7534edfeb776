import Foundation
import Testing
import TestSupport

/// Text from files never commands the terminal (README, *Text from files*): every gate refuses
/// text with control characters in one line that shows it escaped, and every output shows such
/// text, stored before the gates refused it, as visible escapes.
@Suite(.serialized) struct TerminalTextTests {
    /// What a terminal could obey: C0 but line breaks and tabs, DEL, C1, the bidirectional
    /// embeddings, overrides and isolates. Spelled here on its own, not taken from the program.
    static func commanding(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x0A, 0x09: false
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
            default: false
            }
        }
    }

    /// SQL for a text holding colour, the window title, a bidirectional override, a C1 control
    /// sequence introducer, DEL and BEL.
    static let hostileSQL = "'Stripes ' || char(27) || '[31mRED' || char(27) || '[0m and ' || char(27) || ']0;TITLE' || char(7)"
        + " || ' done ' || char(8238) || 'rev' || char(155) || '2J' || char(127)"

    static let sqlite3: String? = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"].first { FileManager.default.isExecutableFile(atPath: $0) }

    func sql(_ machine: Machine, _ statements: String) throws {
        let ran = try ProcessRunner.run(URL(fileURLWithPath: Self.sqlite3!), [machine.dataDir.appendingPathComponent("qiktionary.sqlite").path],
                                        input: statements, environment: ProcessInfo.processInfo.environment)
        #expect(ran.status == 0, "\(ran.stderr)")
    }

    /// A data dir with a won game and its bookmark, a game in progress, then every stored text
    /// a file could have brought (packs' titles, descriptions and facts, the games' and the
    /// bookmark's copies of facts, the device's name) overwritten with commanding text.
    func plantedMachine(asBeforeTheChange: Bool) throws -> (Machine, wonID: String) {
        let machine = Machine()
        let won = try machine.play(["--word", "tiger", "--device", "laptop"], lines: ["crane", "tiger"])
        let wonID = try #require((won.first?["game"] as? [String: Any])?["id"] as? String)
        #expect(try machine.run(["reading-list", "add", "tiger"]).status == 0)
        _ = try machine.play(["--word", "comet"], lines: ["pilot"])
        try sql(machine, """
            UPDATE pack SET title = 'Pack ' || \(Self.hostileSQL), description = 'About ' || \(Self.hostileSQL);
            UPDATE packWord SET fact = 'Fact ' || \(Self.hostileSQL);
            UPDATE game SET fact = 'Game ' || \(Self.hostileSQL);
            UPDATE bookmark SET fact = 'Mark ' || \(Self.hostileSQL);
            UPDATE device SET name = 'lap' || char(27) || '[2Jtop';
            \(asBeforeTheChange ? "DELETE FROM grdb_migrations WHERE identifier LIKE 'v11:%';" : "")
            """)
        return (machine, wonID)
    }

    @Test(.enabled(if: sqlite3 != nil, "sqlite3 is not installed (CI installs it)"))
    func noCommandOrPlainModeOutputHoldsARawControlCharacter() throws {
        let (machine, wonID) = try plantedMachine(asBeforeTheChange: false)
        defer { machine.remove() }
        let runs: [[String]] = [
            ["packs"], ["packs", "--json"], ["games"], ["games", "--json"], ["history"], ["history", "--json"],
            ["history", "show", wonID], ["history", "show", wonID, "--json"], ["reading-list"], ["reading-list", "--json"],
            ["reading-list", "--markdown"], ["stats"], ["stats", "--json"], ["status"], ["status", "--json"], ["export"],
        ]
        var seen = ""
        for arguments in runs {
            let result = try machine.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(Self.commanding(result.stdout + result.stderr).isEmpty, "\(arguments): \(result.stdout.debugDescription)")
            seen += result.stdout
        }
        // Plain mode, text and JSON: the game in progress resumed, and a new game won, whose end prints the fact.
        for json in [false, true] {
            for (extra, lines) in [([String](), ["comet"]), (["--word", "lemur"], ["lemur"])] {
                let result = try machine.run(["play", "--plain"] + (json ? ["--json"] : []) + extra, input: lines.map { $0 + "\n" }.joined())
                #expect(result.status == 0, "\(result.stderr)")
                #expect(Self.commanding(result.stdout + result.stderr).isEmpty, "\(result.stdout.debugDescription)")
                seen += result.stdout
            }
        }
        // The text is shown, as visible escapes, not dropped; JSON keeps it as the same value.
        #expect(seen.contains(#"Stripes \x1b[31mRED"#))
        #expect(seen.contains(#"\u202erev\x9b2J\x7f"#))
        let history = try machine.run(["history", "show", wonID, "--json"])
        let fact = ((history.json as? [String: Any])?["game"] as? [String: Any])?["fact"] as? String
        #expect(fact?.hasPrefix("Game Stripes \u{1B}[31mRED") == true, "JSON carries the stored value: \(fact.debugDescription)")
    }

    /// A database from before the gates: a migration writes its commanding texts as visible
    /// escapes, and keeps every game and bookmark.
    @Test(.enabled(if: sqlite3 != nil, "sqlite3 is not installed (CI installs it)"))
    func storedTextsFromBeforeAreShownEscapedAndNothingIsLost() throws {
        let (machine, wonID) = try plantedMachine(asBeforeTheChange: true)
        defer { machine.remove() }
        let history = try machine.run(["history", "show", wonID, "--json"])
        #expect(history.status == 0, "\(history.stderr)")
        let fact = ((history.json as? [String: Any])?["game"] as? [String: Any])?["fact"] as? String
        #expect(fact == #"Game Stripes \x1b[31mRED\x1b[0m and \x1b]0;TITLE\x07 done \u202erev\x9b2J\x7f"#)
        let games = try machine.run(["games", "--json"]).json as? [Any]
        #expect(games?.count == 1)
        let list = try machine.run(["reading-list", "--json"]).json as? [[String: Any]]
        #expect(list?.map { $0["word"] as? String } == ["tiger"])
        #expect((list?.first?["fact"] as? String)?.hasPrefix(#"Mark Stripes \x1b[31mRED"#) == true)
        // Once escaped, the export passes the import's checks: a round trip on a new machine.
        let exported = try machine.run(["export"])
        let other = Machine()
        defer { other.remove() }
        let imported = try other.run(["--player", "player", "import", "-"], input: exported.stdout)
        #expect(imported.status == 0, "\(imported.stderr)")
    }

    @Test func aPackFileWithControlCharactersIsRefusedInOneLine() throws {
        let machine = Machine()
        defer { machine.remove() }
        let packs = machine.dataDir.appendingPathComponent("packs")
        try FileManager.default.createDirectory(at: packs, withIntermediateDirectories: true)
        let text = "\u{1B}[31mRED\u{1B}]0;TITLE\u{07}\u{202E}"
        for (name, field) in [("fact", "fact"), ("title", "title"), ("description", "description")] {
            var words: [[String: String]] = [["word": "tiger", "fact": "A fact about the tiger."]]
            if field == "fact" { words[0]["fact"] = "Tigers " + text }
            let pack: [String: Any] = ["id": "bad-\(name)", "version": 1, "title": field == "title" ? "Bad " + text : "Bad",
                                       "description": field == "description" ? "Bad " + text : "Bad", "length": 5, "rules": "classic",
                                       "words": words]
            try JSONSerialization.data(withJSONObject: pack).write(to: packs.appendingPathComponent("bad-\(name).json"))
        }
        let result = try machine.run(["packs", "--json"])
        #expect(result.status == 0)
        let warnings = result.stderr.split(separator: "\n")
        #expect(warnings.count == 3, "\(result.stderr)")
        for line in warnings {
            #expect(line.contains("holds a control character") && line.contains(#"\x1b[31mRED"#), "\(line)")
        }
        #expect(Self.commanding(result.stderr + result.stdout).isEmpty)
        let ids = (result.json as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
        #expect(!ids.contains { $0.hasPrefix("bad-") })
    }

    @Test func anImportOrANameWithControlCharactersIsRefusedInOneLine() throws {
        let machine = Machine()
        defer { machine.remove() }
        _ = try machine.play(["--word", "tiger"], lines: ["tiger"])
        let exported = try machine.run(["export"]).stdout
        var document = try #require(try JSONSerialization.jsonObject(with: Data(exported.utf8)) as? [String: Any])
        var games = try #require(document["games"] as? [[String: Any]])
        games[0]["fact"] = "Tigers \u{1B}]52;c;aGk=\u{07} stripes"
        document["games"] = games
        let hostile = String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self)
        let other = Machine()
        defer { other.remove() }
        let imported = try other.run(["--player", "player", "import", "-"], input: hostile)
        #expect(imported.status == 65)
        #expect(imported.stderr.split(separator: "\n").count == 1 && imported.stderr.contains(#"\x1b]52;c;aGk=\x07"#), "\(imported.stderr)")
        #expect(Self.commanding(imported.stderr).isEmpty)
        #expect(try other.run(["history", "--json"]).json as? [Any] == nil || (try other.run(["history", "--json"]).json as? [Any])?.isEmpty == true)

        for arguments in [["--device", "lap\u{1B}[2Jtop", "packs"], ["--device", "left\u{202E}right", "packs"], ["--player", "p\u{1B}x", "packs"]] {
            let result = try machine.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.split(separator: "\n").count == 1 && Self.commanding(result.stderr).isEmpty, "\(result.stderr.debugDescription)")
            #expect(result.stderr.contains(#"\x1b"#) || result.stderr.contains(#"\u202e"#), "\(result.stderr)")
        }
    }

    /// The full-screen game over a database holding such text: the pack's title on the header
    /// and the fact on the card are drawn as visible escapes; no colour, title or other sequence
    /// from the data reaches the terminal (capture-pane -e shows the cells' own attributes only).
    @Test(.enabled(if: sqlite3 != nil && FullScreenTests.tmux != nil, "sqlite3 and tmux are needed (CI installs them)"))
    func theFullScreenShowsStoredControlCharactersAsVisibleEscapes() throws {
        let (machine, _) = try plantedMachine(asBeforeTheChange: false)
        defer { machine.remove() }
        let session = try TmuxSession(width: 100, height: 30, arguments: ["--data-dir", machine.dataDir.path])
        defer { session.close() }
        try session.waitFor("the game in progress") { $0.contains("PILOT") }
        session.send(["c", "o", "m", "e", "t"])
        try session.waitFor("the typed word") { $0.contains("C O M E T") }
        session.send(["Enter"])
        try session.waitFor("the fact card") { $0.contains(#"Game Stripes \x1b[31mRED"#) }
        let styled = try session.run(["capture-pane", "-p", "-e", "-t", "game"])
        #expect(!styled.contains("\u{1B}[31mRED"), "the fact's colour sequence reached the terminal")
        #expect(!styled.contains("\u{1B}]0;"), "the fact's title sequence reached the terminal")
        #expect(!styled.contains("\u{202E}") && !styled.contains("\u{9B}"))
        let title = try session.run(["display-message", "-p", "-t", "game", "#{pane_title}"])
        #expect(!title.contains("TITLE"), "pane title: \(title)")
        #expect(session.screen().contains(#"\u202erev\x9b2J\x7f"#), "\(session.screen())")
        #expect(!styled.contains("\u{1B}[2J"), "the device name's clear-screen sequence reached the terminal")
        session.send(["C-c"])
        _ = try session.waitForExit()
    }
}
