import Foundation
import Testing

/// The benchmark itself keeps working: at a small scale it measures every metric, its
/// baselines agree with the real sync, and the byte counts (not the timings, which belong to
/// the benchmark's own runs) stay within the targets of docs/performance.md.
@Suite struct BenchmarkTests {
    static let bench = Binary.url.deletingLastPathComponent().appendingPathComponent("qiktionary-bench")

    @Test func aSmallRunMeasuresEveryMetricWithItsBaselines() throws {
        let result = try Binary.run(["--games", "40", "--runs", "1", "--json"], executable: Self.bench)
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.events
        var byMetric: [String: [String: Any]] = [:]
        for row in rows { byMetric[row["metric"] as? String ?? ""] = row }
        let expected = ["upload.all", "sync.nothingToDo", "sync.nothingToDo.fileOperations", "baseline.naiveSync", "sync.nothingToDo.vsNaive",
                        "sync.oneGuess", "upload.bytesPerGuess", "game.submitGuess", "sync.firstSync", "baseline.floor", "sync.firstSync.vsFloor",
                        "program.firstSync", "program.firstSync.peakMemory", "program.firstScreen", "program.firstScreen.peakMemory",
                        "cloud.sizeVsLiveJSON"]
        #expect(Set(byMetric.keys) == Set(expected))
        #expect(rows.count == expected.count)
        func median(_ metric: String) -> Double { byMetric[metric]?["median"] as? Double ?? -1 }
        for row in rows {
            let values = ["median", "min", "max", "spread"].map { row[$0] as? Double ?? -1 }
            #expect(values.allSatisfy { $0 >= 0 }, "\(row)")
            #expect(values[1] <= values[0] && values[0] <= values[2], "\(row)")
            #expect(row["games"] as? Int == 40)
        }
        // A sync with nothing to do reads the heads and checks for a next segment, nothing more.
        #expect(median("sync.nothingToDo.fileOperations") <= 6)
        #expect(median("sync.nothingToDo.vsNaive") > 1)
        #expect(median("upload.bytesPerGuess") > 50 && median("upload.bytesPerGuess") <= 400)
        #expect(median("cloud.sizeVsLiveJSON") > 0.01 && median("cloud.sizeVsLiveJSON") <= 2)
        #expect(median("program.firstScreen.peakMemory") > 1)
        // Only the 10,000-game scale carries targets.
        #expect(rows.allSatisfy { $0["target"] == nil && $0["met"] == nil })
    }

    @Test func aSeededDataDirOpensInTheGame() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("qk-seed-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let seeded = try Binary.run(["--seed", "12", dir.path], executable: Self.bench)
        #expect(seeded.status == 0, "\(seeded.stderr)")
        let history = try Binary.run(["history", "--json", "--data-dir", dir.path, "--no-sync"])
        #expect(history.status == 0, "\(history.stderr)")
        #expect((history.json as? [Any])?.count == 12)
    }

    @Test func badArgumentsAreRefusedInOneLine() throws {
        let existing = FileManager.default.temporaryDirectory.path
        for arguments in [["--games", "0"], ["--runs", "x"], ["--fast"], ["--seed", "10"], ["--seed", "0", "/tmp/x"], ["--seed", "10", existing]] {
            let result = try Binary.run(arguments, executable: Self.bench)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.hasPrefix("qiktionary-bench: ") && result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
        }
    }
}
