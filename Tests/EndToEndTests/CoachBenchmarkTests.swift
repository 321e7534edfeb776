import Foundation
import Testing

/// The coach's benchmark keeps working: on one small pack it plays every word with the hint and
/// with both random baselines, and measures every timing. How good the hint is (the guesses) is
/// checked here; how fast it is belongs to the benchmark's own release runs (docs/coach.md).
@Suite struct CoachBenchmarkTests {
    static let bench = Binary.url.deletingLastPathComponent().appendingPathComponent("qiktionary-coach-bench")

    @Test func onePackIsSolvedWithinItsLimitAndBetterThanRandom() throws {
        let result = try Binary.run(["--pack", "everyday", "--runs", "1", "--json"], executable: Self.bench)
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.events
        #expect(rows.count == result.lines.count, "every line is one JSON object")
        var byMetric: [String: [String: Any]] = [:]
        for row in rows {
            #expect(row["metric"] is String && row["label"] is String && row["unit"] is String && Self.number(row["value"]) != nil, "\(row)")
            byMetric[row["metric"] as? String ?? ""] = row
        }
        func value(_ metric: String) -> Double { Self.number(byMetric[metric]?["value"]) ?? -1 }

        // everyday is a classic pack of 4 letters; it is also played under mastermind.
        for rules in ["classic", "mastermind"] {
            let name = "solve.everyday.\(rules)"
            for suffix in ["hint.average", "hint.worst", "hint.withinLimit", "random.average", "random.worst", "improvement",
                           "randomCandidate.average", "improvementOverCandidate"] {
                #expect(byMetric["\(name).\(suffix)"] != nil, "\(name).\(suffix)")
            }
            #expect(value("\(name).hint.withinLimit") == 100)
            #expect(byMetric["\(name).hint.withinLimit"]?["met"] as? Bool == true)
            #expect(value("\(name).hint.worst") >= 1 && value("\(name).hint.worst") <= 15)
            #expect(value("\(name).hint.average") >= 1)
            #expect(value("\(name).hint.average") < value("\(name).random.average"))
            #expect(value("\(name).hint.average") <= value("\(name).randomCandidate.average"))
            // Over every game under the rule set, the target is judged and met.
            #expect(byMetric["solve.\(rules).improvement"]?["target"] as? String == "≥ 25 %")
            #expect(byMetric["solve.\(rules).improvement"]?["met"] as? Bool == true)
            #expect(value("solve.\(rules).hint.average") < value("solve.\(rules).random.average"))
        }

        // Every timing is taken, with its target; none is judged here.
        for metric in ["time.hint.everyday.classic", "time.hint.everyday.mastermind", "time.hint.packs.worst",
                       "time.hint.dictionary.4.classic", "time.hint.dictionary.4.mastermind", "time.review.everyday"] {
            #expect(value(metric) > 0, "\(metric)")
            #expect(byMetric[metric]?["target"] is String && byMetric[metric]?["met"] is Bool, "\(metric)")
        }
        for metric in ["time.init.everyday", "time.init.dictionary.4.classic", "time.init.dictionary.4.mastermind"] {
            #expect(value(metric) > 0, "\(metric)")
            #expect(byMetric[metric]?["target"] == nil)
        }
        // --pack limits the whole-dictionary timings to the chosen packs' lengths.
        #expect(!byMetric.keys.contains { $0.hasPrefix("time.hint.dictionary.5") || $0.hasPrefix("solve.animals") })
    }

    /// A JSON number, which JSONSerialization may hand back as an Int when it has no fraction.
    static func number(_ value: Any?) -> Double? {
        if let double = value as? Double { return double }
        if let int = value as? Int { return Double(int) }
        return nil
    }

    @Test func badArgumentsAreRefusedInOneLine() throws {
        for arguments in [["--pack"], ["--pack", "no-such-pack"], ["--runs", "0"], ["--runs", "x"], ["--fast"]] {
            let result = try Binary.run(arguments, executable: Self.bench)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stdout.isEmpty, "\(arguments)")
            #expect(result.stderr.hasPrefix("qiktionary-coach-bench: ") && result.stderr.split(separator: "\n").count == 1,
                    "\(arguments): \(result.stderr)")
        }
    }
}
