import Foundation

/// Caps that keep a hostile or corrupt folder from exhausting memory: no size or count read
/// from a file is trusted beyond these.
public enum CloudLimits {
    public static let maxRecordsPerCommit = 400
    public static let maxSegmentBytes = 8 << 20
    public static let maxSnapshotBytes = 256 << 20
    /// A part of a snapshot (format version 3), inflated; the writer keeps parts near 1 MiB
    /// (4 MiB before the fourth round: both are read).
    public static let maxSnapshotPartBytes = 32 << 20
    public static let maxSmallFileBytes = 64 << 10
    public static let maxNameBytes = 255
    public static let maxFieldsPerRecord = 256
    public static let maxListItems = 10_000
    public static let maxDevicesPerGeneration = 1_000
    public static let maxEntriesPerDirectory = 1_000_000
    /// The highest segment number a head may name (a device writing a segment a millisecond
    /// would take 35,000 years to reach it): sums and differences of log numbers stay far from
    /// overflowing.
    public static let maxSequence = 1 << 40
    /// The largest size a head may give a device's log or snapshot of one zone.
    public static let maxLogBytes = 1 << 50
}
