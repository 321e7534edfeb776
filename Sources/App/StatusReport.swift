import Foundation
import QiktionaryCore
import Storage

/// `qiktionary status`: who, where, and how the games and sync stand, as a JSON object and as
/// the rows a person reads.
public struct StatusReport: Encodable {
    public struct Device: Encodable { var id: String; var name: String }
    public struct Sync: Encodable { var enabled: Bool; var state: String; var lastSyncAt: Date?; var pendingChanges: Int }
    public struct GameCounts: Encodable { var inProgress: Int; var finished: Int }
    var player: String
    var device: Device
    var dataDir: String
    var cloudDir: String?
    var sync: Sync
    var games: GameCounts
    var readingList: Int
    var devices: [String]
    /// The sync state's own words (an error's), for the text.
    private var message: String?

    private enum CodingKeys: String, CodingKey { case player, device, dataDir, cloudDir, sync, games, readingList, devices }

    /// The report of this run's data, after a quiet sync (none with --no-sync), so "synced"
    /// means what the folder holds now.
    public init(_ setup: Setup) throws {
        setup.sync.inPassing()
        let player = setup.player, profile = setup.profile
        let sync = try player.syncStatus()
        self.player = profile.playerID
        device = Device(id: profile.device.id, name: profile.device.name)
        dataDir = setup.dataDir.path
        cloudDir = setup.cloudDir?.path
        self.sync = Sync(enabled: setup.syncEnabled, state: setup.syncEnabled ? sync.state : "off",
                         lastSyncAt: sync.lastSyncAt, pendingChanges: sync.pendingChanges)
        games = GameCounts(inProgress: try player.gamesInProgress().count, finished: try player.statistics().played)
        readingList = try player.readingList().count
        devices = try setup.database.devicesSeen().map(\.name)
        message = sync.message
    }

    /// The text's rows: a name and its value.
    public var rows: [[String]] {
        [
            ["Player", player],
            ["Device", "\(device.name) (\(device.id))"],
            ["Data dir", dataDir],
            ["Cloud dir", cloudDir ?? "none (sync is off)"],
            ["Sync", Self.describe(sync, message: message)],
            ["Other devices", devices.isEmpty ? "none seen yet" : devices.joined(separator: ", ")],
            ["Games", "\(games.inProgress) in progress, \(games.finished) finished"],
            ["Reading list", readingList == 1 ? "1 fact" : "\(readingList) facts"],
        ]
    }

    static func describe(_ sync: Sync, message: String?) -> String {
        guard sync.enabled else { return "off (turn it on with --cloud-dir DIR)" }
        let last = sync.lastSyncAt.map { "last synced \(CivilDate.shortText($0)) UTC" } ?? "never synced"
        let pending = sync.pendingChanges == 1 ? "1 change waiting" : "\(sync.pendingChanges) changes waiting"
        let note = (sync.state == "synced" || sync.state == "never") ? "" : ": \(message ?? sync.state)"
        return "\(sync.state)\(note); \(last); \(pending)"
    }
}
