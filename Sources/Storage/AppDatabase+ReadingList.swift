import Foundation
import GRDB
import QiktionaryCore

extension Bookmark {
    init(_ record: BookmarkRecord) {
        self.init(word: record.word, packID: record.packId, fact: record.fact, addedAt: record.addedAt)
    }
}

extension PlayerDatabase {
    /// Bookmarks the fact of a word. The fact comes from the player's finished game on that word,
    /// else from a pack. A word already on the list keeps its first date.
    @discardableResult
    public func addBookmark(word input: String, now: Date? = nil) throws(StorageError) -> Bookmark {
        let word = input.lowercased(), now = AppDatabase.stamp(now ?? clock())
        return try write { db in
            if let existing = try BookmarkRecord.fetchOne(db, key: ["playerId": profile.playerID, "word": word]) {
                return Bookmark(existing)
            }
            let source: (packId: String, fact: String)
            // A practice game has no fact to keep: the pack's fact is taken when the word has one.
            if let game = try GameRecord.filter(GameRecord.Columns.playerId == profile.playerID && GameRecord.Columns.secret == word
                                                && GameRecord.Columns.status != GameStatus.inProgress.rawValue && GameRecord.Columns.fact != "").fetchOne(db) {
                source = (game.packID, game.fact)
            } else if let entry = try PackWordRecord.filter(PackWordRecord.Columns.word == word).order(PackWordRecord.Columns.packId).fetchOne(db) {
                source = (entry.packId, entry.fact)
            } else {
                throw StorageError.noFact(word)
            }
            let record = BookmarkRecord(playerId: profile.playerID, word: word, packId: source.packId, fact: source.fact, addedAt: now)
            try record.insert(db)
            try AppDatabase.trackBookmarkChange(profile.playerID, word: word, db)
            return Bookmark(record)
        }
    }

    /// Bookmarks the word of a finished game; a game in progress keeps its word secret.
    @discardableResult
    public func bookmarkGame(id: String, now: Date? = nil) throws(StorageError) -> Bookmark {
        let game = try self.game(id: id)
        guard game.game.isFinished else { throw .gameNotFinished }
        return try addBookmark(word: game.game.secret, now: now)
    }

    public func removeBookmark(word input: String) throws(StorageError) {
        let word = input.lowercased()
        try write { db in
            let removed = try BookmarkRecord.deleteOne(db, key: ["playerId": profile.playerID, "word": word])
            if !removed { throw StorageError.notBookmarked(word) }
            try AppDatabase.trackBookmarkChange(profile.playerID, word: word, db)
        }
    }

    /// The reading list, newest first.
    public func readingList() throws(StorageError) -> [Bookmark] {
        try read { db in
            try BookmarkRecord.filter(BookmarkRecord.Columns.playerId == profile.playerID)
                .order(BookmarkRecord.Columns.addedAt.desc, BookmarkRecord.Columns.word).fetchAll(db).map(Bookmark.init)
        }
    }
}
