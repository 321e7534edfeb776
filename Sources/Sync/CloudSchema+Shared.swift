import CloudStore
import Foundation
import QiktionaryCore
import Storage
import TextSafety

// The shared zone's schema (docs/multiplayer.md): what a player publishes to the others of the
// folder, its record types, fields and checks. The private zones' are in CloudSchema.swift.

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
