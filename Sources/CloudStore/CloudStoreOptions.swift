import Foundation

/// What a store is given rather than reaching for: the clock, where warnings go, faults.
public struct CloudStoreOptions: Sendable {
    /// The wall clock; tests move it to simulate skew between machines.
    public var now: @Sendable () -> Date
    public var warnings: CloudWarningSink?
    public var faults: CloudFaults?
    /// How long a compacted snapshot keeps a deletion, so devices that were offline still learn of it.
    public var tombstoneRetention: TimeInterval

    public init(
        now: @escaping @Sendable () -> Date = { Date() },
        warnings: CloudWarningSink? = nil,
        faults: CloudFaults? = nil,
        tombstoneRetention: TimeInterval = 30 * 24 * 3600
    ) {
        self.now = now
        self.warnings = warnings
        self.faults = faults
        self.tombstoneRetention = tombstoneRetention
    }
}
