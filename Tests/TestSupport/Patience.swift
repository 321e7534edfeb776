import Foundation

/// How long a test that waits on a process or a screen may wait: the seconds it would take on
/// an idle machine, stretched by how busy the machine is now. Every wait of a test scales by
/// the same factor, so a test written for an idle machine holds while another build runs beside
/// it. `QIKTIONARY_TEST_PATIENCE` sets the factor outright (CI under load sets it high).
public enum Patience {
    /// At least 1: the load average over the last minute per core, read when first asked, or the
    /// environment's factor.
    public static let factor: Double = {
        if let set = ProcessInfo.processInfo.environment["QIKTIONARY_TEST_PATIENCE"].flatMap(Double.init), set >= 1 { return set }
        var loads = [Double](repeating: 0, count: 3)
        guard getloadavg(&loads, 1) == 1 else { return 2 }
        let cores = Double(max(1, ProcessInfo.processInfo.activeProcessorCount))
        return min(10, max(1, loads[0] / cores * 1.5))
    }()

    /// `seconds` on an idle machine, stretched for this one.
    public static func seconds(_ seconds: TimeInterval) -> TimeInterval { seconds * factor }

    /// One clock for a whole test: the moment its waits all end by.
    public static func deadline(_ seconds: TimeInterval) -> Date { Date().addingTimeInterval(Self.seconds(seconds)) }
}

/// A wait that ran out: what was awaited and what was last seen, so a failure on a busy machine
/// says which step was slow and on what screen.
public struct WaitTimedOut: Error, CustomStringConvertible {
    public var awaited: String
    public var lastSeen: String
    public init(awaited: String, lastSeen: String) {
        self.awaited = awaited
        self.lastSeen = lastSeen
    }
    public var description: String { "timed out waiting for \(awaited) (patience ×\(String(format: "%.1f", Patience.factor))); last seen:\n\(lastSeen)" }
}
