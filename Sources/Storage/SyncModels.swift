import Foundation
import QiktionaryCore

/// One guess: immutable once played, so it never conflicts.
public struct SyncGuess: Sendable, Equatable, Codable {
    public var gameID: String
    public var word: String
    public var position: Int
    public var common: Int?
    public var inPlace: Int?
    public var inWord: Int?
    public var playedAt: Date
    public var playedOn: String

    public init(gameID: String, word: String, position: Int, feedback: Feedback, playedAt: Date, playedOn: String) {
        self.gameID = gameID
        self.word = word
        self.position = position
        (common, inPlace, inWord) = feedback.counts
        self.playedAt = playedAt
        self.playedOn = playedOn
    }

    public var feedback: Feedback { Feedback(common: common, inPlace: inPlace, inWord: inWord) }
}

/// A notepad mark; `state` nil is a cleared mark, kept so the clearing wins by causal order.
public struct SyncMark: Sendable, Equatable, Codable {
    public var gameID: String
    public var letter: String
    public var state: LetterMark?
    public var markedAt: Date

    public init(gameID: String, letter: String, state: LetterMark?, markedAt: Date) {
        self.gameID = gameID
        self.letter = letter
        self.state = state
        self.markedAt = markedAt
    }
}

/// A bookmark; `isBookmarked` false is a removal, kept so it wins or loses by causal order.
public struct SyncBookmark: Sendable, Equatable, Codable {
    public var word: String
    public var packID: String
    public var fact: String
    public var addedAt: Date
    public var isBookmarked: Bool

    public init(word: String, packID: String, fact: String, addedAt: Date, isBookmarked: Bool) {
        self.word = word
        self.packID = packID
        self.fact = fact
        self.addedAt = addedAt
        self.isBookmarked = isBookmarked
    }
}

/// Everything this machine has to send, with what is needed to acknowledge it exactly.
public struct OutgoingChanges: Sendable, Equatable {
    public struct Game: Sendable, Equatable {
        public var game: SyncGame
        /// Never uploaded: every field goes.
        public var isNew: Bool
        public var changedFields: Set<GameField>
        public var version: Int
        /// The cloud's system fields as last seen (opaque to storage).
        public var systemFields: Data?
    }

    /// A mark or a bookmark goes only over the version of it this machine last saw (its system
    /// fields here, none for a record it never saw): a send read before another process of this
    /// machine sent a newer value, and committed after it, would otherwise replace it in the
    /// cloud for good (the simulation's seed 16364). The cloud's newer version comes back as a
    /// conflict, is applied as a fetched one is, and a change still waiting goes again over it.
    public struct Mark: Sendable, Equatable {
        public var mark: SyncMark
        public var version: Int
        /// The cloud's system fields as last seen (opaque to storage).
        public var systemFields: Data? = nil
    }

    public struct Bookmark: Sendable, Equatable {
        public var bookmark: SyncBookmark
        public var version: Int
        /// The cloud's system fields as last seen (opaque to storage).
        public var systemFields: Data? = nil
    }

    public struct Deletion: Sendable, Equatable {
        public var recordName: String
        public var zone: SyncZone
        /// A deletion queued by game (`deletionByGame`): the game, and the guess's word ('' for the game itself).
        var gameID: String? = nil
        var word: String? = nil
    }

    public var games: [Game] = []
    public var guesses: [SyncGuess] = []
    public var marks: [Mark] = []
    public var bookmarks: [Bookmark] = []
    public var deletions: [Deletion] = []

    public init() {}

    public var count: Int { games.count + guesses.count + marks.count + bookmarks.count + deletions.count }
    public var isEmpty: Bool { count == 0 }

    /// Adds another part of the queue (sent separately, acknowledged together).
    public mutating func append(_ other: OutgoingChanges) {
        games += other.games
        guesses += other.guesses
        marks += other.marks
        bookmarks += other.bookmarks
        deletions += other.deletions
    }
}

/// What a fetch brought, ready to apply. Each record but a guess carries the cloud's system fields.
public struct IncomingChanges: Sendable {
    public var games: [(SyncGame, Data)] = []
    /// Guesses without system fields: a guess never changes, so they would never be sent back.
    public var guesses: [SyncGuess] = []
    public var marks: [(SyncMark, Data)] = []
    public var bookmarks: [(SyncBookmark, Data)] = []
    /// Deleted records, by what they were.
    public var deletions: [IncomingDeletion] = []
    /// Devices whose changes were seen: id → name.
    public var devices: [String: String] = [:]

    public init() {}

    public var count: Int { games.count + guesses.count + marks.count + bookmarks.count + deletions.count }
}

/// A record another machine deleted: its name as the cloud knows it, and what it was.
public struct IncomingDeletion: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case game(id: String)
        case guess(gameID: String, word: String)
        case bookmark(word: String)
        /// A mark (cleared by a version with no state, never deleted on its own) or a record
        /// this version does not know: only what is kept of its cloud copy goes.
        case other
    }

    public var name: String
    public var kind: Kind

    public init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }
}

/// What applying incoming changes did.
public struct ApplyReport: Sendable, Equatable {
    public var applied = 0
    public var deleted = 0
    /// Local and cloud versions that disagreed and were merged by the game's rules.
    public var merged = 0
    /// Records waiting for a game that has not arrived yet.
    public var waiting = 0
    /// Records the game's rules refused: nothing of them was applied.
    public var refused: [IncomingRefusal] = []
    /// The fetch began from a token the zone no longer has (another process of this machine
    /// fetched further meanwhile): nothing of it was applied, and its token was not saved.
    public var stale = false

    public init() {}
}

/// Which token of its zone a fetch began from, for `applyIncoming`: `.token` (nil: none yet)
/// applies it only while the zone still has that token; `.unchecked` applies it whatever the
/// zone's token is now (tests and benchmarks that make a machine's state directly).
///
/// `.conflict`: not a fetch but the cloud's versions a commit of this machine's met (changed
/// since this machine last saw them), applied whatever the token, over what is here only. A
/// game no longer here was deleted since the send read it (by the player, or by a deletion
/// another process fetched or sent meanwhile, whose queued change may be cleared already): the
/// cloud's version of it, read before that deletion went up, must not bring it back here, where
/// nothing would ever delete it again (the simulation's seed 25800). Its marks are not kept
/// waiting for it either.
public enum FetchStart: Sendable, Equatable {
    case unchecked
    case token(Data?)
    case conflict
}

/// A fetched record of the player's own zones refused by the game's rules (a game no start
/// could have made, a guess no game could have been given, a bookmark nothing here backs),
/// in storage's terms: what it was, the name the cloud gave it, and why, in a phrase.
public struct IncomingRefusal: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case game, guess, mark, bookmark }
    public var kind: Kind
    public var name: String
    public var reason: String

    public init(kind: Kind, name: String, reason: String) {
        (self.kind, self.name, self.reason) = (kind, name, reason)
    }
}

/// Where this player's sync stands, for `status` and the interface's header.
public struct SyncStatus: Sendable, Equatable {
    public var generation: String?
    public var lastSyncAt: Date?
    /// "never", "synced", "offline", "needs-attention".
    public var state: String
    public var message: String?
    public var pendingChanges: Int
}
