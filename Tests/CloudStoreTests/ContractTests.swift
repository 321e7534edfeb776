import CloudStore
import Foundation
import Testing

/// The store's contract, run against the disk folder and the in-memory folder alike.
@Suite struct ContractTests {
    @Test(arguments: Backend.allCases)
    func savedRecordsReachOtherDevicesWithSystemFields(backend: Backend) throws {
        let cloud = backend.makeCloud()
        let a = try cloud.store("A"), b = try cloud.store("B")
        try a.createZone(games)
        let result = try a.save([record("r1", 7)])
        let saved = try #require(result.savedRecords.first?.systemFields)
        #expect(saved.createdBy.name == "A" && saved.modifiedBy.name == "A")

        let changes = try b.fetchZoneChanges(games, since: nil)
        #expect(changes.changedRecords.map(\.recordName) == ["r1"])
        #expect(changes.changedRecords.first?.fields["value"] == .int(7))
        #expect(changes.changedRecords.first?.systemFields == saved)
        #expect(changes.isComplete)
    }

    @Test(arguments: Backend.allCases)
    func coalescesSavesDeletionsAndOwnChanges(backend: Backend) throws {
        let cloud = backend.makeCloud()
        let a = try cloud.store("A"), b = try cloud.store("B")
        try a.createZone(games)
        try a.save([record("old", 1)])
        let token = try b.fetchZoneChanges(games, since: nil).token

        try a.save([record("thrice", 1)])
        try a.save([record("thrice", 2)])
        try a.save([record("thrice", 3)])
        try a.save([record("brief", 1)])
        try a.delete(["brief"])
        try a.delete(["old"])
        try b.save([record("mine", 1)])

        let changes = try b.fetchZoneChanges(games, since: token)
        #expect(changes.changedRecords.map(\.recordName) == ["thrice"])
        #expect(changes.changedRecords.first?.fields["value"] == .int(3))
        #expect(changes.deletedRecords == [DeletedRecord(recordType: "Game", recordName: "old")])

        // Nothing new for B now, and A never gets its own changes back, only B's.
        #expect(try b.fetchZoneChanges(games, since: changes.token).changedRecords.isEmpty)
        let aToken = try a.fetchZoneChanges(games, since: nil).token
        try a.save([record("thrice", 4)])
        #expect(try a.fetchZoneChanges(games, since: aToken).changedRecords.isEmpty)
    }

    @Test(arguments: Backend.allCases)
    func databaseChangesNameOnlyZonesOthersChanged(backend: Backend) throws {
        let cloud = backend.makeCloud()
        let a = try cloud.store("A"), b = try cloud.store("B")
        let reading = try ZoneID("ReadingList")
        try a.createZone(games)
        try a.createZone(reading)
        let first = try b.fetchDatabaseChanges(since: nil)
        #expect(first.changedZones == [games, reading])

        try a.save([record("g1")], in: games)
        let second = try b.fetchDatabaseChanges(since: first.token)
        #expect(second.changedZones == [games])
        #expect(try b.fetchDatabaseChanges(since: second.token).changedZones.isEmpty)

        try b.createZone(reading)
        try b.save([record("bookmark", type: "Bookmark")], in: reading)
        #expect(try b.fetchDatabaseChanges(since: second.token).changedZones.isEmpty)

        let restored = try ChangeToken(string: second.token.stringValue)
        #expect(restored == second.token)
    }

    @Test(arguments: Backend.allCases)
    func staleChangeTagFailsWithServerRecord(backend: Backend) throws {
        let cloud = backend.makeCloud()
        let a = try cloud.store("A"), b = try cloud.store("B")
        try a.createZone(games)
        let first = try #require(try a.save([record("r", 1)], policy: .ifServerRecordUnchanged).savedRecords.first)
        var fromB = try #require(try b.fetchZoneChanges(games, since: nil).changedRecords.first)
        fromB.fields["value"] = .int(2)
        let second = try #require(try b.save([fromB], policy: .ifServerRecordUnchanged).savedRecords.first)

        var stale = first
        stale.fields["value"] = .int(3)
        #expect(throws: CloudStoreError.partialFailure(["r": .serverRecordChanged(serverRecord: second)])) {
            try a.save([stale], policy: .ifServerRecordUnchanged)
        }
        // A record never saved must not collide with an existing one either.
        #expect(throws: CloudStoreError.partialFailure(["r": .serverRecordChanged(serverRecord: second)])) {
            try a.save([record("r", 4)], policy: .ifServerRecordUnchanged)
        }
        try b.delete(["r"])
        #expect(throws: CloudStoreError.partialFailure(["r": .unknownRecord(recordName: "r")])) {
            try a.save([second], policy: .ifServerRecordUnchanged)
        }
        // Forcing wins over everything seen.
        try a.save([stale], policy: .overwrite)
        #expect(try b.liveValues()["r"] == .int(3))
    }

    @Test(arguments: Backend.allCases)
    func aChangedKeysSaveMergesOntoTheCloudsVersionAfterTheTagCheck(backend: Backend) throws {
        let cloud = backend.makeCloud()
        let a = try cloud.store("A"), b = try cloud.store("B")
        try a.createZone(games)
        var full = record("g", 1)
        full["status"] = .string("in-progress")
        let saved = try #require(try a.save([full], policy: .ifServerRecordUnchanged).savedRecords.first)

        // B sends only the field it changed, carrying the tag it last saw.
        var seen = try #require(try b.fetchZoneChanges(games, since: nil).changedRecords.first)
        seen.fields = ["status": .string("won")]
        let merged = try #require(try b.save([seen], policy: .changedKeys).savedRecords.first)
        #expect(merged.fields == ["value": .int(1), "status": .string("won")])
        #expect(try a.fetchZoneChanges(games, since: nil).changedRecords.first?.fields == merged.fields)

        // A's next changed-keys save carries a stale tag: refused with the cloud's version.
        var stale = saved
        stale.fields = ["status": .string("lost")]
        #expect {
            try a.save([stale], policy: .changedKeys)
        } throws: { error in
            guard case .partialFailure(let failures)? = error as? CloudStoreError,
                  case .serverRecordChanged(let server)? = failures["g"] else { return false }
            return server.fields["status"] == .string("won")
        }
        // Creating a record that already exists is a conflict too, never a silent overwrite.
        #expect(throws: CloudStoreError.self) { try a.save([record("g", 9)], policy: .changedKeys) }
        #expect(try b.liveValues()["g"] == .int(1))
    }

    @Test(arguments: Backend.allCases)
    func refusesBadBatchesAndUnknownZones(backend: Backend) throws {
        let cloud = backend.makeCloud()
        let a = try cloud.store("A")
        #expect(throws: CloudStoreError.zoneNotFound(games)) { try a.save([record("r")]) }
        #expect(throws: CloudStoreError.zoneNotFound(games)) { try a.fetchZoneChanges(games, since: nil) }
        try a.createZone(games)
        let many = (0...400).map { record("r\($0)") }
        #expect(throws: CloudStoreError.batchTooLarge(count: 401, limit: 400)) { try a.save(many) }
        try a.save(Array(many.prefix(400)))
        #expect(throws: CloudStoreError.self) { try a.save([record("x"), record("x")]) }
        #expect(throws: CloudStoreError.self) { try a.save([record("")]) }
        #expect(try a.liveValues().count == 400)
    }

    @Test(arguments: Backend.allCases)
    func injectedFaultsFailWithoutWriting(backend: Backend) throws {
        let cloud = backend.makeCloud()
        let faults = CloudFaults()
        let a = try cloud.store("A", faults: faults)
        try a.createZone(games)

        faults.setUnavailable(true)
        #expect(throws: CloudStoreError.unavailable(reason: "injected: folder unavailable")) { try a.save([record("r")]) }
        faults.setUnavailable(false)

        faults.rateLimit(retryAfter: 2.5, times: 2)
        #expect(throws: CloudStoreError.rateLimited(retryAfter: 2.5)) { try a.save([record("r")]) }
        #expect(throws: CloudStoreError.rateLimited(retryAfter: 2.5)) { try a.fetchZoneChanges(games, since: nil) }

        faults.failRecords(["bad"])
        #expect(throws: CloudStoreError.partialFailure(["bad": .unavailable(reason: "injected: record bad failed")])) {
            try a.save([record("good"), record("bad")])
        }
        faults.failRecords([])
        #expect(try a.liveValues().isEmpty)

        faults.slowIO(0.05)
        let start = Date()
        try a.save([record("good")])
        #expect(Date().timeIntervalSince(start) >= 0.05)
        #expect(try a.liveValues().keys.sorted() == ["good"])
    }

    @Test(arguments: Backend.allCases)
    func crashAtAnyWriteStepLeavesWholeCommitsOnly(backend: Backend) throws {
        for point in CrashPoint.allInCommit {
            let cloud = backend.makeCloud()
            let faults = CloudFaults()
            let writer = try cloud.store("A", faults: faults)
            try writer.createZone(games)
            try writer.save([record("before-1"), record("before-2")])
            faults.crash(at: point)
            #expect(throws: CloudStoreError.self) { try writer.save([record("crash-1"), record("crash-2")]) }

            let values = try cloud.store("B").liveValues()
            let crashed = values.keys.filter { $0.hasPrefix("crash") }
            #expect(Set(values.keys).isSuperset(of: ["before-1", "before-2"]), "\(point)")
            #expect(crashed.isEmpty || crashed.count == 2, "half a commit visible after a crash \(point)")
            // Once the segment is published the commit counts, even if its head was not updated.
            let published = point.file == .head || (point.step == .publish && point.timing == .after) || point.step == .flushDirectory
            #expect(crashed.count == (published ? 2 : 0), "\(point)")

            // The writer, restarted, goes on with no gap and no overwritten commit.
            let restarted = try cloud.store("A")
            try restarted.save([record("after")])
            #expect(try cloud.store("C").liveValues().count == (published ? 5 : 3), "\(point)")
            #expect(cloud.warnings.all.isEmpty, "\(cloud.warnings.all)")
        }
    }

    @Test(arguments: Backend.allCases)
    func compactionExpiresOldTokensAndKeepsLiveRecords(backend: Backend) throws {
        let cloud = backend.makeCloud()
        let a = try cloud.store("A"), b = try cloud.store("B")
        try a.createZone(games)
        try a.save([record("r1", 1), record("r2", 1)])
        let oldToken = try b.fetchZoneChanges(games, since: nil).token
        for value in 2...5 { try a.save([record("r1", Int64(value))]) }
        try a.save([record("r3", 1)])
        try a.delete(["r2"])
        let recentToken = try b.fetchZoneChanges(games, since: oldToken).token

        let report = try a.compact(games, keepingRecent: 0)
        #expect(report.segmentsRemoved == 7 && report.liveRecords == 2 && report.tombstones == 1)

        #expect(throws: CloudStoreError.changeTokenExpired) { try b.fetchZoneChanges(games, since: oldToken) }
        #expect(try b.liveValues() == ["r1": .int(5), "r3": .int(1)])
        // A token at the compaction point still works, and so does a brand-new reader.
        #expect(try b.fetchZoneChanges(games, since: recentToken).changedRecords.isEmpty)
        #expect(try cloud.store("C").liveValues() == ["r1": .int(5), "r3": .int(1)])

        // Storage follows live data: one snapshot, no segments left.
        if let memory = cloud.folder as? MemoryFolder {
            #expect(memory.allFiles.filter { $0.hasSuffix(".seg") }.isEmpty)
            #expect(memory.allFiles.filter { $0.hasSuffix(".snap") }.count == 1)
        }
        try a.save([record("r4", 1)])
        #expect(try b.fetchZoneChanges(games, since: recentToken).changedRecords.map(\.recordName) == ["r4"])
    }

    @Test(arguments: Backend.allCases)
    func resetStartsANewGenerationOthersMustAdopt(backend: Backend) throws {
        let cloud = backend.makeCloud()
        let a = try cloud.store("A"), b = try cloud.store("B")
        try a.createZone(games)
        try a.save([record("r1")])
        let token = try b.fetchZoneChanges(games, since: nil).token

        let generation = try b.resetCloud()
        #expect(generation > CloudGeneration.initial)
        #expect(throws: CloudStoreError.cloudReset(newGeneration: generation)) { try a.save([record("r2")]) }
        #expect(throws: CloudStoreError.cloudReset(newGeneration: generation)) { try a.fetchDatabaseChanges(since: nil) }
        #expect(try a.adoptCurrentGeneration() == generation)
        #expect(throws: CloudStoreError.changeTokenExpired) { try b.fetchZoneChanges(games, since: token) }
        #expect(throws: CloudStoreError.zoneNotFound(games)) { try a.fetchZoneChanges(games, since: nil) }
        try a.createZone(games)
        try a.save([record("fresh")])
        #expect(try b.liveValues().keys.sorted() == ["fresh"])

        // A store opened with the generation it last knew learns of the reset too.
        let stale = try cloud.store("C", generation: .initial)
        #expect(throws: CloudStoreError.cloudReset(newGeneration: generation)) { try stale.zones() }
    }

    @Test(arguments: Backend.allCases)
    func aClockADayAheadDoesNotWinALaterEdit(backend: Backend) throws {
        let cloud = backend.makeCloud()
        let ahead = try cloud.store("A", now: { Date().addingTimeInterval(86_400) })
        let onTime = try cloud.store("B")
        try ahead.createZone(games)
        try ahead.save([record("mark", 1)])
        var replica = Replica()
        try replica.pull(from: onTime)
        var edited = try #require(replica.records["mark"])
        edited.fields["value"] = .int(2)
        try onTime.save([edited], policy: .ifServerRecordUnchanged)

        #expect(try ahead.liveValues()["mark"] == .int(2))
        #expect(try onTime.liveValues()["mark"] == .int(2))
        #expect(try cloud.store("C").liveValues()["mark"] == .int(2))
    }

    @Test(arguments: Backend.allCases)
    func concurrentEditsResolveTheSameEverywhere(backend: Backend) throws {
        let cloud = backend.makeCloud()
        let a = try cloud.store("A"), b = try cloud.store("B")
        try a.createZone(games)
        try a.save([record("r", 0)])
        _ = try b.liveValues()
        // Neither has seen the other's edit; both reach the folder.
        try a.save([record("r", 1)])
        try b.save([record("r", 2)])
        let views = try ["A", "B", "C"].map { try cloud.store($0).liveValues()["r"] }
        #expect(Set(views.map { "\(String(describing: $0))" }).count == 1)
        #expect(views.first == .int(2), "B edited after reading A's first save, so its HLC is later")
    }
}
