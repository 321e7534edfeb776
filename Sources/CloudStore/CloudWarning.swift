import Foundation

/// A file in the folder the store skipped or is waiting for. Delivered to the injected sink,
/// once per file and reason, never thrown: a bad file must not stop sync of the good ones.
public struct CloudWarning: Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var reason: String

    /// One line, whatever the folder holds: a name with a line break or another control
    /// character (a hostile or damaged entry) shows it as '?'.
    public var description: String {
        let text = "cloud folder: skipped \(path): \(reason)"
        return String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            scalar.properties.generalCategory == .control || ["\u{2028}", "\u{2029}"].contains(scalar) ? "?" : scalar
        }))
    }
}

public typealias CloudWarningSink = @Sendable (CloudWarning) -> Void
