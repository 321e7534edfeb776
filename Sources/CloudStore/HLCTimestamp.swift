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

    /// The latest reading a file may hold (the start of the year 3000): a reading past it, or
    /// before 1970, is not one a clock wrote, and the file holding it is not read.
    public static let latestReadable: Int64 = 32_503_680_000_000

    /// How far ahead of this machine's wall clock a reading seen in the folder may move this
    /// machine's clock: a day. A reading further ahead came from a clock set wrong or from a
    /// file that lies; trusting it would stamp every later edit of this machine from it.
    public static let trustedAhead: Int64 = 24 * 3600 * 1000

    /// Whether a file may hold this reading (`latestReadable`).
    public var isReadable: Bool { millis >= 0 && millis <= Self.latestReadable }

    /// The next reading after `self`, `observed` and the wall clock. A reading observed more
    /// than `trustedAhead` past the wall clock is not followed, and nothing here overflows,
    /// whatever the readings hold.
    public func advanced(wall: Date, observed: HLCTimestamp = .zero) -> HLCTimestamp {
        let seconds = wall.timeIntervalSince1970
        let wallMillis = seconds.isFinite ? Int64(min(max(seconds * 1000, 0), Double(Self.latestReadable)).rounded(.down)) : 0
        let trusted = observed.millis > wallMillis + Self.trustedAhead ? .zero : observed
        let latest = max(self, trusted)
        if wallMillis > latest.millis { return HLCTimestamp(millis: wallMillis, counter: 0) }
        if latest.counter == UInt32.max {
            return latest.millis == Int64.max ? latest : HLCTimestamp(millis: latest.millis + 1, counter: 0)
        }
        return HLCTimestamp(millis: latest.millis, counter: latest.counter + 1)
    }

    /// The first reading after `self` that a file may still hold, or nil when `self` is the
    /// last one (`latestReadable` with its counter full).
    public var readableSuccessor: HLCTimestamp? {
        if counter < UInt32.max { return HLCTimestamp(millis: millis, counter: counter + 1) }
        return millis < Self.latestReadable ? HLCTimestamp(millis: millis + 1, counter: 0) : nil
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
