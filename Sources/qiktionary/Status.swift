import ArgumentParser
import Foundation
import PlainMode
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
        let database = setup.database, profile = setup.profile
        let report = Report(
            player: profile.playerID,
            device: .init(id: profile.device.id, name: profile.device.name),
            dataDir: setup.dataDir.path,
            cloudDir: setup.cloudDir?.path,
            // This version does not sync yet; the cloud folder is only remembered.
            sync: .init(enabled: false, state: "off", lastSyncAt: nil, pendingChanges: 0),
            games: .init(inProgress: try database.gamesInProgress(profile: profile).count,
                         finished: try database.statistics(profile: profile).played),
            readingList: try database.readingList(profile: profile).count,
            devices: []
        )
        if json { return printJSON(report) }
        print(columns([
            ["Player", report.player],
            ["Device", "\(report.device.name) (\(report.device.id))"],
            ["Data dir", report.dataDir],
            ["Cloud dir", report.cloudDir ?? "none (sync is off)"],
            ["Sync", "off: this version plays on one machine"],
            ["Games", "\(report.games.inProgress) in progress, \(report.games.finished) finished"],
            ["Reading list", "\(report.readingList) facts"],
        ]))
    }
}
