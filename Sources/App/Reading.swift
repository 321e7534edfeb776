import Foundation
import QiktionaryCore

/// What `history show` and `reading-list --markdown` put together, each in one use case, so
/// the front ends only lay them out.
extension PlayerGames {
    /// A finished game with the coach's review of it and the code that passes it on to a friend.
    public struct ReviewedGame: Sendable {
        public var saved: SavedGame
        public var review: Review
        public var challenge: String?
    }

    /// A finished game by its id or the start of it, reviewed; one still in play is refused.
    public func reviewedGame(idOrPrefix: String) throws -> ReviewedGame {
        let saved = try finishedGame(idOrPrefix: idOrPrefix, for: .review)
        return ReviewedGame(saved: saved, review: try review(of: saved), challenge: try challengeCode(for: saved.game))
    }

    /// The reading list with the title of each pack by its id: what its Markdown document shows.
    public func readingListWithTitles() throws -> (facts: [Bookmark], packTitles: [String: String]) {
        let facts = try readingList()
        let titles = Dictionary(try packs().map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
        return (facts, titles)
    }
}
