import Testing
@testable import QiktionaryCore

/// A small dictionary for codes: sorted words of each length, as `Lexicon.words(ofLength:)` gives.
private let lexicon = Lexicon(["tiger", "crane", "plumb", "queue", "geese", "slate", "zebra", "otter", "wolf", "lamp", "bridges",
                               "journey", "falcon", "mango"])

@Suite struct ChallengeCodeTests {
    let challenges: [Challenge] = [
        Challenge(pack: (id: "animals", version: 1), word: "tiger", rules: .classic, hard: false),
        Challenge(pack: (id: "animals", version: 7), word: "zebra", rules: .mastermind, hard: true),
        Challenge(pack: nil, word: "plumb", rules: .classic, hard: false),
        Challenge(pack: nil, word: "queue", rules: .mastermind, hard: true),
        Challenge(pack: (id: "journeys", version: 2), word: "journey", rules: .classic, hard: false),
        Challenge(pack: nil, word: "wolf", rules: .classic, hard: true),
    ]
    let packs = ["animals", "journeys", "kitchen", "space"]

    func code(_ challenge: Challenge) throws -> String {
        try ChallengeCode.encode(challenge, dictionary: lexicon.words(ofLength: challenge.word.count))
    }

    @Test func aCodeGivesBackItsChallengeOnAnyMachine() throws {
        for challenge in challenges {
            let code = try code(challenge)
            #expect(code.count == 12 && code.allSatisfy { "0123456789ABCDEFGHJKMNPQRSTVWXYZ".contains($0) }, "\(code)")
            #expect(!code.lowercased().contains(challenge.word), "the word cannot be read off \(code)")
            #expect(try ChallengeCode.decode(code, lexicon: lexicon, packIDs: packs) == challenge)
        }
    }

    @Test func typingIsForgiving() throws {
        let code = try code(challenges[0])
        let typed = code.lowercased().replacingOccurrences(of: "0", with: "o").replacingOccurrences(of: "1", with: "l")
        let grouped = String(typed.prefix(4)) + "-" + String(typed.dropFirst(4).prefix(4)) + " " + String(typed.dropFirst(8))
        #expect(try ChallengeCode.decode(grouped, lexicon: lexicon, packIDs: packs) == challenges[0])
    }

    @Test func aPackThisMachineLacksStillPlaysTheWord() throws {
        let code = try code(challenges[4])
        let decoded = try ChallengeCode.decode(code, lexicon: lexicon, packIDs: ["animals"])
        #expect(decoded.pack == nil && decoded.word == "journey" && decoded.rules == .classic)
    }

    /// One changed character never names a game: every single-character change of every code is refused.
    @Test func everyOneCharacterChangeIsRefused() throws {
        let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
        for challenge in challenges {
            let code = Array(try self.code(challenge))
            for position in code.indices {
                for replacement in alphabet where replacement != code[position] {
                    var changed = code
                    changed[position] = replacement
                    #expect(throws: ChallengeError.self) { try ChallengeCode.decode(String(changed), lexicon: lexicon, packIDs: packs) }
                }
            }
        }
    }

    @Test func tenThousandRandomCodesStartNothing() {
        let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
        var random = SeededGenerator(seed: 2026)
        var accepted = 0
        for _ in 0..<10_000 {
            let code = String((0..<12).map { _ in alphabet.randomElement(using: &random)! })
            if (try? ChallengeCode.decode(code, lexicon: lexicon, packIDs: packs)) != nil { accepted += 1 }
        }
        #expect(accepted == 0)
    }

    @Test("Malformed codes say so", arguments: ["", "ABC", "ABCDEFGHJKMNP", "ABCDEFGHJKM!", "ABCDEFGHJKMU"])
    func malformed(code: String) {
        #expect(throws: ChallengeError.malformed(code)) { try ChallengeCode.decode(code, lexicon: lexicon, packIDs: packs) }
    }

    @Test func wordsTheCodeCannotCarryAreRefused() {
        for (word, rules) in [("geese", Rules.classic), ("xyzzy", .classic), ("cat", .classic)] {
            #expect(throws: ChallengeError.cannotEncode(word)) {
                try ChallengeCode.encode(Challenge(pack: nil, word: word, rules: rules, hard: false), dictionary: lexicon.words(ofLength: word.count))
            }
        }
    }
}

@Suite struct DailyWordTests {
    @Test func datesAreUTCDaysAndReadBack() {
        #expect(DailyWord.date(day: 0) == "1970-01-01")
        #expect(DailyWord.day(secondsSince1970: 1_795_000_000) == 20_775)
        #expect(DailyWord.date(day: 20_775) == "2026-11-18")
        #expect(DailyWord.day(of: "2026-11-18") == 20_775)
        #expect(DailyWord.day(secondsSince1970: -1) == -1, "before 1970 rounds down")
        for day in stride(from: -800, to: 30_000, by: 37) { #expect(DailyWord.day(of: DailyWord.date(day: day)) == day) }
        for bad in ["2026-02-30", "2026-13-01", "2026-1-01", "20261101", "2026-11-1x", "", "2026-11-22T00"] {
            #expect(DailyWord.day(of: bad) == nil, "\(bad)")
        }
    }

    @Test func theDaysWordComesFromTheScheduleAndGoesRoundPastItsEnd() throws {
        let schedule = try DailySchedule(text: """
            # a comment
            first 2026-11-22
            a tiger
            b crane

            a zebra
            """)
        #expect(schedule.firstDay == DailyWord.firstDay && schedule.firstDate == "2026-11-22")
        let first = DailyWord.firstDay
        #expect(schedule.entry(day: first) == .init(pack: "a", word: "tiger"))
        #expect(schedule.entry(day: first + 2)?.word == "zebra")
        #expect(schedule.entry(day: first + 3)?.word == "tiger", "past the end, round again from the first line")
        #expect(schedule.entry(day: first + 7)?.word == "crane")
        #expect(schedule.entry(day: first - 1)?.word == "zebra", "before the first date, round backwards")
        #expect(schedule.lists(day: first + 2) && !schedule.lists(day: first + 3) && !schedule.lists(day: first - 1))
        #expect(DailySchedule(firstDay: first, entries: []).entry(day: first) == nil)
        for bad in ["a tiger\n", "first 2026-02-30\na tiger", "first 2026-11-22\na Tiger", "first 2026-11-22\na b c", ""] {
            #expect(throws: DailySchedule.Problem.self, "\(bad)") { try DailySchedule(text: bad) }
        }
    }

    @Test func dailiesAreNumberedFromTheFirst() {
        #expect(DailyWord.day(of: DailyWord.firstDate) == DailyWord.firstDay)
        #expect(DailyWord.number(date: "2026-11-22") == 1 && DailyWord.number(date: "2026-11-25") == 4)
        #expect(DailyWord.number(date: "2027-12-31") == 405)
        #expect(DailyWord.number(date: "2026-11-21") == nil && DailyWord.number(date: "soon") == nil)
    }

    @Test func aPlayersDailyGameHasOneIDEverywhere() {
        let id = DailyWord.gameID(player: "ann", date: "2026-11-22")
        #expect(id == DailyWord.gameID(player: "ann", date: "2026-11-22"))
        #expect(id != DailyWord.gameID(player: "bob", date: "2026-11-22"))
        #expect(id != DailyWord.gameID(player: "ann", date: "2026-11-23"))
        let parts = id.split(separator: "-").map(\.count)
        #expect(parts == [8, 4, 4, 4, 12] && id == id.lowercased() && id.allSatisfy { $0.isHexDigit || $0 == "-" })
    }
}

@Suite struct ShareTextTests {
    @Test func aWonGameIsToldInSymbolsOnly() throws {
        let guesses = ["crane", "moist", "jumpy", "tiger"].map { Guess(word: $0, feedback: Rules.classic.feedback(for: $0, against: "tiger")) }
        let game = Game(id: "g", packID: "animals", secret: "tiger", rules: .classic, hard: true, guesses: guesses, status: .won)
        let text = ShareText.summary(game: game, packTitle: "Animals", hints: 1)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0] == "Qiktionary · Animals · classic · hard · proven marks · 4/15 · 1 hint")
        #expect(lines.dropFirst() == ["●●···", "●●···", "·····", "●●●●● ✓"])
        for line in lines.dropFirst() { #expect(line.allSatisfy { "●○·✓ ".contains($0) }) }
        for word in ["tiger", "crane", "moist", "jumpy"] { #expect(!text.lowercased().contains(word)) }
    }

    @Test func mastermindLostAndGivenUpGames() throws {
        let words = Lexicon(["louse", "purse", "queue"])
        var lost = Game(id: "g", packID: "body", secret: "purse", rules: .mastermind, maxGuesses: 1)
        try lost.submit("louse", lexicon: words)
        #expect(ShareText.summary(game: lost, packTitle: "Body", date: "2026-11-22") == "Qiktionary daily #1 · mastermind · proven marks · X/1\n●●○··")
        #expect(ShareText.summary(game: lost, packTitle: "Body", date: "2027-12-31").hasPrefix("Qiktionary daily #405 · mastermind"))
        #expect(ShareText.summary(game: lost, packTitle: "Body", date: "2026-03-14") == "Qiktionary · daily 2026-03-14 · mastermind · proven marks · X/1\n●●○··",
                "a date before the first daily has no number")
        var given = Game(id: "g", packID: "body", secret: "purse", rules: .mastermind)
        try given.giveUp()
        #expect(ShareText.summary(game: given, packTitle: "Body").hasSuffix("X/15\n(given up)"))
    }

    @Test func aPackTitleHoldingAGuessGoesUnnamed() throws {
        let words = Lexicon(["ocean", "tiger"])
        var game = Game(id: "g", packID: "sea", secret: "tiger", rules: .classic)
        try game.submit("ocean", lexicon: words)
        #expect(!ShareText.summary(game: game, packTitle: "Ocean Life").contains("Ocean"))
    }
}

import Foundation

@Suite struct CivilDateTests {
    /// Lists' short times, by arithmetic, read as a UTC formatter reads them.
    @Test func shortTextIsWhatAUTCFormatterWrites() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        var random = SeededGenerator(seed: 5)
        for _ in 0..<2_000 {
            let date = Date(timeIntervalSince1970: Double(Int64.random(in: -2_000_000_000...4_000_000_000, using: &random)) + 0.7)
            #expect(CivilDate.shortText(date) == formatter.string(from: date), "\(date.timeIntervalSince1970)")
        }
    }
}
