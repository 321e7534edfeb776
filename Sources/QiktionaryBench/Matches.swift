import App
import CloudStore
import Foundation
import QiktionaryCore
import QiktionaryResources
import Storage
import Sync

/// Issue 26's metrics, in a folder of their own: a sync with nothing to do when 20 players share
/// the folder (each with their games, at most 1,000, and a leaderboard line), as the game runs
/// its rounds (the engine's, then the shared zones' exchange, keeping what it may between rounds),
/// and with every store read; and `qiktionary sync` after the opponent's move with 100 matches
/// in the folder.
func measureMatches(games: Int, options: Options, root: URL, record: (Metric, [Double]) -> Void) throws {
    let cloud = root.appendingPathComponent("match-cloud")
    try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
    let perPlayer = min(games, 1_000)
    progress("matches: 20 players of \(perPlayer) games in one folder")
    let me = try Machine("laptop", root: root, cloud: cloud)
    try Seeding.seed(me, games: perPlayer)
    try me.engine.sync()
    var friends: [Machine] = []
    for index in 0..<19 {
        let friend = try Machine("pc", root: root, cloud: cloud, player: "friend-\(index)")
        try Seeding.seed(friend, games: perPlayer)
        try friend.engine.sync()
        let line = Standing(tallies: [.proven: .init(games: perPlayer, wins: perPlayer, winGuesses: perPlayer * 6)])
        try SharedZone(player: friend.player, cloud: friend.store).publish([
            .player(name: friend.profile.playerID, joinedAt: Date()), .standing(device: friend.profile.device.id, line),
        ])
        friends.append(friend)
    }
    // The round the game runs: the engine's, then the shared zones' exchange (read every
    // player's, publish this player's), as a player who has joined the folder.
    let games = PlayerGames(player: me.player, lexicon: { Seeding.lexicon })
    try games.join()
    var engine = me.engine
    let memory = SharedExchange()
    engine.afterRound = { cloud, report in try games.exchangeShared(cloud: cloud, warnings: nil, round: report, memory: memory) }
    try engine.sync()
    try engine.sync()
    record(.manyPlayersNothingToDo, try samples(options.runs * 4) { try time { try engine.sync() } })
    record(.manyPlayersEveryStoreRead, try samples(options.runs * 4) {
        // What the engine's rounds kept between them forgotten: every store is read, and this
        // player's history fingerprint worked out.
        var fresh = me.engine
        fresh.afterRound = { cloud, report in try games.exchangeShared(cloud: cloud, warnings: nil, round: report, memory: SharedExchange()) }
        return try time { try fresh.sync() }
    })

    guard !options.skipPrograms else { return }
    progress("matches: 100 matches in the folder, a sync after the opponent's move")
    let packs = PackFile.files(in: BundledContent.packsFolder).compactMap { try? PackFile.read($0) }
    var rng = SeededGenerator(seed: 26)
    let maker = friends[0], name = maker.profile.playerID
    let matches = try (0..<100).map { _ in
        let pack = try Match.choosePack(from: packs, lexicon: Seeding.lexicon, using: &rng)
        return try Match.make(by: name, against: Seeding.player, pack: pack, createdAt: Date(), lexicon: Seeding.lexicon, using: &rng)
    }
    let makerZone = SharedZone(player: maker.player, cloud: maker.store)
    try makerZone.publish(matches.map { .match($0) })
    func sync() throws -> Double {
        let outcome = try Child.run(["sync", "--data-dir", me.dataDir.path, "--cloud-dir", cloud.path, "--player", Seeding.player,
                                     "--device", "laptop"])
        guard outcome.status == 0 else { throw BenchFailure("qiktionary sync (matches) exited \(outcome.status): \(outcome.output)") }
        return outcome.milliseconds
    }
    _ = try sync()
    var guesses = 0
    record(.matchRound, try samples(options.runs) {
        guesses = min(guesses + 1, matches[0].maxGuesses - 1)
        try makerZone.publish([.play(MatchPlay.Fields(match: matches[0].id, player: name, game: 1, status: "in-progress", guesses: guesses))])
        return try sync()
    })

    // Issue 35: what a folder writer can add costs a round a bounded amount, and the database
    // does not grow with it. Plays of matches that do not exist, under a device folder of the
    // maker's, read by one sync; then made-up players' folders, each with a Player record.
    func measured(_ what: String) throws -> Child.Outcome {
        let outcome = try Child.run(["sync", "--data-dir", me.dataDir.path, "--cloud-dir", cloud.path, "--player", Seeding.player,
                                     "--device", "laptop"])
        guard outcome.status == 0 else { throw BenchFailure("qiktionary sync (\(what)) exited \(outcome.status): \(outcome.output)") }
        return outcome
    }
    let bogusPlays = perPlayer >= 1_000 ? 200_000 : 2_000
    progress("matches: \(bogusPlays) plays of matches that do not exist in \(name)'s shared zone")
    let evil = try FolderCloudDatabase.onDisk(root: cloud, player: name, device: DeviceID("evil"))
    try evil.createZone(CloudSchema.sharedZone)
    let plays: [CloudRecord] = (0..<bogusPlays).map { n in
        CloudSchema.record(.play(MatchPlay.Fields(match: UUID().uuidString.lowercased(), player: name, game: 1 + n % 3,
                                                  status: "in-progress", guesses: 1)), device: "evil")
    }
    let batches = stride(from: 0, to: plays.count, by: SyncEngine.batchLimit).map {
        CommitBatch(saving: Array(plays[$0..<min($0 + SyncEngine.batchLimit, plays.count)]), deleting: [])
    }
    for start in stride(from: 0, to: batches.count, by: 50) {
        _ = try evil.modifyRecords(in: CloudSchema.sharedZone, commits: Array(batches[start..<min(start + 50, batches.count)]), policy: .overwrite)
    }
    let playsRound = try measured("bogus plays")
    let waiting = try me.player.waitingPlays().values.reduce(0, +)
    guard waiting <= SharedZone.mostPlaysWaiting else {
        throw BenchFailure("\(waiting) plays kept waiting after \(bogusPlays) were planted; at most \(SharedZone.mostPlaysWaiting) may be")
    }
    record(.bogusPlaysRound, [playsRound.milliseconds])
    record(.bogusPlaysRoundMemory, [playsRound.peakMegabytes])

    let bogusPlayers = perPlayer >= 1_000 ? 5_000 : 100
    progress("matches: \(bogusPlayers) made-up players' folders")
    for index in 0..<bogusPlayers {
        let store = try FolderCloudDatabase.onDisk(root: cloud, player: "made-up-\(index)", device: DeviceID("evil"))
        try store.createZone(CloudSchema.sharedZone)
        _ = try store.modifyRecords(in: CloudSchema.sharedZone, saving: [CloudSchema.record(.player(name: "made-up-\(index)", joinedAt: Date()),
                                                                                            device: "evil")],
                                    deleting: [], policy: SavePolicy.overwrite)
    }
    let playersRound = try measured("bogus players")
    let listed = try PlayerGames(player: me.player, lexicon: { Seeding.lexicon }).friends().count
    guard listed <= SharedZone.mostPlayersRead + 1 else {
        throw BenchFailure("\(listed) players listed after \(bogusPlayers) made-up ones; at most \(SharedZone.mostPlayersRead + 1) may be")
    }
    record(.bogusPlayersRound, [playersRound.milliseconds])
    record(.bogusPlayersRoundMemory, [playersRound.peakMegabytes])
}
