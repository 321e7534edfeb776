/// A match as every machine of either player shows it: the match, the asked player's decline,
/// and both players' plays (`MatchPlay`), from which the winner of each game and of the match,
/// the score and what is waiting on whom follow. Built from the set of records, whatever order
/// they came in, so every machine holding the same records shows the same match.
public struct MatchState: Sendable, Equatable {
    public enum Status: String, Sendable, Encodable {
        /// Neither declined nor finished by both.
        case playing
        /// All three games finished by both players.
        case finished
        /// The asked player declined it. A decline ends the match whatever was played.
        case declined
        /// The maker called it off before the asked player answered it (`match cancel`): a
        /// cancel counts only while the asked player has published nothing of the match and
        /// has not declined it.
        case cancelled

        /// Declined or cancelled: nothing more is played.
        public var calledOff: Bool { self == .declined || self == .cancelled }
    }

    public enum Winner: Sendable, Equatable {
        case player(String)
        case tie

        /// The name, or "tie", as `match show --json` gives it.
        public var name: String {
            switch self {
            case .player(let name): name
            case .tie: "tie"
            }
        }
    }

    public let match: Match
    public let declined: Bool
    /// The maker published a cancel (`match cancel`). It counts only while the asked player has
    /// played nothing of the match and has not declined it (`status`).
    public let cancelRead: Bool
    /// Plays not counted, because the player had not finished the game before (each player
    /// plays the games in order: `MatchRefusal.notFinishedBefore`). They count once the earlier
    /// game's result arrives; a machine shows them as warnings meanwhile.
    public let held: [MatchPlay]
    /// Each player's plays, by game index - 1.
    let plays: [String: [MatchPlay?]]

    /// `plays` are the plays read for this match (already checked, `MatchPlay(checking:in:publishedBy:)`),
    /// several versions of one merged (`MatchPlay.merge`); plays of another match or player are
    /// left out. `declined`: the asked player published a decline; `cancelled`: the maker
    /// published a cancel.
    public init(match: Match, plays: [MatchPlay], declined: Bool = false, cancelled: Bool = false) {
        self.match = match
        self.declined = declined
        self.cancelRead = cancelled
        var merged: [String: [MatchPlay?]] = [:]
        for player in match.players { merged[player] = Array(repeating: nil, count: Match.games.count) }
        for play in plays where play.match == match.id && Match.games.contains(play.index) {
            guard var slots = merged[play.player] else { continue }
            slots[play.index - 1] = slots[play.index - 1].map { MatchPlay.merge($0, play) } ?? play
            merged[play.player] = slots
        }
        var held: [MatchPlay] = []
        for player in match.players {
            guard var slots = merged[player] else { continue }
            // Past the first game not finished, nothing counts.
            if let open = slots.firstIndex(where: { $0?.isFinished != true }) {
                for index in (open + 1)..<slots.count {
                    if let play = slots[index] { held.append(play) }
                    slots[index] = nil
                }
            }
            merged[player] = slots
        }
        self.plays = merged
        self.held = held
    }

    // MARK: Each game

    /// What a player has published of each game (nil: nothing yet), game 1 first.
    public func progress(of player: String) -> [MatchPlay.Progress?] {
        (plays[player] ?? []).map { $0?.progress }
    }

    public func result(of player: String, game index: Int) -> MatchResult? {
        guard Match.games.contains(index) else { return nil }
        return plays[player]?[index - 1]?.result
    }

    /// Whether both players have finished game `index`: its word is shown from then on.
    public func bothFinished(game index: Int) -> Bool {
        match.players.allSatisfy { result(of: $0, game: index) != nil }
    }

    /// The winner of game `index` (`MatchResult.versus`), once both players have finished it.
    public func winner(game index: Int) -> Winner? {
        let players = match.players
        guard let a = result(of: players[0], game: index), let b = result(of: players[1], game: index) else { return nil }
        let versus = a.versus(b)
        return versus == 0 ? .tie : .player(versus > 0 ? players[0] : players[1])
    }

    /// The player's first game not finished yet: the one `play --match` starts or resumes; nil
    /// once all three are finished, for a declined match, or for someone not playing it.
    public func nextGame(for player: String) -> Int? {
        guard !status.calledOff, let slots = plays[player] else { return nil }
        return slots.firstIndex { $0?.isFinished != true }.map { $0 + 1 }
    }

    // MARK: The match

    /// Games won by each player (a tie counts for neither).
    public var score: [String: Int] {
        var score = Dictionary(uniqueKeysWithValues: match.players.map { ($0, 0) })
        for index in Match.games {
            if case .player(let name) = winner(game: index) { score[name, default: 0] += 1 }
        }
        return score
    }

    /// The player asked to play the match (not its maker).
    public var asked: String { match.players.first { $0 != match.createdBy } ?? "" }

    /// Whether the asked player has answered the match: declined it, or published anything of a
    /// game of it. The maker may cancel only before.
    public var answered: Bool { declined || (plays[asked] ?? []).contains { $0 != nil } }

    public var status: Status {
        if declined { return .declined }
        if cancelRead && !answered { return .cancelled }
        return Match.games.allSatisfy(bothFinished) ? .finished : .playing
    }

    /// The match's winner once it is finished: more games won, else a tie.
    public var winner: Winner? {
        guard status == .finished else { return nil }
        let score = score, players = match.players
        let (a, b) = (score[players[0], default: 0], score[players[1], default: 0])
        return a == b ? .tie : .player(a > b ? players[0] : players[1])
    }

    /// What the match is waiting for, as `viewer` reads it in a list: "your turn", "waiting for
    /// ben", "you won 2–1", "you lost 1–2", "tie 1–1", "you declined", "ben declined", "you
    /// cancelled", "ann cancelled"; for someone not playing it, "playing" or "alice won 2–1".
    public func summary(for viewer: String) -> String {
        switch status {
        case .declined:
            return viewer == asked ? "you declined" : "\(asked) declined"
        case .cancelled:
            return viewer == match.createdBy ? "you cancelled" : "\(match.createdBy) cancelled"
        case .playing:
            guard let opponent = match.opponent(of: viewer) else { return "playing" }
            return nextGame(for: viewer) != nil ? "your turn" : "waiting for \(opponent)"
        case .finished:
            let score = score
            guard case .player(let name)? = winner else {
                return "tie \(score[match.players[0], default: 0])–\(score[match.players[1], default: 0])"
            }
            let loser = match.players.first { $0 != name } ?? ""
            let line = "\(score[name, default: 0])–\(score[loser, default: 0])"
            if viewer == name { return "you won \(line)" }
            if viewer == loser { return "you lost \(score[loser, default: 0])–\(score[name, default: 0])" }
            return "\(name) won \(line)"
        }
    }
}

extension MatchState {
    /// The matches a player has won, for their leaderboard line (`Standing`).
    public static func matchesWon(by player: String, in matches: [MatchState]) -> Int {
        matches.filter { $0.winner == .player(player) }.count
    }
}
