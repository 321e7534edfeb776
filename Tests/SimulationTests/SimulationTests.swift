import Foundation
import Simulation
import Testing
import TestSupport

/// The sync engine under a deterministic simulation (docs/reliability.md): seeded runs of 2 or
/// 3 machines with 1 to 3 processes each (and, in half the seeds, a second player's one or two
/// machines), playing, bookmarking, deleting, resetting, making and playing matches and syncing
/// in every interleaving the seed picks, with processes killed between any two steps of a
/// round, crashes while a file is written, clocks that jump and files that arrive late, cut
/// short or out of order; then quiescence and the checks (the matches and leaderboards compared
/// across both players' machines too). A failure prints its seed and the shortest step list that
/// still fails.
@Suite struct SimulationTests {
    static let environment = ProcessInfo.processInfo.environment
    /// How many seeds the optimized run takes (QIKTIONARY_SIM_SEEDS for a longer run before a
    /// release): what fits in about a minute on two idle cores (docs/reliability.md).
    static let optimizedSeeds = environment["QIKTIONARY_SIM_SEEDS"].flatMap(Int.init) ?? 2_000
    /// Seeds run in this debug build too, in process, so the simulation as the tests build it
    /// is checked as well: the first of them, shared out among `slices` tests side by side.
    static let seeds = 64
    static let slices = 8
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test(arguments: 0..<slices)
    func seeds(slice: Int) {
        let started = Date()
        var ran = 0, timing = Simulation.Timing()
        for seed in stride(from: slice, to: Self.seeds, by: Self.slices) {
            let plan = Plan(seed: UInt64(seed))
            let problems = Simulation.problems(plan, time: &timing)
            ran += 1
            if !problems.isEmpty {
                Issue.record(Comment(rawValue: Simulation.report(plan, problems)))
                return
            }
        }
        print("simulation slice \(slice): \(ran) seeds passed in \(String(format: "%.1f", Date().timeIntervalSince(started))) s (\(timing.description))")
    }

    /// The seeds in thousands: `qiktionary-sim` built optimized (a debug build runs a seed about
    /// three times slower) into the static release build folder the install tests build too, so
    /// the libraries are compiled once for both, then run on one worker process per core.
    @Test func optimized() throws {
        let swift = try #require(["/usr/bin/swift", "/usr/local/bin/swift"].first { FileManager.default.isExecutableFile(atPath: $0) }
            ?? ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map { "\($0)/swift" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }, "swift is not on PATH")
        let scratch = Self.repository.appendingPathComponent(".build-install")
        let build = try ProcessRunner.run(URL(fileURLWithPath: swift),
                                          ["build", "-c", "release", "--static-swift-stdlib", "--scratch-path", scratch.path, "--product", "qiktionary-sim"],
                                          environment: Self.environment, directory: Self.repository, timeout: Patience.seconds(1_800))
        try #require(!build.timedOut && build.status == 0, "the optimized build of qiktionary-sim failed (status \(build.status)):\n\(build.stdout)\n\(build.stderr)")
        let runner = scratch.appendingPathComponent("release/qiktionary-sim")
        // Arguments it does not take are refused in one line, before any seed runs.
        for (arguments, line) in [(["--seeds", "x"], "qiktionary-sim: --seeds takes a whole number of 0 or more, not 'x'"),
                                  (["--seed"], "qiktionary-sim: --seed needs a number; usage: qiktionary-sim [--seeds N] [--first S] [--jobs J] | --seed S"),
                                  (["--fast"], "qiktionary-sim: unknown argument '--fast'; usage: qiktionary-sim [--seeds N] [--first S] [--jobs J] | --seed S")] {
            let refused = try ProcessRunner.run(runner, arguments, environment: Self.environment, timeout: Patience.seconds(30))
            #expect(refused.status == 64 && refused.stderr == line + "\n" && refused.stdout.isEmpty, "\(arguments): \(refused.status) \(refused.stderr)")
        }
        let run = try ProcessRunner.run(runner, ["--seeds", "\(Self.optimizedSeeds)"],
                                        environment: Self.environment, timeout: Patience.seconds(Double(Self.optimizedSeeds) * 0.5 + 60))
        print(run.stdout.split(separator: "\n").last.map(String.init) ?? "qiktionary-sim printed nothing")
        #expect(!run.timedOut, "qiktionary-sim did not end within its time; it printed:\n\(run.stdout)")
        #expect(run.status == 0, "qiktionary-sim exited \(run.status):\n\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("qiktionary-sim: \(Self.optimizedSeeds) seeds passed"), "qiktionary-sim did not say every seed passed:\n\(run.stdout)")
    }

    /// Seeds that found a defect, kept: each failed on the tree before its fix.
    /// - 561: the soak's reading lists that differed with nothing pending (issue 40). A machine
    ///   bookmarks a word; one process reads it to send and stops; another sends and clears it;
    ///   the player unbookmarks it (queued anew at version 1); the first process's older value
    ///   then reaches the cloud last, and acknowledging "version 1" cleared the unbookmark.
    /// - 38: a game finished and deleted while another process of the machine was sending it
    ///   stayed in the cloud, and on every other machine.
    /// - 678: the same game deleted after another process had sent it: the first process's send
    ///   of it met that version as a conflict, and applying the conflict put the game back here.
    /// - 2849, 2940 (the first long run): a game deleted after a round that sent it was killed or
    ///   crashed once its commit had landed: never acknowledged, its deletion was not queued.
    /// - 4080 (the first long run): one word guessed in one game on two machines, each at its own
    ///   position: each machine kept its own version of the one record, and listed it elsewhere.
    /// - 5137 (the second long run): a machine that had only ever sent into its games zone (no
    ///   other machine had written there) had no token for it; a game of it deleted on another
    ///   machine reached it in its first fetch of the zone, a full one, which brings no deletion:
    ///   the game stayed there for good.
    /// - 5268 (the second long run): a process fetched another machine's bookmark and stopped
    ///   before applying it; another process sent this machine's own, newer, value of it and
    ///   cleared it; the older version was then applied, and nothing was queued to mend it.
    /// - 63 (the matches' first runs): a finished game of a match deleted from the history took
    ///   the player's play of it off their own machines, not off the other player's, for good.
    ///   A game of a match now stays (the delete step goes through the use case).
    /// - 939, 4015 (the third long run): a machine whose clock was more than a day behind changed
    ///   a bookmark it had fetched (or resent its own over it); its clock, rightly, did not
    ///   follow a reading that far ahead, so its change was stamped before the version it
    ///   replaced and lost in the cloud, while it kept its value: two reading lists for good. A
    ///   commit is now stamped after every version it replaces.
    /// - 8471 (the first run of 26,000 seeds built optimized): a process fetched the games zone
    ///   and stopped before storing it; another process of the machine fetched the zone further,
    ///   bringing a game another machine then deleted; the older fetch, stored last, took the
    ///   zone's token back to before the game, and no later fetch brought its deletion. A fetch
    ///   is now stored only while the zone's token is still the one it began from.
    /// - 16364 (the same run): a process read a bookmark to send and committed it after another
    ///   process of the machine had sent a newer unbookmark, then was killed before
    ///   acknowledging: the older value won in the cloud, and this machine, which never fetches
    ///   its own commits, kept the newer. Marks and bookmarks now go over the version last seen.
    /// - 25800 (the sixth long run): the cloud's version of a game met by a commit, read before
    ///   another process sent the game's deletion, put the game back on the machine that had
    ///   deleted it. A conflict's versions now never insert a game.
    /// - 32277 (the eighth long run): one game of a match won on two of the player's machines
    ///   before either had the other's guesses, a win in 2 published and read, then a win in 1:
    ///   the merged game counts 1, so the player's machines showed a win in 1 and the other
    ///   player's, which never take a play back, a win in 2; and the machine that published the
    ///   win in 2 kept its leaderboard line, as nothing its history's fingerprint read had
    ///   moved. A game now keeps the furthest result published of it, and a guess of a finished
    ///   game moves the fingerprint.
    /// - 37485 (the ninth long run, no match in it): a process wrote the player's leaderboard
    ///   line to the folder and stopped before noting it; once the game it counted was
    ///   deleted, the line was back to the one noted before, so it was never written again, and
    ///   the other player kept the deleted game in it. A write is now forgotten as published
    ///   before it is made, and noted after.
    /// (8563, found in the same runs, failed only after its worker's earlier seeds: its test is
    /// `ChangeTrackingTests.aFetchedDeletionAfterADroppedGameStillDeletes`.)
    @Test(arguments: [UInt64(561), 38, 63, 678, 939, 2849, 2940, 4015, 4080, 5137, 5268, 8471, 16364, 25800, 32277, 37485])
    func regression(seed: UInt64) {
        let plan = Plan(seed: seed)
        let problems = Simulation.problems(plan)
        #expect(problems.isEmpty, Comment(rawValue: problems.isEmpty ? "" : Simulation.report(plan, problems)))
    }

    /// QIKTIONARY_SIM_SEED=N replays one seed and prints its steps.
    @Test(.enabled(if: environment["QIKTIONARY_SIM_SEED"] != nil))
    func replay() throws {
        let seed = try #require(Self.environment["QIKTIONARY_SIM_SEED"].flatMap(UInt64.init))
        let plan = Plan(seed: seed)
        print(plan.steps.enumerated().map { "\($0.offset + 1). \($0.element)" }.joined(separator: "\n"))
        let problems = Simulation.problems(plan)
        #expect(problems.isEmpty, Comment(rawValue: problems.isEmpty ? "" : Simulation.report(plan, problems)))
    }
}
