import CloudStore
import Concurrency
import Foundation
import QiktionaryCore
import Storage
import Sync

// Matches, friends and leaderboards (docs/multiplayer.md): the player's side of the shared
// folder. What other players published is read and checked by sync (`SharedZone`); the player's
// own progress in a match comes from their own games here, merged with what their other
// machines published, so it shows before any sync.
extension PlayerGames {
    private var me: String { profile.playerID }

    /// Runs Core's rules, turning a refusal into a failure a person reads (exit 64).
    private func refusing<T>(_ body: () throws(MatchRefusal) -> T) throws -> T {
        do { return try body() } catch { throw Failure(error.description) }
    }

    // MARK: Friends

    /// The players visible in the folder (as of the last sync), by name.
    public func friends() throws -> [String] { try run { () throws(StorageError) in try player.friends() } }

    /// Makes this player visible to the others of the folder (published at the next sync).
    public func join(now: Date? = nil) throws {
        let now = now ?? player.clock()
        try run { () throws(StorageError) in try player.keepFriend(me, joinedAt: now) }
    }

    // MARK: Making and answering

    /// A new match against `opponent`, a player visible in the folder: three words of `packID`
    /// (one drawn at random when nil), under `rules` (the pack's when nil).
    public func newMatch(against opponent: String, packID: String?, rules: Rules?, hard: Bool, assist: Assist = .standard, seed: UInt64? = nil,
                         now: Date? = nil) throws -> MatchOverview {
        let now = now ?? player.clock()
        if let problem = PlayerName.problem(opponent) { throw Failure(problem) }
        if opponent == me { throw Failure(MatchRefusal.againstYourself(me).description) }
        guard try friends().contains(opponent) else {
            throw Failure("no player called '\(opponent)' in the shared folder; they show once they run `friends --join` and sync")
        }
        let packs = try run { () throws(StorageError) in try player.storedPacks() }
        let played = Set(try history().map(\.game.secret))
        var seeded = seed.map(SeededGenerator.init)
        var system = SystemRandomNumberGenerator()
        let match: Match = try refusing { () throws(MatchRefusal) in
            if var generator = seeded {
                defer { seeded = generator }
                return try make(against: opponent, packs: packs, packID: packID, rules: rules, hard: hard, assist: assist, now: now, played: played,
                                using: &generator)
            }
            return try make(against: opponent, packs: packs, packID: packID, rules: rules, hard: hard, assist: assist, now: now, played: played,
                            using: &system)
        }
        try run { () throws(StorageError) in try player.keepMatch(match, madeHere: true) }
        return try overview(match, calledOff: CalledOff())
    }

    private func make<R: RandomNumberGenerator>(against opponent: String, packs: [Pack], packID: String?, rules: Rules?, hard: Bool, assist: Assist,
                                                now: Date, played: Set<String>, using generator: inout R) throws(MatchRefusal) -> Match {
        let pack: Pack
        if let packID {
            guard let named = packs.first(where: { $0.id == packID }) else { throw .badPack(packID) }
            pack = named
        } else {
            pack = try Match.choosePack(from: packs, rules: rules, lexicon: lexicon(), using: &generator)
        }
        return try Match.make(by: me, against: opponent, pack: pack, rules: rules, hard: hard, assist: assist, createdAt: now, lexicon: lexicon(),
                              avoiding: played, using: &generator)
    }

    /// Declines a match this player was asked to play, before playing any of it.
    public func declineMatch(id: String) throws -> MatchOverview {
        let shown = try matchOverview(id: id)
        if shown.state.status == .declined { return shown }
        if shown.state.status == .cancelled {
            throw Failure("match '\(shown.state.match.id)' was cancelled by \(shown.state.match.createdBy); there is nothing to decline")
        }
        if let problem = shown.state.declineProblem(player: me) { throw Failure(problem.description) }
        try run { () throws(StorageError) in try player.keepDecline(matchID: shown.state.match.id, by: me, madeHere: true) }
        return try matchOverview(id: shown.state.match.id)
    }

    /// Cancels a match this player made, until the other player answers it (declines it or
    /// plays any of it). The cancel is published at the next sync; the other player's machines
    /// show the match cancelled.
    public func cancelMatch(id: String) throws -> MatchOverview {
        let shown = try matchOverview(id: id)
        if shown.state.status == .cancelled { return shown }
        if let problem = shown.state.cancelProblem(player: me) { throw Failure(problem.description) }
        try run { () throws(StorageError) in try player.keepDecline(matchID: shown.state.match.id, by: me, madeHere: true) }
        return try matchOverview(id: shown.state.match.id)
    }

    // MARK: Showing

    /// This player's matches, newest first.
    public func matches() throws -> [MatchOverview] { try matchStates().map { try overview($0.state) } }

    /// The state of each of this player's matches, newest first (no word decoded), with this
    /// player's own plays in it.
    private func matchStates() throws -> [(state: MatchState, own: [OwnPlay])] {
        let calledOff = try calledOff()
        let matches = try myMatches()
        let ids = matches.flatMap { match in Match.games.map { match.gameID(player: me, index: $0) } }
        let here = try run { () throws(StorageError) in try player.gamesHere(ids) }
        return try matches.map { match in
            let (plays, own) = try plays(of: match, here: here)
            return (calledOff.state(match, plays: plays), own)
        }
    }

    /// One match of this player, by its id or the start of it.
    public func matchOverview(id: String) throws -> MatchOverview {
        let mine = try myMatches()
        let named = Set(IDPrefix.matches(id, among: mine.map(\.id)))
        let found = mine.filter { named.contains($0.id) }
        guard found.count == 1, let match = found.first else {
            if found.count > 1 { throw Failure("'\(id)' starts the ids of \(found.count) matches; give more of the id") }
            throw Failure("no match with id '\(id)'; `match list` shows yours")
        }
        return try overview(match, calledOff: try calledOff())
    }

    /// The match a game of this player belongs to, if any.
    public func matchOverview(ofGame gameID: String) throws -> MatchOverview? {
        guard let match = try myMatches().first(where: { m in Match.games.contains { m.gameID(player: me, index: $0) == gameID } }) else {
            return nil
        }
        return try overview(match, calledOff: try calledOff())
    }

    /// A game of a match stays in the history: it is the match's result as much as this
    /// player's, and the other player's machines keep the play published from it, so taking it
    /// away here would leave the two players seeing the match differently for good.
    func refuseDeletingAMatchGame(_ gameID: String) throws {
        guard let overview = try matchOverview(ofGame: gameID) else { return }
        let match = overview.state.match
        let index = Match.games.first { match.gameID(player: me, index: $0) == gameID } ?? 1
        throw Failure("game \(gameID) is game \(index) of your match against \(match.opponent(of: me) ?? "a friend"): "
                      + "a match's games stay in the history")
    }

    /// Starts or resumes this player's next unfinished game of the match: an ordinary game of
    /// theirs whose id the match gives, on the match's word, rules, hard setting and limit.
    public func beginMatchGame(matchID: String) throws -> SavedGame {
        let shown = try matchOverview(id: matchID)
        let state = shown.state, match = state.match
        if state.status == .declined { throw Failure("match '\(match.id)' was declined") }
        if state.status == .cancelled { throw Failure("match '\(match.id)' was cancelled by \(match.createdBy)") }
        guard let index = state.nextGame(for: me) else {
            throw Failure("you have played every game of match '\(match.id)'; `match show \(match.id)` shows where it stands")
        }
        let words = try refusing { () throws(MatchRefusal) in try match.words(lexicon: lexicon(), packWords: try? packWords(match.pack)) }
        // At the match's help level (a match made before there was one: the player's own).
        let request = GameRequest(packID: match.pack, word: words[index - 1], rules: match.rules, hard: match.hard, assist: match.assist)
        return try run { () throws(StorageError) in
            try player.startMatchGame(id: match.gameID(player: me, index: index), request: request, maxGuesses: match.maxGuesses,
                                      lexicon: lexicon)
        }
    }

    private func packWords(_ pack: String) throws -> [String] {
        try run { () throws(StorageError) in try player.database.packWords(of: pack) }
    }

    /// The matches declined by the player asked to play them, and those cancelled by their maker
    /// (a decline record of anyone else does not count; whether a cancel stands is `MatchState`'s).
    private func calledOff() throws -> CalledOff {
        let declines = try run { () throws(StorageError) in try player.declines() }
        var calledOff = CalledOff()
        for match in try myMatches() {
            guard let by = declines[match.id] else { continue }
            if by.contains(where: { $0 != match.createdBy && match.players.contains($0) }) { calledOff.declined.insert(match.id) }
            if by.contains(match.createdBy) { calledOff.cancelled.insert(match.id) }
        }
        return calledOff
    }

    private struct CalledOff {
        var declined: Set<String> = []
        var cancelled: Set<String> = []

        func state(_ match: Match, plays: [MatchPlay]) -> MatchState {
            MatchState(match: match, plays: plays, declined: declined.contains(match.id), cancelled: cancelled.contains(match.id))
        }
    }

    private func myMatches() throws -> [Match] {
        try run { () throws(StorageError) in try player.keptMatches() }.filter { $0.players.contains(me) }
    }

    /// The match as this player sees it: what was read of both players, and this player's own
    /// games here (a game never played is not counted); the words of games both have finished.
    private func overview(_ match: Match, calledOff: CalledOff) throws -> MatchOverview {
        try overview(calledOff.state(match, plays: try plays(of: match).all))
    }

    private func overview(_ state: MatchState) throws -> MatchOverview {
        let match = state.match
        var words: [String?] = Match.games.map { _ in nil }
        if Match.games.contains(where: state.bothFinished), let decoded = try? match.words(lexicon: lexicon(), packWords: try? packWords(match.pack)) {
            for index in Match.games where state.bothFinished(game: index) { words[index - 1] = decoded[index - 1] }
        }
        // Whether the words decode here is asked only of a match the player could play next.
        let playable = state.status != .playing || state.nextGame(for: me) == nil
            || (try? match.words(lexicon: lexicon(), packWords: try? packWords(match.pack))) != nil
        return MatchOverview(state: state, words: words, viewer: me, playable: playable)
    }

    /// This player's play of one game of a match, as worked out here, with the result its game
    /// keeps (`SyncGame.matchResult`).
    struct OwnPlay {
        var play: MatchPlay
        var gameID: String
        var kept: String?
    }

    /// The plays of a match: the other player's as read, and this player's own (`own` too).
    /// `here`: the ids of this player's games here, when known (else each is looked up).
    /// This player's own plays are worked out from their own games here (which their machines
    /// sync), never from what the folder says of them: what is shown and published as theirs
    /// is what they played, or the furthest on any of their machines published of it before
    /// (which their games keep, as a play once read is never taken back by its readers).
    private func plays(of match: Match, here: Set<String>? = nil) throws -> (all: [MatchPlay], own: [OwnPlay]) {
        var plays: [MatchPlay] = []
        for fields in try run({ () throws(StorageError) in try player.plays(ofMatch: match.id) }) where fields.player != me {
            guard let play = try? MatchPlay(checking: fields, in: match, publishedBy: fields.player) else { continue }
            plays.append(play)
        }
        var own: [OwnPlay] = []
        for index in Match.games {
            let id = match.gameID(player: me, index: index)
            if let here, !here.contains(id) { continue }
            guard let saved = try? player.game(id: id),
                  saved.game.isFinished || !saved.game.guesses.isEmpty else { continue }
            let kept = saved.synced.matchResult
            own.append(OwnPlay(play: MatchPlay.of(saved.game, hints: saved.hints, match: match, player: me, index: index, kept: kept),
                               gameID: id, kept: kept))
        }
        return (plays + own.map(\.play), own)
    }

    // MARK: Leaderboards

    /// The day's board and the all-time board of the players visible in the folder.
    public func leaderboards(day: String) throws -> Leaderboards {
        var lines = try run { () throws(StorageError) in try player.standings() }
        // This player's line is the one their history here gives: what the folder claims of
        // them (another machine's line, or anyone's file under their name) does not change it here.
        lines[me] = try ownStanding()
        return Leaderboards(day: day, daily: Leaderboard.daily(day, standings: lines), allTime: Leaderboard.allTime(lines))
    }

    /// This player's line from their whole history here, once they are visible (joined, or in a match).
    private func ownStanding(_ states: [MatchState]? = nil) throws -> Standing? {
        let states = try states ?? matchStates().map(\.state)
        guard try run({ () throws(StorageError) in try player.joinedAt() }) != nil || !states.isEmpty else { return nil }
        return Standing(history: try history().compactMap(HistoryGame.init), matchesWon: MatchState.matchesWon(by: me, in: states))
    }

    // MARK: The shared zone

    /// What this player publishes: the joined marker, the matches they made, their plays of
    /// every match game, their declines and cancels and this device's leaderboard line. The line is worked
    /// out again only when the history it comes from may have changed since it was published
    /// (`last`: what was published, with the history's fingerprint then); the notes to keep.
    func publication(last: () throws -> [String: String], memory: SharedExchange = SharedExchange(), gamesMoved: Bool = true) throws
        -> (records: [SharedRecord], notes: [String: String]) {
        var records: [SharedRecord] = []
        if let joinedAt = try run({ () throws(StorageError) in try player.joinedAt() }) {
            records.append(.player(name: me, joinedAt: joinedAt))
        }
        let states = try matchStates()
        // Only what this machine did: a match it made, a decline made here, plays of its own
        // games. A record read from the folder under this player's name is never published again.
        let (made, declinedHere) = try run { () throws(StorageError) in (try player.matchesMadeHere(), try player.declinesMadeHere()) }
        for (state, own) in states {
            let match = state.match
            if match.createdBy == me && made.contains(match.id) { records.append(.match(match)) }
            for play in own {
                // A result goes into its game before it is published: the player's other
                // machines learn it with the game, and publish no less (seed 32277).
                // A kept result further on already (one the match refuses) is not written again.
                if let result = play.play.result?.text, MatchResult.furthest(play.kept, result) != play.kept {
                    try run { () throws(StorageError) in try player.keepMatchResult(gameID: play.gameID, result) }
                }
                records.append(.play(play.play.fields))
            }
            // A decline made here, or the maker's cancel: one record, told apart by its publisher.
            if declinedHere.contains(match.id) { records.append(.decline(matchID: match.id)) }
        }
        let visible = try run({ () throws(StorageError) in try player.joinedAt() }) != nil || !states.isEmpty
        guard visible else { return (records, [:]) }
        let won = MatchState.matchesWon(by: me, in: states.map(\.state))
        let key = "history of standing", published = try last()[key]
        // The history's fingerprint reads every finished game: it is kept between rounds that
        // moved no game, unless what was published says otherwise (another process here).
        var history = gamesMoved ? nil : memory.history.withLock { $0 }
        if history == nil || published != history.map({ $0 + " \(won)" }) {
            history = try run { () throws(StorageError) in try player.historyFingerprint() }
            memory.history.withLock { $0 = history }
        }
        let fingerprint = (history ?? "") + " \(won)"
        if published != fingerprint, let line = try ownStanding(states.map(\.state)) {
            records.append(.standing(device: profile.device.id, line))
        }
        return (records, [key: fingerprint])
    }

    /// The shared zones' part of a sync round: read every player's, then publish this player's.
    /// Returns how many records arrived from other players or this player's other machines.
    /// `round`: the engine's report of the round so far; `memory`: what the rounds of one
    /// engine keep between them (a fresh one reads and works out everything).
    public func exchangeShared(cloud: any CloudDatabase, warnings: CloudWarningSink?, round: SyncReport = SyncReport(),
                               memory: SharedExchange = SharedExchange()) throws -> Int {
        guard let folder = cloud.sharedFolder else { return 0 }
        let zone = SharedZone(player: player, cloud: cloud, folder: folder, warnings: warnings)
        let reading = try zone.read(using: memory.readers)
        let moved = round.uploaded + round.downloaded + round.deleted + round.conflictsResolved + round.waiting > 0
        // What was published last (the player's own heads and a query) is read at most once a
        // round, and only when something is to be published.
        var last: [String: String]?
        let lastPublished = { () throws -> [String: String] in
            if let last { return last }
            let read = try zone.lastPublished()
            last = read
            return read
        }
        let (records, notes) = try publication(last: lastPublished, memory: memory, gamesMoved: moved)
        try zone.publish(records, noting: notes, last: lastPublished)
        return reading.arrived
    }
}

/// What the sync rounds of one engine keep between them for the shared zones: the other
/// players' stores' readers and stamps (a store where nothing changed is not read), and this
/// player's history fingerprint (worked out again only after a round that moved games).
public final class SharedExchange: Sendable {
    let readers: SharedZone.Readers
    let history = Locked<String?>(nil)

    public init(readers: SharedZone.Readers = SharedZone.Readers()) { self.readers = readers }
}
