import CloudStore
import Foundation
import TextSafety
import QiktionaryCore
import Storage

/// The game's cloud schema, the one place that names it: record types, zones, record names and
/// field names, and both directions of the mapping (rows to records, records to rows). Everything
/// read from the cloud is checked here: a record that does not make sense is skipped, never
/// written to the database. Storage keeps rows and change queues in its own terms (`SyncZone`,
/// `GameField`) and takes the record names from here (`RecordNaming`).
public struct CloudSchema: RecordNaming {
    public init() {}

    // MARK: Record types

    public static let game = "Game", guess = "Guess", mark = "Mark", bookmark = "Bookmark"

    // MARK: Zones, one per kind of data (CloudKit custom zones)

    /// A zone is named as storage keeps it (`SyncZone`'s raw value, frozen in rows of every release).
    static func zone(_ zone: SyncZone) -> ZoneID { ZoneID(validated: zone.rawValue) }

    // MARK: Record names
    // Derived from what makes a row unique, so two machines that make the same thing (the same
    // guess in a game, a bookmark on the same word) make the same record, and sync can never
    // duplicate it.

    public func game(_ gameID: String) -> String { gameID }
    public func guess(gameID: String, word: String) -> String { "\(gameID)-\(word)" }
    public func mark(gameID: String, letter: String) -> String { "\(gameID)-mark-\(letter)" }
    public func bookmark(word: String) -> String { Self.bookmarkPrefix + word }

    /// The store's order of two versions (`ZoneView`'s winner: the later clock reading, then the
    /// device's name): whether `fetched` comes before `kept`.
    public func isOlder(_ fetched: Data, than kept: Data) -> Bool {
        guard let fetched = SystemFields(encoded: fetched), let kept = SystemFields(encoded: kept) else { return false }
        return (fetched.modifiedAt, fetched.modifiedBy.name) < (kept.modifiedAt, kept.modifiedBy.name)
    }

    /// Whether `name` is `guess(gameID:word:)`, compared byte by byte without building it (a full
    /// fetch checks 75,000). For the ASCII ids and words it is given, the same as `==`.
    static func isGuess(_ name: String, gameID: String, word: String) -> Bool {
        // Compared as bytes in place (a first sync checks every guess's name: walking the
        // strings' views cost several thousand instructions a name).
        var name = name, game = gameID, word = word
        return name.withUTF8 { name in
            game.withUTF8 { game in
                word.withUTF8 { word in
                    name.count == game.count + 1 + word.count
                        && name[game.count] == UInt8(ascii: "-")
                        && name.prefix(game.count).elementsEqual(game)
                        && name.suffix(word.count).elementsEqual(word)
                }
            }
        }
    }

    static let bookmarkPrefix = "bookmark-"

    /// The record type of a record storage refused, for its warning.
    static func recordType(_ kind: IncomingRefusal.Kind) -> String {
        switch kind {
        case .game: game
        case .guess: guess
        case .mark: mark
        case .bookmark: bookmark
        }
    }

    /// The game a record belongs to: a game's own name, the game a guess or mark names; for a
    /// bookmark (no game), its own name.
    public static func game(of record: CloudRecord) -> String {
        if case .string(let id)? = record[GuessKey.game] { return id }
        return record.recordName
    }

    // MARK: Field names

    /// Every record's field for the name of the device that wrote it.
    static let device = "device"

    enum GameKey {
        static let pack = "pack", secret = "secret", fact = "fact", rules = "rules", maxGuesses = "maxGuesses", status = "status"
        static let startedAt = "startedAt", updatedAt = "updatedAt", finishedAt = "finishedAt"
        static let startedOn = "startedOn", lastChangedOn = "lastChangedOn", hard = "hard", hints = "hints", daily = "daily"
        static let assist = "assist"

        /// The cloud field that carries a game column sent on its own.
        static func of(_ field: GameField) -> String {
            switch field {
            case .status: status
            case .finishedAt: finishedAt
            case .updatedAt: updatedAt
            case .lastChangedOn: lastChangedOn
            case .hints: hints
            case .assist: assist
            case .hard: hard
            case .daily: daily
            }
        }
    }

    enum GuessKey {
        static let game = "game", word = "word", position = "position", playedAt = "playedAt", playedOn = "playedOn"
        static let common = "common", inPlace = "inPlace", inWord = "inWord"
    }

    enum MarkKey {
        static let game = "game", letter = "letter", state = "state", markedAt = "markedAt"
        /// The state of a cleared mark.
        static let cleared = "clear"
    }

    enum BookmarkKey {
        static let word = "word", pack = "pack", fact = "fact", addedAt = "addedAt", bookmarked = "bookmarked"
    }

    // MARK: To the cloud

    /// A game's record; `fields` set sends only those (a change to a game the cloud has).
    static func record(_ game: SyncGame, fields changed: Set<GameField>?, device: String, systemFields: SystemFields?) -> CloudRecord {
        typealias K = GameKey
        var all: [String: FieldValue] = [
            K.pack: .string(game.packID), K.secret: .string(game.secret), K.fact: .string(game.fact),
            K.rules: .string(game.rules.rawValue), K.maxGuesses: .int(Int64(game.maxGuesses)),
            K.status: .string(game.status.rawValue), K.startedAt: .date(game.startedAt), K.updatedAt: .date(game.updatedAt),
            K.startedOn: .string(game.startedOn), K.lastChangedOn: .string(game.lastChangedOn),
        ]
        if let finishedAt = game.finishedAt { all[K.finishedAt] = .date(finishedAt) }
        // Written only when set, so a game without them is the same bytes as before the coach.
        if game.hard { all[K.hard] = .bool(true) }
        if !game.hints.isEmpty { all[K.hints] = .string(game.hints) }
        if let daily = game.daily { all[K.daily] = .string(daily) }
        // Absent means the coach, as every game written before help levels had it on; sent as a
        // change, it is written whatever it is, or the cloud's copy would keep its older level.
        if game.assist != .before || changed?.contains(.assist) == true { all[K.assist] = .string(game.assist.rawValue) }
        var fields = changed.map { wanted in
            let names = Set(wanted.map(K.of))
            return all.filter { names.contains($0.key) }
        } ?? all
        fields[Self.device] = .string(device)
        return CloudRecord(recordType: Self.game, recordName: Self().game(game.id), fields: fields, systemFields: systemFields)
    }

    static func record(_ guess: SyncGuess, device: String) -> CloudRecord {
        typealias K = GuessKey
        var fields: [String: FieldValue] = [
            K.game: .string(guess.gameID), K.word: .string(guess.word), K.position: .int(Int64(guess.position)),
            K.playedAt: .date(guess.playedAt), K.playedOn: .string(guess.playedOn), Self.device: .string(device),
        ]
        fields[K.common] = guess.common.map { .int(Int64($0)) }
        fields[K.inPlace] = guess.inPlace.map { .int(Int64($0)) }
        fields[K.inWord] = guess.inWord.map { .int(Int64($0)) }
        return CloudRecord(recordType: Self.guess, recordName: Self().guess(gameID: guess.gameID, word: guess.word), fields: fields)
    }

    static func record(_ mark: SyncMark, device: String) -> CloudRecord {
        typealias K = MarkKey
        return CloudRecord(recordType: Self.mark, recordName: Self().mark(gameID: mark.gameID, letter: mark.letter), fields: [
            K.game: .string(mark.gameID), K.letter: .string(mark.letter), K.state: .string(mark.state?.rawValue ?? K.cleared),
            K.markedAt: .date(mark.markedAt), Self.device: .string(device),
        ])
    }

    static func record(_ bookmark: SyncBookmark, device: String) -> CloudRecord {
        typealias K = BookmarkKey
        return CloudRecord(recordType: Self.bookmark, recordName: Self().bookmark(word: bookmark.word), fields: [
            K.word: .string(bookmark.word), K.pack: .string(bookmark.packID), K.fact: .string(bookmark.fact),
            K.addedAt: .date(bookmark.addedAt), K.bookmarked: .bool(bookmark.isBookmarked), Self.device: .string(device),
        ])
    }

    // MARK: From the cloud

    /// Sorts fetched records into the game's kinds. Returns how many were skipped as invalid,
    /// and how many were this device's own (a full fetch returns those too).
    /// A record with a text a terminal would obey, in any field, is refused whole and told to
    /// `refused` (one line, the text shown escaped): the shared folder may hold other people's files.
    static func incoming(_ records: [CloudRecord], deletions: [DeletedRecord], device: DeviceID,
                         into changes: inout IncomingChanges, refused: (CloudWarning) -> Void = { _ in }) -> (skipped: Int, own: Int) {
        var skipped = 0, own = 0
        for record in records {
            guard let system = record.systemFields else { skipped += 1; continue }
            if let problem = unsafeText(in: record) {
                refused(CloudWarning(path: "\(record.recordType) record \(record.recordName)", reason: problem))
                skipped += 1
                continue
            }
            if system.modifiedBy == device { own += 1 }
            if case .string(let name)? = record[Self.device], !name.isEmpty, name.count <= Limits.deviceNameLength {
                changes.devices[system.modifiedBy.name] = name
            }
            switch record.recordType {
            case game: if let value = syncGame(record) { changes.games.append((value, system.encoded)) } else { skipped += 1 }
            case guess: if let value = syncGuess(record) { changes.guesses.append(value) } else { skipped += 1 }
            case mark: if let value = syncMark(record) { changes.marks.append((value, system.encoded)) } else { skipped += 1 }
            case bookmark: if let value = syncBookmark(record) { changes.bookmarks.append((value, system.encoded)) } else { skipped += 1 }
            default: skipped += 1
            }
        }
        changes.deletions += deletions.map(Self.deletion)
        return (skipped, own)
    }

    /// What a deleted record was, from its type and name.
    static func deletion(_ deleted: DeletedRecord) -> IncomingDeletion {
        let name = deleted.recordName
        let kind: IncomingDeletion.Kind = switch deleted.recordType {
        case game: .game(id: name)
        // A guess's name is its game's id, a dash and its word (letters alone).
        case guess: name.lastIndex(of: "-").map { .guess(gameID: String(name[..<$0]), word: String(name[name.index(after: $0)...])) } ?? .other
        case bookmark where name.hasPrefix(bookmarkPrefix): .bookmark(word: String(name.dropFirst(bookmarkPrefix.count)))
        // Marks are cleared by a version with no state, never deleted on their own.
        default: .other
        }
        return IncomingDeletion(name: name, kind: kind)
    }

    static func syncGame(_ r: CloudRecord) -> SyncGame? {
        typealias K = GameKey
        guard let secret = string(r, K.secret), Limits.isWord(secret),
              let rules = string(r, K.rules).flatMap(Rules.init), rules.allows(secret),
              let status = string(r, K.status).flatMap(GameStatus.init),
              let maxGuesses = int(r, K.maxGuesses), Limits.maxGuesses.contains(maxGuesses),
              let startedAt = date(r, K.startedAt), let updatedAt = date(r, K.updatedAt),
              let pack = string(r, K.pack), Limits.isPackID(pack),
              let fact = string(r, K.fact), Limits.factProblem(fact, field: K.fact, required: false) == nil,
              Limits.isGameID(r.recordName) else { return nil }
        var hard = false
        switch r[K.hard] {
        case nil: break
        case .bool(let on)?: hard = on
        default: return nil
        }
        var hints = ""
        if let value = r[K.hints] {
            guard case .string(let text) = value, let counts = HintLog.listed(text), Limits.areHints(counts) else { return nil }
            hints = HintLog.text(counts)
        }
        var daily: String?
        if let value = r[K.daily] {
            guard case .string(let date) = value, DailyWord.isDate(date) else { return nil }
            daily = date
        }
        var assist = Assist.before
        if let value = r[K.assist] {
            guard case .string(let text) = value, let level = Assist(rawValue: text) else { return nil }
            assist = level
        }
        return SyncGame(id: r.recordName, packID: pack, secret: secret, fact: fact, rules: rules, maxGuesses: maxGuesses,
                        status: status, startedAt: startedAt, updatedAt: updatedAt,
                        finishedAt: status.isFinished ? (date(r, K.finishedAt) ?? updatedAt) : nil,
                        startedOn: name(r, K.startedOn), lastChangedOn: name(r, K.lastChangedOn), hard: hard, assist: assist,
                        hints: hints, daily: daily)
    }

    static func syncGuess(_ r: CloudRecord) -> SyncGuess? {
        typealias K = GuessKey
        guard let gameID = string(r, K.game), Limits.isGameID(gameID), let word = string(r, K.word), Limits.isWord(word),
              isGuess(r.recordName, gameID: gameID, word: word),
              let position = int(r, K.position), Limits.positions.contains(position), let playedAt = date(r, K.playedAt) else { return nil }
        let feedback: Feedback
        if let common = int(r, K.common), Limits.letterCounts.contains(common) {
            feedback = .common(common)
        } else if let p = int(r, K.inPlace), let w = int(r, K.inWord), p >= 0, w >= 0, Limits.letterCounts.contains(p + w) {
            feedback = .mastermind(inPlace: p, inWord: w)
        } else {
            return nil
        }
        return SyncGuess(gameID: gameID, word: word, position: position, feedback: feedback, playedAt: playedAt, playedOn: name(r, K.playedOn))
    }

    static func syncMark(_ r: CloudRecord) -> SyncMark? {
        typealias K = MarkKey
        guard let gameID = string(r, K.game), Limits.isGameID(gameID), let letter = string(r, K.letter),
              Limits.isLetter(letter), let state = string(r, K.state),
              r.recordName == Self().mark(gameID: gameID, letter: letter), let markedAt = date(r, K.markedAt) else { return nil }
        guard state == K.cleared || LetterMark(rawValue: state) != nil else { return nil }
        return SyncMark(gameID: gameID, letter: letter, state: LetterMark(rawValue: state), markedAt: markedAt)
    }

    static func syncBookmark(_ r: CloudRecord) -> SyncBookmark? {
        typealias K = BookmarkKey
        guard let word = string(r, K.word), Limits.isWord(word), r.recordName == Self().bookmark(word: word),
              case .bool(let on)? = r[K.bookmarked], let addedAt = date(r, K.addedAt) else { return nil }
        let pack = string(r, K.pack) ?? "", fact = string(r, K.fact) ?? ""
        if on && (!Limits.isPackID(pack) || Limits.factProblem(fact, field: K.fact, required: true) != nil) { return nil }
        return SyncBookmark(word: word, packID: pack, fact: fact, addedAt: addedAt, isBookmarked: on)
    }

    /// The first text field, in name order, that holds a character a terminal would obey.
    static func unsafeText(in record: CloudRecord) -> String? {
        var problem: (field: String, text: String)?
        for (key, value) in record.fields {
            let texts: [String] = switch value {
            case .string(let text): [text]
            case .strings(let list): list
            default: []
            }
            for text in texts where !TerminalText.isSafe(text) && (problem == nil || key < problem!.field) {
                problem = (key, text)
            }
        }
        if problem == nil, !TerminalText.isSafe(record.recordName) { problem = ("its name", record.recordName) }
        return problem.flatMap { TerminalText.problem($0.text, field: $0.field) }
    }

    // MARK: Field readers

    static func string(_ r: CloudRecord, _ key: String) -> String? {
        if case .string(let s)? = r[key] { return s }
        return nil
    }

    static func int(_ r: CloudRecord, _ key: String) -> Int? {
        if case .int(let n)? = r[key], let value = Int(exactly: n) { return value }
        return nil
    }

    /// Dates as the cloud carries them (whole milliseconds); absurd ones are refused. They are
    /// not stamped here: a full fetch maps 100,000 and most are only ever stored, by arithmetic
    /// (`IncomingApplication` stamps the few it compares or stores through records).
    static func date(_ r: CloudRecord, _ key: String) -> Date? {
        guard case .date(let d)? = r[key], Limits.seconds.contains(d.timeIntervalSince1970) else { return nil }
        return d
    }

    /// A device name for display: printable, at most 64 characters.
    private static func name(_ r: CloudRecord, _ key: String) -> String {
        let value = string(r, key) ?? ""
        return AppDatabase.isValidDeviceName(value) ? value : "another device"
    }
}

// MARK: - The shared zone (docs/multiplayer.md)

/// What a player publishes to the others of the folder, as Core's values.
public enum SharedRecord: Sendable, Equatable {
    /// The player has joined (`friends --join`).
    case player(name: String, joinedAt: Date)
    case match(Match)
    case play(MatchPlay.Fields)
    case decline(matchID: String)
    /// A device's leaderboard line.
    case standing(device: String, Standing)
}

extension CloudSchema {
    public static let player = "Player", match = "Match", matchPlay = "MatchPlay", matchDecline = "MatchDecline", standing = "Standing"

    /// Each player's one zone that the other players read.
    public static let sharedZone = ZoneID(validated: "Shared")

    enum PlayerKey { static let name = "name", joinedAt = "joinedAt" }

    enum MatchKey {
        static let id = "id", players = "players", createdBy = "createdBy", pack = "pack", packVersion = "packVersion"
        static let rules = "rules", hard = "hard", length = "length", maxGuesses = "maxGuesses", createdAt = "createdAt"
        static let codes = "codes", wordCheck = "wordCheck", assist = "assist"
    }

    enum PlayKey {
        static let match = "match", player = "player", game = "game", status = "status", guesses = "guesses"
        static let hints = "hints", assist = "assist", grid = "grid"
    }

    enum StandingKey {
        static let bestDailyStreak = "bestDailyStreak", matchesWon = "matchesWon", days = "days"
        static func games(_ level: Assist) -> String { "games-\(level.rawValue)" }
        static func wins(_ level: Assist) -> String { "wins-\(level.rawValue)" }
        static func winGuesses(_ level: Assist) -> String { "winGuesses-\(level.rawValue)" }
        static func dailyStreak(_ level: Assist) -> String { "dailyStreak-\(level.rawValue)" }
    }

    /// The longest text a shared record's field may hold, and the most texts in a list.
    static let sharedTextLimit = 200, sharedListLimit = Standing.dayWindow

    /// The record a shared value is published as, by this device.
    public static func record(_ shared: SharedRecord, device: String) -> CloudRecord {
        var fields: [String: FieldValue]
        let type: String, name: String
        switch shared {
        case .player(let player, let joinedAt):
            (type, name) = (Self.player, "player")
            fields = [PlayerKey.name: .string(player), PlayerKey.joinedAt: .date(joinedAt)]
        case .match(let m):
            typealias K = MatchKey
            (type, name) = (Self.match, "match-\(m.id)")
            fields = [K.id: .string(m.id), K.players: .strings(m.players), K.createdBy: .string(m.createdBy), K.pack: .string(m.pack),
                      K.packVersion: .int(Int64(m.packVersion)), K.rules: .string(m.rules.rawValue), K.hard: .bool(m.hard),
                      K.length: .int(Int64(m.length)), K.maxGuesses: .int(Int64(m.maxGuesses)), K.createdAt: .date(m.createdAt),
                      K.codes: .strings(m.codes), K.wordCheck: .int(Int64(m.wordCheck))]
            if let assist = m.assist { fields[K.assist] = .string(assist.rawValue) }
        case .play(let p):
            typealias K = PlayKey
            (type, name) = (Self.matchPlay, playName(match: p.match, player: p.player, game: p.game))
            fields = [K.match: .string(p.match), K.player: .string(p.player), K.game: .int(Int64(p.game)), K.status: .string(p.status),
                      K.guesses: .int(Int64(p.guesses))]
            if let hints = p.hints { fields[K.hints] = .int(Int64(hints)) }
            if let assist = p.assist { fields[K.assist] = .string(assist) }
            if let grid = p.grid { fields[K.grid] = .string(grid) }
        case .decline(let id):
            (type, name) = (Self.matchDecline, "decline-\(id)")
            fields = [PlayKey.match: .string(id)]
        case .standing(let device, let line):
            typealias K = StandingKey
            (type, name) = (Self.standing, "standing-\(device)")
            fields = [K.bestDailyStreak: .int(Int64(line.bestDailyStreak)), K.matchesWon: .int(Int64(line.matchesWon)),
                      K.days: .strings(line.dayLines)]
            for (level, tally) in line.tallies {
                fields[K.games(level)] = .int(Int64(tally.games))
                fields[K.wins(level)] = .int(Int64(tally.wins))
                fields[K.winGuesses(level)] = .int(Int64(tally.winGuesses))
                fields[K.dailyStreak(level)] = .int(Int64(tally.bestDailyStreak))
            }
        }
        fields[Self.device] = .string(device)
        return CloudRecord(recordType: type, recordName: name, fields: fields)
    }

    /// The name of a player's play of one game of a match.
    static func playName(match: String, player: String, game: Int) -> String { "play-\(match)-\(player)-\(game)" }

    /// A record read from a player's shared zone, as the value it claims to be, or why it is
    /// refused: a text a terminal would obey, a field of the wrong type or size, a name that is
    /// not the record's. What the match's rules make impossible is Core's to refuse after this.
    public static func shared(_ r: CloudRecord) -> Result<SharedRecord, SharedRefusal> {
        if let problem = unsafeText(in: r) { return .failure(SharedRefusal(r, problem)) }
        for (key, value) in r.fields {
            switch value {
            case .string(let text) where text.utf8.count > sharedTextLimit:
                return .failure(SharedRefusal(r, "its field \(key) is too long"))
            case .bytes:
                return .failure(SharedRefusal(r, "its field \(key) is too long"))
            case .strings(let list) where list.count > sharedListLimit || list.contains(where: { $0.utf8.count > sharedTextLimit }):
                return .failure(SharedRefusal(r, "its field \(key) is too long"))
            default: continue
            }
        }
        func bad(_ why: String) -> Result<SharedRecord, SharedRefusal> { .failure(SharedRefusal(r, why)) }
        switch r.recordType {
        case player:
            guard r.recordName == "player", let name = string(r, PlayerKey.name), let at = date(r, PlayerKey.joinedAt) else {
                return bad("it is not a player's record")
            }
            return .success(.player(name: name, joinedAt: at))
        case match:
            typealias K = MatchKey
            guard let id = string(r, K.id), r.recordName == "match-\(id)", case .strings(let players)? = r[K.players],
                  let createdBy = string(r, K.createdBy), let pack = string(r, K.pack), let version = int(r, K.packVersion),
                  let rules = string(r, K.rules).flatMap(Rules.init), case .bool(let hard)? = r[K.hard],
                  let length = int(r, K.length), let limit = int(r, K.maxGuesses), let createdAt = date(r, K.createdAt),
                  case .strings(let codes)? = r[K.codes], let check = int(r, K.wordCheck) else { return bad("it is not a match") }
            // A match made before matches had a help level has none; one that names a level this version does not know is refused.
            let assist = r[K.assist] == nil ? nil : string(r, K.assist).flatMap(Assist.init(rawValue:))
            if r[K.assist] != nil && assist == nil { return bad("its help level is not one of none, proven or coach") }
            return .success(.match(Match(id: id, players: players, createdBy: createdBy, pack: pack, packVersion: version, rules: rules,
                                         hard: hard, length: length, maxGuesses: limit, createdAt: createdAt, codes: codes, wordCheck: check,
                                         assist: assist)))
        case matchPlay:
            typealias K = PlayKey
            guard let id = string(r, K.match), let player = string(r, K.player), let game = int(r, K.game),
                  r.recordName == playName(match: id, player: player, game: game),
                  let status = string(r, K.status), let guesses = int(r, K.guesses) else { return bad("it is not a match's play") }
            if r[K.hints] != nil && int(r, K.hints) == nil || r[K.assist] != nil && string(r, K.assist) == nil
                || r[K.grid] != nil && string(r, K.grid) == nil { return bad("it is not a match's play") }
            return .success(.play(MatchPlay.Fields(match: id, player: player, game: game, status: status, guesses: guesses,
                                                   hints: int(r, K.hints), assist: string(r, K.assist), grid: string(r, K.grid))))
        case matchDecline:
            guard let id = string(r, PlayKey.match), r.recordName == "decline-\(id)" else { return bad("it is not a decline") }
            return .success(.decline(matchID: id))
        case standing:
            typealias K = StandingKey
            guard r.recordName.hasPrefix("standing-"), let streak = int(r, K.bestDailyStreak), let won = int(r, K.matchesWon),
                  case .strings(let lines)? = r[K.days] else { return bad("it is not a leaderboard line") }
            var tallies: [Assist: Standing.Tally] = [:]
            for level in Assist.allCases {
                let values = [K.games(level), K.wins(level), K.winGuesses(level)].map { int(r, $0) }
                if values.allSatisfy({ $0 == nil }) { continue }
                guard let games = values[0], let wins = values[1], let guesses = values[2] else { return bad("it is not a leaderboard line") }
                // A line published before each level had its streak: the whole streak, as far as
                // this level's wins allow (the most it can be).
                let levelStreak = int(r, K.dailyStreak(level)) ?? min(streak, wins)
                tallies[level] = Standing.Tally(games: games, wins: wins, winGuesses: guesses, bestDailyStreak: levelStreak)
            }
            let days: [String: DailyResult]
            do { days = try Standing.days(lines: lines) } catch { return bad(error.description) }
            return .success(.standing(device: String(r.recordName.dropFirst("standing-".count)),
                                      Standing(tallies: tallies, bestDailyStreak: streak, matchesWon: won, days: days)))
        default:
            return bad("it is not a record of the shared zone")
        }
    }
}

/// A shared record refused, as one line: which record, of which player, and why.
public struct SharedRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    public var record: String
    public var reason: String

    init(_ r: CloudRecord, _ reason: String) {
        self.record = "\(oneLine(String(r.recordType.prefix(40)))) record \(oneLine(String(r.recordName.prefix(40))))"
        self.reason = reason
    }

    public init(record: String, reason: String) {
        self.record = record
        self.reason = reason
    }

    public var description: String { "\(record) refused: \(reason)" }
}
