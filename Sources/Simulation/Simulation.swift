import App
import CloudStore
import Foundation
import QiktionaryCore
import Storage
import Sync

/// Why a run failed: what the checks found, and where.
struct Failure: Error, CustomStringConvertible {
    var problems: [String]
    var description: String { problems.joined(separator: "\n") }
}

/// One run of a plan: the machines and processes, the steps one after another (only one thread
/// moves at a time), then quiescence and the checks.
final class World {
    static let player = "ann"
    /// The second player, on machines of their own, when the plan has them (matches).
    static let friend = "bob"

    let plan: Plan
    let clock: SimClock
    var machines: [SimMachine] = []
    /// Replicated folders: copiers[from][to].
    var copiers: [[Copier]] = []
    /// Every guess a process was told was saved: player → game id → words.
    var saved: [String: [String: Set<String>]] = [:]
    /// Games deleted from a history: their guesses may go (a deletion wins).
    var deleted: Set<String> = []
    /// The games of every match made (both players'). The step deleting a finished game goes
    /// through the use case, which refuses a game of a match its machine knows; one whose match
    /// has not reached the machine yet is left alone (that case is open: docs/multiplayer.md).
    var matchGames: Set<String> = []
    /// Matches made, and guesses played in match games, in the run.
    var matchesMade = 0, matchGuesses = 0
    /// Syncs that failed for another reason than an injected fault.
    var problems: [String] = []

    init(_ plan: Plan) throws {
        self.plan = plan
        clock = SimClock(machines: plan.allMachines)
        let shared = MemoryFolder()
        for index in 0..<plan.allMachines {
            let ann = index < plan.machines
            let machine = try SimMachine(index: index, player: ann ? Self.player : Self.friend, folder: plan.replicated ? MemoryFolder() : shared,
                                         clock: clock)
            machine.processes = try (0..<(ann ? plan.processes : 1)).map { _ in try Self.process(of: machine, clock: clock) }
            machines.append(machine)
        }
        if plan.replicated {
            copiers = machines.map { from in machines.map { to in Copier(from: from, to: to) } }
        }
        // Every machine syncs once before play, as a player sets sync up: the first one makes
        // the cloud, the others (having received its files) join it. (A game deleted while a
        // machine's very first round sends it is not deleted again: docs/reliability.md.)
        // With matches, every machine joins the folder (joining is a machine's own act: one
        // that has not joined shows no line of its own player, docs/multiplayer.md), and the
        // second player's machines sync first, so the first player's see them from the start.
        if plan.friendMachines > 0 {
            for machine in machines { try machine.games.join(now: clock.now(machine.index)) }
        }
        // The second player's machines sync again at the end, so each player sees the other.
        let friends = machines[plan.machines...]
        for machine in friends + machines[..<plan.machines] + (friends.isEmpty ? [] : [friends.first!]) {
            drain(into: machine)
            try engine(machine, machine.processes[0], cloud: machine.processes[0].store).sync()
        }
    }

    /// A round of the machine's process on `cloud`: with matches, each round ends with the
    /// shared zones' exchange, as the program's does (App's `Setup`).
    func engine(_ machine: SimMachine, _ process: SimProcess, cloud: any CloudDatabase) -> SyncEngine {
        var engine = SyncEngine(player: machine.player, cloud: cloud, now: { [clock, index = machine.index] in clock.now(index) }, pause: { _ in })
        if plan.friendMachines > 0 {
            let games = machine.games, exchange = process.exchange
            engine.afterRound = { cloud, report in try games.exchangeShared(cloud: cloud, warnings: nil, round: report, memory: exchange) }
        }
        return engine
    }

    static func process(of machine: SimMachine, clock: SimClock) throws -> SimProcess {
        let faults = CloudFaults()
        let generation = try machine.player.syncRecord().generation.map { try CloudGeneration($0) }
        let index = machine.index
        let store = try FolderCloudDatabase.inMemory(machine.folder, player: machine.profile.playerID, device: DeviceID(machine.profile.device.id),
                                                     generation: generation, options: CloudStoreOptions(now: { clock.now(index) }, faults: faults))
        return SimProcess(store: store, faults: faults, exchange: SharedExchange(readers: SharedZone.Readers(uptime: { clock.uptime() })))
    }

    /// A process killed (or its sync failed): it starts again, with a store opened afresh.
    func restart(_ machine: SimMachine, _ index: Int) throws {
        machine.processes[index] = try Self.process(of: machine, clock: clock)
    }

    func drain(into machine: SimMachine) {
        guard plan.replicated else { return }
        for from in machines where from !== machine { copiers[from.index][machine.index].drain() }
    }

    // MARK: Steps

    /// One of the machine's games in progress (started here, or seen played), by id: the
    /// `choice`th, counting round.
    func openGame(_ machine: SimMachine, _ choice: Int) throws -> SavedGame? {
        let player = machine.player
        var games: [String: SavedGame] = [:]
        for game in try player.gamesInProgress() { games[game.game.id] = game }
        let ids = Set(games.keys).union(machine.started).sorted()
        guard !ids.isEmpty else { return nil }
        let id = ids[choice % ids.count]
        // A game started here and finished since (or deleted): the step does nothing.
        guard let game = games[id] ?? (try? player.game(id: id)), game.game.status == .inProgress else { return nil }
        return game
    }

    func run(_ step: Step) throws {
        clock.tick()
        let machine = machines[step.machine]
        let player = machine.player
        let now = clock.now(machine.index)
        func open(_ game: Int) throws -> SavedGame? { try openGame(machine, game) }
        // A step a player could not take (a word refused, no game to play) changes nothing.
        func attempt(_ body: () throws -> Void) {
            do { try body() } catch {}
        }
        switch step {
        case .start(_, let word):
            let id = String(format: "00000000-0000-4000-8000-%04x%08x", machine.index, machine.started.count)
            attempt {
                _ = try player.startMatchGame(id: id, request: GameRequest(word: Step.secrets[word % Step.secrets.count]),
                                              maxGuesses: Game.defaultMaxGuesses, lexicon: { Content.lexicon }, now: now)
                machine.started.append(id)
            }
        case .guess(_, let game, let word):
            guard let game = try open(game) else { return }
            try guess(Step.guesses[word % Step.guesses.count], in: game, on: machine, now: now)
        case .finish(_, let game):
            guard let game = try open(game) else { return }
            try guess(game.game.secret, in: game, on: machine, now: now)
        case .giveUp(_, let game):
            guard let game = try open(game) else { return }
            attempt { _ = try player.giveUp(gameID: game.game.id, now: now) }
        case .mark(_, let game, let letter, let state):
            guard let game = try open(game) else { return }
            attempt {
                _ = try player.mark(Step.letters[letter % Step.letters.count], as: Step.markStates[state % 3], gameID: game.game.id, now: now)
            }
        case .bookmark(_, let word):
            attempt { _ = try player.addBookmark(word: Step.bookmarks[word % Step.bookmarks.count], now: now) }
        case .unbookmark(_, let word):
            attempt { try player.removeBookmark(word: Step.bookmarks[word % Step.bookmarks.count]) }
        case .delete(_, let game):
            let history = try player.history().sorted { $0.game.id < $1.game.id }
            guard !history.isEmpty else { return }
            let id = history[game % history.count].game.id
            if matchGames.contains(id), try machine.games.matchOverview(ofGame: id) == nil { return }
            // A game of a match is refused (seed 63): it stays, and nothing is deleted.
            attempt {
                try machine.games.deleteGame(id: id)
                deleted.insert(id)
            }
        case .resetSync:
            // Run from the command line, while no process of the machine syncs.
            guard machine.processes.allSatisfy({ $0.running == nil }) else { return }
            try player.forgetSyncMetadata()
        case .sync(_, let index, let stops):
            let process = machine.processes[index]
            if process.running == nil {
                let cloud = SteppedCloud(process.store)
                process.running = SteppedSync(engine: engine(machine, process, cloud: cloud), cloud: cloud)
            }
            let running = process.running!
            var ended = false
            if stops == 0 {
                running.finish()
                ended = true
            } else {
                for _ in 0..<stops where !ended { ended = running.step() }
            }
            if ended { try self.ended(machine, index) }
        case .kill(_, let index):
            guard let running = machine.processes[index].running else { return }
            running.finish(.kill)
            try restart(machine, index)
        case .crashWriting(_, let index, let number):
            machine.processes[index].faults.crash(atStepNumber: number)
        case .clockJump(_, let seconds):
            clock.jump(machine.index, by: TimeInterval(seconds))
        case .deliver(_, let count, let order):
            guard plan.replicated else { return }
            for from in machines where from !== machine {
                copiers[from.index][machine.index].scan()
                copiers[from.index][machine.index].deliver(count, seed: order &+ UInt64(from.index), damage: true)
            }
        case .makeMatch(_, let seed):
            let other = machine.profile.playerID == Self.player ? Self.friend : Self.player
            attempt {
                let match = try machine.games.newMatch(against: other, packID: nil, rules: nil, hard: false, seed: seed, now: now).state.match
                matchGames.formUnion(match.players.flatMap { player in Match.games.map { match.gameID(player: player, index: $0) } })
                matchesMade += 1
            }
        case .playMatch(_, let choice, let word):
            let matches = try machine.games.matches().map(\.state.match.id).sorted()
            guard !matches.isEmpty, let game = try? machine.games.beginMatchGame(matchID: matches[choice % matches.count]) else { return }
            // A match's pack may have words of another length than the steps' guesses: a word of its length.
            let length = game.game.secret.count
            let guessed = word < Step.guesses.count ? Content.words(ofLength: length, choice: word) : game.game.secret
            if try guess(guessed, in: game, on: machine, now: now) { matchGuesses += 1 }
        }
    }

    /// Whether the guess was saved.
    @discardableResult
    private func guess(_ word: String, in game: SavedGame, on machine: SimMachine, now: Date) throws -> Bool {
        do {
            _ = try machine.player.submitGuess(word, gameID: game.game.id, lexicon: Content.lexicon, now: now)
            saved[machine.profile.playerID, default: [:]][game.game.id, default: []].insert(word)
            return true
        } catch {
            // Refused (played already, not allowed): nothing was saved.
            return false
        }
    }

    /// A round that ended: one that failed (an injected crash, a kill) leaves the process to start again.
    private func ended(_ machine: SimMachine, _ index: Int) throws {
        let process = machine.processes[index]
        guard let outcome = process.running?.outcome else { return }
        process.running = nil
        if case .failure(let error) = outcome {
            if case .offline(let reason) = error, reason.contains("injected") || reason.contains("simulation") {
                try restart(machine, index)
            } else {
                problems.append("machine \(machine.index) process \(index): sync failed: \(error)")
                try restart(machine, index)
            }
        }
    }

    // MARK: Quiescence and the checks

    /// Every round under way ends; then the machines sync one after another, round and round
    /// (each replica first brought up to date), until every machine has synced and the last
    /// `machines - 1` syncs sent nothing: then each machine has synced since the last record
    /// was written.
    func quiesce() throws {
        for machine in machines {
            for index in machine.processes.indices {
                guard let running = machine.processes[index].running else { continue }
                running.finish()
                try ended(machine, index)
            }
            // Started afresh, without the faults set for it.
            try restart(machine, 0)
        }
        var quiet = 0
        for turn in 0..<(12 * machines.count) {
            let machine = machines[turn % machines.count]
            drain(into: machine)
            let engine = engine(machine, machine.processes[0], cloud: machine.processes[0].store)
            clock.tick(1)
            do {
                let publishedBefore = try machine.player.published()
                let report = try engine.sync()
                // Records of the shared zones that arrived here, or published from here, are
                // not quiet either: others must read what was published.
                let published = try machine.player.published() != publishedBefore
                quiet = report.uploaded + report.conflictsResolved + report.shared > 0 || published ? 0 : quiet + 1
            } catch {
                problems.append("machine \(machine.index): a sync after the run failed: \(error)")
                return
            }
            if turn >= machines.count - 1, quiet >= machines.count - 1 { return }
        }
        problems.append("no quiescence: machines still sending records after 12 syncs each")
    }

    /// What must hold once quiet.
    func check() throws -> [String] {
        var found = problems
        let states = try machines.map(State.init)
        // Each player's machines hold the same games and reading list.
        for state in states {
            guard let first = states.first(where: { $0.player == state.player }), first.machine != state.machine, state != first else { continue }
            found.append("machine \(state.machine) differs from machine \(first.machine):\n" + state.difference(from: first).joined(separator: "\n"))
        }
        for machine in machines {
            let pending = try machine.player.pendingChangeCount()
            if pending > 0 { found.append("machine \(machine.index) still has \(pending) changes pending") }
        }
        for state in states {
            for (id, game) in state.games where Set(game.guesses).count != game.guesses.count {
                found.append("machine \(state.machine): game \(id) holds a guess twice: \(game.guesses)")
            }
            for (id, words) in saved[state.player] ?? [:] where !deleted.contains(id) {
                let there = Set(state.games[id]?.guesses ?? [])
                if !words.isSubset(of: there) {
                    found.append("machine \(state.machine): game \(id) lost guesses it was told were saved: \(words.subtracting(there).sorted())")
                }
            }
        }
        // Every machine of both players shows the same matches and leaderboard lines.
        if plan.friendMachines > 0 {
            let shown = try machines.map(SharedState.init)
            for state in shown.dropFirst() where state != shown[0] {
                found.append("machine \(state.machine) shows other matches or leaderboards than machine 0:\n"
                             + state.difference(from: shown[0]).joined(separator: "\n"))
            }
        }
        return found
    }
}

/// What a machine shows, to compare between machines.
struct State: Equatable {
    struct GameState: Equatable, CustomStringConvertible {
        var status: GameStatus
        var guesses: [String]
        var marks: String
        var finishedAt: Date?
        var hints: [Int]
        var bookmarked: Bool

        init(_ saved: SavedGame) {
            status = saved.game.status
            guesses = saved.game.guesses.map(\.word)
            marks = saved.game.marks.sorted { $0.key < $1.key }.map { "\($0.key)\($0.value.rawValue)" }.joined(separator: " ")
            finishedAt = saved.finishedAt
            hints = saved.hints
            bookmarked = saved.bookmarked
        }

        var description: String {
            "\(status.rawValue) \(guesses) marks [\(marks)] finished \(finishedAt.map { "\($0.timeIntervalSince1970)" } ?? "-") hints \(hints) bookmarked \(bookmarked)"
        }
    }

    var machine: Int
    var player: String
    var games: [String: GameState]
    var readingList: [String]

    init(_ machine: SimMachine) throws {
        self.machine = machine.index
        player = machine.profile.playerID
        let player = machine.player
        var games: [String: GameState] = [:]
        for saved in try player.history() + player.gamesInProgress() { games[saved.game.id] = GameState(saved) }
        self.games = games
        readingList = try player.readingList().map { "\($0.word) \($0.packID) \($0.addedAt.timeIntervalSince1970)" }.sorted()
    }

    static func == (a: State, b: State) -> Bool { a.games == b.games && a.readingList == b.readingList }

    func difference(from other: State) -> [String] {
        var lines: [String] = []
        for id in Set(games.keys).union(other.games.keys).sorted() where games[id] != other.games[id] {
            lines.append("  game \(id): \(other.games[id]?.description ?? "absent") on machine \(other.machine), \(games[id]?.description ?? "absent") here")
        }
        if readingList != other.readingList {
            lines.append("  reading list: \(other.readingList) on machine \(other.machine), \(readingList) here")
        }
        return lines
    }
}

/// The matches and leaderboards a machine shows, to compare between the machines of both players.
struct SharedState: Equatable {
    var machine: Int
    var matches: [String: MatchState]
    var leaderboards: Leaderboards

    /// The day the daily board is asked for: the simulation's (no game of it is a daily one, so
    /// the all-time board is the one that holds anything).
    static let day = "2026-09-21"

    init(_ machine: SimMachine) throws {
        self.machine = machine.index
        var matches: [String: MatchState] = [:]
        for overview in try machine.games.matches() { matches[overview.state.match.id] = overview.state }
        self.matches = matches
        leaderboards = try machine.games.leaderboards(day: Self.day)
    }

    static func == (a: SharedState, b: SharedState) -> Bool { a.matches == b.matches && a.leaderboards == b.leaderboards }

    func difference(from other: SharedState) -> [String] {
        var lines: [String] = []
        for id in Set(matches.keys).union(other.matches.keys).sorted() where matches[id] != other.matches[id] {
            lines.append("  match \(id): \(other.matches[id].map { "\($0)" } ?? "absent") on machine \(other.machine), \(matches[id].map { "\($0)" } ?? "absent") here")
        }
        if leaderboards != other.leaderboards {
            lines.append("  leaderboards: \(other.leaderboards.allTime) on machine \(other.machine), \(leaderboards.allTime) here")
        }
        return lines
    }
}

/// A seed's run, and the shortest list of its steps that still fails.
public enum Simulation {
    /// Runs the plan's steps; the problems found (none: it passed). `time`, when given, is told
    /// the seconds spent in each part of the run.
    public static func problems(_ plan: Plan, time: UnsafeMutablePointer<Timing>? = nil) -> [String] {
        var clock = Date()
        func lap(_ part: WritableKeyPath<Timing, TimeInterval>) {
            let now = Date()
            time?.pointee[keyPath: part] += now.timeIntervalSince(clock)
            clock = now
        }
        do {
            let world = try World(plan)
            lap(\.setUp)
            for step in plan.steps { try world.run(step) }
            lap(\.steps)
            try world.quiesce()
            lap(\.quiescence)
            defer { lap(\.checks) }
            let found = try world.check()
            time?.pointee.matchesMade += world.matchesMade
            time?.pointee.matchGuesses += world.matchGuesses
            // Every round has ended (quiescence ended them): the connections can serve again.
            Content.giveBack(world.machines.map(\.slot))
            return found
        } catch {
            return ["the run stopped: \(error)"]
        }
    }

    /// Where a run's time goes, in seconds.
    public struct Timing: Sendable {
        public var setUp: TimeInterval = 0
        public var steps: TimeInterval = 0
        public var quiescence: TimeInterval = 0
        public var checks: TimeInterval = 0
        /// What the runs did of matches: matches made, guesses saved in their games.
        public var matchesMade = 0, matchGuesses = 0

        public init() {}

        public var description: String {
            String(format: "setting up %.1f s, steps %.1f s, quiescence %.1f s, checks %.1f s; %d matches made, %d guesses in their games",
                   setUp, steps, quiescence, checks, matchesMade, matchGuesses)
        }
    }

    /// Steps taken away, a block at a time then one at a time, while the run still fails.
    public static func shrink(_ plan: Plan, budget: Int = 400) -> Plan {
        var plan = plan, tries = 0
        var chunk = max(1, plan.steps.count / 2)
        while chunk >= 1, tries < budget {
            var start = 0, removed = false
            while start < plan.steps.count, tries < budget {
                var smaller = plan
                smaller.steps.removeSubrange(start..<min(start + chunk, plan.steps.count))
                tries += 1
                if !problems(smaller).isEmpty {
                    plan = smaller
                    removed = true
                } else {
                    start += chunk
                }
            }
            if !removed || chunk > 1 { chunk /= 2 }
        }
        return plan
    }

    /// A failure told so it can be replayed: the seed, the machines, the shortest step list.
    public static func report(_ plan: Plan, _ problems: [String]) -> String {
        let shrunk = shrink(plan)
        let steps = shrunk.steps.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n")
        return """
            simulation seed \(plan.seed) failed (replay: `qiktionary-sim --seed \(plan.seed)`, or QIKTIONARY_SIM_SEED=\(plan.seed) swift test --filter SimulationTests.replay): \
            \(plan.machines) machines x \(plan.processes) processes\(plan.friendMachines > 0 ? ", the other player's \(plan.friendMachines) (from machine \(plan.machines) on)" : ""), \
            \(plan.replicated ? "replicated folders" : "one shared folder")
            \(problems.joined(separator: "\n"))
            shortest failing list (\(shrunk.steps.count) of \(plan.steps.count) steps), which fails with:
            \(Simulation.problems(shrunk).joined(separator: "\n"))
            \(steps)
            """
    }
}
