import Concurrency
import Foundation
import Sync

/// "importing 12000 of 40000 records" (or "sending …" for a long upload), rewritten in place at
/// most ten times a second and wiped when the sync ends, so the summary after it prints on a
/// clean line. What it writes goes to `write` (the front end's stderr); the front end decides
/// whether there is a line at all (never in JSON, never into a pipe).
public final class ProgressLine: Sendable {
    public enum Action: String, Sendable { case importing, sending }

    private let write: @Sendable (String) -> Void
    private let shown = Locked(false)
    private let throttle: SyncService.Throttle

    public init(throttle: SyncService.Throttle = SyncService.Throttle(), write: @escaping @Sendable (String) -> Void) {
        (self.throttle, self.write) = (throttle, write)
    }

    /// The line for `done` of `total`, when the throttle lets it through (and always the last).
    public func show(_ action: Action, done: Int, total: Int?) {
        if throttle.due(done: done, total: total) { draw(action, done: done, total: total) }
    }

    /// The line now, for progress already throttled (`SyncService`'s events).
    public func draw(_ progress: Syncing.Progress) {
        switch progress {
        case .importing(let done, let total): draw(.importing, done: done, total: total)
        case .sending(let done, let total): draw(.sending, done: done, total: total)
        case .ended: clear()
        }
    }

    public func draw(_ action: Action, done: Int, total: Int?) {
        shown.withLock { shown in
            shown = true
            write("\r\u{1B}[K" + Self.text(action, done: done, total: total))
        }
    }

    /// Wipes the line, when one was drawn.
    public func clear() {
        shown.withLock { shown in
            if shown { write("\r\u{1B}[K") }
            shown = false
        }
    }

    /// The words of the line.
    public static func text(_ action: Action, done: Int, total: Int?) -> String {
        "\(action.rawValue) \(done)" + (total.map { " of \($0)" } ?? "") + " records"
    }
}
