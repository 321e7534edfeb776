import CloudStore
import Foundation
import QiktionaryCore
import Storage

/// How the game's rows become cloud records and back. Everything read from the cloud is
/// checked here: a record that does not make sense is skipped, never written to the database.
enum RecordMapping {
    static let game = "Game", guess = "Guess", mark = "Mark", bookmark = "Bookmark"

    // MARK: To the cloud

    static func record(_ game: SyncGame, fields names: Set<String>?, device: String, systemFields: SystemFields?) -> CloudRecord {
        var all: [String: FieldValue] = [
            "pack": .string(game.packID), "secret": .string(game.secret), "fact": .string(game.fact),
            "rules": .string(game.rules.rawValue), "maxGuesses": .int(Int64(game.maxGuesses)),
            "status": .string(game.status.rawValue), "startedAt": .date(game.startedAt), "updatedAt": .date(game.updatedAt),
            "startedOn": .string(game.startedOn), "lastChangedOn": .string(game.lastChangedOn),
        ]
        if let finishedAt = game.finishedAt { all["finishedAt"] = .date(finishedAt) }
        // Written only when set, so a game without them is the same bytes as before the coach.
        if game.hard { all["hard"] = .bool(true) }
        if !game.hints.isEmpty { all["hints"] = .string(game.hints) }
        if let daily = game.daily { all["daily"] = .string(daily) }
        var fields = names.map { wanted in all.filter { wanted.contains($0.key) } } ?? all
        fields["device"] = .string(device)
        return CloudRecord(recordType: Self.game, recordName: RecordName.game(game.id), fields: fields, systemFields: systemFields)
    }

    static func record(_ guess: SyncGuess, device: String) -> CloudRecord {
        var fields: [String: FieldValue] = [
            "game": .string(guess.gameID), "word": .string(guess.word), "position": .int(Int64(guess.position)),
            "playedAt": .date(guess.playedAt), "playedOn": .string(guess.playedOn), "device": .string(device),
        ]
        fields["common"] = guess.common.map { .int(Int64($0)) }
        fields["inPlace"] = guess.inPlace.map { .int(Int64($0)) }
        fields["inWord"] = guess.inWord.map { .int(Int64($0)) }
        return CloudRecord(recordType: Self.guess, recordName: guess.recordName, fields: fields)
    }

    static func record(_ mark: SyncMark, device: String) -> CloudRecord {
        CloudRecord(recordType: Self.mark, recordName: mark.recordName, fields: [
            "game": .string(mark.gameID), "letter": .string(mark.letter), "state": .string(mark.state?.rawValue ?? "clear"),
            "markedAt": .date(mark.markedAt), "device": .string(device),
        ])
    }

    static func record(_ bookmark: SyncBookmark, device: String) -> CloudRecord {
        CloudRecord(recordType: Self.bookmark, recordName: bookmark.recordName, fields: [
            "word": .string(bookmark.word), "pack": .string(bookmark.packID), "fact": .string(bookmark.fact),
            "addedAt": .date(bookmark.addedAt), "bookmarked": .bool(bookmark.isBookmarked), "device": .string(device),
        ])
    }

    // MARK: From the cloud

    /// Sorts fetched records into the game's kinds. Returns how many were skipped as invalid,
    /// and how many were this device's own (a full fetch returns those too).
    static func incoming(_ records: [CloudRecord], deletions: [DeletedRecord], device: DeviceID,
                         into changes: inout IncomingChanges) -> (skipped: Int, own: Int) {
        var skipped = 0, own = 0
        for record in records {
            guard let system = record.systemFields else { skipped += 1; continue }
            if system.modifiedBy == device { own += 1 }
            if case .string(let name)? = record["device"], !name.isEmpty, name.count <= 64 {
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
        changes.deletions += deletions.map { ($0.recordType, $0.recordName) }
        return (skipped, own)
    }

    static func syncGame(_ r: CloudRecord) -> SyncGame? {
        guard let secret = string(r, "secret"), isWord(secret),
              let rules = string(r, "rules").flatMap(Rules.init), rules.allows(secret),
              let status = string(r, "status").flatMap(GameStatus.init),
              let maxGuesses = int(r, "maxGuesses"), (1...30).contains(maxGuesses),
              let startedAt = date(r, "startedAt"), let updatedAt = date(r, "updatedAt"),
              let pack = string(r, "pack"), !pack.isEmpty, pack.count <= 40,
              let fact = string(r, "fact"), fact.count <= 2_000,
              UUIDLike.isValid(r.recordName) else { return nil }
        var hard = false
        switch r["hard"] {
        case nil: break
        case .bool(let on)?: hard = on
        default: return nil
        }
        var hints = ""
        if let value = r["hints"] {
            guard case .string(let text) = value, text.count <= 200, let counts = HintLog.parse(text) else { return nil }
            hints = HintLog.text(counts)
        }
        var daily: String?
        if let value = r["daily"] {
            guard case .string(let date) = value, DailyWord.isDate(date) else { return nil }
            daily = date
        }
        return SyncGame(id: r.recordName, packID: pack, secret: secret, fact: fact, rules: rules, maxGuesses: maxGuesses,
                        status: status, startedAt: startedAt, updatedAt: updatedAt,
                        finishedAt: status.isFinished ? (date(r, "finishedAt") ?? updatedAt) : nil,
                        startedOn: name(r, "startedOn"), lastChangedOn: name(r, "lastChangedOn"), hard: hard, hints: hints,
                        daily: daily)
    }

    static func syncGuess(_ r: CloudRecord) -> SyncGuess? {
        guard let gameID = string(r, "game"), UUIDLike.isValid(gameID), let word = string(r, "word"), isWord(word),
              RecordName.isGuess(r.recordName, gameID: gameID, word: word),
              let position = int(r, "position"), (1...1_000).contains(position), let playedAt = date(r, "playedAt") else { return nil }
        let feedback: Feedback
        if let common = int(r, "common"), (0...7).contains(common) {
            feedback = .common(common)
        } else if let p = int(r, "inPlace"), let w = int(r, "inWord"), p >= 0, w >= 0, p + w <= 7 {
            feedback = .mastermind(inPlace: p, inWord: w)
        } else {
            return nil
        }
        return SyncGuess(gameID: gameID, word: word, position: position, feedback: feedback, playedAt: playedAt, playedOn: name(r, "playedOn"))
    }

    static func syncMark(_ r: CloudRecord) -> SyncMark? {
        guard let gameID = string(r, "game"), UUIDLike.isValid(gameID), let letter = string(r, "letter"),
              letter.count == 1, letter.isLowercaseASCIIWord, let state = string(r, "state"),
              r.recordName == RecordName.mark(gameID: gameID, letter: letter.first!), let markedAt = date(r, "markedAt") else { return nil }
        guard state == "clear" || LetterMark(rawValue: state) != nil else { return nil }
        return SyncMark(gameID: gameID, letter: letter, state: LetterMark(rawValue: state), markedAt: markedAt)
    }

    static func syncBookmark(_ r: CloudRecord) -> SyncBookmark? {
        guard let word = string(r, "word"), isWord(word), r.recordName == RecordName.bookmark(word: word),
              case .bool(let on)? = r["bookmarked"], let addedAt = date(r, "addedAt") else { return nil }
        let pack = string(r, "pack") ?? "", fact = string(r, "fact") ?? ""
        if on && (pack.isEmpty || pack.count > 40 || fact.isEmpty || fact.count > 2_000) { return nil }
        return SyncBookmark(word: word, packID: pack, fact: fact, addedAt: addedAt, isBookmarked: on)
    }

    // MARK: Field readers

    private static func string(_ r: CloudRecord, _ key: String) -> String? {
        if case .string(let s)? = r[key] { return s }
        return nil
    }

    private static func int(_ r: CloudRecord, _ key: String) -> Int? {
        if case .int(let n)? = r[key], let value = Int(exactly: n) { return value }
        return nil
    }

    /// Dates as the cloud carries them (whole milliseconds); absurd ones are refused. They are
    /// not stamped here: a full fetch maps 100,000 and most are only ever stored, by arithmetic
    /// (`IncomingApplication` stamps the few it compares or stores through records).
    private static func date(_ r: CloudRecord, _ key: String) -> Date? {
        guard case .date(let d)? = r[key], (0...4_102_444_800).contains(d.timeIntervalSince1970) else { return nil }
        return d
    }

    /// A device name for display: printable, at most 64 characters.
    private static func name(_ r: CloudRecord, _ key: String) -> String {
        let value = string(r, key) ?? ""
        return AppDatabase.isValidDeviceName(value) ? value : "another device"
    }

    private static func isWord(_ s: String) -> Bool { (4...7).contains(s.count) && s.isLowercaseASCIIWord }
}

/// Game IDs are lowercase UUIDs; anything else from the cloud is not a game of ours.
enum UUIDLike {
    /// 8-4-4-4-12 lowercase hexadecimal digits: what `UUID(uuidString:)` reads, in lower case.
    static func isValid(_ s: String) -> Bool {
        var count = 0
        for byte in s.utf8 {
            switch count {
            case 8, 13, 18, 23: guard byte == UInt8(ascii: "-") else { return false }
            default: guard (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) else { return false }
            }
            count += 1
            if count > 36 { return false }
        }
        return count == 36
    }
}
