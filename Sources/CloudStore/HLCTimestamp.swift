import Foundation

/// A hybrid logical clock reading: wall milliseconds plus a counter. It orders edits causally:
/// a device that has seen an edit always stamps its next edit later, whatever its wall clock says.
public struct HLCTimestamp: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    public let millis: Int64
    public let counter: UInt32

    public init(millis: Int64, counter: UInt32) {
        self.millis = millis
        self.counter = counter
    }

    public static let zero = HLCTimestamp(millis: 0, counter: 0)

    public static func < (lhs: HLCTimestamp, rhs: HLCTimestamp) -> Bool {
        (lhs.millis, lhs.counter) < (rhs.millis, rhs.counter)
    }

    /// The next reading after `self`, `observed` and the wall clock.
    public func advanced(wall: Date, observed: HLCTimestamp = .zero) -> HLCTimestamp {
        let wallMillis = Int64((wall.timeIntervalSince1970 * 1000).rounded(.down))
        let latest = max(self, observed)
        if wallMillis > latest.millis { return HLCTimestamp(millis: wallMillis, counter: 0) }
        if latest.counter == UInt32.max { return HLCTimestamp(millis: latest.millis + 1, counter: 0) }
        return HLCTimestamp(millis: latest.millis, counter: latest.counter + 1)
    }

    public var date: Date { Date(timeIntervalSince1970: Double(millis) / 1000) }

    /// Fixed width, so change tags built from it compare and read the same everywhere.
    public var description: String {
        // Built as bytes rather than with String(format:), which costs microseconds and runs once per record read.
        var writer = BodyWriter(capacity: 24)
        writer.clockReading(self)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
