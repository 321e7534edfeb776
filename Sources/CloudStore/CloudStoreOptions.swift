import Foundation

/// What a store is given rather than reaching for: the clock, where warnings go, faults.
public struct CloudStoreOptions: Sendable {
    /// The wall clock; tests move it to simulate skew between machines.
    public var now: @Sendable () -> Date
    public var warnings: CloudWarningSink?
    public var faults: CloudFaults?
    /// How long a compacted snapshot keeps a deletion, so devices that were offline still learn of it.
    public var tombstoneRetention: TimeInterval
    /// Where a read too long to hold in memory (a log never compacted) sorts its records, in a
    /// file unlinked as soon as it is made; nil: the system's temporary folder. The game gives
    /// its data folder (a temporary folder may live in memory).
    public var spillDirectory: URL?
    /// The most records a read takes from one device's log of a zone at a time (nil: all). A
    /// reader of another player's store sets it, so a device folder anyone filled with records
    /// costs a round no more than this many: the rest waits for the next read, as a file not
    /// yet arrived does, and a snapshot holding more is not read (each told once).
    public var mostRecordsPerDevice: Int?

    public init(
        now: @escaping @Sendable () -> Date = { Date() },
        warnings: CloudWarningSink? = nil,
        faults: CloudFaults? = nil,
        tombstoneRetention: TimeInterval = 30 * 24 * 3600,
        spillDirectory: URL? = nil,
        mostRecordsPerDevice: Int? = nil
    ) {
        self.spillDirectory = spillDirectory
        self.mostRecordsPerDevice = mostRecordsPerDevice
        self.now = now
        self.warnings = warnings
        self.faults = faults
        self.tombstoneRetention = tombstoneRetention
    }
}
