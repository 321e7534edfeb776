import Foundation

/// The game's conflict rules, as pure functions: two copies of one game (two machines' edits,
/// or a game and an import of it) become one the same way everywhere. Storage applies them;
/// docs/sync.md tells them in words.
public enum GameMerge {
    /// What two copies of a game may disagree on. Guesses are records of their own, united by
    /// name; what they prove is `settle`'s business.
    public struct Copy: Sendable, Equatable {
        public var status: GameStatus
        public var finishedAt: Date?
        public var updatedAt: Date
        public var lastChangedOn: String
        public var hard: Bool
        /// The help level: the game's own, the higher where two copies differ.
        public var assist: Assist
        /// Guess counts at which hints were shown.
        public var hints: Set<Int>
        public var daily: String?

        public init(status: GameStatus, finishedAt: Date?, updatedAt: Date, lastChangedOn: String, hard: Bool, assist: Assist,
                    hints: Set<Int>, daily: String?) {
            self.status = status
            self.finishedAt = finishedAt
            self.updatedAt = updatedAt
            self.lastChangedOn = lastChangedOn
            self.hard = hard
            self.assist = assist
            self.hints = hints
            self.daily = daily
        }
    }

    /// The higher status wins with its finish time (the earlier one when both reached it); the
    /// later change names the device (ties broken by the device's name, so the merge does not
    /// depend on which copy is whose); hints are united; hard mode and the daily date, fixed
    /// when the game started, are kept from whichever copy has them; the help level is the
    /// higher of the two (more help seen is never forgotten).
    public static func merge(_ a: Copy, _ b: Copy) -> Copy {
        var merged = a
        merged.status = max(a.status, b.status)
        let finishes = [a, b].filter { $0.status == merged.status }.compactMap(\.finishedAt)
        merged.finishedAt = merged.status.isFinished ? finishes.min() ?? a.finishedAt ?? b.finishedAt : nil
        let later = (a.updatedAt, a.lastChangedOn) >= (b.updatedAt, b.lastChangedOn) ? a : b
        merged.updatedAt = later.updatedAt
        merged.lastChangedOn = later.lastChangedOn
        merged.hard = a.hard || b.hard
        merged.assist = max(a.assist, b.assist)
        merged.hints = a.hints.union(b.hints)
        merged.daily = a.daily ?? b.daily
        return merged
    }

    /// What a game's guesses, in their played order, prove: a guess of the secret wins (finished
    /// when it was played), a full board loses (finished with its last guess); never a lower
    /// status than the game had, and a won game stays as it is.
    public static func settle(status: GameStatus, finishedAt: Date?, secret: String, maxGuesses: Int,
                              guesses: [(word: String, playedAt: Date)]) -> (status: GameStatus, finishedAt: Date?) {
        guard status != .won else { return (status, finishedAt) }
        if let winning = guesses.first(where: { $0.word == secret }) { return (.won, winning.playedAt) }
        if guesses.count >= maxGuesses, status < .lost, let last = guesses.last { return (.lost, last.playedAt) }
        return (status, finishedAt)
    }
}
