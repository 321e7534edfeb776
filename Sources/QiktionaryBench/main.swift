import CloudStore
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import QiktionaryCore
import Storage
import Sync

// qiktionary-bench: makes its own seeded data in a temporary folder and measures sync, the
// cloud folder and the game on real files, with the baselines in the same run on the same data.
//
//   swift build -c release && .build/release/qiktionary-bench [--games N ...] [--runs R] [--json]
//
// docs/performance.md explains each metric, its target and the results.

if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "--measure-child" {
    Child.measureChild(Array(CommandLine.arguments.dropFirst(2)))
}

struct Options {
    var games: [Int] = [1_000, 10_000, 100_000]
    var runs = 5
    var json = false
    var skipPrograms = false
    /// `--seed N DIR`: only make a data dir of N seeded finished games, for profiling.
    var seedOnly: (games: Int, dataDir: String)?
    /// `--history NAME`: only the first syncs of these histories (for profiling one).
    var histories: [History] = []
    /// `--new-process`: only what a new process pays after one guess (and the first sync and
    /// database size it needs), for a quick run at a large scale.
    var newProcessOnly = false
    /// `--matches`: only issue 26's metrics (many players' no-op sync, a match's sync round).
    var matchesOnly = false

    init(_ arguments: [String]) {
        var rest = arguments[...]
        var counts: [Int] = []
        while let argument = rest.popFirst() {
            switch argument {
            case "--games", "--sizes":
                // One scale, or several at once: --games 1000,10000,100000.
                guard let list = rest.popFirst()?.split(separator: ",").map({ Int($0) }), !list.isEmpty, list.allSatisfy({ ($0 ?? 0) > 0 }) else {
                    Options.fail("--games takes a positive number, or several separated by commas")
                }
                counts += list.compactMap { $0 }
            case "--runs": if let n = rest.popFirst().flatMap(Int.init), n > 0 { runs = n } else { Options.fail("--runs takes a positive number") }
            case "--json": json = true
            case "--no-program": skipPrograms = true
            case "--new-process": newProcessOnly = true
            case "--matches": matchesOnly = true
            case "--history":
                guard let history = rest.popFirst().flatMap(History.init(rawValue:)) else {
                    Options.fail("--history takes one of \(History.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                histories.append(history)
            case "--seed":
                guard let n = rest.popFirst().flatMap(Int.init), n > 0, let dir = rest.popFirst() else { Options.fail("--seed takes a number of games and a folder") }
                seedOnly = (n, dir)
            case "--help", "-h":
                print("""
                usage: qiktionary-bench [--games N[,N...]]... [--runs R] [--json] [--no-program] [--new-process | --matches]
                                         [--history NAME]... | --seed N DIR
                  --games N     a scale to measure, in games (repeat, or separate by commas, for more: --games
                                1000,10000,100000, the default; --sizes is the same); each scale also measures
                                the first sync of every kind of history against its floor, and what new
                                processes pay (program.*, unless --no-program)
                  --runs R      samples per timed metric (default 5; quick metrics take 4R)
                  --json        one JSON object per metric, with the median and the spread
                  --no-program  skip the metrics that run the built qiktionary program
                  --new-process only the first upload, a new machine's first sync, the database size per game and
                                one guess sent and received by new processes (issue 27)
                  --matches     only the sync with nothing to do among 20 players and a match's sync round
                                (issue 26)
                  --history NAME  only the first sync of this history against its floor (repeat for more):
                                \(History.allCases.map(\.rawValue).joined(separator: ", "))
                  --seed N DIR  only make DIR a data dir holding N seeded finished games (for profiling
                                with 'qiktionary --data-dir DIR'), then stop
                """)
                exit(0)
            default: Options.fail("unknown argument '\(argument)' (see --help)")
            }
        }
        if !counts.isEmpty { games = counts }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("qiktionary-bench: \(message)\n".utf8))
        exit(64)
    }
}

struct Measurement: Encodable {
    var metric: String
    var label: String
    var games: Int
    var unit: String
    var median: Double
    var min: Double
    var max: Double
    var spread: Double
    var runs: Int
    var target: String?
    var met: Bool?
    /// The history measured, for the `history.*` metrics.
    var history: String?

    init(_ metric: Metric, games: Int, samples: [Double], history: History? = nil) {
        let sorted = samples.sorted()
        self.metric = metric.rawValue
        label = metric.label + (history.map { ": \($0.label)" } ?? "")
        self.history = history?.rawValue
        self.games = games
        unit = metric.unit
        median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        min = sorted.first!
        max = sorted.last!
        spread = max - min
        runs = sorted.count
        if games == 10_000, let goal = metric.target {
            target = goal.description
            met = goal.isMet(by: median)
        } else if games == 100_000, let goal = metric.targetAtLargestScale {
            target = goal.description + " at 100,000"
            met = goal.isMet(by: median)
        }
    }
}

/// Everything measured, with its unit and, where the project sets one, its target at 10,000 games.
enum Metric: String, CaseIterable {
    case firstUpload = "upload.all"
    case nothingToDo = "sync.nothingToDo"
    case nothingToDoFiles = "sync.nothingToDo.fileOperations"
    case naive = "baseline.naiveSync"
    case naiveRatio = "sync.nothingToDo.vsNaive"
    case oneGuess = "sync.oneGuess"
    case bytesPerGuess = "upload.bytesPerGuess"
    case submitGuess = "game.submitGuess"
    case firstSync = "sync.firstSync"
    case floor = "baseline.floor"
    case floorRatio = "sync.firstSync.vsFloor"
    case firstUploadProgram = "program.firstUpload"
    case firstUploadMemory = "program.firstUpload.peakMemory"
    case firstSyncProgram = "program.firstSync"
    case firstSyncMemory = "program.firstSync.peakMemory"
    case firstScreen = "program.firstScreen"
    case firstScreenMemory = "program.firstScreen.peakMemory"
    case sendOneGuessProgram = "program.sendOneGuess"
    case sendOneGuessMemory = "program.sendOneGuess.peakMemory"
    case receiveOneGuessProgram = "program.receiveOneGuess"
    case receiveOneGuessMemory = "program.receiveOneGuess.peakMemory"
    case firstScreenWaiting = "program.firstScreenWithAChangeWaiting"
    case firstScreenWaitingMemory = "program.firstScreenWithAChangeWaiting.peakMemory"
    case nothingToDoNewProcess = "program.nothingToDoRound"
    case databaseBytesPerGame = "database.bytesPerGame"
    case folderRatio = "cloud.sizeVsLiveJSON"
    case historyFirstSync = "history.firstSync"
    case historyFloor = "history.floor"
    case historyRatio = "history.firstSync.vsFloor"
    case historyRecords = "history.records"
    case manyPlayersNothingToDo = "sync.nothingToDo.manyPlayers"
    case manyPlayersEveryStoreRead = "sync.nothingToDo.manyPlayers.everyStoreRead"
    case matchRound = "program.matchSyncRound"
    case bogusPlaysRound = "program.bogusPlaysRound"
    case bogusPlaysRoundMemory = "program.bogusPlaysRound.peakMemory"
    case bogusPlayersRound = "program.bogusPlayersRound"
    case bogusPlayersRoundMemory = "program.bogusPlayersRound.peakMemory"
    case neverCompactedFirstSyncProgram = "program.neverCompactedFirstSync"
    case neverCompactedFirstSyncMemory = "program.neverCompactedFirstSync.peakMemory"
    case neverCompactedCompactionProgram = "program.compactionOfANeverCompactedLog"
    case neverCompactedCompactionMemory = "program.compactionOfANeverCompactedLog.peakMemory"

    var label: String {
        switch self {
        case .firstUpload: "first upload of every game"
        case .nothingToDo: "sync with nothing to do"
        case .nothingToDoFiles: "  files read, checked or listed by it"
        case .naive: "  baseline: naive list-and-diff sync"
        case .naiveRatio: "  naive sync ÷ sync with nothing to do"
        case .oneGuess: "sync of one new guess"
        case .bytesPerGuess: "bytes written to the cloud per guess (a finished game's upload)"
        case .submitGuess: "submitting a guess (check, save, change tracking, words still possible)"
        case .firstSync: "first sync of a new machine (full pull)"
        case .floor: "  baseline: floor (read the bytes, insert the rows)"
        case .floorRatio: "  first sync ÷ floor"
        case .firstUploadProgram: "`qiktionary sync` of every game into an empty cloud, whole process"
        case .firstUploadMemory: "  its peak memory (RSS)"
        case .firstSyncProgram: "`qiktionary sync` on a new machine, whole process"
        case .firstSyncMemory: "  its peak memory (RSS)"
        case .firstScreen: "`qiktionary` to its first screen and out, whole process"
        case .firstScreenMemory: "  its peak memory (RSS)"
        case .sendOneGuessProgram: "`qiktionary sync` sending one guess (and its new game), whole process"
        case .sendOneGuessMemory: "  its peak memory (RSS)"
        case .receiveOneGuessProgram: "`qiktionary sync` receiving them on a machine that has the rest, whole process"
        case .receiveOneGuessMemory: "  its peak memory (RSS)"
        case .firstScreenWaiting: "`qiktionary` to its first screen and out with one change waiting, whole process"
        case .firstScreenWaitingMemory: "  its peak memory (RSS)"
        case .nothingToDoNewProcess: "`qiktionary sync` with nothing to do, a new process: the round's own time (its `durationMs`)"
        case .databaseBytesPerGame: "database size per game (a new machine's, after its first sync)"
        case .folderRatio: "cloud folder after compaction ÷ live data as JSON"
        case .historyFirstSync: "first sync of a new machine"
        case .historyFloor: "  its floor"
        case .historyRatio: "  first sync ÷ floor"
        case .historyRecords: "  records fetched"
        case .manyPlayersNothingToDo: "sync with nothing to do, 20 players in the folder (the game's round, shared zones exchanged)"
        case .manyPlayersEveryStoreRead: "  the same, every player's store read (a process's first rounds, and each store every 15 s)"
        case .matchRound: "`qiktionary sync` after the opponent's move, 100 matches in the folder, whole process"
        case .bogusPlaysRound: "`qiktionary sync` reading 200,000 plays of matches that do not exist (2,000 below 1,000 games), whole process"
        case .bogusPlaysRoundMemory: "  its peak memory (RSS)"
        case .bogusPlayersRound: "`qiktionary sync` with 5,000 made-up players' folders beside the real ones (100 below 1,000 games), whole process"
        case .bogusPlayersRoundMemory: "  its peak memory (RSS)"
        case .neverCompactedFirstSyncProgram: "`qiktionary sync` on a new machine of a folder never compacted (one sync per game), whole process"
        case .neverCompactedFirstSyncMemory: "  its peak memory (RSS)"
        case .neverCompactedCompactionProgram: "`qiktionary sync` of one more guess on the machine that never compacted, folding its whole log, whole process"
        case .neverCompactedCompactionMemory: "  its peak memory (RSS)"
        }
    }

    var unit: String {
        switch self {
        case .nothingToDoFiles: "files"
        case .historyRecords: "records"
        case .naiveRatio, .floorRatio, .folderRatio, .historyRatio: "x"
        case .bytesPerGuess, .databaseBytesPerGame: "bytes"
        case .firstSyncMemory, .firstScreenMemory, .firstUploadMemory, .sendOneGuessMemory, .receiveOneGuessMemory, .firstScreenWaitingMemory,
             .neverCompactedFirstSyncMemory, .neverCompactedCompactionMemory, .bogusPlaysRoundMemory, .bogusPlayersRoundMemory: "MB"
        default: "ms"
        }
    }

    struct Target: CustomStringConvertible {
        var atMost: Double?
        var atLeast: Double?
        var unit: String
        var description: String { atMost.map { "≤ \(Self.format($0)) \(unit)" } ?? "≥ \(Self.format(atLeast ?? 0)) \(unit)" }
        func isMet(by value: Double) -> Bool { atMost.map { value <= $0 } ?? (value >= (atLeast ?? 0)) }
        static func format(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }
    }

    var target: Target? {
        switch self {
        case .firstUpload: Target(atMost: 2_000, unit: "ms")
        case .nothingToDo, .manyPlayersNothingToDo: Target(atMost: 2, unit: "ms")
        case .bogusPlaysRound, .bogusPlayersRound: Target(atMost: 1_000, unit: "ms")
        case .bogusPlaysRoundMemory, .bogusPlayersRoundMemory: Target(atMost: 100, unit: "MB")
        case .naiveRatio: Target(atLeast: 100, unit: "x")
        case .oneGuess: Target(atMost: 10, unit: "ms")
        case .firstSync: Target(atMost: 1_000, unit: "ms")
        case .floorRatio, .historyRatio: Target(atMost: 3, unit: "x")
        case .bytesPerGuess: Target(atMost: 400, unit: "bytes")
        case .folderRatio: Target(atMost: 2, unit: "x")
        case .submitGuess: Target(atMost: 2, unit: "ms")
        case .firstScreen: Target(atMost: 150, unit: "ms")
        // The issue pairs the memory target with opening the app; the first sync's peak is
        // reported beside it without one (docs/performance.md says why and what it would take).
        case .firstScreenMemory: Target(atMost: 60, unit: "MB")
        default: nil
        }
    }

    /// Issue 27's targets, set at 100,000 games: a new process pays for the change, not the history.
    var targetAtLargestScale: Target? {
        switch self {
        case .sendOneGuessProgram, .receiveOneGuessProgram: Target(atMost: 60, unit: "ms")
        case .sendOneGuessMemory, .receiveOneGuessMemory: Target(atMost: 40, unit: "MB")
        case .firstScreenWaiting: Target(atMost: 150, unit: "ms")
        // Issue 37: a new process's round with nothing to do, signatures and all.
        case .nothingToDoNewProcess: Target(atMost: 5, unit: "ms")
        case .databaseBytesPerGame: Target(atMost: 1_200, unit: "bytes")
        case .neverCompactedFirstSyncMemory, .neverCompactedCompactionMemory: Target(atMost: 100, unit: "MB")
        default: nil
        }
    }
}

func progress(_ text: String) {
    FileHandle.standardError.write(Data("qiktionary-bench: \(text)\n".utf8))
}

func time(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
}

func samples(_ count: Int, _ body: () throws -> Double) rethrows -> [Double] {
    try (0..<count).map { _ in try body() }
}

/// Every metric at one scale, on one set of seeded data.
func measure(games: Int, options: Options) throws -> [Measurement] {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("qk-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    if !options.histories.isEmpty { return try measure(options.histories, games: games, runs: options.runs, root: root, programs: !options.skipPrograms) }
    if options.newProcessOnly { return try measureNewProcess(games: games, runs: options.runs, root: root) }
    if options.matchesOnly {
        var results: [Measurement] = []
        try measureMatches(games: games, options: options, root: root) { results.append(Measurement($0, games: games, samples: $1)) }
        return results
    }
    var (results, won) = try measureMetrics(games: games, options: options, root: root)
    try measureMatches(games: games, options: options, root: root) { results.append(Measurement($0, games: games, samples: $1)) }
    return try results + measure(History.allCases, games: games, runs: options.runs, root: root, won: won, programs: !options.skipPrograms)
}

/// The metrics of the main history (won games), and its first syncs.
func measureMetrics(games: Int, options: Options, root: URL) throws -> ([Measurement], won: HistoryTimes) {
    let runs = options.runs
    var results: [Measurement] = []
    func record(_ metric: Metric, _ values: [Double]) { results.append(Measurement(metric, games: games, samples: values)) }
    let cloud = root.appendingPathComponent("cloud")
    try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
    let scale = games.formatted()

    progress("\(scale) games: seeding the laptop")
    let laptop = try Machine("laptop", root: root, cloud: cloud)
    try Seeding.seed(laptop, games: games)
    progress("\(scale) games: first upload")
    record(.firstUpload, [try time { try laptop.engine.sync() }])
    try laptop.engine.sync()

    progress("\(scale) games: sync with nothing to do, and the naive sync")
    record(.nothingToDo, try samples(runs * 4) { try time { try laptop.engine.sync() } })
    let before = laptop.store.folder.statistics
    try laptop.engine.sync()
    let after = laptop.store.folder.statistics
    record(.nothingToDoFiles, [Double(after.filesRead - before.filesRead + after.existenceChecks - before.existenceChecks + after.listings - before.listings)])
    let naive = try samples(runs) {
        var differences = 0
        let elapsed = try time { differences = try NaiveSync.run(laptop, cloud: cloud) }
        guard differences == 0 else { throw BenchFailure("the naive sync found \(differences) differences where there are none") }
        return elapsed
    }
    record(.naive, naive)
    record(.naiveRatio, [naive.sorted()[naive.count / 2] / results.first { $0.metric == Metric.nothingToDo.rawValue }!.median])

    progress("\(scale) games: one new guess, a finished game's upload, submitting a guess")
    record(.oneGuess, try samples(runs) {
        let game = try laptop.player.startGame(GameRequest(packID: "animals"))
        try laptop.engine.sync()
        let word = Seeding.guessable.first { $0 != game.game.secret }!
        _ = try laptop.player.submitGuess(word, gameID: game.game.id, lexicon: Seeding.lexicon)
        return try time { try laptop.engine.sync() }
    })
    var rng = SeededGenerator(seed: 7)
    record(.bytesPerGuess, try samples(runs) {
        let guesses = try Seeding.playOneGame(laptop, rng: &rng)
        let written = laptop.store.folder.statistics.bytesWritten
        try laptop.engine.sync()
        return Double(laptop.store.folder.statistics.bytesWritten - written) / Double(guesses)
    })
    record(.submitGuess, try samples(runs * 4) {
        let game = try laptop.player.startGame(GameRequest(packID: "animals"))
        let word = Seeding.guessable.first { $0 != game.game.secret }!
        // As a player sees it: the guess saved, then the words still possible counted for the board.
        return try time {
            let played = try laptop.player.submitGuess(word, gameID: game.game.id, lexicon: Seeding.lexicon)
            let left = GameCoach.candidates(of: played.game.game, packAnswers: try laptop.database.answers(for: played.game.game), lexicon: Seeding.lexicon)
            guard !left.isEmpty else { throw BenchFailure("no word still possible after \(word)") }
        }
    })
    try laptop.engine.sync()

    progress("\(scale) games: first sync of a new machine, and the floor")
    let won = try firstSyncs(of: .won, from: laptop, cloud: cloud, root: root, runs: runs)
    record(.firstSync, won.firstSync)
    record(.floor, won.floor)
    record(.floorRatio, [median(won.firstSync) / median(won.floor)])

    if !options.skipPrograms {
        progress("\(scale) games: the qiktionary program (first upload, first sync, first screen)")
        // A second laptop with the same history, never synced, uploads it into a cloud of its own.
        let uploads = try (0..<max(1, runs / 2)).map { index -> Child.Outcome in
            let folder = root.appendingPathComponent("program-upload-cloud-\(index)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let seeded = try Machine("upload-\(index)", root: root, cloud: folder)
            try Seeding.seed(seeded, games: games)
            let outcome = try Child.run(["sync", "--data-dir", seeded.dataDir.path, "--cloud-dir", folder.path, "--player", Seeding.player, "--device", "upload-\(index)"])
            guard outcome.status == 0 else { throw BenchFailure("qiktionary sync (first upload) exited \(outcome.status): \(outcome.output)") }
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: seeded.dataDir)
            return outcome
        }
        record(.firstUploadProgram, uploads.map(\.milliseconds))
        record(.firstUploadMemory, uploads.map(\.peakMegabytes))
        // Every run, not half: a peak is the highest point of a curve that rises and falls with
        // each batch, so one sample can land high or low by a few megabytes.
        var syncs: [Child.Outcome] = []
        for index in 0..<runs {
            let dataDir = root.appendingPathComponent("program-\(index)")
            try laptop.letIn(dataDir, device: "program-\(index)", cloud: cloud)
            let outcome = try Child.run(["sync", "--data-dir", dataDir.path, "--cloud-dir", cloud.path, "--player", Seeding.player, "--device", "program-\(index)"])
            guard outcome.status == 0 else { throw BenchFailure("qiktionary sync exited \(outcome.status): \(outcome.output)") }
            syncs.append(outcome)
        }
        record(.firstSyncProgram, syncs.map(\.milliseconds))
        record(.firstSyncMemory, syncs.map(\.peakMegabytes))
        let receiver = root.appendingPathComponent("program-0")
        record(.databaseBytesPerGame, [Double(databaseBytes(in: receiver)) / Double(games)])
        try measureOneGuess(games: games, laptop: laptop, receiver: receiver, cloud: cloud, runs: runs, record: record)
        var screens: [Child.Outcome] = []
        for _ in 0..<runs {
            // Ctrl-C is already waiting: the program opens, draws its first screen, reads it and leaves.
            let outcome = try Child.run(["--data-dir", laptop.dataDir.path, "--no-sync"], terminal: (100, 30), input: [3])
            guard outcome.status == 0, outcome.output.contains("Notepad") else {
                throw BenchFailure("qiktionary did not draw its first screen (exit \(outcome.status))")
            }
            screens.append(outcome)
        }
        record(.firstScreen, screens.map(\.milliseconds))
        record(.firstScreenMemory, screens.map(\.peakMegabytes))
    }

    progress("\(scale) games: the cloud folder after compaction")
    for zone in try laptop.store.zones() { _ = try laptop.store.compact(zone) }
    let live = try LiveData.jsonBytes(player: Seeding.player, cloud: cloud)
    record(.folderRatio, [Double(folderSize(cloud.appendingPathComponent("players"))) / Double(live.bytes)])
    return (results, won)
}

/// `--new-process`: the laptop seeded and uploaded, a new machine's first sync (a process), and
/// one guess sent and received by new processes.
func measureNewProcess(games: Int, runs: Int, root: URL) throws -> [Measurement] {
    var results: [Measurement] = []
    func record(_ metric: Metric, _ values: [Double]) { results.append(Measurement(metric, games: games, samples: values)) }
    let cloud = root.appendingPathComponent("cloud")
    try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
    progress("\(games.formatted()) games: seeding the laptop and uploading")
    let laptop = try Machine("laptop", root: root, cloud: cloud)
    try Seeding.seed(laptop, games: games)
    record(.firstUpload, [try time { try laptop.engine.sync() }])
    Glibc.sync()
    let receiver = root.appendingPathComponent("program-0")
    try laptop.letIn(receiver, device: "program-0", cloud: cloud)
    let first = try Child.run(["sync", "--data-dir", receiver.path, "--cloud-dir", cloud.path, "--player", Seeding.player, "--device", "program-0"])
    guard first.status == 0 else { throw BenchFailure("qiktionary sync exited \(first.status): \(first.output)") }
    record(.firstSyncProgram, [first.milliseconds])
    record(.firstSyncMemory, [first.peakMegabytes])
    record(.databaseBytesPerGame, [Double(databaseBytes(in: receiver)) / Double(games)])
    try measureOneGuess(games: games, laptop: laptop, receiver: receiver, cloud: cloud, runs: runs, record: record)
    return results
}

/// What a player runs after one guess: the laptop plays it (a new game and one guess, no sync),
/// a one-shot `qiktionary sync` sends them, and a one-shot sync on a machine that has everything
/// else receives them; then the same again, received by the full-screen game's first screen
/// (which syncs before it shows what to resume). Each a new process: it pays for what it reads.
func measureOneGuess(games: Int, laptop: Machine, receiver: URL, cloud: URL, runs: Int, record: (Metric, [Double]) -> Void) throws {
    let scale = games.formatted()
    progress("\(scale) games: one guess sent and received by new processes")
    func playOneGuess() throws -> String {
        let game = try laptop.player.startGame(GameRequest(packID: "animals"))
        let word = Seeding.guessable.first { $0 != game.game.secret }!
        _ = try laptop.player.submitGuess(word, gameID: game.game.id, lexicon: Seeding.lexicon)
        return game.game.id
    }
    func sync(_ dataDir: URL, _ device: String, json: Bool = false) throws -> Child.Outcome {
        let outcome = try Child.run(["sync"] + (json ? ["--json"] : []) + ["--data-dir", dataDir.path, "--cloud-dir", cloud.path, "--player", Seeding.player, "--device", device])
        guard outcome.status == 0 else { throw BenchFailure("qiktionary sync on \(device) exited \(outcome.status): \(outcome.output)") }
        return outcome
    }
    var sends: [Child.Outcome] = [], receives: [Child.Outcome] = [], screens: [Child.Outcome] = []
    for _ in 0..<runs {
        _ = try playOneGuess()
        sends.append(try sync(laptop.dataDir, laptop.profile.device.name))
        let received = try sync(receiver, "program-0")
        guard received.output.contains("2 received") else {
            throw BenchFailure("the receiving sync did not get the game and its guess: \(received.output)")
        }
        receives.append(received)
        _ = try playOneGuess()
        _ = try sync(laptop.dataDir, laptop.profile.device.name)
        // Ctrl-C already waiting, as for the first screen: it syncs first, draws, reads it and leaves.
        let screen = try Child.run(["--data-dir", receiver.path], terminal: (100, 30), input: [3])
        guard screen.status == 0, screen.output.contains("Notepad") else {
            throw BenchFailure("qiktionary did not draw its first screen with a change waiting (exit \(screen.status))")
        }
        screens.append(screen)
    }
    record(.sendOneGuessProgram, sends.map(\.milliseconds))
    record(.sendOneGuessMemory, sends.map(\.peakMegabytes))
    record(.receiveOneGuessProgram, receives.map(\.milliseconds))
    record(.receiveOneGuessMemory, receives.map(\.peakMegabytes))
    record(.firstScreenWaiting, screens.map(\.milliseconds))
    record(.firstScreenWaitingMemory, screens.map(\.peakMegabytes))

    // Then nothing moves: a new process's whole round (verifying the heads it reads included),
    // timed by the round itself, as `sync --json` reports it. The first sync after the screen
    // above may still fold what that run left; it is not counted.
    _ = try sync(laptop.dataDir, laptop.profile.device.name)
    var rounds: [Double] = []
    for _ in 0..<max(8, runs * 2) {
        let outcome = try sync(laptop.dataDir, laptop.profile.device.name, json: true)
        guard let line = outcome.output.split(separator: "\n").last,
              let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let duration = (object["durationMs"] as? NSNumber)?.doubleValue else {
            throw BenchFailure("qiktionary sync --json with nothing to do did not report its round (exit \(outcome.status)): \(outcome.output)")
        }
        let moved = ["uploaded", "downloaded", "deleted"].map { (object[$0] as? NSNumber)?.intValue ?? 0 }.reduce(0, +)
        guard moved == 0 else { throw BenchFailure("the sync with nothing to do moved \(moved) records: \(outcome.output)") }
        rounds.append(duration)
    }
    record(.nothingToDoNewProcess, rounds)
}

/// The bytes of a data dir's database (its file and any write-ahead log left beside it).
func databaseBytes(in dataDir: URL) -> Int {
    ["", "-wal"].reduce(0) { total, suffix in
        let path = dataDir.appendingPathComponent(AppDatabase.fileName + suffix).path
        return total + ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
    }
}

/// Each history's first syncs against its own floor, each history seeded and uploaded to a
/// folder of its own (won games: those of the main metrics, when given).
/// With `programs`, a folder never compacted is also synced by the real program on a new
/// machine, the whole process timed with its peak memory.
func measure(_ histories: [History], games: Int, runs: Int, root: URL, won: HistoryTimes? = nil, programs: Bool = false) throws -> [Measurement] {
    let scale = games.formatted()
    var results: [Measurement] = []
    for history in histories {
        let measured: HistoryTimes
        if history == .won, let won {
            measured = won
        } else {
            progress("\(scale) games: history '\(history.rawValue)': seeding and uploading")
            let folder = root.appendingPathComponent("cloud-\(history.rawValue)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let device = "laptop-\(history.rawValue)", dataDir: URL
            do {
                let seeded = try Machine(device, root: root, cloud: folder)
                try history.seedAndUpload(seeded, games: games)
                dataDir = seeded.dataDir
            }
            // The machine that seeded is let go (its store may keep every record it sent: 1.5 GB
            // at 100,000 games for one sync per game), and what it wrote goes to disk first, so
            // the new machine's first sync and the floor compete with neither: on real machines
            // they run apart.
            Glibc.sync()
            let laptop = try Machine(reusing: dataDir, cloud: folder, device: device)
            progress("\(scale) games: history '\(history.rawValue)': first sync of a new machine, and the floor")
            measured = try firstSyncs(of: history, from: laptop, cloud: folder, root: root, runs: runs)
            if programs, history == .syncedPerGame {
                progress("\(scale) games: history '\(history.rawValue)': qiktionary sync on a new machine")
                var syncs: [Child.Outcome] = []
                for index in 0..<runs {
                    let dataDir = root.appendingPathComponent("program-never-compacted-\(index)")
                    try laptop.letIn(dataDir, device: "never-compacted-\(index)", cloud: folder)
                    let outcome = try Child.run(["sync", "--data-dir", dataDir.path, "--cloud-dir", folder.path, "--player", Seeding.player,
                                                 "--device", "never-compacted-\(index)"])
                    guard outcome.status == 0 else { throw BenchFailure("qiktionary sync exited \(outcome.status): \(outcome.output)") }
                    syncs.append(outcome)
                    try? FileManager.default.removeItem(at: dataDir)
                }
                results.append(Measurement(.neverCompactedFirstSyncProgram, games: games, samples: syncs.map(\.milliseconds)))
                results.append(Measurement(.neverCompactedFirstSyncMemory, games: games, samples: syncs.map(\.peakMegabytes)))
                // The machine that wrote the log plays one more guess and syncs: the round
                // writes into the zone, so the store folds its whole log into a snapshot (once:
                // one sample).
                progress("\(scale) games: history '\(history.rawValue)': one more guess, and the compaction of the log")
                let game = try laptop.player.startGame(GameRequest(packID: "animals"))
                _ = try laptop.player.submitGuess(Seeding.guessable.first { $0 != game.game.secret }!, gameID: game.game.id, lexicon: Seeding.lexicon)
                let compaction = try Child.run(["sync", "--data-dir", dataDir.path, "--cloud-dir", folder.path, "--player", Seeding.player, "--device", device])
                guard compaction.status == 0 else { throw BenchFailure("qiktionary sync exited \(compaction.status): \(compaction.output)") }
                // Only the laptop writes there: any snapshot of the games is its compaction.
                let zone = folder.appendingPathComponent("players/\(Seeding.player)")
                let snapshots = FileManager.default.enumerator(at: zone, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }
                    .filter { $0.path.contains("/zones/Games/") && $0.pathExtension == "snap" } ?? []
                if !snapshots.isEmpty {
                    results.append(Measurement(.neverCompactedCompactionProgram, games: games, samples: [compaction.milliseconds]))
                    results.append(Measurement(.neverCompactedCompactionMemory, games: games, samples: [compaction.peakMegabytes]))
                } else if games >= 1_000 {
                    throw BenchFailure("the sync of one more guess did not compact the log: \(compaction.output)")
                } else {
                    // A few dozen games' log is under the size worth compacting (64 KiB).
                    progress("\(scale) games: history '\(history.rawValue)': the log is too small to compact; no compaction measured")
                }
            }
            try? FileManager.default.removeItem(at: folder)
        }
        results.append(Measurement(.historyFirstSync, games: games, samples: measured.firstSync, history: history))
        results.append(Measurement(.historyFloor, games: games, samples: measured.floor, history: history))
        results.append(Measurement(.historyRatio, games: games, samples: [median(measured.firstSync) / median(measured.floor)], history: history))
        results.append(Measurement(.historyRecords, games: games, samples: [Double(measured.records)], history: history))
    }
    return results
}

func median(_ values: [Double]) -> Double { Measurement(.firstSync, games: 0, samples: values).median }

struct HistoryTimes {
    var firstSync: [Double]
    var floor: [Double]
    /// Records the first sync fetched.
    var records: Int
}

/// `runs` new machines (empty data dirs) syncing `cloud` for the first time, each checked to end
/// with exactly what `laptop` has; then `runs` floors: the rows the first sync wrote, inserted
/// straight into a fresh database after reading every file of the folder.
func firstSyncs(of history: History, from laptop: Machine, cloud: URL, root: URL, runs: Int) throws -> HistoryTimes {
    let expected = try PlayerView(laptop)
    var desktop: Machine?, records = 0, made = 0
    let times = try samples(runs) {
        // Each new machine joins the player under a name of its own: a name already paired is refused.
        made += 1
        let machine = try Machine("desktop-\(history.rawValue)-\(made)", root: root, cloud: cloud)
        var report = SyncReport()
        let elapsed = try time { report = try machine.engine.sync() }
        try expected.check(machine, history)
        records = report.downloaded
        desktop = machine
        return elapsed
    }
    let floor = try Floor(rowsOf: desktop!)
    let floorTimes = try samples(runs) {
        made += 1
        let target = try Machine("floor-\(history.rawValue)-\(made)", root: root, cloud: cloud)
        return try time { _ = try floor.run(cloud: cloud, into: target) }
    }
    return HistoryTimes(firstSync: times, floor: floorTimes, records: records)
}

let options = Options(Array(CommandLine.arguments.dropFirst()))

/// A line of results, written at once (unbuffered), so it survives whatever comes later.
func emit(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    var written = 0
    while written < bytes.count {
        let count = bytes[written...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return }
        written += count
    }
}

/// Prints each scale's results as soon as they are measured, so a long run shows its progress
/// and a failure at a large scale keeps the smaller ones.
func report(_ results: [Measurement], header: Bool) {
    if options.json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for result in results { emit(String(decoding: (try? encoder.encode(result)) ?? Data(), as: UTF8.self)) }
        return
    }
    func number(_ value: Double) -> String { value >= 100 ? String(format: "%.0f", value) : String(format: "%.2f", value) }
    if header {
        emit("| games | metric | median | spread (min–max) | runs | target (at 10,000 unless said) |")
        emit("|---:|---|---:|---:|---:|---|")
    }
    for r in results {
        let target = r.target.map { "\($0) \(r.met == true ? "met" : "MISSED")" } ?? ""
        emit("| \(r.games.formatted()) | \(r.label) | \(number(r.median)) \(r.unit) | \(number(r.min))–\(number(r.max)) | \(r.runs) | \(target) |")
    }
}

if let seed = options.seedOnly {
    do {
        let dataDir = URL(fileURLWithPath: seed.dataDir).standardizedFileURL
        guard !FileManager.default.fileExists(atPath: dataDir.path) else { Options.fail("\(dataDir.path) already exists") }
        let cloud = FileManager.default.temporaryDirectory.appendingPathComponent("qk-seed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cloud) }
        let machine = try Machine(reusing: dataDir, cloud: cloud)
        try Seeding.seed(machine, games: seed.games)
        emit("\(seed.games.formatted()) finished games in \(dataDir.path)")
    } catch {
        Options.fail("\(error)")
    }
    exit(0)
}

for (index, games) in options.games.enumerated() {
    do {
        report(try measure(games: games, options: options), header: index == 0)
    } catch {
        Options.fail("\(games.formatted()) games: \(error)")
    }
}
