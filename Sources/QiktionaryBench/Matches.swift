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
}
