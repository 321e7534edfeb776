import Foundation

/// A file in the folder the store skipped or is waiting for. Delivered to the injected sink,
/// once per file and reason, never thrown: a bad file must not stop sync of the good ones.
public struct CloudWarning: Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public var description: String { "cloud folder: skipped \(path): \(reason)" }
}

public typealias CloudWarningSink = @Sendable (CloudWarning) -> Void
