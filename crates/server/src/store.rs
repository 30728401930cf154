//! Storage of games behind one interface, [`Store`]: SQLite now (one file, created if
//! missing); a PostgreSQL store for several server instances implements the same trait.
//!
//! A game is stored as its setup (ruleset, options, seed, stakes, players, seat tokens) and
//! an append-only list of events (moves and dice rolls), numbered from 0. The server writes
//! each event before it tells anyone about it, and on start replays every game from them.
//!
//! The Lab's studies are stored too: a run as its study (JSON) and status, and each
//! finished game of it as one row keyed (run, reading, index), so a stopped or interrupted
//! run continues with the games it lacks.

use crate::record::{Event, Setup};
use libro_lab::GameRow;
use rusqlite::{params, Connection};
use std::path::Path;
use std::sync::Mutex;

/// What went wrong in storage.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Db(#[from] rusqlite::Error),
    #[error("stored data of game {game} is unreadable: {reason}")]
    Corrupt { game: String, reason: String },
    #[error("event {index} of game {game} is already stored (a concurrent write?)")]
    Conflict { game: String, index: u32 },
    #[error("the write of a batch of events failed: {0}")]
    Batch(String),
    #[error("stored data of lab run {run} is unreadable: {reason}")]
    CorruptRun { run: i64, reason: String },
    #[error("game {index} of reading `{reading}` of lab run {run} is already stored (a concurrent write?)")]
    LabConflict {
        run: i64,
        reading: String,
        index: u32,
    },
}

/// A stored lab run as listed: its study as stored (JSON text, read with
/// [`StoredRun::study`]), its status and how many games are stored.
#[derive(Clone, Debug)]
pub struct StoredRun {
    pub id: i64,
    pub study: String,
    pub status: String,
    /// Why it stopped or failed (empty otherwise).
    pub message: String,
    pub created: i64,
    /// Finished games stored.
    pub games: u64,
}

impl StoredRun {
    /// The study, read from its JSON.
    pub fn study(&self) -> Result<libro_lab::Study, StoreError> {
        serde_json::from_str(&self.study).map_err(|e| StoreError::CorruptRun {
            run: self.id,
            reason: format!("study: {e}"),
        })
    }
}

/// A stored game as loaded at start-up.
#[derive(Clone, Debug)]
pub struct StoredGame {
    pub id: String,
    pub setup: Setup,
    /// The hash ([`token_hash`]) of each seat's secret token (`None` for AI seats).
    pub tokens: Vec<Option<String>>,
    pub created: i64,
    pub events: Vec<Event>,
}

/// One event to append ([`Store::append_batch`]), with the game's new listing status if the
/// event ends it.
#[derive(Clone, Debug)]
pub struct Append {
    pub game: String,
    pub index: u32,
    pub event: Event,
    pub status: Option<&'static str>,
}

/// A stored game, or why it cannot be read ([`StoreError::Corrupt`]).
pub type Loaded = Result<StoredGame, StoreError>;

/// The hash stored for a seat's secret token (SHA-256, hex): the database never holds a token
/// that would let its reader take a seat.
pub fn token_hash(token: &str) -> String {
    use sha2::Digest;
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let digest = sha2::Sha256::digest(token.as_bytes());
    let mut out = String::with_capacity(2 * digest.len());
    for b in digest {
        out.push(char::from(HEX[usize::from(b >> 4)]));
        out.push(char::from(HEX[usize::from(b & 15)]));
    }
    out
}

/// Whether `token` is the one whose hash is `hash`, compared in constant time.
pub fn token_matches(token: &str, hash: &str) -> bool {
    !token.is_empty() && hash_matches(&token_hash(token), hash)
}

/// Whether two token hashes are equal, compared in constant time.
pub fn hash_matches(a: &str, b: &str) -> bool {
    use subtle::ConstantTimeEq;
    bool::from(a.as_bytes().ct_eq(b.as_bytes()))
}

/// The schema version kept in `PRAGMA user_version`: 1 stores token hashes (0 stored them
/// in plain text and is migrated on open).
const SCHEMA_VERSION: i64 = 1;

/// Where games are kept. Every method is blocking; the server calls them off the async
/// threads.
pub trait Store: Send + Sync + 'static {
    /// Stores a new game with its setup and seat token hashes ([`token_hash`]).
    fn create_game(
        &self,
        id: &str,
        setup: &Setup,
        tokens: &[Option<String>],
        created: i64,
    ) -> Result<(), StoreError>;
    /// Appends event number `index` of game `id`; fails with [`StoreError::Conflict`] if that
    /// number is taken, so two writers can never both succeed.
    fn append_event(&self, id: &str, index: u32, event: &Event) -> Result<(), StoreError>;
    /// Appends the events of a batch (of any games) in one durable write, each with its own
    /// result: a taken number fails that event alone; a failed commit fails them all. The
    /// default writes them one by one.
    fn append_batch(&self, batch: &[Append]) -> Vec<Result<(), StoreError>> {
        batch
            .iter()
            .map(|a| {
                self.append_event(&a.game, a.index, &a.event)?;
                match a.status {
                    Some(status) => self.set_status(&a.game, status),
                    None => Ok(()),
                }
            })
            .collect()
    }
    /// Records that the game is over (for listings); the events remain the truth.
    fn set_status(&self, id: &str, status: &str) -> Result<(), StoreError>;
    /// Replaces the game's seat token hashes (a player took an open seat).
    fn set_tokens(&self, id: &str, tokens: &[Option<String>]) -> Result<(), StoreError>;
    /// The stored game `id` with its events (`None`: no such game). The default reads them
    /// all.
    fn load_game(&self, id: &str) -> Result<Option<Loaded>, StoreError> {
        Ok(self.load_all()?.into_iter().find(|g| match g {
            Ok(g) => g.id == id,
            Err(StoreError::Corrupt { game, .. }) => game == id,
            Err(_) => false,
        }))
    }
    /// Removes a game and its events (a game never started, expired).
    fn delete_game(&self, id: &str) -> Result<(), StoreError>;
    /// Every stored game with its events, oldest first; a game whose rows cannot be read is
    /// an `Err` of its own ([`StoreError::Corrupt`]) and the others still load.
    fn load_all(&self) -> Result<Vec<Loaded>, StoreError>;

    /// Stores a new lab run of `study` (JSON) with status `status`; returns its number.
    fn create_run(&self, study: &str, status: &str, created: i64) -> Result<i64, StoreError>;
    /// Replaces a run's study (a run continued with more games per reading).
    fn set_run_study(&self, run: i64, study: &str) -> Result<(), StoreError>;
    /// Sets a run's status and the message saying why.
    fn set_run_status(&self, run: i64, status: &str, message: &str) -> Result<(), StoreError>;
    /// Stores finished games of a run, all or none; a game already stored is refused with
    /// [`StoreError::LabConflict`].
    fn append_run_games(&self, run: i64, rows: &[GameRow]) -> Result<(), StoreError>;
    /// Every lab run, oldest first (`None`: the run of that number).
    fn runs(&self, only: Option<i64>) -> Result<Vec<StoredRun>, StoreError>;
    /// The stored games of a run, by reading and index.
    fn run_games(&self, run: i64) -> Result<Vec<GameRow>, StoreError>;
}

/// The SQLite store: one database file in WAL mode.
pub struct SqliteStore {
    conn: Mutex<Connection>,
}

impl SqliteStore {
    /// Opens (creating if missing) the database file and its tables, migrating an older
    /// schema.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let conn = Connection::open(path)?;
        Self::init(conn)
    }

    /// A private in-memory database (tests).
    pub fn in_memory() -> Result<SqliteStore, StoreError> {
        Self::init(Connection::open_in_memory()?)
    }

    fn init(conn: Connection) -> Result<SqliteStore, StoreError> {
        // WAL with synchronous=FULL: every commit is synced to disk before it returns, so an
        // acknowledged event survives a crash of the process, the OS or the power. The
        // server commits events in batches ([`Store::append_batch`]): one sync for many.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS games (
                id TEXT PRIMARY KEY,
                setup TEXT NOT NULL,
                tokens TEXT NOT NULL,
                created INTEGER NOT NULL,
                status TEXT NOT NULL DEFAULT 'playing'
            );
            CREATE TABLE IF NOT EXISTS events (
                game TEXT NOT NULL REFERENCES games(id),
                idx INTEGER NOT NULL,
                event TEXT NOT NULL,
                PRIMARY KEY (game, idx)
            );
            CREATE TABLE IF NOT EXISTS lab_runs (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                study TEXT NOT NULL,
                status TEXT NOT NULL,
                message TEXT NOT NULL DEFAULT '',
                created INTEGER NOT NULL
            );
            CREATE TABLE IF NOT EXISTS lab_games (
                run INTEGER NOT NULL REFERENCES lab_runs(id),
                reading TEXT NOT NULL,
                idx INTEGER NOT NULL,
                row TEXT NOT NULL,
                PRIMARY KEY (run, reading, idx)
            );",
        )?;
        Self::migrate(&conn)?;
        Ok(SqliteStore {
            conn: Mutex::new(conn),
        })
    }

    /// Brings an older schema up to [`SCHEMA_VERSION`] in one transaction.
    fn migrate(conn: &Connection) -> Result<(), StoreError> {
        let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
        if version >= SCHEMA_VERSION {
            return Ok(());
        }
        let tx = conn.unchecked_transaction()?;
        if version < 1 {
            // Plain seat tokens become their hashes; a row that does not read is left for
            // the load to report as damaged.
            let rows: Vec<(String, String)> = tx
                .prepare("SELECT id, tokens FROM games")?
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<Result<_, _>>()?;
            for (id, tokens) in rows {
                let Ok(tokens) = serde_json::from_str::<Vec<Option<String>>>(&tokens) else {
                    continue;
                };
                let hashed: Vec<Option<String>> = tokens
                    .iter()
                    .map(|t| t.as_deref().map(token_hash))
                    .collect();
                tx.execute(
                    "UPDATE games SET tokens = ?2 WHERE id = ?1",
                    params![id, json(&hashed)],
                )?;
            }
        }
        tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
        tx.commit()?;
        Ok(())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave SQLite half-written (each statement is
        // atomic), so a poisoned lock is still usable.
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl SqliteStore {
    /// Every stored game (`None`) or the one of that id, with its events.
    fn load_where(&self, only: Option<&str>) -> Result<Vec<Loaded>, StoreError> {
        let conn = self.lock();
        let mut games = Vec::new();
        let mut stmt = conn.prepare(
            "SELECT id, setup, tokens, created FROM games WHERE ?1 IS NULL OR id = ?1
             ORDER BY created, id",
        )?;
        let rows = stmt.query_map(params![only], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, i64>(3)?,
            ))
        })?;
        for row in rows {
            let (id, setup, tokens, created) = row?;
            games.push(read_game(id, &setup, &tokens, created));
        }
        drop(stmt);
        let mut stmt =
            conn.prepare("SELECT idx, event FROM events WHERE game = ?1 ORDER BY idx")?;
        for loaded in &mut games {
            let Ok(g) = loaded else { continue };
            let rows = stmt.query_map(params![g.id], |r| {
                Ok((r.get::<_, u32>(0)?, r.get::<_, String>(1)?))
            })?;
            let mut damage = None;
            for row in rows {
                let (idx, text) = row?;
                if idx as usize != g.events.len() {
                    damage = Some(format!("event {} is missing", g.events.len()));
                    break;
                }
                match serde_json::from_str(&text) {
                    Ok(ev) => g.events.push(ev),
                    Err(e) => {
                        damage = Some(format!("event {idx}: {e}"));
                        break;
                    }
                }
            }
            if let Some(reason) = damage {
                *loaded = Err(StoreError::Corrupt {
                    game: g.id.clone(),
                    reason,
                });
            }
        }
        Ok(games)
    }
}

/// A failed event insert: [`StoreError::Conflict`] if its number is taken.
fn conflict_or(e: rusqlite::Error, game: &str, index: u32) -> StoreError {
    match e {
        rusqlite::Error::SqliteFailure(f, _)
            if f.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY =>
        {
            StoreError::Conflict {
                game: game.to_string(),
                index,
            }
        }
        e => e.into(),
    }
}

/// One `games` row read, or why it cannot be.
fn read_game(id: String, setup: &str, tokens: &str, created: i64) -> Loaded {
    let corrupt = |reason: String| StoreError::Corrupt {
        game: id.clone(),
        reason,
    };
    let setup: Setup = serde_json::from_str(setup).map_err(|e| corrupt(format!("setup: {e}")))?;
    let tokens: Vec<Option<String>> =
        serde_json::from_str(tokens).map_err(|e| corrupt(format!("tokens: {e}")))?;
    Ok(StoredGame {
        id,
        setup,
        tokens,
        created,
        events: Vec::new(),
    })
}

fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("setups, tokens, events, studies and lab games serialise")
}

impl Store for SqliteStore {
    fn create_game(
        &self,
        id: &str,
        setup: &Setup,
        tokens: &[Option<String>],
        created: i64,
    ) -> Result<(), StoreError> {
        self.lock().execute(
            "INSERT INTO games (id, setup, tokens, created) VALUES (?1, ?2, ?3, ?4)",
            params![id, json(setup), json(&tokens), created],
        )?;
        Ok(())
    }

    fn append_event(&self, id: &str, index: u32, event: &Event) -> Result<(), StoreError> {
        let conn = self.lock();
        let mut stmt =
            conn.prepare_cached("INSERT INTO events (game, idx, event) VALUES (?1, ?2, ?3)")?;
        match stmt.execute(params![id, index, json(event)]) {
            Ok(_) => Ok(()),
            // The (game, idx) key is taken: another writer got there first.
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY =>
            {
                Err(StoreError::Conflict {
                    game: id.to_string(),
                    index,
                })
            }
            Err(e) => Err(e.into()),
        }
    }

    fn append_batch(&self, batch: &[Append]) -> Vec<Result<(), StoreError>> {
        let mut conn = self.lock();
        let written = (|| -> Result<Vec<Result<(), StoreError>>, StoreError> {
            let tx = conn.transaction()?;
            let mut results = Vec::with_capacity(batch.len());
            {
                let mut insert =
                    tx.prepare_cached("INSERT INTO events (game, idx, event) VALUES (?1, ?2, ?3)")?;
                let mut status = tx.prepare_cached("UPDATE games SET status = ?2 WHERE id = ?1")?;
                for a in batch {
                    // A failed statement is undone alone; the transaction goes on.
                    let one = match insert.execute(params![a.game, a.index, json(&a.event)]) {
                        Ok(_) => match a.status {
                            Some(s) => status.execute(params![a.game, s]).map(|_| ()),
                            None => Ok(()),
                        },
                        Err(e) => Err(e),
                    };
                    results.push(one.map_err(|e| conflict_or(e, &a.game, a.index)));
                }
            }
            tx.commit()?;
            Ok(results)
        })();
        match written {
            Ok(results) => results,
            Err(e) => {
                let e = e.to_string();
                batch
                    .iter()
                    .map(|_| Err(StoreError::Batch(e.clone())))
                    .collect()
            }
        }
    }

    fn set_status(&self, id: &str, status: &str) -> Result<(), StoreError> {
        self.lock().execute(
            "UPDATE games SET status = ?2 WHERE id = ?1",
            params![id, status],
        )?;
        Ok(())
    }

    fn load_game(&self, id: &str) -> Result<Option<Loaded>, StoreError> {
        Ok(self.load_where(Some(id))?.pop())
    }

    fn set_tokens(&self, id: &str, tokens: &[Option<String>]) -> Result<(), StoreError> {
        self.lock().execute(
            "UPDATE games SET tokens = ?2 WHERE id = ?1",
            params![id, json(&tokens)],
        )?;
        Ok(())
    }

    fn delete_game(&self, id: &str) -> Result<(), StoreError> {
        let mut conn = self.lock();
        let tx = conn.transaction()?;
        tx.execute("DELETE FROM events WHERE game = ?1", params![id])?;
        tx.execute("DELETE FROM games WHERE id = ?1", params![id])?;
        tx.commit()?;
        Ok(())
    }

    fn load_all(&self) -> Result<Vec<Loaded>, StoreError> {
        self.load_where(None)
    }

    fn create_run(&self, study: &str, status: &str, created: i64) -> Result<i64, StoreError> {
        let conn = self.lock();
        conn.execute(
            "INSERT INTO lab_runs (study, status, created) VALUES (?1, ?2, ?3)",
            params![study, status, created],
        )?;
        Ok(conn.last_insert_rowid())
    }

    fn set_run_study(&self, run: i64, study: &str) -> Result<(), StoreError> {
        self.lock().execute(
            "UPDATE lab_runs SET study = ?2 WHERE id = ?1",
            params![run, study],
        )?;
        Ok(())
    }

    fn set_run_status(&self, run: i64, status: &str, message: &str) -> Result<(), StoreError> {
        self.lock().execute(
            "UPDATE lab_runs SET status = ?2, message = ?3 WHERE id = ?1",
            params![run, status, message],
        )?;
        Ok(())
    }

    fn append_run_games(&self, run: i64, rows: &[GameRow]) -> Result<(), StoreError> {
        let mut conn = self.lock();
        let tx = conn.transaction()?;
        {
            let mut stmt = tx.prepare_cached(
                "INSERT INTO lab_games (run, reading, idx, row) VALUES (?1, ?2, ?3, ?4)",
            )?;
            for row in rows {
                match stmt.execute(params![run, row.reading, row.index, json(row)]) {
                    Ok(_) => {}
                    Err(rusqlite::Error::SqliteFailure(e, _))
                        if e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY =>
                    {
                        return Err(StoreError::LabConflict {
                            run,
                            reading: row.reading.clone(),
                            index: row.index,
                        })
                    }
                    Err(e) => return Err(e.into()),
                }
            }
        }
        tx.commit()?;
        Ok(())
    }

    fn runs(&self, only: Option<i64>) -> Result<Vec<StoredRun>, StoreError> {
        let conn = self.lock();
        let mut stmt = conn.prepare(
            "SELECT r.id, r.study, r.status, r.message, r.created,
                    (SELECT COUNT(*) FROM lab_games g WHERE g.run = r.id)
             FROM lab_runs r WHERE ?1 IS NULL OR r.id = ?1 ORDER BY r.id",
        )?;
        let rows = stmt.query_map(params![only], |r| {
            Ok(StoredRun {
                id: r.get(0)?,
                study: r.get(1)?,
                status: r.get(2)?,
                message: r.get(3)?,
                created: r.get(4)?,
                games: r.get::<_, i64>(5)?.max(0) as u64,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn run_games(&self, run: i64) -> Result<Vec<GameRow>, StoreError> {
        let conn = self.lock();
        let mut stmt = conn.prepare(
            "SELECT reading, idx, row FROM lab_games WHERE run = ?1 ORDER BY reading, idx",
        )?;
        let rows = stmt.query_map(params![run], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, String>(2)?,
            ))
        })?;
        let mut games = Vec::new();
        for row in rows {
            let (reading, idx, text) = row?;
            let corrupt = |reason: String| StoreError::CorruptRun {
                run,
                reason: format!("game {idx} of reading `{reading}`: {reason}"),
            };
            let game: GameRow = serde_json::from_str(&text).map_err(|e| corrupt(e.to_string()))?;
            if game.reading != reading || i64::from(game.index) != idx {
                return Err(corrupt(format!(
                    "the row says game {} of reading `{}`",
                    game.index, game.reading
                )));
            }
            games.push(game);
        }
        Ok(games)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup() -> Setup {
        Setup {
            ruleset: "fallas".into(),
            options: vec![],
            seed: 7,
            stakes: None,
            players: vec!["human".into(), "ai:2".into()],
            clock: None,
            position: None,
        }
    }

    #[test]
    fn events_come_back_in_order_and_a_taken_index_is_refused() {
        let s = SqliteStore::in_memory().unwrap();
        s.create_game("g1", &setup(), &[Some("tok".into()), None], 5)
            .unwrap();
        s.append_event("g1", 0, &Event::Roll { roll: "5-2".into() })
            .unwrap();
        s.append_event(
            "g1",
            1,
            &Event::Move {
                seat: 0,
                text: "24/19".into(),
                at: None,
            },
        )
        .unwrap();
        assert!(matches!(
            s.append_event(
                "g1",
                1,
                &Event::Roll {
                    roll: "1-1-1".into()
                }
            ),
            Err(StoreError::Conflict { .. })
        ));
        let all: Vec<StoredGame> = s
            .load_all()
            .unwrap()
            .into_iter()
            .map(Result::unwrap)
            .collect();
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].tokens, vec![Some("tok".to_string()), None]);
        assert_eq!(
            all[0].events,
            vec![
                Event::Roll { roll: "5-2".into() },
                Event::Move {
                    seat: 0,
                    text: "24/19".into(),
                    at: None,
                }
            ]
        );
    }

    #[test]
    fn a_game_with_an_unreadable_row_loads_as_damaged_and_the_others_load() {
        let s = SqliteStore::in_memory().unwrap();
        for id in ["a", "b", "c", "d"] {
            s.create_game(id, &setup(), &[None, None], 1).unwrap();
            s.append_event(id, 0, &Event::Roll { roll: "5-2".into() })
                .unwrap();
        }
        {
            let conn = s.lock();
            conn.execute("UPDATE events SET event = '{oops' WHERE game = 'b'", [])
                .unwrap();
            conn.execute("UPDATE games SET setup = '[]' WHERE id = 'c'", [])
                .unwrap();
            // Event 1 of d is missing: 0 then 2.
            conn.execute(
                "INSERT INTO events (game, idx, event) VALUES ('d', 2, '{\"kind\":\"roll\",\"roll\":\"1-1\"}')",
                [],
            )
            .unwrap();
        }
        let all = s.load_all().unwrap();
        assert_eq!(all.len(), 4);
        assert_eq!(all[0].as_ref().unwrap().events.len(), 1);
        let damaged: Vec<String> = all[1..]
            .iter()
            .map(|l| l.as_ref().unwrap_err().to_string())
            .collect();
        assert!(
            damaged[0].contains("game b") && damaged[0].contains("event 0"),
            "{damaged:?}"
        );
        assert!(
            damaged[1].contains("game c") && damaged[1].contains("setup"),
            "{damaged:?}"
        );
        assert!(
            damaged[2].contains("game d") && damaged[2].contains("event 1 is missing"),
            "{damaged:?}"
        );
    }

    #[test]
    fn plain_tokens_of_an_old_database_are_hashed_on_open() {
        let dir = std::env::temp_dir().join(format!("libro-store-migrate-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("old.db");
        {
            // A version 0 database: tokens in plain text, user_version 0.
            let s = SqliteStore::open(&path).unwrap();
            let conn = s.lock();
            conn.execute(
                "INSERT INTO games (id, setup, tokens, created) VALUES ('g', ?1, '[\"secret\",null]', 1)",
                params![json(&setup())],
            )
            .unwrap();
            conn.pragma_update(None, "user_version", 0).unwrap();
        }
        let s = SqliteStore::open(&path).unwrap();
        let g = s.load_all().unwrap().remove(0).unwrap();
        // SHA-256 of "secret", worked out with `printf secret | sha256sum`.
        let expected = "2bb80d537b1da3e38bd30361aa855686bde0eacd7162fef6a25fe97bf527a25b";
        assert_eq!(g.tokens, vec![Some(expected.to_string()), None]);
        assert!(token_matches("secret", expected));
        assert!(!token_matches("secreT", expected) && !token_matches("", expected));
        let version: i64 = s
            .lock()
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap();
        assert_eq!(version, SCHEMA_VERSION);
        // Opening again does not hash the hashes.
        drop(s);
        let s = SqliteStore::open(&path).unwrap();
        assert_eq!(
            s.load_all().unwrap().remove(0).unwrap().tokens[0].as_deref(),
            Some(expected)
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_batch_stores_each_event_and_a_taken_number_fails_alone() {
        let s = SqliteStore::in_memory().unwrap();
        s.create_game("a", &setup(), &[None, None], 1).unwrap();
        s.create_game("b", &setup(), &[None, None], 2).unwrap();
        let roll = |g: &str, index: u32, status| Append {
            game: g.into(),
            index,
            event: Event::Roll { roll: "5-2".into() },
            status,
        };
        let results = s.append_batch(&[
            roll("a", 0, None),
            roll("b", 0, None),
            roll("a", 0, None),
            roll("a", 1, Some("over")),
            roll("nope", 0, None),
        ]);
        let ok: Vec<bool> = results.iter().map(Result::is_ok).collect();
        assert_eq!(ok, [true, true, false, true, false]);
        assert!(matches!(
            results[2],
            Err(StoreError::Conflict { index: 0, .. })
        ));
        let all = s.load_all().unwrap();
        let counts: Vec<usize> = all
            .iter()
            .map(|g| g.as_ref().unwrap().events.len())
            .collect();
        assert_eq!(counts, [2, 1]);
        let status: String = s
            .lock()
            .query_row("SELECT status FROM games WHERE id = 'a'", [], |r| r.get(0))
            .unwrap();
        assert_eq!(status, "over");
    }

    #[test]
    fn events_of_an_unknown_game_are_refused() {
        let s = SqliteStore::in_memory().unwrap();
        assert!(s
            .append_event(
                "nope",
                0,
                &Event::Roll {
                    roll: "1-2-3".into()
                }
            )
            .is_err());
    }

    fn lab_row(reading: &str, index: u32) -> GameRow {
        GameRow {
            reading: reading.into(),
            index,
            seed: 9,
            plies: 40,
            decisions: 20,
            legal: 300,
            reason: "falla".into(),
            capped: false,
            scores: vec![1.0, 0.0],
            winner: Some(0),
            fingerprint: u64::from(index) + 1,
            first: Some(0),
            piece_moves: vec![20, 0],
            piece_captures: vec![1, 0],
            landings: vec![1; 25],
            lead_changes: 2,
            paid: None,
            balances: None,
        }
    }

    #[test]
    fn lab_games_come_back_by_reading_and_index_and_a_stored_game_is_refused() {
        let s = SqliteStore::in_memory().unwrap();
        let run = s.create_run("{}", "running", 3).unwrap();
        let other = s.create_run("{}", "stopped", 4).unwrap();
        assert_ne!(run, other);
        s.append_run_games(
            run,
            &[lab_row("b=1", 1), lab_row("a=1", 0), lab_row("b=1", 0)],
        )
        .unwrap();
        // One game already stored: none of the batch is kept.
        assert!(matches!(
            s.append_run_games(run, &[lab_row("a=1", 1), lab_row("b=1", 1)]),
            Err(StoreError::LabConflict { index: 1, .. })
        ));
        let keys: Vec<(String, u32)> = s
            .run_games(run)
            .unwrap()
            .into_iter()
            .map(|r| (r.reading, r.index))
            .collect();
        assert_eq!(
            keys,
            [("a=1".into(), 0), ("b=1".into(), 0), ("b=1".into(), 1)]
        );
        assert!(s.run_games(other).unwrap().is_empty());
        s.set_run_status(run, "done", "").unwrap();
        let runs = s.runs(None).unwrap();
        assert_eq!(runs.len(), 2);
        assert_eq!((runs[0].status.as_str(), runs[0].games), ("done", 3));
        assert_eq!(s.runs(Some(other)).unwrap()[0].games, 0);
        assert!(s.runs(Some(99)).unwrap().is_empty());
        // `{}` is not a study: reading it says which run and why.
        let e = runs[0].study().unwrap_err().to_string();
        assert!(
            e.contains(&format!("lab run {run}")) && e.contains("study"),
            "{e}"
        );
    }
}
