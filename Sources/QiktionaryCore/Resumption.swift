/// Which of a player's games come back, and in what order: the one rule of resuming, for every
/// front end. Storage only loads the games in progress; this orders and chooses among them.
public enum Resumption {
    /// The games in progress a list shows: those with a guess (a game opened and never played
    /// is resumed, but not listed), most recently changed first; of two changed in the same
    /// millisecond, the first by id, so every machine lists them alike.
    public static func listed(_ inProgress: [SavedGame]) -> [SavedGame] {
        inProgress.filter { !$0.game.isFinished && !$0.game.guesses.isEmpty }.sorted(by: newerFirst)
    }

    /// The game a start that names nothing resumes: a game with a guess before one never
    /// played, whatever their times (a game opened here and left gives way to the one played on
    /// the other machine), then the most recently changed, then the first by id.
    public static func latest(_ inProgress: [SavedGame]) -> SavedGame? {
        inProgress.filter { !$0.game.isFinished }.min { a, b in
            let (aPlayed, bPlayed) = (!a.game.guesses.isEmpty, !b.game.guesses.isEmpty)
            return aPlayed != bPlayed ? aPlayed : newerFirst(a, b)
        }
    }

    /// Why a game asked for by its id cannot be resumed: it is over. Nil for a game in progress.
    public static func refusal(resuming saved: SavedGame) -> GuessRejection? {
        saved.game.isFinished ? .gameOver : nil
    }

    private static func newerFirst(_ a: SavedGame, _ b: SavedGame) -> Bool {
        a.updatedAt != b.updatedAt ? a.updatedAt > b.updatedAt : a.id < b.id
    }
}
