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
        static let assist = "assist", matchResult = "matchResult"

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
            case .matchResult: matchResult
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
        if let result = game.matchResult { all[K.matchResult] = .string(result) }
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

    static func record(_ mark: SyncMark, device: String, systemFields: SystemFields? = nil) -> CloudRecord {
        typealias K = MarkKey
        return CloudRecord(recordType: Self.mark, recordName: Self().mark(gameID: mark.gameID, letter: mark.letter), fields: [
            K.game: .string(mark.gameID), K.letter: .string(mark.letter), K.state: .string(mark.state?.rawValue ?? K.cleared),
            K.markedAt: .date(mark.markedAt), Self.device: .string(device),
        ], systemFields: systemFields)
    }

    static func record(_ bookmark: SyncBookmark, device: String, systemFields: SystemFields? = nil) -> CloudRecord {
        typealias K = BookmarkKey
        return CloudRecord(recordType: Self.bookmark, recordName: Self().bookmark(word: bookmark.word), fields: [
            K.word: .string(bookmark.word), K.pack: .string(bookmark.packID), K.fact: .string(bookmark.fact),
            K.addedAt: .date(bookmark.addedAt), K.bookmarked: .bool(bookmark.isBookmarked), Self.device: .string(device),
        ], systemFields: systemFields)
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
        var matchResult: String?
        if let value = r[K.matchResult] {
            guard case .string(let text) = value, Limits.isMatchResult(text, rules: rules) else { return nil }
            matchResult = text
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
                        hints: hints, daily: daily, matchResult: matchResult)
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
