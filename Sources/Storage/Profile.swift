import Foundation
import TextSafety
import GRDB
import QiktionaryCore

/// Who is playing, on which machine: every game and bookmark belongs to one player, and every
/// change is labelled with the device that made it.
public struct Profile: Sendable, Equatable {
    public var playerID: String
    public var device: DeviceRecord
}

/// Values given once on the command line and remembered in the data dir.
public enum Setting: String, Sendable {
    case player
    case device
    case cloudDir
}

extension AppDatabase {
    public static let defaultPlayer = "player"

    public func setting(_ key: Setting) throws(StorageError) -> String? {
        try read { db in try SettingRecord.fetchOne(db, key: key.rawValue)?.value }
    }

    public func remember(_ key: Setting, _ value: String?) throws(StorageError) {
        try write { db in
            if let value {
                try SettingRecord(key: key.rawValue, value: value).upsert(db)
            } else {
                _ = try SettingRecord.deleteOne(db, key: key.rawValue)
            }
        }
    }

    /// The player and this device, from the names given now or the ones remembered.
    /// A name given now is remembered for the next runs.
    public func profile(player: String?, device: String?, hostName: String, now: Date? = nil) throws(StorageError) -> Profile {
        if let player, !Self.isValidPlayerName(player) { throw .badPlayerName(player) }
        if let device, !Self.isValidDeviceName(device) { throw .badDeviceName(device) }
        let now = Self.stamp(now ?? clock())
        do {
            return try storeProfile(player: player, device: device, hostName: hostName, now: now)
        } catch where error.isDiskFull {
            // On a full disk a player and device this data dir knows are only read, so what is
            // saved can still be shown (the time last seen waits for a run with room); a new one
            // cannot be made.
            guard let known = try knownProfile(player: player, device: device) else { throw error }
            return known
        }
    }

    /// The player and device remembered, with the names given now, this device seen now.
    private func storeProfile(player: String?, device: String?, hostName: String, now: Date) throws(StorageError) -> Profile {
        try write { db in
            let playerID = try Self.playerID(given: player, db)
            if player != nil { try SettingRecord(key: Setting.player.rawValue, value: playerID).upsert(db) }
            if try PlayerRecord.fetchOne(db, key: playerID) == nil {
                try PlayerRecord(id: playerID, createdAt: now).insert(db)
            }
            var local = try DeviceRecord.filter(DeviceRecord.Columns.isLocal == true).fetchOne(db)
                ?? DeviceRecord(id: UUID().uuidString.lowercased(), name: "", isLocal: true)
            let rememberedName = try SettingRecord.fetchOne(db, key: Setting.device.rawValue)?.value
            let name = device ?? rememberedName ?? Self.sanitizedDeviceName(hostName)
            if device != nil { try SettingRecord(key: Setting.device.rawValue, value: name).upsert(db) }
            local.name = name
            local.lastSeenAt = now
            try local.upsert(db)
            return Profile(playerID: playerID, device: local)
        }
    }

    /// The profile as stored, without writing; nil when the player or this device is new.
    private func knownProfile(player: String?, device: String?) throws(StorageError) -> Profile? {
        try read { db in
            let playerID = try Self.playerID(given: player, db)
            guard try PlayerRecord.fetchOne(db, key: playerID) != nil,
                  var local = try DeviceRecord.filter(DeviceRecord.Columns.isLocal == true).fetchOne(db) else { return nil }
            if let device { local.name = device }
            return Profile(playerID: playerID, device: local)
        }
    }

    /// The player given now, else the one remembered, else the default.
    private static func playerID(given player: String?, _ db: Database) throws -> String {
        try player ?? SettingRecord.fetchOne(db, key: Setting.player.rawValue)?.value ?? defaultPlayer
    }

    /// The cloud folder uses the name as a path component, so it is held to the same allow-list:
    /// ASCII letters and digits, '_' and '-', starting with a letter or digit.
    public static func isValidPlayerName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        func alphanumeric(_ b: UInt8) -> Bool { (48...57).contains(b) || (65...90).contains(b) || (97...122).contains(b) }
        guard let first = bytes.first, (1...32).contains(bytes.count), alphanumeric(first) else { return false }
        return bytes.allSatisfy { alphanumeric($0) || $0 == 95 || $0 == 45 }
    }

    public static func isValidDeviceName(_ name: String) -> Bool {
        // Printable ASCII, the usual case, without the Unicode tables (a full fetch checks one per record).
        let utf8 = name.utf8
        if utf8.allSatisfy({ (0x20...0x7e).contains($0) }) {
            return (1...Limits.deviceNameLength).contains(utf8.count) && utf8.contains { $0 != 0x20 }
        }
        return (1...Limits.deviceNameLength).contains(name.count) && TerminalText.isSafe(name)
            && !name.trimmingCharacters(in: .whitespaces).isEmpty
    }

    static func sanitizedDeviceName(_ host: String) -> String {
        let cleaned = String(host.unicodeScalars.filter { !TerminalText.isUnsafe($0) }.prefix(64))
        return isValidDeviceName(cleaned) ? cleaned : "this machine"
    }
}
