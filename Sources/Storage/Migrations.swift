import Foundation
import GRDB
import QiktionaryCore
import TextSafety

/// The schema, one migration per shipped change. A shipped migration is never edited: its SQL is
/// frozen text, so a database made by any released version upgrades the same way.
enum Migrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        let migrations = [
            ("v1: packs, games, guesses, marks, bookmarks", v1),
            ("v2: change tracking for sync", v2),
            ("v3: indexes for large histories", v3),
            ("v4: system fields of changing records, by their key alone", v4),
            ("v5: hard mode and hints", v5),
            ("v6: daily games", v6),
            ("v7: kept system fields name their game", v7),
            ("v8: times as integer milliseconds", v8),
            ("v9: a first upload written as a snapshot, noted while it is made", v9),
            ("v10: a game's status checked without a table per insert", v10),
        ]
        for (name, sql) in migrations {
            migrator.registerMigration(name) { db in try db.execute(sql: sql) }
        }
        migrator.registerMigration("v11: stored texts a terminal would obey shown as visible escapes", migrate: v11)
        migrator.registerMigration("v12: a game's help level") { db in try db.execute(sql: v12) }
        migrator.registerMigration("v13: each record's name kept once, guesses keyed by their game and word") { db in try db.execute(sql: v13) }
        migrator.registerMigration("v14: matches, plays and standings") { db in try db.execute(sql: v14) }
        migrator.registerMigration("v15: what this machine did itself, and how long a play waits for its match") { db in try db.execute(sql: v15) }
        migrator.registerMigration("v16: a match game's result as its player's machines published it") { db in try db.execute(sql: v16) }
        return migrator
    }

    /// A smaller database (docs/performance.md): each record's name and identity kept once.
    /// A guess kept its cloud name twice (its `id`, the name for a guess from the cloud, and
    /// `remoteRecordName`) beside a rowid and a second unique index on (game, word): its row is
    /// now keyed by (game, word) alone, in a table with no separate rowid tree, and keeps only
    /// whether the cloud has it (`uploaded`); the name is derived again from what makes it
    /// unique (`RecordNaming`). A game kept its name as its id, as `remoteRecordName`, and as
    /// the name and the game of its system fields' row (with an index on them): the system
    /// fields move into the game's row (`systemFields`, NULL for a game never uploaded; an
    /// uploaded game whose fields were not kept has an empty value) and the rest goes. A
    /// deleted game's own record and uploaded guesses wait to be deleted in the cloud by game
    /// and word (`deletionByGame`, the word '' for the game itself), named when they are sent.
    /// Every row, queued change and kept system field stays.
    static let v13 = """
        CREATE TABLE guessByGame (
          gameId TEXT NOT NULL REFERENCES game(id) ON DELETE CASCADE,
          word TEXT NOT NULL,
          position INTEGER NOT NULL CHECK (position >= 1),
          common INTEGER,
          inPlace INTEGER,
          inWord INTEGER,
          playedAt INTEGER NOT NULL,
          playedOn TEXT NOT NULL,
          uploaded BOOLEAN NOT NULL DEFAULT 0,
          PRIMARY KEY (gameId, word),
          CHECK ((common IS NULL) = (inPlace IS NOT NULL AND inWord IS NOT NULL))
        ) WITHOUT ROWID;
        INSERT INTO guessByGame (gameId, word, position, common, inPlace, inWord, playedAt, playedOn, uploaded)
          SELECT gameId, word, position, common, inPlace, inWord, playedAt, playedOn, remoteRecordName IS NOT NULL FROM guess ORDER BY gameId, word;
        DROP TABLE guess;
        ALTER TABLE guessByGame RENAME TO guess;
        CREATE INDEX guess_unsynced ON guess(gameId) WHERE uploaded = 0;
        ALTER TABLE game ADD COLUMN systemFields BLOB;
        UPDATE game SET systemFields = coalesce((SELECT r.systemFields FROM remoteRecord r WHERE r.playerId = game.playerId AND r.recordName = game.remoteRecordName), x'')
          WHERE remoteRecordName IS NOT NULL;
        DELETE FROM remoteRecord WHERE EXISTS (SELECT 1 FROM game g WHERE g.playerId = remoteRecord.playerId AND g.remoteRecordName = remoteRecord.recordName);
        DROP INDEX game_unsynced;
        ALTER TABLE game DROP COLUMN remoteRecordName;
        CREATE INDEX game_unsynced ON game(playerId) WHERE systemFields IS NULL;
        CREATE TABLE deletionByGame (
          playerId TEXT NOT NULL REFERENCES player(id) ON DELETE CASCADE,
          gameId TEXT NOT NULL,
          word TEXT NOT NULL,
          PRIMARY KEY (playerId, gameId, word)
        ) WITHOUT ROWID;
        """

    /// The help level a game was played at (`Assist`), fixed when it starts. Games from before
    /// had the coach's count on their board: they are `coach`. Every player's next games take
    /// the new standard level, `proven`, chosen as of now (`AppDatabase+Assist`).
    static let v12 = """
        ALTER TABLE game ADD COLUMN assist TEXT NOT NULL DEFAULT 'coach' CHECK (assist IN ('none', 'proven', 'coach'));
        INSERT INTO setting (key, value) SELECT 'assist ' || id, 'proven ' || (CAST(strftime('%s', 'now') AS INTEGER) * 1000) FROM player
          WHERE true ON CONFLICT (key) DO NOTHING;
        """

    /// What this player's machines know of the players of the shared folder (docs/multiplayer.md):
    /// every row is keyed by the player looking (`viewer`), so one player's rows never reach
    /// another's. Matches as made; plays by player and game (kept merged, so a play never goes
    /// back; a play whose match has not arrived waits here); declines by who declined (one whose
    /// match has not arrived waits too); the players seen; each
    /// device's leaderboard line; the token of each player's shared zone; and what this device
    /// last published under each record name, so an unchanged record is not written again.
    static let v14 = """
        CREATE TABLE matchRecord (
          viewer TEXT NOT NULL, id TEXT NOT NULL, players TEXT NOT NULL, createdBy TEXT NOT NULL, pack TEXT NOT NULL,
          packVersion INTEGER NOT NULL, rules TEXT NOT NULL, hard INTEGER NOT NULL, length INTEGER NOT NULL,
          maxGuesses INTEGER NOT NULL, createdAt INTEGER NOT NULL, codes TEXT NOT NULL, wordCheck INTEGER NOT NULL,
          PRIMARY KEY (viewer, id)
        );
        CREATE TABLE matchPlay (
          viewer TEXT NOT NULL, matchId TEXT NOT NULL, player TEXT NOT NULL, gameIndex INTEGER NOT NULL,
          status TEXT NOT NULL, guesses INTEGER NOT NULL, hints INTEGER, assist TEXT, grid TEXT,
          PRIMARY KEY (viewer, matchId, player, gameIndex)
        );
        CREATE TABLE matchDecline (
          viewer TEXT NOT NULL, matchId TEXT NOT NULL, player TEXT NOT NULL, PRIMARY KEY (viewer, matchId, player)
        );
        CREATE TABLE friend (
          viewer TEXT NOT NULL, name TEXT NOT NULL, joined INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (viewer, name)
        );
        CREATE TABLE standing (
          viewer TEXT NOT NULL, player TEXT NOT NULL, device TEXT NOT NULL, tallies TEXT NOT NULL,
          bestDailyStreak INTEGER NOT NULL, matchesWon INTEGER NOT NULL, days TEXT NOT NULL,
          PRIMARY KEY (viewer, player, device)
        );
        CREATE TABLE sharedToken (
          viewer TEXT NOT NULL, player TEXT NOT NULL, token TEXT NOT NULL, PRIMARY KEY (viewer, player)
        );
        CREATE TABLE sharedPublished (
          viewer TEXT NOT NULL, recordName TEXT NOT NULL, content TEXT NOT NULL, PRIMARY KEY (viewer, recordName)
        );
        """

    /// A machine publishes as its player's only what it did itself (issue 35): a match it made
    /// and a decline it made are marked `madeHere`, and only those are published; one read from
    /// the player's shared zone (another machine of theirs, or anyone who can write the folder)
    /// is shown, never published again. The rows kept before were published by whichever
    /// machine held them, so the player's own are taken as made here. A play read before its
    /// match notes when (`waitingSince`, 0 once its match is here), so one whose match never
    /// comes is dropped (`AppDatabase+Matches`). A match keeps the help level both its players
    /// play at (`assist`, NULL for the matches made before there was one).
    static let v15 = """
        ALTER TABLE matchRecord ADD COLUMN madeHere INTEGER NOT NULL DEFAULT 0;
        UPDATE matchRecord SET madeHere = 1 WHERE createdBy = viewer;
        ALTER TABLE matchDecline ADD COLUMN madeHere INTEGER NOT NULL DEFAULT 0;
        UPDATE matchDecline SET madeHere = 1 WHERE player = viewer;
        ALTER TABLE matchPlay ADD COLUMN waitingSince INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE matchRecord ADD COLUMN assist TEXT;
        """

    /// A game of a match keeps the result its player's machines published of it, the furthest
    /// on (`SyncGame.matchResult`, NULL for every other game and every game before it).
    static let v16 = "ALTER TABLE game ADD COLUMN matchResult TEXT;"

    /// Texts stored before every gate refused control characters (a pack file's fact, title or
    /// description, a game's or a bookmark's copy of a fact, a device's name) hold them written
    /// as visible escapes instead (`\x1b`, `\u202e`): nothing is lost, what the player saw
    /// stays readable, and the rows pass today's checks when exported or synced. Each text is
    /// kept within its column's limit (a fact 2,000 characters, a device's name 64). Code, not
    /// SQL, as SQLite cannot tell a control character; `MigrationTests` holds what it does.
    static func v11(_ db: Database) throws {
        let unsafe = DatabaseFunction("qiktionaryUnsafeText", argumentCount: 1, pure: true) { values in
            String.fromDatabaseValue(values[0]).map { !TerminalText.isSafe($0) } ?? false
        }
        let escaped = DatabaseFunction("qiktionaryEscapedText", argumentCount: 2, pure: true) { values in
            guard let text = String.fromDatabaseValue(values[0]), let limit = Int.fromDatabaseValue(values[1]) else { return nil }
            return String(oneLine(text).prefix(limit))
        }
        db.add(function: unsafe)
        db.add(function: escaped)
        defer {
            db.remove(function: unsafe)
            db.remove(function: escaped)
        }
        for (table, column, limit) in [("pack", "title", 2_000), ("pack", "description", 2_000), ("packWord", "fact", 2_000),
                                       ("game", "fact", 2_000), ("bookmark", "fact", 2_000), ("device", "name", 64)] {
            try db.execute(sql: """
                UPDATE \(table) SET \(column) = qiktionaryEscapedText(\(column), \(limit)) WHERE qiktionaryUnsafeText(\(column))
                """)
        }
    }

    static let v1 = """
        CREATE TABLE setting (
          key TEXT PRIMARY KEY NOT NULL,
          value TEXT NOT NULL
        );
        CREATE TABLE device (
          id TEXT PRIMARY KEY NOT NULL,
          name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
          isLocal BOOLEAN NOT NULL DEFAULT 0,
          lastSeenAt DATETIME
        );
        CREATE UNIQUE INDEX device_onlyOneLocal ON device(isLocal) WHERE isLocal;
        CREATE TABLE player (
          id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 1 AND 32),
          createdAt DATETIME NOT NULL
        );
        CREATE TABLE pack (
          id TEXT PRIMARY KEY NOT NULL,
          version INTEGER NOT NULL CHECK (version >= 1),
          title TEXT NOT NULL,
          description TEXT NOT NULL,
          length INTEGER NOT NULL CHECK (length BETWEEN 4 AND 7),
          rules TEXT NOT NULL CHECK (rules IN ('classic', 'mastermind')),
          maxGuesses INTEGER CHECK (maxGuesses BETWEEN 1 AND 30)
        );
        CREATE TABLE packWord (
          packId TEXT NOT NULL REFERENCES pack(id) ON DELETE CASCADE,
          word TEXT NOT NULL,
          fact TEXT NOT NULL,
          position INTEGER NOT NULL,
          PRIMARY KEY (packId, word)
        );
        CREATE INDEX packWord_word ON packWord(word);
        CREATE TABLE game (
          id TEXT PRIMARY KEY NOT NULL,
          playerId TEXT NOT NULL REFERENCES player(id) ON DELETE CASCADE,
          packId TEXT NOT NULL,
          secret TEXT NOT NULL CHECK (length(secret) BETWEEN 4 AND 7),
          fact TEXT NOT NULL,
          rules TEXT NOT NULL CHECK (rules IN ('classic', 'mastermind')),
          maxGuesses INTEGER NOT NULL CHECK (maxGuesses BETWEEN 1 AND 30),
          status TEXT NOT NULL CHECK (status IN ('in-progress', 'won', 'lost', 'gave-up')),
          startedAt DATETIME NOT NULL,
          updatedAt DATETIME NOT NULL,
          finishedAt DATETIME,
          startedOn TEXT NOT NULL,
          lastChangedOn TEXT NOT NULL,
          CHECK ((status = 'in-progress') = (finishedAt IS NULL))
        );
        CREATE INDEX game_player_status ON game(playerId, status, updatedAt);
        CREATE INDEX game_player_finished ON game(playerId, finishedAt);
        CREATE TABLE guess (
          id TEXT PRIMARY KEY NOT NULL,
          gameId TEXT NOT NULL REFERENCES game(id) ON DELETE CASCADE,
          position INTEGER NOT NULL CHECK (position >= 1),
          word TEXT NOT NULL,
          common INTEGER,
          inPlace INTEGER,
          inWord INTEGER,
          playedAt DATETIME NOT NULL,
          playedOn TEXT NOT NULL,
          UNIQUE (gameId, word),
          CHECK ((common IS NULL) = (inPlace IS NOT NULL AND inWord IS NOT NULL))
        );
        CREATE TABLE mark (
          gameId TEXT NOT NULL REFERENCES game(id) ON DELETE CASCADE,
          letter TEXT NOT NULL CHECK (length(letter) = 1 AND letter BETWEEN 'a' AND 'z'),
          state TEXT NOT NULL CHECK (state IN ('out', 'in')),
          markedAt DATETIME NOT NULL,
          PRIMARY KEY (gameId, letter)
        );
        CREATE TABLE bookmark (
          playerId TEXT NOT NULL REFERENCES player(id) ON DELETE CASCADE,
          word TEXT NOT NULL,
          packId TEXT NOT NULL,
          fact TEXT NOT NULL,
          addedAt DATETIME NOT NULL,
          PRIMARY KEY (playerId, word)
        );
        """

    /// What sync needs (docs/sync.md, step 1): the cloud's system fields of every record it knows
    /// (`remoteRecord`), a missing `remoteRecordName` for rows never uploaded, the fields changed
    /// since the last upload (`gameChange`, merged), marks and bookmarks to send (`markChange`,
    /// `bookmarkChange`, with a version so a change made while its batch is in flight is kept),
    /// deletions of records the cloud has (`recordDeletion`: the design's GameDeletion, for every
    /// type), change tokens per player and zone, and records that arrived before their game.
    static let v2 = """
        CREATE TABLE remoteRecord (
          playerId TEXT NOT NULL REFERENCES player(id) ON DELETE CASCADE,
          recordName TEXT NOT NULL,
          zone TEXT NOT NULL,
          systemFields BLOB NOT NULL,
          PRIMARY KEY (playerId, recordName)
        );
        ALTER TABLE game ADD COLUMN remoteRecordName TEXT;
        ALTER TABLE guess ADD COLUMN remoteRecordName TEXT;
        CREATE INDEX game_unsynced ON game(playerId) WHERE remoteRecordName IS NULL;
        CREATE INDEX guess_unsynced ON guess(gameId) WHERE remoteRecordName IS NULL;
        CREATE TABLE gameChange (
          gameId TEXT PRIMARY KEY NOT NULL REFERENCES game(id) ON DELETE CASCADE,
          changedFields TEXT NOT NULL,
          version INTEGER NOT NULL DEFAULT 1
        );
        CREATE TABLE markChange (
          gameId TEXT NOT NULL REFERENCES game(id) ON DELETE CASCADE,
          letter TEXT NOT NULL,
          version INTEGER NOT NULL DEFAULT 1,
          PRIMARY KEY (gameId, letter)
        );
        CREATE TABLE bookmarkChange (
          playerId TEXT NOT NULL REFERENCES player(id) ON DELETE CASCADE,
          word TEXT NOT NULL,
          version INTEGER NOT NULL DEFAULT 1,
          PRIMARY KEY (playerId, word)
        );
        CREATE TABLE recordDeletion (
          playerId TEXT NOT NULL REFERENCES player(id) ON DELETE CASCADE,
          recordName TEXT NOT NULL,
          zone TEXT NOT NULL,
          PRIMARY KEY (playerId, recordName)
        );
        CREATE TABLE syncState (
          playerId TEXT PRIMARY KEY NOT NULL REFERENCES player(id) ON DELETE CASCADE,
          generation TEXT,
          databaseToken BLOB,
          incompleteZones TEXT NOT NULL DEFAULT '',
          lastSyncAt DATETIME,
          state TEXT NOT NULL DEFAULT 'never',
          message TEXT
        );
        CREATE TABLE zoneToken (
          playerId TEXT NOT NULL REFERENCES player(id) ON DELETE CASCADE,
          zone TEXT NOT NULL,
          token BLOB NOT NULL,
          PRIMARY KEY (playerId, zone)
        );
        CREATE TABLE orphanRecord (
          playerId TEXT NOT NULL REFERENCES player(id) ON DELETE CASCADE,
          recordName TEXT NOT NULL,
          gameId TEXT NOT NULL,
          payload BLOB NOT NULL,
          PRIMARY KEY (playerId, recordName)
        );
        """

    /// Opening the game must not read every game ever played (docs/performance.md): the pack
    /// list counts solved words per pack and a new game avoids words already had, both by
    /// (player, pack, secret); the pack of the latest game is found by (player, start time).
    static let v3 = """
        CREATE INDEX game_player_pack_secret ON game(playerId, packId, secret, status);
        CREATE INDEX game_player_started ON game(playerId, startedAt);
        """

    /// A first sync kept the system fields of every record: 85,000 rows at 10,000 games
    /// (docs/performance.md). Guesses' are no longer kept (a guess never changes, so they are
    /// never sent back; the guess row's `remoteRecordName` says the cloud has it), and the rest
    /// are kept in the order of their key, with no separate rowid tree and key index: one b-tree
    /// insert each instead of two. Rows keep whatever encoding they had; `SystemFields(encoded:)`
    /// reads the old JSON and the short form alike.
    static let v4 = """
        CREATE TABLE remoteRecordByKey (
          playerId TEXT NOT NULL REFERENCES player(id) ON DELETE CASCADE,
          recordName TEXT NOT NULL,
          zone TEXT NOT NULL,
          systemFields BLOB NOT NULL,
          PRIMARY KEY (playerId, recordName)
        ) WITHOUT ROWID;
        INSERT INTO remoteRecordByKey (playerId, recordName, zone, systemFields)
          SELECT playerId, recordName, zone, systemFields FROM remoteRecord
          WHERE recordName NOT IN (SELECT remoteRecordName FROM guess WHERE remoteRecordName IS NOT NULL);
        DROP TABLE remoteRecord;
        ALTER TABLE remoteRecordByKey RENAME TO remoteRecord;
        """

    /// The coach (docs/coach.md): whether a game is played in hard mode (set when it starts,
    /// never changed), and the hints taken, as the sorted guess counts at which each was shown
    /// ("0,2": before the first and before the third guess). Two machines' hints merge as a union.
    static let v5 = """
        ALTER TABLE game ADD COLUMN hard BOOLEAN NOT NULL DEFAULT 0;
        ALTER TABLE game ADD COLUMN hints TEXT NOT NULL DEFAULT '';
        """

    /// The daily word (README): a daily game keeps its UTC date, and a player's daily game of a
    /// date has one id on every machine (`DailyWord.gameID`), so two machines that both played
    /// it merge into one game.
    static let v6 = """
        ALTER TABLE game ADD COLUMN daily TEXT CHECK (daily IS NULL OR length(daily) = 10);
        CREATE INDEX game_player_daily ON game(playerId, daily) WHERE daily IS NOT NULL;
        """

    /// The system fields kept of a game's records (the game and its marks) name the game, so
    /// deleting a game queues the deletion of the names the cloud gave, without storage ever
    /// spelling a record name (the cloud schema, in Sync, does). Rows already kept learn their
    /// game from their name, as the names were made until now: the game's id, or the id and a
    /// dash before a mark's or a guess's part.
    static let v7 = """
        ALTER TABLE remoteRecord ADD COLUMN gameId TEXT;
        UPDATE remoteRecord SET gameId = substr(recordName, 1, 36) WHERE zone = 'Games';
        CREATE INDEX remoteRecord_game ON remoteRecord(playerId, gameId) WHERE gameId IS NOT NULL;
        """

    /// Times become whole milliseconds since 1970 (UTC), stored as integers: written and read by
    /// arithmetic, compared as numbers, equal to the cloud's times (whole milliseconds too). Until
    /// now they were GRDB's text, "yyyy-MM-dd HH:mm:ss.SSS" in UTC; the text's seconds come from
    /// SQLite's own calendar and its milliseconds from the last three digits.
    static let v8 = """
        UPDATE device SET lastSeenAt = CAST(strftime('%s', lastSeenAt) AS INTEGER) * 1000 + CAST(substr(lastSeenAt, 21, 3) AS INTEGER) WHERE typeof(lastSeenAt) = 'text';
        UPDATE player SET createdAt = CAST(strftime('%s', createdAt) AS INTEGER) * 1000 + CAST(substr(createdAt, 21, 3) AS INTEGER) WHERE typeof(createdAt) = 'text';
        UPDATE game SET startedAt = CAST(strftime('%s', startedAt) AS INTEGER) * 1000 + CAST(substr(startedAt, 21, 3) AS INTEGER) WHERE typeof(startedAt) = 'text';
        UPDATE game SET updatedAt = CAST(strftime('%s', updatedAt) AS INTEGER) * 1000 + CAST(substr(updatedAt, 21, 3) AS INTEGER) WHERE typeof(updatedAt) = 'text';
        UPDATE game SET finishedAt = CAST(strftime('%s', finishedAt) AS INTEGER) * 1000 + CAST(substr(finishedAt, 21, 3) AS INTEGER) WHERE typeof(finishedAt) = 'text';
        UPDATE guess SET playedAt = CAST(strftime('%s', playedAt) AS INTEGER) * 1000 + CAST(substr(playedAt, 21, 3) AS INTEGER) WHERE typeof(playedAt) = 'text';
        UPDATE mark SET markedAt = CAST(strftime('%s', markedAt) AS INTEGER) * 1000 + CAST(substr(markedAt, 21, 3) AS INTEGER) WHERE typeof(markedAt) = 'text';
        UPDATE bookmark SET addedAt = CAST(strftime('%s', addedAt) AS INTEGER) * 1000 + CAST(substr(addedAt, 21, 3) AS INTEGER) WHERE typeof(addedAt) = 'text';
        UPDATE syncState SET lastSyncAt = CAST(strftime('%s', lastSyncAt) AS INTEGER) * 1000 + CAST(substr(lastSyncAt, 21, 3) AS INTEGER) WHERE typeof(lastSyncAt) = 'text';
        """

    /// The zone whose first upload is being written as a snapshot (see `AppDatabase.snapshotUploadZone`).
    static let v9 = """
        ALTER TABLE syncState ADD COLUMN snapshotUpload TEXT;
        """

    /// The game table rebuilt, the same in all but one check: `status IN (four values)` made
    /// SQLite build a small table of the four for every row inserted or updated (a list of
    /// more than two values is looked up, not compared), about a tenth of a first sync's
    /// storing at 100,000 games (docs/performance.md). The same values are allowed, compared
    /// one by one. Columns, defaults, other checks and indexes are as v1 to v6 left them.
    static let v10 = """
        CREATE TABLE gameChecked (
          id TEXT PRIMARY KEY NOT NULL,
          playerId TEXT NOT NULL REFERENCES player(id) ON DELETE CASCADE,
          packId TEXT NOT NULL,
          secret TEXT NOT NULL CHECK (length(secret) BETWEEN 4 AND 7),
          fact TEXT NOT NULL,
          rules TEXT NOT NULL CHECK (rules IN ('classic', 'mastermind')),
          maxGuesses INTEGER NOT NULL CHECK (maxGuesses BETWEEN 1 AND 30),
          status TEXT NOT NULL CHECK (status = 'in-progress' OR status = 'won' OR status = 'lost' OR status = 'gave-up'),
          startedAt DATETIME NOT NULL,
          updatedAt DATETIME NOT NULL,
          finishedAt DATETIME,
          startedOn TEXT NOT NULL,
          lastChangedOn TEXT NOT NULL,
          remoteRecordName TEXT,
          hard BOOLEAN NOT NULL DEFAULT 0,
          hints TEXT NOT NULL DEFAULT '',
          daily TEXT CHECK (daily IS NULL OR length(daily) = 10),
          CHECK ((status = 'in-progress') = (finishedAt IS NULL))
        );
        INSERT INTO gameChecked (id, playerId, packId, secret, fact, rules, maxGuesses, status, startedAt, updatedAt, finishedAt,
                                 startedOn, lastChangedOn, remoteRecordName, hard, hints, daily)
          SELECT id, playerId, packId, secret, fact, rules, maxGuesses, status, startedAt, updatedAt, finishedAt,
                 startedOn, lastChangedOn, remoteRecordName, hard, hints, daily FROM game ORDER BY rowid;
        DROP TABLE game;
        ALTER TABLE gameChecked RENAME TO game;
        CREATE INDEX game_player_status ON game(playerId, status, updatedAt);
        CREATE INDEX game_player_finished ON game(playerId, finishedAt);
        CREATE INDEX game_unsynced ON game(playerId) WHERE remoteRecordName IS NULL;
        CREATE INDEX game_player_pack_secret ON game(playerId, packId, secret, status);
        CREATE INDEX game_player_started ON game(playerId, startedAt);
        CREATE INDEX game_player_daily ON game(playerId, daily) WHERE daily IS NOT NULL;
        """
}
