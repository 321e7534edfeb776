import CloudStore
import Foundation
import Sync

/// The player's machines and friends' pinned keys (docs/trust.md): the use cases behind
/// `devices`, `devices add`, `devices join`, `devices remove` and `friends trust`.
extension Setup {
    /// One machine of a device set, as `devices --json` prints it.
    public struct DeviceLine: Encodable, Sendable, Equatable {
        public var name: String
        public var fingerprint: String
        public var thisMachine: Bool

        /// The line `devices` prints of it.
        public var text: String { "\(name)  \(fingerprint)\(thisMachine ? "  (this machine)" : "")" }
    }

    /// A player of the folder as `friends` shows them: the fingerprints of the machines pinned
    /// for them (the first alone as `fingerprint`, for scripts that compare one).
    public struct FriendLine: Encodable, Sendable, Equatable {
        public var name: String
        public var fingerprint: String?
        public var fingerprints: [String]

        /// The line `friends` prints of them.
        public var text: String { fingerprints.isEmpty ? name : "\(name)  \(fingerprints.joined(separator: ", "))" }
    }

    /// Makes this player visible to the others of the folder (`friends --join`), which needs one.
    public func joinFolder() throws {
        try requireCloudFolder(for: "friends --join")
        try games.join(now: clock())
    }

    /// The players visible in the folder (as of the last sync), each with their fingerprints.
    public func friendLines() throws -> [FriendLine] {
        let players = try games.friends()
        let prints = fingerprints(of: players)
        return players.map { FriendLine(name: $0, fingerprint: prints[$0]?.first, fingerprints: prints[$0] ?? []) }
    }

    /// The cloud folder for a command about machines, checked to be there.
    private func keysFolder(for command: String) throws -> DiskFolder {
        try requireCloudFolder(for: command)
        guard let cloudDir else { throw Failure("\(command) needs a cloud folder") }
        if noSync { throw Failure("--no-sync forbids touching the cloud folder in this run") }
        let folder = DiskFolder(root: cloudDir)
        do { try folder.checkAvailable() } catch { throw Failure(SyncError.offline(error.description).description, code: SyncError.offline("").exitCode) }
        return folder
    }

    private func lines(_ set: DeviceSet, book: TrustBook) -> [DeviceLine] {
        set.sortedMembers.map { DeviceLine(name: $0.name, fingerprint: $0.key.fingerprint, thisMachine: $0.key == book.key.publicKey) }
    }

    private func pairing<T>(_ body: () throws(PairingError) -> T) throws -> T {
        do {
            return try body()
        } catch .notAMember(let player) {
            throw Failure(PairingError.notAMember(player: player).description, code: SyncError.notPaired("").exitCode)
        } catch .folder(let reason) {
            throw Failure(SyncError.offline(reason).description, code: SyncError.offline("").exitCode)
        } catch {
            throw Failure(error.description)
        }
    }

    /// The player's machines, and whether this one is among them (it starts the set when the
    /// player has none yet).
    public func devices() throws -> (lines: [DeviceLine], member: Bool) {
        let folder = try keysFolder(for: "devices")
        let book = try trustBook()
        let member = (try? book.enroll(in: folder)) != nil
        let set = book.deviceSet(of: profile.playerID, in: folder) ?? DeviceSet()
        return (lines(set, book: book), member)
    }

    /// A one-time pairing code for a new machine of this player, valid for 10 minutes.
    public func addDevice() throws -> (code: String, expires: Date) {
        let folder = try keysFolder(for: "devices add")
        let book = try trustBook()
        return try pairing { () throws(PairingError) in
            _ = try book.enroll(in: folder)
            return try book.invite(in: folder)
        }
    }

    /// Joins this machine to its player's machines with a code from `devices add`.
    public func joinDevices(code: String) throws -> [DeviceLine] {
        let folder = try keysFolder(for: "devices join")
        let book = try trustBook()
        if book.enrolled || (try? book.enroll(in: folder)) != nil {
            throw Failure("this machine is already one of \(profile.playerID)'s machines (see 'qiktionary devices')")
        }
        let set = try pairing { () throws(PairingError) in try book.join(code: code, in: folder) }
        return lines(set, book: book)
    }

    /// `devices join CODE` from the full screen's pairing screen: the line that says it joined.
    public func joinLine(code: String) throws -> String {
        let machines = try joinDevices(code: code).map(\.name)
        return "Joined \(profile.playerID)'s machines (\(machines.joined(separator: ", "))): your games sync now."
    }

    /// Takes the machine named `name` out of the player's machines.
    public func removeDevice(_ name: String) throws {
        let folder = try keysFolder(for: "devices remove")
        let book = try trustBook()
        try pairing { () throws(PairingError) in try book.remove(device: name, in: folder) }
    }

    /// Pins `friend`'s machines again (after comparing fingerprints out of band).
    public func trustFriend(_ friend: String, fingerprint: String?) throws -> [DeviceLine] {
        let folder = try keysFolder(for: "friends trust")
        if friend == profile.playerID { throw Failure("your own machines are managed with 'qiktionary devices'") }
        let book = try trustBook()
        let set = try pairing { () throws(PairingError) in try book.trust(friend: friend, fingerprint: fingerprint, in: folder) }
        return lines(set, book: book)
    }

    /// What a machine not in its player's set is told: how to join.
    public var notPairedLine: String { PairingError.notAMember(player: profile.playerID).description }

    /// The fingerprints of each player's pinned machines, by player: what `friends` shows to
    /// compare out of band.
    public func fingerprints(of players: [String]) -> [String: [String]] {
        guard let cloudDir, !noSync, let book = try? trustBook() else { return [:] }
        let folder = DiskFolder(root: cloudDir)
        var out: [String: [String]] = [:]
        for name in players {
            out[name] = book.deviceSet(of: name, in: folder)?.sortedMembers.map(\.key.fingerprint) ?? []
        }
        return out
    }
}
