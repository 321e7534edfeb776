extension MatchPlay {
    /// A play as it travels: plain values, the way the sync engine reads them off a record.
    /// `hints`, `assist` and `grid` only for a finished game.
    public struct Fields: Sendable, Equatable {
        public var match: String
        public var player: String
        public var game: Int
        /// "in-progress", "won", "lost" or "gave-up".
        public var status: String
        public var guesses: Int
        public var hints: Int?
        /// "none", "proven" or "coach".
        public var assist: String?
        /// `MatchGrid.text`.
        public var grid: String?

        public init(match: String, player: String, game: Int, status: String, guesses: Int, hints: Int? = nil,
                    assist: String? = nil, grid: String? = nil) {
            self.match = match
            self.player = player
            self.game = game
            self.status = status
            self.guesses = guesses
            self.hints = hints
            self.assist = assist
            self.grid = grid
        }
    }

    /// What is published.
    public var fields: Fields {
        switch progress {
        case .playing(let guesses):
            Fields(match: match, player: player, game: index, status: GameStatus.inProgress.rawValue, guesses: guesses)
        case .finished(let r):
            Fields(match: match, player: player, game: index, status: r.status.rawValue, guesses: r.guesses, hints: r.hints,
                   assist: r.assist.rawValue, grid: r.grid.text)
        }
    }

    /// A play another machine published, found in `publisher`'s records, checked against its
    /// match: refused when the match's rules make it impossible. What a game still on holds
    /// besides its guesses is not read.
    public init(checking fields: Fields, in match: Match, publishedBy publisher: String) throws(MatchRefusal) {
        guard fields.match == match.id else { throw .badMatchID(fields.match) }
        if let problem = PlayerName.problem(fields.player) { throw .badName(problem) }
        guard match.players.contains(fields.player) else { throw .notInMatch(fields.player) }
        guard fields.player == publisher else { throw .notThePublisher(player: fields.player, publisher: publisher) }
        guard Match.games.contains(fields.game) else { throw .gameIndex(fields.game) }
        guard let status = GameStatus(rawValue: fields.status) else { throw .badStatus(fields.status) }
        let guesses = fields.guesses, limit = match.maxGuesses
        guard guesses >= 0 else { throw .negative("guesses", guesses) }
        self.init(match: match.id, player: fields.player, index: fields.game, progress: .playing(guesses: guesses))
        guard status.isFinished else {
            guard guesses < limit else { throw .playingAtLimit(guesses, limit: limit) }
            return
        }
        guard guesses <= limit else { throw .tooManyGuesses(guesses, limit: limit) }
        switch status {
        case .won: if guesses == 0 { throw .winInNoGuesses }
        case .lost: if guesses < limit { throw .lossBeforeLimit(guesses, limit: limit) }
        default: if guesses == limit { throw .giveUpAtLimit(limit: limit) }
        }
        guard let hints = fields.hints else { throw .missing("hints") }
        guard let assistText = fields.assist else { throw .missing("help level") }
        guard let gridText = fields.grid else { throw .missing("grid") }
        guard hints >= 0 else { throw .negative("hints", hints) }
        // A hint is shown before a guess (0: before the first); after the last only when given up.
        let hintPoints = guesses + (status == .gaveUp ? 1 : 0)
        guard hints <= hintPoints else { throw .tooManyHints(hints, guesses: guesses) }
        guard let assist = Assist(rawValue: assistText) else { throw .badAssist(assistText) }
        // Both players play at the match's level: a result at another does not count.
        if let level = match.assist, assist != level { throw .otherLevel(played: assist, match: level) }
        let grid = try MatchPlay.grid(gridText, guesses: guesses, won: status == .won, match: match)
        progress = .finished(MatchResult(status: status, guesses: guesses, hints: hints, assist: assist, grid: grid))
    }

    /// A published grid, refused unless it is one row a guess, each a score a word of the
    /// match's length can get, the word found on the last row of a win and on no other (a
    /// classic anagram scores full marks too, so only a mastermind row proves it).
    static func grid(_ text: String, guesses: Int, won: Bool, match: Match) throws(MatchRefusal) -> MatchGrid {
        guard text.utf8.count <= MatchGrid.maxText else { throw .badGrid("is longer than \(MatchGrid.maxText) characters") }
        guard let grid = MatchGrid.parse(text, rules: match.rules) else {
            throw .badGrid("is not rows of \(match.rules == .classic ? "counts" : "two counts joined by '+'")")
        }
        guard grid.rows.count == guesses else { throw .badGrid("has \(grid.rows.count) rows for \(guesses) guesses") }
        let length = match.length
        for (number, row) in zip(1..., grid.rows) {
            guard row.lettersInWord <= length else { throw .badGrid("row \(number) scores more letters than a word has") }
            // All but one letter in place and one more in the word: that letter could only go in
            // the one place left, where it would be in place too.
            if case .mastermind(let inPlace, let inWord) = row, inPlace == length - 1, inWord > 0 {
                throw .badGrid("row \(number) scores \(inPlace)+\(inWord), which no guess of \(length) letters can")
            }
            let last = number == grid.rows.count
            if won && last && !MatchGrid.isFull(row, length: length) { throw .badGrid("ends without the word found") }
            if case .mastermind = row, MatchGrid.isFull(row, length: length), !(won && last) {
                throw .badGrid("row \(number) finds the word but the game goes on")
            }
        }
        return grid
    }
}

extension MatchState {
    /// Why `player` may not decline the match: only the other player may, and only before
    /// playing (the command's check; a decline read from the folder counts whatever else came).
    public func declineProblem(player: String) -> MatchRefusal? {
        guard match.players.contains(player) else { return .notInMatch(player) }
        if player == match.createdBy { return .creatorDeclines(player) }
        if progress(of: player).contains(where: { $0 != nil }) { return .declineAfterPlaying(player) }
        return nil
    }

    /// Why `player` may not cancel the match: only its maker may, and only until the other
    /// player answers it (declines it or plays any of it), which is the command's check; a
    /// cancel read from the folder after an answer does not count (`status`).
    public func cancelProblem(player: String) -> MatchRefusal? {
        guard match.players.contains(player) else { return .notInMatch(player) }
        if player != match.createdBy { return .notTheMakerCancels(player: player, maker: match.createdBy) }
        if declined { return .cancelAfterAnswer(asked: asked, declined: true) }
        if answered { return .cancelAfterAnswer(asked: asked, declined: false) }
        return nil
    }

    /// A decline found in `publisher`'s records for this match: the asked player's decline, or
    /// the maker's cancel (the one record both travel as, told apart by its publisher). Refused
    /// from anyone else.
    public static func checkDecline(by publisher: String, of match: Match) throws(MatchRefusal) {
        guard match.players.contains(publisher) else { throw .notInMatch(publisher) }
    }
}
