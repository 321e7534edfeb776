import Foundation
import QiktionaryCore
import QiktionaryResources

// qiktionary-coach-bench: how good the coach is and how fast.
//
//   swift build -c release --product qiktionary-coach-bench
//   .build/release/qiktionary-coach-bench [--pack ID]... [--json] [--runs R]
//
// Plays every word of every pack (or of the --pack ones) with the hint as its only strategy and
// with a random consistent guesser, under the pack's rules and under the other rule set, then
// times first-guess hints (per pack, and with a whole dictionary length as the answers) and the
// review of a 15-guess game. docs/coach.md explains each figure and holds the results.

struct Options {
    var packs: [String] = []
    var json = false
    var runs = 5

    init(_ arguments: [String]) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--pack":
                guard let id = rest.popFirst(), !id.isEmpty, !id.hasPrefix("-") else { Options.fail("--pack takes a pack id") }
                packs.append(id)
            case "--runs":
                guard let n = rest.popFirst().flatMap(Int.init), n > 0 else { Options.fail("--runs takes a positive number") }
                runs = n
            case "--json": json = true
            case "--help", "-h":
                print("""
                usage: qiktionary-coach-bench [--pack ID]... [--json] [--runs R]
                  --pack ID   only this pack (repeat for more); the whole-dictionary timings then
                              cover only the lengths of the packs chosen
                  --runs R    samples per timing, the median is reported (default 5)
                  --json      one JSON object per line: metric, label, value, unit, target, met
                """)
                exit(0)
            default: Options.fail("unknown argument '\(argument)' (see --help)")
            }
        }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("qiktionary-coach-bench: \(message)\n".utf8))
        exit(64)
    }
}

struct Target {
    var atMost: Double?
    var atLeast: Double?
    var unit: String

    var description: String {
        atMost.map { "≤ \(format($0)) \(unit)" } ?? "≥ \(format(atLeast ?? 0)) \(unit)"
    }

    func isMet(by value: Double) -> Bool { atMost.map { value <= $0 } ?? (value >= (atLeast ?? 0)) }
}

func format(_ value: Double) -> String {
    if value == value.rounded() && abs(value) < 1e15 { return String(Int(value)) }
    return String(format: abs(value) >= 100 ? "%.0f" : abs(value) >= 10 ? "%.1f" : "%.2f", value)
}

struct Row: Encodable {
    var metric: String
    var label: String
    var value: Double
    var unit: String
    var target: String?
    var met: Bool?
}

/// Prints each row the moment it is measured: a Markdown table, or JSON Lines.
final class Report {
    let json: Bool
    private(set) var rows: [Row] = []
    private var headerPrinted = false

    init(json: Bool) { self.json = json }

    func add(_ metric: String, _ label: String, _ value: Double, _ unit: String, target: Target? = nil) {
        let row = Row(metric: metric, label: label, value: (value * 1000).rounded() / 1000, unit: unit,
                      target: target?.description, met: target?.isMet(by: value))
        rows.append(row)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            emit(String(decoding: try! encoder.encode(row), as: UTF8.self))
        } else {
            if !headerPrinted {
                emit("| metric | what | value | target | met |")
                emit("|---|---|---|---|---|")
                headerPrinted = true
            }
            let met = row.met.map { $0 ? "yes" : "**no**" } ?? ""
            emit("| `\(metric)` | \(label) | \(format(value)) \(unit) | \(row.target ?? "") | \(met) |")
        }
    }

    private func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

func progress(_ text: String) {
    FileHandle.standardError.write(Data("qiktionary-coach-bench: \(text)\n".utf8))
}

func milliseconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// The median of `runs` timings of `body`, each after a fresh `setup`.
func timed<T>(runs: Int, setup: () -> T, _ body: (T) -> Void) -> Double {
    median((0..<runs).map { _ in
        let input = setup()
        return milliseconds { body(input) }
    })
}

extension Rules {
    var other: Rules { self == .classic ? .mastermind : .classic }
}

// MARK: Loading

let options = Options(Array(CommandLine.arguments.dropFirst()))
let report = Report(json: options.json)

let lexicon: Lexicon
var packs: [Pack] = []
do {
    lexicon = try BundledContent.lexicon()
    let files = try FileManager.default.contentsOfDirectory(at: BundledContent.packsFolder, includingPropertiesForKeys: nil)
        .filter { $0.pathExtension == "json" }
    for file in files { packs.append(try JSONDecoder().decode(Pack.self, from: Data(contentsOf: file))) }
    packs.sort { $0.id < $1.id }
} catch {
    Options.fail("cannot read the bundled content: \(error)")
}
if !options.packs.isEmpty {
    for id in options.packs where !packs.contains(where: { $0.id == id }) {
        Options.fail("no pack '\(id)' (packs: \(packs.map(\.id).joined(separator: ", ")))")
    }
    packs = packs.filter { options.packs.contains($0.id) }
}
let wordsByLength = Dictionary(uniqueKeysWithValues: Pack.lengths.map { ($0, lexicon.words(ofLength: $0)) })
func dictionary(_ length: Int) -> [String] { wordsByLength[length] ?? lexicon.words(ofLength: length) }

// MARK: Solving every pack word

/// Plays `secret` to the end with `choose` picking each guess from the candidates left.
func play(_ solver: Solver, secret: String, choose: ([String], [Guess]) -> String) -> Int {
    var played: [Guess] = []
    while played.count < 100 {
        let word = choose(solver.candidates(after: played), played)
        played.append(Guess(word: word, feedback: solver.rules.feedback(for: word, against: secret)))
        if word == secret { return played.count }
    }
    fatalError("\(secret) not found in 100 guesses under \(solver.rules)")
}

struct Tally {
    var games = 0
    var hint = 0
    var random = 0
    var randomCandidate = 0
}
var tallies: [Rules: Tally] = [:]
let improvementTarget = Target(atLeast: 25, unit: "%")

for pack in packs {
    let limit = pack.guessLimit
    for rules in [pack.rules, pack.rules.other] {
        let whose = rules == pack.rules ? "pack's rules" : "other rules"
        progress("solving \(pack.id) under \(rules) (\(whose))")
        let answers = pack.words.map(\.word).filter(rules.allows)
        let solver = Solver(rules: rules, length: pack.length, answers: answers, guesses: dictionary(pack.length))
        // The baseline player knows the dictionary, not the pack: it guesses a random word of
        // the guess set that fits every feedback so far.
        let dictionarySolver = Solver(rules: rules, length: pack.length, answers: dictionary(pack.length), guesses: [])
        // The first hint depends only on the answer set: worked out once here, timed below.
        guard let first = solver.hint(candidates: solver.candidates(after: [])) else { continue }
        var random = SeededGenerator(seed: 20_240_601)
        var hintCounts: [Int] = [], randomCounts: [Int] = [], candidateCounts: [Int] = []
        for secret in answers {
            hintCounts.append(play(solver, secret: secret) { candidates, played in
                played.isEmpty ? first.word : solver.hint(candidates: candidates)!.word
            })
            randomCounts.append(play(dictionarySolver, secret: secret) { candidates, _ in candidates.randomElement(using: &random)! })
            candidateCounts.append(play(solver, secret: secret) { candidates, _ in candidates.randomElement(using: &random)! })
        }
        let n = Double(answers.count)
        func average(_ counts: [Int]) -> Double { Double(counts.reduce(0, +)) / n }
        let within = hintCounts.filter { $0 <= limit }.count
        let name = "solve.\(pack.id).\(rules.rawValue)"
        let label = "\(pack.id), \(rules.rawValue) (\(whose)), \(answers.count) words"
        report.add("\(name).hint.average", "\(label): hint strategy, average guesses", average(hintCounts), "guesses")
        report.add("\(name).hint.worst", "\(label): hint strategy, worst", Double(hintCounts.max() ?? 0), "guesses")
        report.add("\(name).hint.withinLimit", "\(label): words solved within \(limit) guesses", 100 * Double(within) / n, "%",
                   target: Target(atLeast: 100, unit: "%"))
        report.add("\(name).random.average", "\(label): random consistent guess (dictionary), average", average(randomCounts), "guesses")
        report.add("\(name).random.worst", "\(label): random consistent guess (dictionary), worst", Double(randomCounts.max() ?? 0), "guesses")
        report.add("\(name).improvement", "\(label): hint, fewer guesses than the random consistent guess", 100 * (1 - average(hintCounts) / average(randomCounts)), "%")
        report.add("\(name).randomCandidate.average", "\(label): random candidate (knows the pack), average", average(candidateCounts), "guesses")
        report.add("\(name).improvementOverCandidate", "\(label): hint, fewer guesses than the random candidate",
                   100 * (1 - average(hintCounts) / average(candidateCounts)), "%")
        var tally = tallies[rules, default: Tally()]
        tally.games += answers.count
        tally.hint += hintCounts.reduce(0, +)
        tally.random += randomCounts.reduce(0, +)
        tally.randomCandidate += candidateCounts.reduce(0, +)
        tallies[rules] = tally
    }
}
for rules in Rules.allCases {
    guard let tally = tallies[rules], tally.games > 0 else { continue }
    let games = Double(tally.games)
    let hint = Double(tally.hint) / games, random = Double(tally.random) / games, candidate = Double(tally.randomCandidate) / games
    let name = "solve.\(rules.rawValue)", label = "every game under \(rules.rawValue) (\(tally.games))"
    report.add("\(name).hint.average", "\(label): hint strategy, average guesses", hint, "guesses")
    report.add("\(name).random.average", "\(label): random consistent guess (dictionary), average", random, "guesses")
    report.add("\(name).improvement", "\(label): hint, fewer guesses than the random consistent guess", 100 * (1 - hint / random), "%",
               target: improvementTarget)
    report.add("\(name).randomCandidate.average", "\(label): random candidate (knows the pack), average", candidate, "guesses")
    report.add("\(name).improvementOverCandidate", "\(label): hint, fewer guesses than the random candidate", 100 * (1 - hint / candidate), "%")
}

// MARK: Timings

let runs = options.runs
let packHintTarget = Target(atMost: 50, unit: "ms")
var worstPackHint = 0.0
for pack in packs {
    for rules in [pack.rules, pack.rules.other] {
        progress("timing the first hint of \(pack.id) under \(rules)")
        let answers = pack.words.map(\.word)
        let guesses = dictionary(pack.length)
        let solver = Solver(rules: rules, length: pack.length, answers: answers, guesses: guesses)
        if rules == pack.rules {
            let initTime = timed(runs: runs, setup: {}) { _ = Solver(rules: rules, length: pack.length, answers: answers, guesses: guesses) }
            report.add("time.init.\(pack.id)", "\(pack.id): building its solver (\(guesses.count) guesses)", initTime, "ms")
        }
        let time = timed(runs: runs, setup: { solver.candidates(after: []) }) { _ = solver.hint(candidates: $0) }
        worstPackHint = max(worstPackHint, time)
        report.add("time.hint.\(pack.id).\(rules.rawValue)", "\(pack.id), \(rules.rawValue): first hint", time, "ms", target: packHintTarget)
    }
}
if !packs.isEmpty {
    report.add("time.hint.packs.worst", "first hint, the slowest pack and rule set", worstPackHint, "ms", target: packHintTarget)
}

let dictionaryHintTarget = Target(atMost: 250, unit: "ms")
let lengths = options.packs.isEmpty ? Array(Pack.lengths) : Array(Set(packs.map(\.length))).sorted()
for length in lengths {
    for rules in Rules.allCases {
        progress("timing the first hint with every \(length)-letter word as an answer, \(rules)")
        let words = dictionary(length)
        let initTime = timed(runs: runs, setup: {}) { _ = Solver(rules: rules, length: length, answers: words, guesses: words) }
        let solver = Solver(rules: rules, length: length, answers: words, guesses: words)
        let name = "dictionary.\(length).\(rules.rawValue)"
        report.add("time.init.\(name)", "\(length) letters, \(rules.rawValue): building its solver (\(solver.answerCount) words)", initTime, "ms")
        let time = timed(runs: runs, setup: { solver.candidates(after: []) }) { _ = solver.hint(candidates: $0) }
        report.add("time.hint.\(name)", "\(length) letters, \(rules.rawValue): first hint, \(solver.answerCount) × \(solver.answerCount)", time, "ms",
                   target: dictionaryHintTarget)
    }
}

/// A game of 15 guesses: 14 random words that miss, then the secret.
func longGame(_ pack: Pack, rules: Rules, seed: UInt64) -> [Guess] {
    var random = SeededGenerator(seed: seed)
    let secret = pack.words.map(\.word).filter(rules.allows).randomElement(using: &random)!
    var words: [String] = []
    for word in dictionary(pack.length).shuffled(using: &random) where rules.allows(word) && word != secret {
        words.append(word)
        if words.count == 14 { break }
    }
    return (words + [secret]).map { Guess(word: $0, feedback: rules.feedback(for: $0, against: secret)) }
}

let reviewTarget = Target(atMost: 250, unit: "ms")
for pack in packs {
    progress("timing the review of a 15-guess game of \(pack.id)")
    let solver = Solver(rules: pack.rules, length: pack.length, answers: pack.words.map(\.word), guesses: dictionary(pack.length))
    let game = longGame(pack, rules: pack.rules, seed: 15)
    let time = timed(runs: runs, setup: {}) { _ = solver.review(guesses: game) }
    report.add("time.review.\(pack.id)", "\(pack.id), \(pack.rules.rawValue): review of a 15-guess game", time, "ms", target: reviewTarget)
}
progress("done")
