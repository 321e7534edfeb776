import ArgumentParser
import Foundation
import PlainMode
import QiktionaryCore
import Storage

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Who, where, and how your games and sync stand.")
    @OptionGroup var shared: SharedOptions
    @Flag(help: "Print a JSON object.") var json = false

    struct Report: Encodable {
        struct Device: Encodable { var id: String; var name: String }
        struct Sync: Encodable { var enabled: Bool; var state: String; var lastSyncAt: Date?; var pendingChanges: Int }
        struct GameCounts: Encodable { var inProgress: Int; var finished: Int }
        var player: String
        var device: Device
        var dataDir: String
        var cloudDir: String?
        var sync: Sync
        var games: GameCounts
        var readingList: Int
        var devices: [String]
    }

    func run() throws {
        let setup = try Setup.open(shared)
        // "synced" means what the folder holds now: a quiet sync first (none with --no-sync).
        setup.syncInPassing()
        let player = setup.player, profile = setup.profile
        let sync = try player.syncStatus()
        let report = Report(
            player: profile.playerID,
            device: .init(id: profile.device.id, name: profile.device.name),
            dataDir: setup.dataDir.path,
            cloudDir: setup.cloudDir?.path,
            sync: .init(enabled: setup.syncEnabled, state: setup.syncEnabled ? sync.state : "off",
                        lastSyncAt: sync.lastSyncAt, pendingChanges: sync.pendingChanges),
            games: .init(inProgress: try player.gamesInProgress().count,
                         finished: try player.statistics().played),
            readingList: try player.readingList().count,
            devices: try setup.database.devicesSeen().map(\.name)
        )
        if json { return printJSON(report) }
        say(columns([
            ["Player", report.player],
            ["Device", "\(report.device.name) (\(report.device.id))"],
            ["Data dir", report.dataDir],
            ["Cloud dir", report.cloudDir ?? "none (sync is off)"],
            ["Sync", Self.describe(report.sync, message: sync.message)],
            ["Other devices", report.devices.isEmpty ? "none seen yet" : report.devices.joined(separator: ", ")],
            ["Games", "\(report.games.inProgress) in progress, \(report.games.finished) finished"],
            ["Reading list", report.readingList == 1 ? "1 fact" : "\(report.readingList) facts"],
        ]))
    }

    static func describe(_ sync: Report.Sync, message: String?) -> String {
        guard sync.enabled else { return "off (turn it on with --cloud-dir DIR)" }
        let last = sync.lastSyncAt.map { "last synced \(shortDate($0)) UTC" } ?? "never synced"
        let pending = sync.pendingChanges == 1 ? "1 change waiting" : "\(sync.pendingChanges) changes waiting"
        let note = (sync.state == "synced" || sync.state == "never") ? "" : ": \(message ?? sync.state)"
        return "\(sync.state)\(note); \(last); \(pending)"
    }
}
