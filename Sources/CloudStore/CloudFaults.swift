#if canImport(Glibc)
import Concurrency
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Faults a test injects into a store: an unavailable folder, rate limiting, per-record
/// failures, slow I/O, and a crash before or after any step of writing any file.
public final class CloudFaults: Sendable {
    public enum CrashAction: Sendable {
        /// Stop the operation with `unavailable`, leaving the files as a crash would.
        case abandon
        /// SIGKILL this process (for the crash tests' child processes).
        case killProcess
    }

    private struct State {
        var unavailable = false
        var rateLimit: (retryAfter: TimeInterval, remaining: Int)?
        var failingRecords: Set<String> = []
        var ioDelay: TimeInterval = 0
        var crashPoint: CrashPoint?
        var crashAtStep: Int?
        var stepsReached = 0
        var crashAction = CrashAction.abandon
    }

    private let state = Locked(State())

    public init() {}

    public func setUnavailable(_ unavailable: Bool) { state.withLock { $0.unavailable = unavailable } }

    /// The next `times` operations fail with `rateLimited(retryAfter:)`.
    public func rateLimit(retryAfter: TimeInterval, times: Int = 1) {
        state.withLock { $0.rateLimit = (retryAfter, times) }
    }

    /// Commits saving or deleting these records fail with a partial failure naming them.
    public func failRecords(_ names: Set<String>) { state.withLock { $0.failingRecords = names } }

    /// Every operation and every write step waits this long first.
    public func slowIO(_ delay: TimeInterval) { state.withLock { $0.ioDelay = delay } }

    /// Crash once, at this point.
    public func crash(at point: CrashPoint, action: CrashAction = .abandon) {
        state.withLock { $0.crashPoint = point; $0.crashAction = action }
    }

    /// Crash at the `number`th write step reached from now (1-based), whatever it is.
    public func crash(atStepNumber number: Int, action: CrashAction = .abandon) {
        state.withLock { $0.crashAtStep = number; $0.stepsReached = 0; $0.crashAction = action }
    }

    func beforeOperation() throws(CloudStoreError) {
        let (unavailable, limit, delay) = state.withLock { state in
            defer {
                if let limit = state.rateLimit { state.rateLimit = limit.remaining > 1 ? (limit.retryAfter, limit.remaining - 1) : nil }
            }
            return (state.unavailable, state.rateLimit?.retryAfter, state.ioDelay)
        }
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        if unavailable { throw .unavailable(reason: "injected: folder unavailable") }
        if let limit { throw .rateLimited(retryAfter: limit) }
    }

    func failures(among names: [String]) -> [String: CloudStoreError] {
        let failing = state.withLock { $0.failingRecords }
        return Dictionary(uniqueKeysWithValues: names.filter(failing.contains).map {
            ($0, CloudStoreError.unavailable(reason: "injected: record \($0) failed"))
        })
    }

    func reached(_ point: CrashPoint) throws(CloudStoreError) {
        let (crash, action, delay) = state.withLock { state -> (Bool, CrashAction, TimeInterval) in
            state.stepsReached += 1
            var crash = false
            if state.crashPoint == point { state.crashPoint = nil; crash = true }
            if let number = state.crashAtStep, state.stepsReached >= number { state.crashAtStep = nil; crash = true }
            return (crash, state.crashAction, state.ioDelay)
        }
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        guard crash else { return }
        switch action {
        case .abandon: throw .unavailable(reason: "injected crash \(point)")
        case .killProcess: kill(getpid(), SIGKILL)
        }
    }
}

/// A moment in writing one of the store's files.
public struct CrashPoint: Hashable, Sendable, CustomStringConvertible {
    public var file: CloudFileKind
    public var step: WriteStep
    public var timing: StepTiming

    public init(file: CloudFileKind, step: WriteStep, timing: StepTiming) {
        self.file = file
        self.step = step
        self.timing = timing
    }

    /// Every point of writing a commit (its segment, then its head).
    public static var allInCommit: [CrashPoint] {
        [CloudFileKind.segment, .head].flatMap { file in
            WriteStep.allCases.flatMap { step in StepTiming.allCases.map { CrashPoint(file: file, step: step, timing: $0) } }
        }
    }

    public var description: String { "\(timing.rawValue) \(step.rawValue) of \(file.rawValue)" }
}

public enum CloudFileKind: String, Sendable, CaseIterable {
    case segment, snapshot, head, generationMarker
}
