import Foundation
import QiktionaryCore

// A game in an export: its entry in the document, written from the game's value and checked
// back into it. A field of the game (`SyncGame`) goes into the entry, both ways, here.

extension ExportDocument {
    public struct Game: Codable, Sendable, Equatable {
        public var id: String
        public var pack: String
        /// The secret.
        public var word: String
        public var fact: String
        public var rules: String
        public var maxGuesses: Int
        public var status: String
        public var hard: Bool
        /// The help level (`Assist`); absent in exports from before help levels: the coach.
        public var assist: String?
        /// The guess counts at which hints were taken (0: before the first guess).
        public var hintsAt: [Int]
        public var daily: String?
        /// A match game's result as the player's machines published it (`MatchResult.text`);
        /// absent for every other game.
        public var matchResult: String?
        public var startedAt: String
        public var updatedAt: String
        public var finishedAt: String?
        public var startedOn: String
        public var lastChangedOn: String
        public var guesses: [Guess]
        public var marks: [Mark]

        /// Every field named, none defaulted: the entry written from a game names each of its
        /// fields, so one added to the game and forgotten here does not compile (a synthesized
        /// initializer would give a new optional field a silent `nil`).
        public init(id: String, pack: String, word: String, fact: String, rules: String, maxGuesses: Int, status: String, hard: Bool,
                    assist: String?, hintsAt: [Int], daily: String?, matchResult: String?, startedAt: String, updatedAt: String, finishedAt: String?,
                    startedOn: String, lastChangedOn: String, guesses: [Guess], marks: [Mark]) {
            self.id = id
            self.pack = pack
            self.word = word
            self.fact = fact
            self.rules = rules
            self.maxGuesses = maxGuesses
            self.status = status
            self.hard = hard
            self.assist = assist
            self.hintsAt = hintsAt
            self.daily = daily
            self.matchResult = matchResult
            self.startedAt = startedAt
            self.updatedAt = updatedAt
            self.finishedAt = finishedAt
            self.startedOn = startedOn
            self.lastChangedOn = lastChangedOn
            self.guesses = guesses
            self.marks = marks
        }
    }
}

extension ExportDocument.Game {
    init(record: GameRecord, guesses: [GuessRecord], marks: [MarkRecord]) {
        self.init(
            id: record.id, pack: record.packID, word: record.secret, fact: record.fact, rules: record.rules.rawValue,
            maxGuesses: record.maxGuesses, status: record.status.rawValue, hard: record.hard, assist: record.assist.rawValue, hintsAt: HintLog.parse(record.hints) ?? [],
            daily: record.daily, matchResult: record.matchResult, startedAt: ExportDate.text(record.startedAt), updatedAt: ExportDate.text(record.updatedAt),
            finishedAt: record.finishedAt.map(ExportDate.text), startedOn: record.startedOn, lastChangedOn: record.lastChangedOn,
            guesses: guesses.map {
                ExportDocument.Guess(word: $0.word, position: $0.position, common: $0.common, inPlace: $0.inPlace, inWord: $0.inWord,
                                     playedAt: ExportDate.text($0.playedAt), playedOn: $0.playedOn)
            },
            marks: marks.map { ExportDocument.Mark(letter: $0.letter, state: $0.state.rawValue, markedAt: ExportDate.text($0.markedAt)) })
    }
}

extension ExportDocument.Game {
    func validated(player: String, lexicon: Lexicon, knownSecrets: Set<String>) throws(ExportProblem) -> ValidatedExport.Game {
        guard Limits.isGameID(id) else { throw ExportProblem("id \(Text.quoted(id)) is not a game id (a lowercase UUID)") }
        guard Limits.isPackID(pack) else { throw ExportProblem("pack \(Text.quoted(pack)) is not a pack id") }
        guard let rules = Rules(rawValue: rules) else { throw ExportProblem("rules \(Text.quoted(rules)) are neither classic nor mastermind") }
        guard Limits.isWord(word), lexicon.contains(word) || knownSecrets.contains(word) else {
            throw ExportProblem("word \(Text.quoted(word)) is not a word of the dictionary")
        }
        guard rules.allows(word) else { throw ExportProblem("word '\(word)' repeats a letter, which classic rules forbid") }
        guard Limits.maxGuesses.contains(maxGuesses) else { throw ExportProblem("maxGuesses \(maxGuesses) is not 1 to 30") }
        guard let status = GameStatus(rawValue: status) else { throw ExportProblem("status \(Text.quoted(status)) is not a game status") }
        guard let level = assist.map(Assist.init(rawValue:)) ?? Assist.before else {
            throw ExportProblem("assist \(Text.quoted(assist ?? "")) is not a help level (none, proven or coach)")
        }
        try ExportCheck.fact(fact, name: "fact", required: false)
        guard Limits.areHints(hintsAt) else {
            throw ExportProblem("hintsAt must be at most \(Limits.hints) guess counts of 0 to 1000")
        }
        if let daily {
            guard DailyWord.isDate(daily) else { throw ExportProblem("daily \(Text.quoted(daily)) is not a date") }
            guard id == DailyWord.gameID(player: player, date: daily) else {
                throw ExportProblem("it is not player '\(player)''s daily game of \(daily): another player's, or its id was changed")
            }
        }
        if let matchResult, !Limits.isMatchResult(matchResult, rules: rules) {
            throw ExportProblem("matchResult \(Text.quoted(matchResult)) is not a match game's result")
        }
        let started = try ExportCheck.date(startedAt, "startedAt"), updated = try ExportCheck.date(updatedAt, "updatedAt")
        var finished: Date?
        switch (status.isFinished, finishedAt) {
        case (true, let text?): finished = try ExportCheck.date(text, "finishedAt")
        case (true, nil): throw ExportProblem("finishedAt is missing from a finished game")
        case (false, nil): finished = nil
        case (false, _?): throw ExportProblem("a game in progress has a finishedAt")
        }
        try ExportCheck.device(startedOn, "startedOn")
        try ExportCheck.device(lastChangedOn, "lastChangedOn")
        guard guesses.count <= ExportLimits.guessesPerGame else {
            throw ExportProblem("it has \(guesses.count) guesses, more than \(ExportLimits.guessesPerGame)")
        }
        var seen = Set<String>()
        // The rules a guess played on another machine is held to (a fetched one too), beyond the checks below.
        let played = Game(id: id, packID: pack, secret: word, rules: rules, maxGuesses: maxGuesses)
        var guessRows: [GuessRecord] = []
        guessRows.reserveCapacity(guesses.count)
        for (index, guess) in guesses.enumerated() {
            func problem(_ text: String) -> ExportProblem { ExportProblem("guesses[\(index)]: \(text)") }
            guard Limits.isWord(guess.word), guess.word.count == word.count,
                  lexicon.contains(guess.word) || guess.word == word else {
                throw problem("\(Text.quoted(guess.word)) is not a dictionary word of \(word.count) letters")
            }
            guard rules.allows(guess.word) else { throw problem("'\(guess.word)' repeats a letter, which classic rules forbid") }
            guard seen.insert(guess.word).inserted else { throw problem("'\(guess.word)' is guessed twice") }
            guard Limits.positions.contains(guess.position) else { throw problem("position \(guess.position) is not 1 to 1000") }
            let expected = rules.feedback(for: guess.word, against: word)
            let counts = expected.counts
            guard guess.common == counts.common, guess.inPlace == counts.inPlace, guess.inWord == counts.inWord else {
                throw problem("'\(guess.word)' is scored \(ExportCheck.describe(guess)) but scores \(expected.summary) against the word")
            }
            if let refusal = played.playedProblem(guess.word, feedback: expected, position: guess.position, lexicon: lexicon) {
                throw problem(refusal.reason)
            }
            let played = try ExportCheck.date(guess.playedAt, "playedAt", problem: problem)
            do { try ExportCheck.device(guess.playedOn, "playedOn") } catch { throw problem(error.problem) }
            guessRows.append(GuessRecord(gameId: id, position: guess.position,
                                         guess: Guess(word: guess.word, feedback: expected), playedAt: played, playedOn: guess.playedOn))
        }
        guard marks.count <= 26 else { throw ExportProblem("it has \(marks.count) marks; the alphabet has 26 letters") }
        var letters = Set<String>()
        var markRows: [MarkRecord] = []
        for (index, mark) in marks.enumerated() {
            func problem(_ text: String) -> ExportProblem { ExportProblem("marks[\(index)]: \(text)") }
            guard Limits.isLetter(mark.letter) else { throw problem("\(Text.quoted(mark.letter)) is not a letter a to z") }
            guard letters.insert(mark.letter).inserted else { throw problem("'\(mark.letter)' is marked twice") }
            guard let state = LetterMark(rawValue: mark.state) else { throw problem("state \(Text.quoted(mark.state)) is neither in nor out") }
            markRows.append(MarkRecord(gameId: id, letter: mark.letter, state: state,
                                       markedAt: try ExportCheck.date(mark.markedAt, "markedAt", problem: problem)))
        }
        let game = SyncGame(
            id: id, packID: pack, secret: word, fact: fact, rules: rules, maxGuesses: maxGuesses, status: status,
            startedAt: started, updatedAt: updated, finishedAt: finished, startedOn: startedOn, lastChangedOn: lastChangedOn,
            hard: hard, assist: level, hints: HintLog.text(hintsAt), daily: daily, matchResult: matchResult)
        let record = GameRecord(game: game, playerId: player, systemFields: nil)
        return ValidatedExport.Game(record: record, guesses: guessRows, marks: markRows)
    }
}
