import CloudStore
import Concurrency
import Foundation
import QiktionaryCore
import QiktionaryResources
import Storage
import Sync

/// A machine on disk: a data dir and a cloud store, opened as the command line opens them.
struct Machine {
    let dataDir: URL
    let database: AppDatabase
    let profile: Profile
    var player: PlayerDatabase { database.player(profile) }
    let store: FolderCloudDatabase
    let engine: SyncEngine
    /// This machine's key and pins, as the command line keeps them in the data dir: every file
    /// it writes is signed and every file it reads verified, so the timings include both.
    let trust: TrustBook

    /// The first machine of each player of each cloud folder: it lets the others in with a
    /// pairing code, as `devices add` and `devices join` would.
    private static let firstMachines = Locked<[String: TrustBook]>([:])

    /// Lets the new data dir `dataDir` into this machine's player's machines before the real
    /// program's first sync there is timed: `devices join` with a code this machine makes, as a
    /// person pairs a new machine once (not part of what a first sync costs).
    func letIn(_ dataDir: URL, device: String, cloud: URL) throws {
        let code = try trust.invite(in: DiskFolder(root: cloud)).code
        let outcome = try Child.run(["devices", "join", code, "--data-dir", dataDir.path, "--cloud-dir", cloud.path, "--player", profile.playerID,
                                     "--device", device])
        guard outcome.status == 0 else { throw BenchFailure("qiktionary devices join on \(device) exited \(outcome.status): \(outcome.output)") }
    }

    static func paired(dataDir: URL, cloud: URL, profile: Profile) throws -> TrustBook {
        let book = TrustBook(player: profile.playerID, device: DeviceID(validated: profile.device.id), label: profile.device.name,
                             key: try DeviceKey.loadOrCreate(at: dataDir.appendingPathComponent("device-key")),
                             file: dataDir.appendingPathComponent("trust.json"))
        let folder = DiskFolder(root: cloud), key = cloud.path + "\n" + profile.playerID
        // A data dir seeded without a folder (`--seed`) joins when it first syncs with one.
        guard (try? folder.checkAvailable()) != nil else { return book }
        let standing = Result { () throws(PairingError) in try book.enroll(in: folder) }
        if case .failure(let refusal) = standing {
            guard refusal == .notAMember(player: profile.playerID), let first = firstMachines.withLock({ $0[key] }) else {
                throw BenchFailure("\(profile.device.name) cannot join \(profile.playerID)'s machines: \(refusal)")
            }
            _ = try book.join(code: try first.invite(in: folder).code, in: folder)
        }
        firstMachines.withLock { if $0[key] == nil { $0[key] = book } }
        return book
    }

    init(_ name: String, root: URL, cloud: URL, player: String = Seeding.player) throws {
        try self.init(reusing: root.appendingPathComponent("data-\(name)-\(UUID().uuidString)"), cloud: cloud, device: name, player: player)
    }

    init(reusing dataDir: URL, cloud: URL, device name: String = "laptop", player: String = Seeding.player) throws {
        self.dataDir = dataDir
        database = try AppDatabase.open(dataDir: dataDir)
        _ = try database.importPacks(from: PackFile.files(in: BundledContent.packsFolder), lexicon: { Seeding.lexicon })
        profile = try database.profile(player: player, device: name, hostName: name)
        trust = try Self.paired(dataDir: dataDir, cloud: cloud, profile: profile)
        store = try SyncEngine.openCloud(folder: cloud, player: database.player(profile), trust: trust)
        var engine = SyncEngine(player: database.player(profile), cloud: store)
        // As the command line's: the fetched games, guesses and bookmarks held to the dictionary.
        engine.lexicon = { Seeding.lexicon }
        self.engine = engine
    }
}

enum Seeding {
    static let player = "bench"
    static let lexicon = try! BundledContent.lexicon()

    /// Five-letter words with no repeated letter: every one is a valid classic guess.
    static let guessable: [String] = {
        let text = (try? String(contentsOf: BundledContent.dictionaryURL, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init).filter { $0.count == 5 && !$0.hasRepeatedLetters }
    }()

    /// `count` finished games of 8 guesses on average (5 to 10 words drawn, the secret last),
    /// seeded, put in the database in one transaction as if they had been played here.
    static func seed(_ machine: Machine, games count: Int) throws {
        try seed(machine, games: count, kind: .won)
    }

    /// The kinds of game a history is made of (`History` says which).
    enum Kind {
        /// Won: 5 to 10 guesses, the secret last.
        case won
        /// Alternately lost (six wrong guesses of six) and given up after two guesses.
        case lostOrGivenUp
        /// In progress: one to four wrong guesses and one to five letters marked on the notepad.
        case inProgress
    }

    /// `count` games of `kind`, seeded, put in the database in one transaction as if they had
    /// been played here, and queued to sync as everything played here is.
    static func seed(_ machine: Machine, games count: Int, kind: Kind) throws {
        var rng = SeededGenerator(seed: 2026)
        let secrets = PackFile.files(in: BundledContent.packsFolder).compactMap { try? PackFile.read($0) }
            .filter { $0.length == 5 && $0.rules == .classic }.flatMap(\.words)
        var incoming = IncomingChanges()
        let start = Date(timeIntervalSince1970: 1_780_000_000)
        let device = machine.profile.device.name
        for index in 0..<count {
            let secret = secrets.randomElement(using: &rng)!
            let id = UUID(uuidString: String(format: "00000000-0000-4000-8000-%012x", index))!.uuidString.lowercased()
            let played = start.addingTimeInterval(Double(index) * 600)
            let status: GameStatus, maxGuesses: Int, drawn: Int
            switch kind {
            case .won: (status, maxGuesses, drawn) = (.won, 15, Int.random(in: 4...9, using: &rng))
            case .lostOrGivenUp: (status, maxGuesses, drawn) = index % 2 == 0 ? (.lost, 6, 6) : (.gaveUp, 15, 2)
            case .inProgress: (status, maxGuesses, drawn) = (.inProgress, 15, Int.random(in: 1...4, using: &rng))
            }
            var words: [String]
            if kind == .won {
                // As the benchmark has always seeded them, so its results compare across versions.
                let drawn = (0..<drawn).map { _ in guessable.randomElement(using: &rng)! }
                words = Array(Set(drawn).subtracting([secret.word]).sorted())
                words.shuffle(using: &rng)
                words.append(secret.word)
            } else {
                words = []
                while words.count < drawn {
                    let word = guessable.randomElement(using: &rng)!
                    if word != secret.word && !words.contains(word) { words.append(word) }
                }
            }
            for (n, word) in words.enumerated() {
                let guess = SyncGuess(gameID: id, word: word, position: n + 1, feedback: Rules.classic.feedback(for: word, against: secret.word),
                                      playedAt: played.addingTimeInterval(Double(n) * 20), playedOn: device)
                incoming.guesses.append(guess)
            }
            let updated = played.addingTimeInterval(Double(words.count) * 20)
            if kind == .inProgress {
                let letters = Array("abcdefghijklmnopqrstuvwxyz").shuffled(using: &rng).prefix(Int.random(in: 1...5, using: &rng))
                for (n, letter) in letters.enumerated() {
                    let mark = SyncMark(gameID: id, letter: String(letter), state: n % 2 == 0 ? .out : .in, markedAt: updated.addingTimeInterval(Double(n)))
                    incoming.marks.append((mark, seedFields))
                }
            }
            var game = SyncGame.started(id: id, packID: "animals", secret: secret.word, fact: secret.fact, rules: .classic,
                                        maxGuesses: maxGuesses, hard: false, assist: .before, daily: nil, at: played, on: device)
            game.status = status
            game.updatedAt = updated
            game.finishedAt = status.isFinished ? updated : nil
            incoming.games.append((game, seedFields))
        }
        try machine.player.applyIncoming(incoming, zone: .games, token: nil, naming: CloudSchema())
        // Seeded as if from nowhere: forget that, so the first sync uploads everything.
        try machine.player.forgetSyncMetadata()
    }

    /// A reading list of `count` bookmarks (distinct dictionary words), seeded as `seed` seeds
    /// games. A bookmark is a word, so there are at most as many as the dictionary has words
    /// (37,232): the 100,000-game scale gets that many.
    static func seedReadingList(_ machine: Machine, bookmarks wanted: Int) throws {
        let text = (try? String(contentsOf: BundledContent.dictionaryURL, encoding: .utf8)) ?? ""
        let words = text.split(separator: "\n").map(String.init).filter { (4...7).contains($0.count) && $0.allSatisfy { $0 >= "a" && $0 <= "z" } }
        guard words.count >= min(wanted, 1_000) else { throw BenchFailure("the dictionary has \(words.count) words, fewer than 1,000 bookmarks") }
        let count = min(wanted, words.count)
        var rng = SeededGenerator(seed: 2027)
        var incoming = IncomingChanges()
        let start = Date(timeIntervalSince1970: 1_780_000_000)
        for (n, word) in words.shuffled(using: &rng).prefix(count).enumerated() {
            let bookmark = SyncBookmark(word: word, packID: "animals", fact: "What \(word) means, in a sentence or two.",
                                        addedAt: start.addingTimeInterval(Double(n) * 60), isBookmarked: true)
            incoming.bookmarks.append((bookmark, seedFields))
        }
        try machine.player.applyIncoming(incoming, zone: .readingList, token: nil, naming: CloudSchema())
        try machine.player.forgetSyncMetadata()
    }

    /// System fields for seeded rows; forgotten before the first upload.
    static let seedFields = try! SystemFields(changeTag: "seed", createdBy: DeviceID("seed"), createdAt: HLCTimestamp(millis: 0, counter: 0),
                                              modifiedBy: DeviceID("seed"), modifiedAt: HLCTimestamp(millis: 0, counter: 0)).encoded

    /// Plays a new game to its end on `machine`: up to seven wrong words, then the secret.
    /// Returns how many guesses it took.
    static func playOneGame(_ machine: Machine, rng: inout SeededGenerator) throws -> Int {
        let game = try machine.player.startGame(GameRequest(packID: "animals"))
        var played = 0
        for word in guessable.shuffled(using: &rng).prefix(7) where word != game.game.secret && word.count == game.game.length {
            _ = try machine.player.submitGuess(word, gameID: game.game.id, lexicon: lexicon)
            played += 1
        }
        let last = try machine.player.submitGuess(game.game.secret, gameID: game.game.id, lexicon: lexicon)
        precondition(last.game.game.isFinished, "the secret did not finish the game")
        return played + 1
    }
}
