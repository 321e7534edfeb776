import CloudStore
import Foundation
import QiktionaryCore
import QiktionaryResources
import Storage
import Sync

// qiktionary-bench: makes its own seeded data in a temporary folder and times the sync engine
// on real files: a data dir per machine (SQLite, WAL) and one cloud folder.
//
//   swift run -c release qiktionary-bench [--games N ...] [--runs R] [--json]

struct Options {
    var games: [Int] = [10_000]
    var runs = 5
    var json = false

    init(_ arguments: [String]) {
        var rest = arguments[...]
        var counts: [Int] = []
        while let argument = rest.popFirst() {
            switch argument {
            case "--games": if let n = rest.popFirst().flatMap(Int.init), n > 0 { counts.append(n) } else { Options.fail("--games takes a positive number") }
            case "--runs": if let n = rest.popFirst().flatMap(Int.init), n > 0 { runs = n } else { Options.fail("--runs takes a positive number") }
            case "--json": json = true
            case "--help", "-h":
                print("usage: qiktionary-bench [--games N]... [--runs R] [--json]")
                exit(0)
            default: Options.fail("unknown argument '\(argument)'")
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
    var games: Int
    var unit: String
    var median: Double
    var min: Double
    var max: Double
    var runs: Int
}

/// A machine on disk: data dir and store, as the command line opens them.
struct Machine {
    let database: AppDatabase
    let profile: Profile
    let engine: SyncEngine

    init(_ name: String, root: URL, cloud: URL) throws {
        let dataDir = root.appendingPathComponent("data-\(name)-\(UUID().uuidString)")
        database = try AppDatabase.open(dataDir: dataDir)
        _ = try database.importPacks(from: PackFile.files(in: BundledContent.packsFolder), lexicon: { Bench.lexicon })
        profile = try database.profile(player: "bench", device: name, hostName: name)
        let store = try SyncEngine.openCloud(folder: cloud, database: database, profile: profile)
        engine = SyncEngine(database: database, cloud: store, profile: profile)
    }
}

enum Bench {
    static let lexicon = try! BundledContent.lexicon()

    /// `count` finished games of 8 guesses on average, seeded, put in the database in one go.
    static func seed(_ machine: Machine, games count: Int) throws {
        var rng = SeededGenerator(seed: 2026)
        let secrets = PackFile.files(in: BundledContent.packsFolder).compactMap { try? PackFile.read($0) }
            .filter { $0.length == 5 && $0.rules == .classic }.flatMap(\.words).map(\.word)
        let guessable = try String(contentsOf: BundledContent.dictionaryURL, encoding: .utf8).split(separator: "\n")
            .map(String.init).filter { $0.count == 5 && !$0.hasRepeatedLetters }
        var incoming = IncomingChanges()
        let start = Date(timeIntervalSince1970: 1_780_000_000)
        let fields = try JSONEncoder().encode(SystemFields(changeTag: "seed", createdBy: DeviceID("seed"), createdAt: HLCTimestamp(millis: 0, counter: 0),
                                                           modifiedBy: DeviceID("seed"), modifiedAt: HLCTimestamp(millis: 0, counter: 0)))
        for index in 0..<count {
            let secret = secrets.randomElement(using: &rng)!
            let id = UUID(uuidString: String(format: "00000000-0000-4000-8000-%012x", index))!.uuidString.lowercased()
            let played = start.addingTimeInterval(Double(index) * 600)
            let guesses = (0..<Int.random(in: 5...10, using: &rng)).map { _ in guessable.randomElement(using: &rng)! }
            var words = Array(Array(Set(guesses).subtracting([secret]).sorted().prefix(7)) + [secret])
            words.shuffle(using: &rng)
            if let last = words.firstIndex(of: secret) { words = Array(words[...last]) }
            for (n, word) in words.enumerated() {
                let guess = SyncGuess(gameID: id, word: word, position: n + 1, feedback: Rules.classic.feedback(for: word, against: secret),
                                      playedAt: played.addingTimeInterval(Double(n) * 20), playedOn: "seed")
                incoming.guesses.append((guess, fields))
            }
            let finished = played.addingTimeInterval(Double(words.count) * 20)
            incoming.games.append((SyncGame(id: id, packID: "animals", secret: secret, fact: "A fact about \(secret).", rules: .classic,
                                            maxGuesses: 15, status: .won, startedAt: played, updatedAt: finished, finishedAt: finished,
                                            startedOn: "seed", lastChangedOn: "seed"), fields))
        }
        try machine.database.applyIncoming(incoming, zone: .games, token: nil, profile: machine.profile)
        // Seeded as if from nowhere: forget that, so the first sync uploads everything.
        try machine.database.forgetSyncMetadata(profile: machine.profile)
    }

    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
    }

    static func measure(_ metric: String, games: Int, runs: Int, unit: String = "ms", _ sample: () throws -> Double) rethrows -> Measurement {
        let values = try (0..<runs).map { _ in try sample() }.sorted()
        return Measurement(metric: metric, games: games, unit: unit, median: values[values.count / 2], min: values.first!, max: values.last!, runs: runs)
    }
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
var results: [Measurement] = []
for games in options.games {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("qk-bench-\(UUID().uuidString)")
    let cloud = root.appendingPathComponent("cloud")
    try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }

    let a = try Machine("laptop", root: root, cloud: cloud)
    try Bench.seed(a, games: games)
    let upload = try Bench.time { try a.engine.sync() }
    results.append(Measurement(metric: "first upload of every game", games: games, unit: "ms", median: upload, min: upload, max: upload, runs: 1))
    try a.engine.sync()

    results.append(try Bench.measure("sync with nothing to do", games: games, runs: options.runs * 4) {
        try Bench.time { try a.engine.sync() }
    })
    results.append(try Bench.measure("sync of one new guess", games: games, runs: options.runs) {
        let game = try a.database.startGame(GameRequest(packID: "animals"), profile: a.profile)
        try a.engine.sync()
        let guess = game.game.secret == "crane" ? "pilot" : "crane"
        _ = try a.database.submitGuess(guess, gameID: game.id, lexicon: Bench.lexicon, profile: a.profile)
        return try Bench.time { try a.engine.sync() }
    })
    results.append(try Bench.measure("first sync of a new machine", games: games, runs: max(1, options.runs / 2)) {
        let b = try Machine("desktop", root: root, cloud: cloud)
        let elapsed = try Bench.time { try b.engine.sync() }
        let received = try b.database.history(profile: b.profile, limit: 1)
        precondition(received.count == 1, "the new machine got nothing")
        return elapsed
    })
}

if options.json {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    for result in results { print(String(decoding: try encoder.encode(result), as: UTF8.self)) }
} else {
    print("| games | metric | median | min | max | runs |")
    print("|---:|---|---:|---:|---:|---:|")
    for r in results {
        print(String(format: "| %d | %@ | %.2f %@ | %.2f | %.2f | %d |", r.games, r.metric, r.median, r.unit, r.min, r.max, r.runs))
    }
}
