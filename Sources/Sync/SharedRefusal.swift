import CloudStore
import TextSafety

/// A shared record refused, as one line: which record, of which player, and why.
public struct SharedRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    public var record: String
    public var reason: String

    init(_ r: CloudRecord, _ reason: String) {
        self.record = "\(oneLine(String(r.recordType.prefix(40)))) record \(oneLine(String(r.recordName.prefix(40))))"
        self.reason = reason
    }

    public init(record: String, reason: String) {
        self.record = record
        self.reason = reason
    }

    public var description: String { "\(record) refused: \(reason)" }
}
