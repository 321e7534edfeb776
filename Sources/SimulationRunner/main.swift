import Foundation
import Simulation
import Spawn

/// The sync simulation's seeds, built optimized (docs/reliability.md, "The simulation"): the
/// same runs as `SimulationTests`, shared out among worker processes of this program, one per
/// core by default, each running its seeds one after another. `SimulationTests.optimized` builds
/// it and runs it in `swift test`; before a release it runs many more seeds.
///
///     qiktionary-sim [--seeds N] [--first S] [--jobs J]   seeds S to S+N-1 (0 to 1,999 by default)
///     qiktionary-sim --seed S                             one seed replayed, its steps printed
///
/// Exits 0 when every seed passed, 1 when one failed (its report printed: the seed, the machines,
/// what differs and the shortest failing step list), 64 for arguments it does not take.

let usage = "usage: qiktionary-sim [--seeds N] [--first S] [--jobs J] | --seed S"

func fail(_ message: String, code: Int32 = 64) -> Never {
    FileHandle.standardError.write(Data("qiktionary-sim: \(message)\n".utf8))
    exit(code)
}

var options: [String: Int] = [:]
var arguments = CommandLine.arguments.dropFirst()
while let name = arguments.popFirst() {
    if name == "--help" || name == "-h" {
        print(usage)
        exit(0)
    }
    guard ["--seeds", "--first", "--jobs", "--seed", "--worker", "--of"].contains(name) else { fail("unknown argument '\(name)'; \(usage)") }
    guard let text = arguments.popFirst() else { fail("\(name) needs a number; \(usage)") }
    guard let value = Int(text), value >= 0 else { fail("\(name) takes a whole number of 0 or more, not '\(text)'") }
    options[name] = value
}

let first = options["--first"] ?? 0
let count = options["--seeds"] ?? 2_000
guard count <= 10_000_000, first <= Int(Int32.max) else { fail("at most 10,000,000 seeds from a first seed below 2^31") }

/// One seed replayed: its steps, then its problems.
if let seed = options["--seed"] {
    let plan = Plan(seed: UInt64(seed))
    print(plan.steps.enumerated().map { "\($0.offset + 1). \($0.element)" }.joined(separator: "\n"))
    let problems = Simulation.problems(plan)
    if problems.isEmpty {
        print("seed \(seed) passed")
        exit(0)
    }
    print(Simulation.report(plan, problems))
    exit(1)
}

/// A worker: every `of`th seed from `first + worker`, stopping at the first that fails. Its last
/// line says what it ran, for the program that started it.
if let worker = options["--worker"] {
    let of = max(1, options["--of"] ?? 1)
    var ran = 0, timing = Simulation.Timing()
    for seed in stride(from: first + worker, to: first + count, by: of) {
        let plan = Plan(seed: UInt64(seed))
        let problems = Simulation.problems(plan, time: &timing)
        if !problems.isEmpty {
            print(Simulation.report(plan, problems))
            // The seeds this worker ran before are part of what its process holds (docs/reliability.md):
            // this replays the failure exactly as it ran.
            print("as it ran, after the seeds before it in this worker: qiktionary-sim --worker \(worker) --of \(of) --first \(first) --seeds \(seed - first + 1)")
            print("ran \(ran) failed \(seed) \(timing.setUp) \(timing.steps) \(timing.quiescence) \(timing.checks) \(timing.matchesMade) \(timing.matchGuesses)")
            exit(1)
        }
        ran += 1
    }
    print("ran \(ran) failed - \(timing.setUp) \(timing.steps) \(timing.quiescence) \(timing.checks) \(timing.matchesMade) \(timing.matchGuesses)")
    exit(0)
}

// The workers, one per core unless told.
let jobs = max(1, min(options["--jobs"] ?? ProcessInfo.processInfo.activeProcessorCount, 64, max(1, count)))
let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
let started = Date()
print("qiktionary-sim: seeds \(first) to \(first + count - 1) on \(jobs) worker processes")
var workers: [(pid: pid_t, output: URL)] = []
for worker in 0..<jobs {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("qiktionary-sim-\(getpid())-\(worker).txt")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    guard let handle = try? FileHandle(forWritingTo: output) else { fail("cannot write \(output.path)", code: 73) }
    do {
        let pid = try Spawn.start(me, ["--worker", "\(worker)", "--of", "\(jobs)", "--first", "\(first)", "--seeds", "\(count)"],
                                  environment: ProcessInfo.processInfo.environment,
                                  descriptors: [(from: handle.fileDescriptor, to: 1), (from: 2, to: 2)])
        workers.append((pid, output))
    } catch {
        fail("\(error)", code: 71)
    }
    try? handle.close()
}

var ran = 0, failed: [String] = [], reports: [String] = [], parts = [Double](repeating: 0, count: 6)
for (pid, output) in workers {
    var waited: Int32 = 0
    while waitpid(pid, &waited, 0) < 0, errno == EINTR {}
    let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    try? FileManager.default.removeItem(at: output)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
    let fields = lines.last?.split(separator: " ").map(String.init) ?? []
    guard fields.count == 10, fields[0] == "ran", let n = Int(fields[1]) else {
        failed.append("a worker")
        reports.append("a worker ended (status \(Spawn.status(waited))) without saying what it ran:\n\(text)")
        continue
    }
    ran += n
    for index in 0..<6 { parts[index] += Double(fields[4 + index]) ?? 0 }
    if fields[3] != "-" {
        failed.append("seed \(fields[3])")
        reports.append(lines.dropLast().joined(separator: "\n"))
    }
}

let seconds = Date().timeIntervalSince(started)
let perMinute = seconds > 0 ? Int((Double(ran) * 60 / seconds).rounded()) : ran
let timing = String(format: "setting up %.1f s, steps %.1f s, quiescence %.1f s, checks %.1f s; %d matches made, %d guesses in their games",
                    parts[0], parts[1], parts[2], parts[3], Int(parts[4]), Int(parts[5]))
for report in reports { print(report) }
if failed.isEmpty {
    print("qiktionary-sim: \(ran) seeds passed in \(String(format: "%.1f", seconds)) s, \(perMinute) a minute (\(timing))")
    exit(0)
}
print("qiktionary-sim: \(failed.joined(separator: ", ")) failed; \(ran) seeds passed in \(String(format: "%.1f", seconds)) s (\(timing))")
exit(1)
