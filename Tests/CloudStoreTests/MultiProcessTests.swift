import CloudStore
import Foundation
import TestSupport
import Testing

/// Real processes on one folder: concurrent writers, and writers killed with SIGKILL.
@Suite(.serialized) struct MultiProcessTests {
    private struct ProbeRun {
        let process: Process
        let output: Pipe

        /// The commits the probe reported as returned before it ended.
        func committed() -> Set<Int> {
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            return Set(text.split(separator: "\n").compactMap { line in line.hasPrefix("ok ") ? Int(line.dropFirst(3)) : nil })
        }
    }

    private func startProbe(root: URL, device: String, prefix: String, commits: Int, batch: Int, killAtStep: Int? = nil) throws -> ProbeRun {
        let process = Process()
        process.executableURL = try probeBinary()
        process.arguments = ["commit", "--root", root.path, "--player", "alice", "--device", device, "--zone", "Games",
                             "--commits", "\(commits)", "--batch", "\(batch)", "--prefix", prefix]
            + (killAtStep.map { ["--kill-at-step", "\($0)"] } ?? [])
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        return ProbeRun(process: process, output: output)
    }

    @Test func concurrentWritersLoseNothingAndApplyNothingTwice() throws {
        let root = temporaryFolder("cloudstore-tests")
        let writers = [("P1", "p1a"), ("P2", "p2"), ("P3", "p3"), ("P1", "p1b")] // two processes share device P1
        let commits = 15, batch = 3
        let runs = try writers.map { try startProbe(root: root, device: $0.0, prefix: $0.1, commits: commits, batch: batch) }

        // A reader fetching incrementally all the while.
        let reader = try FolderCloudDatabase.onDisk(root: root, player: "alice", device: DeviceID("R"))
        var replica = Replica()
        var fetches = 0
        while runs.contains(where: { $0.process.isRunning }) {
            if (try? reader.zones())?.contains(games) == true {
                try replica.pull(from: reader)
                fetches += 1
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
        for run in runs {
            run.process.waitUntilExit()
            #expect(run.process.terminationStatus == 0)
            #expect(run.committed() == Set(0..<commits))
        }
        try replica.pull(from: reader)

        let expected = Set(writers.flatMap { writer in (0..<commits).flatMap { c in (0..<batch).map { "\(writer.1)-\(c)-\($0)" } } })
        #expect(Set(replica.records.keys) == expected)
        #expect(fetches > 1)
        // Each commit is exactly one segment: P1's two processes interleaved in one gapless log.
        let token = try #require(replica.token)
        let data = String(decoding: token.serialized, as: UTF8.self)
        #expect(data.contains("\"P1\":\(2 * commits)") && data.contains("\"P2\":\(commits)") && data.contains("\"P3\":\(commits)"))
        for device in ["P1", "P2", "P3"] {
            let values = try FolderCloudDatabase.onDisk(root: root, player: "alice", device: DeviceID(device)).liveValues()
            #expect(Set(values.keys) == expected)
        }
    }

    @Test func writersKilledAtRandomMomentsNeverLeaveHalfACommit() throws {
        let root = temporaryFolder("cloudstore-tests")
        let warnings = WarningLog()
        let reader = try FolderCloudDatabase.onDisk(root: root, player: "alice", device: DeviceID("R"),
                                                    options: CloudStoreOptions(warnings: warnings.sink))
        var replica = Replica()
        var reported: [String: Set<Int>] = [:]
        let batch = 3
        for run in 0..<100 {
            let prefix = "run\(run)"
            // Half the runs die at a chosen write step, half at a random moment.
            let killAtStep = run.isMultiple(of: 2) ? Int.random(in: 1...60) : nil
            let probe = try startProbe(root: root, device: "K", prefix: prefix, commits: 1_000, batch: batch, killAtStep: killAtStep)
            if killAtStep == nil {
                Thread.sleep(forTimeInterval: Double.random(in: 0.005...0.06))
                kill(probe.process.processIdentifier, SIGKILL)
            }
            probe.process.waitUntilExit()
            #expect(probe.process.terminationReason == .uncaughtSignal || probe.process.terminationStatus == 0)
            reported[prefix] = probe.committed()
            if run.isMultiple(of: 10) || run == 99 {
                do {
                    try replica.pull(from: reader)
                } catch CloudStoreError.zoneNotFound(_) where reported.values.allSatisfy(\.isEmpty) {
                    // Killed before its first commit created the zone: nothing to see yet, rightly.
                }
            }
        }

        var byCommit: [String: Int] = [:]
        for name in replica.records.keys {
            let parts = name.split(separator: "-")
            byCommit["\(parts[0])-\(parts[1])", default: 0] += 1
        }
        #expect(byCommit.values.allSatisfy { $0 == batch }, "a commit is half visible")
        for (prefix, commits) in reported {
            for commit in commits { #expect(byCommit["\(prefix)-\(commit)"] == batch, "reported commit \(prefix)-\(commit) lost") }
            // At most the one commit in flight when killed is visible beyond what was reported.
            let visible = byCommit.keys.filter { $0.hasPrefix("\(prefix)-") }.count
            #expect(visible <= commits.count + 1)
        }
        #expect(reported.values.map(\.count).reduce(0, +) > 0)
        #expect(warnings.all.isEmpty, "\(warnings.all)")
        // A fresh reader and the writer itself agree with the incremental reader.
        #expect(try FolderCloudDatabase.onDisk(root: root, player: "alice", device: DeviceID("Q")).liveValues().count == replica.records.count)
        let writer = try FolderCloudDatabase.onDisk(root: root, player: "alice", device: DeviceID("K"))
        try writer.save([record("final")])
        #expect(try writer.liveValues().count == replica.records.count + 1)
    }
}
