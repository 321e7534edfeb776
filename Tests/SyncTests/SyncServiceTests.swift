import CloudStore
import Concurrency
import Foundation
import QiktionaryCore
import Storage
import TestSupport
import Testing
@testable import Sync

/// The background service of the full-screen game and `sync --watch`, over real engines: rounds
/// one at a time, requests folded, stopping, the first-round wait, the folder watch (inotify, and
/// polling where inotify is off or cannot start) and what errors become. Every wait has a deadline;
/// no test measures how fast anything is.
@Suite struct SyncServiceTests {
    // MARK: Rounds and requests

    @Test func requestsDuringARoundMakeExactlyOneMoreAndKeepTheManualFlag() throws {
        let a = try machine("laptop")
        let gate = RoundGate(closed: true)
        let events = ServiceEvents()
        let service = SyncService(openEngine: gated(a, gate), report: events.record)
        service.start()
        #expect(gate.waitForWaiter(), "the first round reaches the cloud and is held there")
        // Five requests while the round is held, one of them manual.
        service.request(manual: false)
        service.request(manual: false)
        service.request(manual: true)
        service.request(manual: false)
        service.request(manual: false)
        gate.open()
        #expect(events.wait { $0.synced.count == 2 })
        service.stop()
        #expect(events.all.syncing == 2, "one round, then exactly one more for all five requests")
        #expect(events.all.synced.map(\.manual) == [false, true], "the manual request reaches the round it folded into")
    }

    /// A long first upload is told as it goes (throttled), ending at its whole, before the round's end.
    @Test func aLongUploadIsToldAsItIsSent() throws {
        let a = try machine("laptop")
        try FirstUploadTests.seed(a, games: 900)
        let (service, events) = service(a)
        defer { service.stop() }
        service.request(manual: true)
        #expect(events.wait { $0.synced.count == 1 })
        let sending = events.all.compactMap { if case .sending(let done, let total) = $0 { (done, total) } else { nil } }
        #expect(!sending.isEmpty)
        #expect(sending.last.map { $0 == (2_700, 2_700) } == true, "the last always passes: \(sending)")
        let order = events.all.map { if case .sending = $0 { "sending" } else if case .synced = $0 { "synced" } else { "" } }.filter { !$0.isEmpty }
        #expect(order.last == "synced" && order.dropLast().allSatisfy { $0 == "sending" })
    }

    @Test func theManualFlagBelongsToTheRoundItWasAskedFor() throws {
        let (service, events) = service(try machine("laptop"))
        defer { service.stop() }
        service.request(manual: true)
        #expect(events.wait { $0.synced.count == 1 })
        service.request(manual: false)
        #expect(events.wait { $0.synced.count == 2 })
        #expect(events.all.synced.map(\.manual) == [true, false])
    }

    @Test func stopWaitsForTheRoundUnderWayAndNoRoundRunsAfter() throws {
        let a = try machine("laptop")
        let gate = RoundGate(closed: true)
        let events = ServiceEvents()
        let service = SyncService(openEngine: gated(a, gate), report: events.record)
        service.start()
        #expect(gate.waitForWaiter())
        service.request(manual: true) // queued behind the held round
        let stopped = ServiceFlag()
        Thread { service.stop(); stopped.raise() }.start()
        #expect(!stopped.wait(seconds: 0.3), "stop() waits while the round is held")
        gate.open()
        #expect(stopped.wait(seconds: 10))
        let atStop = events.all
        #expect(atStop.synced.count == 1, "the held round ended before stop() returned")
        #expect(atStop.syncing == 1, "the round queued before stop() never ran")
        service.request(manual: true)
        service.adoptReset(keepLocal: true)
        service.start()
        #expect(!events.wait(seconds: 0.3) { $0.count > atStop.count }, "nothing runs after stop()")
        #expect(gate.passed == 1)
    }

    @Test func theFirstRoundWaitEndsWithTheRoundOrAtItsTimeout() throws {
        let a = try machine("laptop")
        let gate = RoundGate(closed: true)
        let events = ServiceEvents()
        let service = SyncService(openEngine: gated(a, gate), report: events.record)
        defer { service.stop() }
        service.start()
        #expect(gate.waitForWaiter())
        // The round is held: the wait ends at its timeout, with the round still under way.
        let started = Date()
        service.waitForFirstRound(seconds: 0.2)
        #expect(Date().timeIntervalSince(started) >= 0.2)
        #expect(events.all.synced.isEmpty)
        // Released while a long wait is under way: the wait ends with the round, not at 60 s.
        Thread { Thread.sleep(forTimeInterval: 0.1); gate.open() }.start()
        let waiting = Date()
        service.waitForFirstRound(seconds: 60)
        #expect(Date().timeIntervalSince(waiting) < 30)
        #expect(events.all.synced.count == 1, "the wait ended because the round had")
        // Once it has ended, every later wait returns at once.
        let again = Date()
        service.waitForFirstRound(seconds: 60)
        #expect(Date().timeIntervalSince(again) < 30)
    }

    @Test func changesQueuedHereByAnotherProcessAreSentWhenTheQueueIsChecked() throws {
        let a = try machine("laptop")
        let events = ServiceEvents()
        let engine = a.engine
        let service = SyncService(openEngine: { engine }, checkQueue: 0.05, report: events.record)
        defer { service.stop() }
        service.start()
        #expect(events.wait { $0.synced.count == 1 })
        // Another process of this machine plays: nobody asks this service for a round.
        let game = try a.start("tiger")
        try a.guess("crane", in: game.id)
        #expect(events.wait { $0.synced.contains { $0.report.uploaded > 0 } })
        #expect(try a.player.pendingChangeCount() == 0)
    }

    // MARK: Watching the folder

    @Test func anotherDevicesWriteStartsARoundThroughInotify() throws {
        // Polling once an hour: only inotify can start the round this test waits for.
        try anotherDevicesWriteArrives(watch: { SyncService.Watch(folder: $0, player: "player", pollInterval: 3600) },
                                       watching: .inotifyAndPolling, secret: "tiger", guess: "crane")
    }

    @Test func withInotifyOffPollingStartsTheRound() throws {
        try anotherDevicesWriteArrives(watch: { SyncService.Watch(folder: $0, player: "player", pollInterval: 0.05, inotify: false) },
                                       watching: .pollingOnly(reason: "inotify is turned off"), secret: "comet", guess: "pilot")
    }

    /// The laptop's service watches the folder as `watch` says; the desktop plays a game and
    /// syncs; the laptop's service notices and brings the game in, with no request of its own.
    func anotherDevicesWriteArrives(watch: (URL) -> SyncService.Watch, watching: SyncService.Watching,
                                    secret: String, guess: String) throws {
        let folder = temporaryFolder("qk-service")
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = TestClock()
        let a = try machine("laptop", clock: clock), b = try machine("desktop", clock: clock)
        let events = ServiceEvents()
        let engine = try diskEngine(a, folder: folder)
        let service = SyncService(openEngine: { engine }, watch: watch(folder), report: events.record)
        defer { service.stop() }
        service.start()
        #expect(events.wait { $0.synced.count >= 1 })
        #expect(events.all.watching == [watching])
        let game = try b.start(secret)
        try b.guess(guess, in: game.id)
        try diskEngine(b, folder: folder).sync()
        // B commits the game, then its guess: rounds follow until both have arrived and the
        // round that brought them has reported (the data is stored a moment before the report).
        #expect(events.wait { all in
            (try? a.snapshot(game.id).guesses) == [guess] && all.synced.contains { $0.report.downloaded > 0 }
        })
    }

    /// A share not mounted yet: inotify cannot watch it, the round says offline, and polling
    /// notices when the folder arrives with another device's games.
    @Test func aFolderThatIsNotThereIsOfflineAndPolledUntilItComes() throws {
        let parent = temporaryFolder("qk-service")
        defer { try? FileManager.default.removeItem(at: parent) }
        let folder = parent.appendingPathComponent("share")
        let clock = TestClock()
        let a = try machine("laptop", clock: clock), b = try machine("desktop", clock: clock)
        let events = ServiceEvents()
        let engine = try diskEngine(a, folder: folder)
        let service = SyncService(openEngine: { engine }, watch: SyncService.Watch(folder: folder, player: "player", pollInterval: 0.05),
                                  report: events.record)
        defer { service.stop() }
        service.start()
        #expect(events.wait { $0.contains { if case .offline = $0 { true } else { false } } })
        guard case .pollingOnly(let reason) = events.all.watching.first else {
            Issue.record("inotify watched a folder that is not there: \(events.all.watching)")
            return
        }
        #expect(reason.contains("inotify cannot watch"))
        #expect(events.all.contains(.offline(reason: "the cloud folder \(folder.path) is not there (is the share mounted?)", manual: false)))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let game = try b.start("tiger")
        try b.guess("crane", in: game.id)
        try diskEngine(b, folder: folder).sync()
        #expect(events.wait { $0.synced.contains { $0.report.downloaded > 0 } })
    }

    // MARK: What errors become

    @Test func anUnavailableFolderIsOfflineWithTheRequestsManualFlag() throws {
        let a = try machine("laptop")
        a.faults.setUnavailable(true)
        let events = ServiceEvents()
        let engine = a.engine
        let service = SyncService(openEngine: { engine }, report: events.record)
        defer { service.stop() }
        service.request(manual: true)
        #expect(events.wait { $0.count == 2 })
        service.request(manual: false)
        #expect(events.wait { $0.count == 4 })
        #expect(events.all == [.syncing, .offline(reason: "injected: folder unavailable", manual: true),
                               .syncing, .offline(reason: "injected: folder unavailable", manual: false)])
    }

    @Test func aBusyFolderAndAnEngineThatWillNotOpenAreFailures() throws {
        let a = try machine("laptop")
        a.faults.rateLimit(retryAfter: 0, times: 1_000)
        let events = ServiceEvents()
        let engine = a.engine
        let busy = SyncService(openEngine: { engine }, report: events.record)
        defer { busy.stop() }
        busy.request(manual: false)
        #expect(events.wait { $0.count == 2 })
        guard case .failed(let message, manual: false) = events.all.last else {
            Issue.record("not a failure: \(events.all)")
            return
        }
        #expect(message.contains("busy"))

        struct NoEngine: Error, CustomStringConvertible { var description: String { "sync is off" } }
        let none = ServiceEvents()
        let closed = SyncService(openEngine: { throw NoEngine() }, report: none.record)
        defer { closed.stop() }
        closed.request(manual: true)
        #expect(none.wait { $0.count == 2 })
        #expect(none.all == [.syncing, .failed("sync is off", manual: true)])
    }

    @Test func aResetCloudIsToldAndAdoptingItJoinsTheNewCloud() throws {
        let folder = MemoryFolder(), clock = TestClock()
        let a = try Machine("laptop", folder: folder, shared: clock), b = try Machine("desktop", folder: folder, shared: clock)
        let game = try a.start("tiger")
        try a.guess("crane", in: game.id)
        try a.sync()
        try b.sync()
        try b.engine.resetCloud()
        let events = ServiceEvents()
        let engine = a.engine
        let service = SyncService(openEngine: { engine }, now: { clock.now }, report: events.record)
        defer { service.stop() }
        service.request(manual: false)
        #expect(events.wait { $0.count == 2 })
        #expect(events.all == [.syncing, .cloudReset])
        service.adoptReset(keepLocal: true)
        #expect(events.wait { $0.count == 4 })
        guard case .adopted(let report, let at) = events.all.last else {
            Issue.record("not adopted: \(events.all)")
            return
        }
        #expect(events.all[2] == .syncing)
        #expect(at == clock.now)
        #expect(report.uploaded > 0, "this machine's games went into the new cloud")
        service.request(manual: false)
        #expect(events.wait { $0.synced.count == 1 })
    }

    // MARK: Progress

    @Test func progressIsThrottledToAboutTenASecondAndTheLastAlwaysPasses() {
        let clock = TestClock()
        let throttle = SyncService.Throttle(now: { clock.now })
        #expect(throttle.due(done: 1, total: 100))
        #expect(!throttle.due(done: 2, total: 100))
        clock.advance(0.05)
        #expect(!throttle.due(done: 3, total: 100))
        clock.advance(0.06)
        #expect(throttle.due(done: 4, total: 100))
        #expect(throttle.due(done: 100, total: 100), "the last always passes")
        #expect(!throttle.due(done: 101, total: nil))
    }

    // MARK: Helpers

    /// A service over `machine`'s engine (the caller stops it), and what it tells.
    private func service(_ machine: Machine) -> (SyncService, ServiceEvents) {
        let events = ServiceEvents(), engine = machine.engine
        return (SyncService(openEngine: { engine }, report: events.record), events)
    }

    private func machine(_ name: String, clock: TestClock = TestClock()) throws -> Machine {
        try Machine(name, folder: MemoryFolder(), shared: clock)
    }

    /// The machine's engine on a real folder, as the program opens it.
    private func diskEngine(_ machine: Machine, folder: URL) throws -> SyncEngine {
        let clock = machine.clock
        let cloud = try FolderCloudDatabase.onDisk(root: folder, player: machine.profile.playerID, device: DeviceID(machine.profile.device.id),
                                                   options: CloudStoreOptions(now: { clock.now }))
        return SyncEngine(player: machine.player, cloud: cloud, now: { clock.now }, pause: { _ in })
    }

    /// An engine whose store holds every round at its first look at the cloud while `gate` is closed.
    private func gated(_ machine: Machine, _ gate: RoundGate) -> @Sendable () throws -> SyncEngine {
        let engine = SyncEngine(player: machine.player, cloud: GatedCloud(machine.cloud, gate: gate),
                                now: { [clock = machine.clock] in clock.now }, pause: { _ in })
        return { engine }
    }
}

/// What a service told, in order.
final class ServiceEvents: Sendable {
    private let list = Locked<[SyncService.Event]>([])

    var all: [SyncService.Event] { list.withLock { $0 } }

    @Sendable func record(_ event: SyncService.Event) { list.withLock { $0.append(event) } }

    /// Whether the events came to satisfy `condition` within `seconds`.
    func wait(seconds: Double = 10, until condition: ([SyncService.Event]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if condition(all) { return true }
            Thread.sleep(forTimeInterval: 0.01)
        } while Date() < deadline
        return condition(all)
    }
}

extension [SyncService.Event] {
    var synced: [(report: SyncReport, manual: Bool)] {
        compactMap { if case .synced(let report, _, let manual) = $0 { (report, manual) } else { nil } }
    }

    var syncing: Int { filter { $0 == .syncing }.count }

    var watching: [SyncService.Watching] {
        compactMap { if case .watching(let watching) = $0 { watching } else { nil } }
    }
}

final class ServiceFlag: Sendable {
    private let raised = Locked(false)
    func raise() { raised.withLock { $0 = true } }

    func wait(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !raised.withLock({ $0 }) && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        return raised.withLock { $0 }
    }
}

/// Holds whoever passes while closed; counts who waited and who passed.
final class RoundGate: Sendable {
    private struct State {
        var closed: Bool
        var waiting = 0
        var passed = 0
    }

    private let state: Locked<State>

    init(closed: Bool) { state = Locked(State(closed: closed)) }

    var passed: Int { state.withLock { $0.passed } }

    func open() { state.withLock { $0.closed = false } }

    func pass() {
        state.withLock { $0.waiting += 1 }
        while state.withLock({ $0.closed }) { Thread.sleep(forTimeInterval: 0.005) }
        state.withLock { $0.waiting -= 1; $0.passed += 1 }
    }

    /// Whether someone is held at the gate within ten seconds.
    func waitForWaiter() -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while state.withLock({ $0.waiting == 0 }) && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        return state.withLock { $0.waiting > 0 }
    }
}

/// A store whose look at what changed passes a gate first: a round held in the middle.
final class GatedCloud: ForwardingCloudDatabase {
    let inner: FolderCloudDatabase
    let gate: RoundGate

    init(_ inner: FolderCloudDatabase, gate: RoundGate) {
        self.inner = inner
        self.gate = gate
    }

    func fetchDatabaseChanges(since token: ChangeToken?) throws(CloudStoreError) -> DatabaseChanges {
        gate.pass()
        return try inner.fetchDatabaseChanges(since: token)
    }
}
