import Foundation
import TextSafety

/// A file in the folder the store skipped or is waiting for. Delivered to the injected sink,
/// once per file and reason, never thrown: a bad file must not stop sync of the good ones.
public struct CloudWarning: Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// One line, whatever the folder holds: a name with a line break or another control
    /// character (a hostile or damaged entry) shows it as a visible escape (`\x1b`).
    public var description: String {
        oneLine("cloud folder: skipped \(path): \(reason)")
    }
}

public typealias CloudWarningSink = @Sendable (CloudWarning) -> Void
