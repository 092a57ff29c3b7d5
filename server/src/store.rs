//! Storage: tournaments, their matches and every finished match's full record, and every room's
//! log, in one SQLite file (`--database`).
//!
//! Tables: `tournaments` (settings, entrants, state), `matches` (one row per scheduled
//! match: its seats, its result, and once over its whole event log as JSON), `rooms` (a room's
//! settings and the seed of its randomness) and `room_log` (everything that happened to a room,
//! in order, written as it goes by [`crate::journal`]; a room still open after a restart is
//! rebuilt from it), `accounts` (bot accounts: the name, and only the SHA-256 of the token,
//! [`crate::accounts`]). Rows hold the
//! protocol's own JSON shapes, so what is stored is what the HTTP API answers. Writes go through
//! one connection behind a mutex on tokio's blocking pool.
//!
//! SQLite settings ([`Store::open`]; docs/reliability.md, "What a player can count on"): the
//! write-ahead log (`journal_mode=WAL`: readers never block the writer, and a commit is one
//! append to the log), `synchronous=FULL` (the log is synced to the disk at every commit, so a
//! commit that returned survives a power cut, not only a killed process; NORMAL would sync only
//! at checkpoints), and a busy timeout of [`BUSY_TIMEOUT`] (another program holding the lock
//! briefly, a backup say, is waited for instead of failing the write at once).
//!
//! SQLite cannot notice its file deleted or replaced under it (it goes on writing to the file
//! it opened, which a deleted file's name no longer reaches). The store remembers the file's
//! device and inode and checks them before every journal write and whenever asked
//! ([`Store::check_file`]): a deleted file is made again from the copy still open (`VACUUM
//! INTO`, then renamed into place), so nothing committed is lost; a file replaced by another is
//! refused ([`StoreError::Replaced`]) until the original is back at its path.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::entry::Entry;

use rusqlite::{Connection, OptionalExtension, params};
use skirmish_protocol::tournament::{
    Entrant, MatchId, MatchRecord, MatchResult, MatchState, MatchSummary, TournamentConfig, TournamentId,
    TournamentState,
};
use skirmish_protocol::{GameEvent, PlayerId, RoomConfig, RoomId};

/// A storage failure: SQLite's error, or stored JSON that no longer reads.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite refused.
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// A stored value is not the JSON it should be.
    #[error("stored JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// The blocking task running the query panicked or was cancelled.
    #[error("storage task: {0}")]
    Task(String),
    /// The database file at the path is no longer the one the server opened (another file was
    /// put there): nothing is written until the original is back.
    #[error("the database file {0} was replaced by another file")]
    Replaced(PathBuf),
    /// The database file was deleted and could not be made again from the open copy.
    #[error("the database file {path} was deleted and could not be made again: {cause}")]
    Lost {
        /// The file's path.
        path: PathBuf,
        /// Why it could not be made again.
        cause: String,
    },
}

/// How long a write waits for another connection's lock before failing (SQLite's busy
/// timeout): 1 s. Longer waits are the journal's retries, which let rooms refuse actions in the
/// meantime instead of hanging ([`crate::journal`]).
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(1);

/// A tournament as stored.
#[derive(Debug, Clone)]
pub struct StoredTournament {
    /// Its id.
    pub id: TournamentId,
    /// Its settings, defaults and seed filled in.
    pub config: TournamentConfig,
    /// The salt of the commitment to its seed (64 hex digits), secret until it is over.
    pub seed_salt: String,
    /// Its entrants, in index order.
    pub entrants: Vec<Entrant>,
    /// Where it is.
    pub state: TournamentState,
    /// When it was made, in milliseconds since the Unix epoch.
    pub created_ms: u64,
    /// Every match scheduled, in schedule order.
    pub matches: Vec<StoredMatch>,
}

/// A match as stored (its event log is read only for a replay); its deal number is in the
/// summary.
#[derive(Debug, Clone)]
pub struct StoredMatch {
    /// What the status shows of it.
    pub summary: MatchSummary,
}

/// What the tournaments' `config` column holds: the settings and the seed's salt.
#[derive(serde::Serialize, serde::Deserialize)]
struct ConfigColumn {
    #[serde(flatten)]
    config: TournamentConfig,
    /// Empty in a tournament stored before seeds were committed to.
    #[serde(default)]
    seed_salt: String,
}

/// The database. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Store {
    db: Arc<Mutex<Db>>,
    /// Times a deleted database file was made again.
    recreated: Arc<AtomicU64>,
}

/// The connection and the file it was opened on.
#[derive(Debug)]
struct Db {
    conn: Connection,
    /// The file's path and its (device, inode) when opened; `None` in memory.
    file: Option<(PathBuf, (u64, u64))>,
    /// While a deleted file is being made again: the copy that holds everything (`conn` is
    /// then not the database, and nothing may use it).
    recovering: Option<PathBuf>,
    /// [`Store::recreated`]'s count.
    recreated: Arc<AtomicU64>,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS tournaments (
    id TEXT PRIMARY KEY,
    config TEXT NOT NULL,
    entrants TEXT NOT NULL,
    state TEXT NOT NULL,
    created_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    tournament TEXT NOT NULL REFERENCES tournaments(id),
    idx INTEGER NOT NULL,
    round INTEGER NOT NULL,
    seats TEXT NOT NULL,
    opening TEXT,
    deal INTEGER,
    state TEXT NOT NULL,
    result TEXT,
    events TEXT,
    UNIQUE (tournament, idx)
);
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    config TEXT NOT NULL,
    owner TEXT NOT NULL,
    seed TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    state TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS accounts (
    name_key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    token_sha256 TEXT UNIQUE,
    created_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS room_log (
    room TEXT NOT NULL REFERENCES rooms(id),
    n INTEGER NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (room, n)
);
CREATE TABLE IF NOT EXISTS broken_rooms (
    room TEXT PRIMARY KEY REFERENCES rooms(id),
    reason TEXT NOT NULL,
    at_ms INTEGER NOT NULL
);
";

/// A room as stored: what [`crate::room::restore`] rebuilds it from.
#[derive(Debug, Clone)]
pub struct StoredRoom {
    /// Its id.
    pub id: RoomId,
    /// Its settings, defaults filled in.
    pub config: RoomConfig,
    /// The player who made it.
    pub owner: PlayerId,
    /// The seed of its randomness (commitment salts, the referee's moves on time-outs): 32
    /// bytes.
    pub seed: [u8; 32],
    /// Its log, in order (up to the first entry that does not read, if one does not).
    pub entries: Vec<Entry>,
    /// Why the rest of its log could not be read: an entry that is not the JSON of an
    /// [`Entry`], or a gap in the entries' numbers. `None` when it all reads.
    pub unreadable: Option<String>,
}

/// One write of the room journal ([`Store::write_journal`]).
#[derive(Debug)]
pub enum JournalWrite {
    /// A new room.
    Open {
        /// The room, with an empty log.
        room: Box<StoredRoom>,
        /// When it was made, in milliseconds since the Unix epoch.
        created_ms: u64,
    },
    /// The `n`th entry (from 0) of a room's log.
    Append {
        /// The room.
        room: RoomId,
        /// The entry's place in the log.
        n: u64,
        /// What happened.
        entry: Entry,
    },
    /// The room's match is over (or it closed unplayed): it is not restored after a restart.
    Close {
        /// The room.
        room: RoomId,
    },
    /// The room closed before its match started (it expired): it and its log are deleted, so
    /// that rooms nobody played leave nothing in the database.
    Discard {
        /// The room.
        room: RoomId,
    },
}

/// The `state` of a room still to be restored after a restart.
const ROOM_OPEN: &str = "open";
/// The `state` of a room over.
const ROOM_CLOSED: &str = "closed";
/// The `state` of a room whose log could not be replayed after a restart: kept, with its log
/// and the reason in `broken_rooms`, for someone to look at; never restored.
const ROOM_BROKEN: &str = "broken";

fn state_text<T: serde::Serialize>(state: T) -> String {
    match serde_json::to_value(state) {
        Ok(serde_json::Value::String(s)) => s,
        _ => unreachable!("states serialize as strings"),
    }
}

fn state_from<T: serde::de::DeserializeOwned>(text: String) -> Result<T, StoreError> {
    Ok(serde_json::from_value(serde_json::Value::String(text))?)
}

impl Store {
    /// Opens (creating if needed) the database file at `path`.
    ///
    /// # Errors
    /// SQLite's error when the file cannot be opened or the tables made.
    /// (with the WAL, `synchronous=FULL` and [`BUSY_TIMEOUT`]: the module's documentation says
    /// why).
    ///
    /// # Errors
    /// SQLite's error when the file cannot be opened or the tables made.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let conn = open_file(path)?;
        let id = file_id(path).map_err(|e| StoreError::Task(format!("{}: {e}", path.display())))?;
        Store::with(conn, Some((path.to_owned(), id)))
    }

    /// A database in memory, gone with the process (for tests and throwaway servers).
    ///
    /// # Errors
    /// SQLite's error when the tables cannot be made.
    pub fn in_memory() -> Result<Store, StoreError> {
        Store::with(Connection::open_in_memory()?, None)
    }

    fn with(conn: Connection, file: Option<(PathBuf, (u64, u64))>) -> Result<Store, StoreError> {
        conn.execute_batch(SCHEMA)?;
        let recreated = Arc::new(AtomicU64::new(0));
        Ok(Store {
            db: Arc::new(Mutex::new(Db {
                conn,
                file,
                recovering: None,
                recreated: recreated.clone(),
            })),
            recreated,
        })
    }

    /// Runs `f` on the connection on tokio's blocking pool.
    pub(crate) async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        self.run_db(move |db| {
            db.usable()?;
            f(&mut db.conn)
        })
        .await
    }

    async fn run_db<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Db) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let db = self.db.clone();
        tokio::task::spawn_blocking(move || {
            let mut db = db.lock().map_err(|e| StoreError::Task(e.to_string()))?;
            f(&mut db)
        })
        .await
        .map_err(|e| StoreError::Task(e.to_string()))?
    }

    /// Times the database file was found deleted and made again from the open copy.
    pub fn recreated(&self) -> u64 {
        self.recreated.load(Ordering::Relaxed)
    }

    /// Checks that the database file at its path is still the one opened; a deleted file is
    /// made again from the open copy (then `Ok`). Nothing to check in memory.
    ///
    /// # Errors
    /// [`StoreError::Replaced`] when another file is at the path, [`StoreError::Lost`] when a
    /// deleted file could not be made again.
    pub async fn check_file(&self) -> Result<(), StoreError> {
        self.run_db(Db::check_file).await
    }

    /// Stores a new tournament with its first matches, in one transaction.
    ///
    /// # Errors
    /// SQLite's error.
    pub async fn create_tournament(&self, tournament: StoredTournament) -> Result<(), StoreError> {
        self.run(move |conn| {
            let tx = conn.transaction()?;
            tx.execute(
                "INSERT INTO tournaments (id, config, entrants, state, created_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![
                    tournament.id.to_string(),
                    serde_json::to_string(&ConfigColumn {
                        config: tournament.config.clone(),
                        seed_salt: tournament.seed_salt.clone(),
                    })?,
                    serde_json::to_string(&tournament.entrants)?,
                    state_text(tournament.state),
                    i64::try_from(tournament.created_ms).unwrap_or(i64::MAX),
                ],
            )?;
            insert_matches(&tx, tournament.id, &tournament.matches)?;
            tx.commit()?;
            Ok(())
        })
        .await
    }

    /// Adds scheduled matches (a Swiss round) to a tournament.
    ///
    /// # Errors
    /// SQLite's error.
    pub async fn add_matches(
        &self,
        tournament: TournamentId,
        matches: Vec<StoredMatch>,
    ) -> Result<(), StoreError> {
        self.run(move |conn| {
            let tx = conn.transaction()?;
            insert_matches(&tx, tournament, &matches)?;
            tx.commit()?;
            Ok(())
        })
        .await
    }

    /// Records a match's end: its result and full event log.
    ///
    /// # Errors
    /// SQLite's error.
    pub async fn finish_match(
        &self,
        id: MatchId,
        result: MatchResult,
        events: Vec<GameEvent>,
    ) -> Result<(), StoreError> {
        self.run(move |conn| {
            conn.execute(
                "UPDATE matches SET state = ?2, result = ?3, events = ?4 WHERE id = ?1",
                params![
                    id.to_string(),
                    state_text(MatchState::Finished),
                    serde_json::to_string(&result)?,
                    serde_json::to_string(&events)?,
                ],
            )?;
            Ok(())
        })
        .await
    }

    /// Sets a tournament's state; cancelling also cancels its matches not yet over.
    ///
    /// # Errors
    /// SQLite's error.
    pub async fn set_state(&self, id: TournamentId, state: TournamentState) -> Result<(), StoreError> {
        self.run(move |conn| {
            let tx = conn.transaction()?;
            tx.execute(
                "UPDATE tournaments SET state = ?2 WHERE id = ?1",
                params![id.to_string(), state_text(state)],
            )?;
            if state == TournamentState::Cancelled {
                tx.execute(
                    "UPDATE matches SET state = ?2 WHERE tournament = ?1 AND state != ?3",
                    params![
                        id.to_string(),
                        state_text(MatchState::Cancelled),
                        state_text(MatchState::Finished)
                    ],
                )?;
            }
            tx.commit()?;
            Ok(())
        })
        .await
    }

    /// Every stored tournament with its matches, oldest first. Matches that were running when
    /// the server stopped come back pending: the runner rebuilds them from their room's log
    /// ([`Store::open_rooms`]) or plays them again from the start.
    ///
    /// # Errors
    /// SQLite's error, or JSON that does not read.
    pub async fn tournaments(&self) -> Result<Vec<StoredTournament>, StoreError> {
        self.run(|conn| {
            let mut tournaments = Vec::new();
            let mut query = conn.prepare(
                "SELECT id, config, entrants, state, created_ms FROM tournaments ORDER BY created_ms, id",
            )?;
            let rows = query.query_map([], |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, String>(2)?,
                    row.get::<_, String>(3)?,
                    row.get::<_, i64>(4)?,
                ))
            })?;
            for row in rows {
                let (id, config, entrants, state, created_ms) = row?;
                let id: TournamentId = id
                    .parse()
                    .map_err(|e: skirmish_protocol::ParseIdError| StoreError::Task(e.to_string()))?;
                let column: ConfigColumn = serde_json::from_str(&config)?;
                tournaments.push(StoredTournament {
                    id,
                    config: column.config,
                    seed_salt: column.seed_salt,
                    entrants: serde_json::from_str(&entrants)?,
                    state: state_from(state)?,
                    created_ms: u64::try_from(created_ms).unwrap_or(0),
                    matches: Vec::new(),
                });
            }
            let mut query = conn.prepare(
                "SELECT id, idx, round, seats, opening, deal, state, result FROM matches WHERE tournament = ?1 ORDER BY idx",
            )?;
            for tournament in &mut tournaments {
                let rows = query.query_map([tournament.id.to_string()], read_match)?;
                for row in rows {
                    let mut stored = row??;
                    if stored.summary.state == MatchState::Running {
                        stored.summary.state = MatchState::Pending;
                    }
                    tournament.matches.push(stored);
                }
            }
            Ok(tournaments)
        })
        .await
    }

    /// A finished match's full record, for a replay; `None` for an unknown id or a match not
    /// over.
    ///
    /// # Errors
    /// SQLite's error, or JSON that does not read.
    pub async fn match_record(&self, id: MatchId) -> Result<Option<MatchRecord>, StoreError> {
        self.run(move |conn| {
            let row = conn
                .query_row(
                    "SELECT m.id, m.idx, m.round, m.seats, m.opening, m.deal, m.state, m.result, m.events, \
                     m.tournament, t.entrants, t.config FROM matches m JOIN tournaments t ON t.id = m.tournament \
                     WHERE m.id = ?1 AND m.events IS NOT NULL",
                    [id.to_string()],
                    |row| {
                        Ok((
                            read_match(row)?,
                            row.get::<_, String>(8)?,
                            row.get::<_, String>(9)?,
                            row.get::<_, String>(10)?,
                            row.get::<_, String>(11)?,
                        ))
                    },
                )
                .optional()?;
            let Some((stored, events, tournament, entrants, config)) = row else {
                return Ok(None);
            };
            let stored = stored?;
            let entrants: Vec<Entrant> = serde_json::from_str(&entrants)?;
            let config: TournamentConfig = serde_json::from_str(&config)?;
            Ok(Some(MatchRecord {
                entrants: stored
                    .summary
                    .seats
                    .iter()
                    .filter_map(|i| entrants.get(*i).cloned())
                    .collect(),
                summary: stored.summary,
                tournament: tournament
                    .parse()
                    .map_err(|e: skirmish_protocol::ParseIdError| StoreError::Task(e.to_string()))?,
                game: config.game,
                events: serde_json::from_str(&events)?,
            }))
        })
        .await
    }
}

impl Store {
    /// Writes a batch of the room journal in one transaction, in order, after checking that
    /// the database file is still the one opened ([`Store::check_file`]).
    ///
    /// # Errors
    /// SQLite's error, or the file's; nothing of the batch is written then, and the same batch
    /// may be written again.
    pub async fn write_journal(&self, writes: Arc<Vec<JournalWrite>>) -> Result<(), StoreError> {
        self.run_db(move |db| {
            db.check_file()?;
            let tx = db.conn.transaction()?;
            {
                let mut open = tx.prepare_cached(
                    "INSERT OR REPLACE INTO rooms (id, config, owner, seed, created_ms, state) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                )?;
                let mut append = tx
                    .prepare_cached("INSERT OR REPLACE INTO room_log (room, n, entry) VALUES (?1, ?2, ?3)")?;
                let mut close = tx.prepare_cached("UPDATE rooms SET state = ?2 WHERE id = ?1")?;
                let mut discard_log = tx.prepare_cached("DELETE FROM room_log WHERE room = ?1")?;
                let mut discard = tx.prepare_cached("DELETE FROM rooms WHERE id = ?1")?;
                for write in writes.iter() {
                    match write {
                        JournalWrite::Open { room, created_ms } => {
                            open.execute(params![
                                room.id.to_string(),
                                serde_json::to_string(&room.config)?,
                                room.owner.to_string(),
                                hex::encode(room.seed),
                                i64::try_from(*created_ms).unwrap_or(i64::MAX),
                                ROOM_OPEN,
                            ])?;
                        }
                        JournalWrite::Append { room, n, entry } => {
                            append.execute(params![
                                room.to_string(),
                                i64::try_from(*n).unwrap_or(i64::MAX),
                                serde_json::to_string(entry)?,
                            ])?;
                        }
                        JournalWrite::Close { room } => {
                            close.execute(params![room.to_string(), ROOM_CLOSED])?;
                        }
                        JournalWrite::Discard { room } => {
                            discard_log.execute(params![room.to_string()])?;
                            discard.execute(params![room.to_string()])?;
                        }
                    }
                }
            }
            tx.commit()?;
            Ok(())
        })
        .await
    }

    /// Every room not over when the server stopped, with its log, oldest first.
    ///
    /// # Errors
    /// SQLite's error, or a row that does not read.
    pub async fn open_rooms(&self) -> Result<Vec<StoredRoom>, StoreError> {
        self.run(|conn| {
            let mut rooms = Vec::new();
            let mut query = conn.prepare(
                "SELECT id, config, owner, seed FROM rooms WHERE state = ?1 ORDER BY created_ms, id",
            )?;
            let rows = query.query_map([ROOM_OPEN], |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, String>(2)?,
                    row.get::<_, String>(3)?,
                ))
            })?;
            let bad = |e: String| StoreError::Task(e);
            for row in rows {
                let (id, config, owner, seed) = row?;
                let mut bytes = [0u8; 32];
                hex::decode_to_slice(&seed, &mut bytes).map_err(|e| bad(format!("room seed: {e}")))?;
                rooms.push(StoredRoom {
                    id: id
                        .parse()
                        .map_err(|e: skirmish_protocol::ParseIdError| bad(e.to_string()))?,
                    config: serde_json::from_str(&config)?,
                    owner: owner
                        .parse()
                        .map_err(|e: skirmish_protocol::ParseIdError| bad(e.to_string()))?,
                    seed: bytes,
                    entries: Vec::new(),
                    unreadable: None,
                });
            }
            let mut query = conn.prepare("SELECT n, entry FROM room_log WHERE room = ?1 ORDER BY n")?;
            for room in &mut rooms {
                let rows = query.query_map([room.id.to_string()], |row| {
                    Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?))
                })?;
                for row in rows {
                    let (n, text) = row?;
                    if usize::try_from(n).ok() != Some(room.entries.len()) {
                        room.unreadable = Some(format!("entry {} is missing", room.entries.len()));
                        break;
                    }
                    match serde_json::from_str(&text) {
                        Ok(entry) => room.entries.push(entry),
                        Err(err) => {
                            room.unreadable = Some(format!("entry {n} does not read: {err}"));
                            break;
                        }
                    }
                }
            }
            Ok(rooms)
        })
        .await
    }

    /// Marks `room` broken: its log could not be replayed (`reason`). It is kept, log and all,
    /// for someone to look at, and never restored again.
    ///
    /// # Errors
    /// SQLite's error.
    pub async fn mark_broken(&self, room: RoomId, reason: String, at_ms: u64) -> Result<(), StoreError> {
        self.run(move |conn| {
            let tx = conn.transaction()?;
            tx.execute(
                "UPDATE rooms SET state = ?2 WHERE id = ?1",
                params![room.to_string(), ROOM_BROKEN],
            )?;
            tx.execute(
                "INSERT OR REPLACE INTO broken_rooms (room, reason, at_ms) VALUES (?1, ?2, ?3)",
                params![room.to_string(), reason, i64::try_from(at_ms).unwrap_or(i64::MAX)],
            )?;
            tx.commit()?;
            Ok(())
        })
        .await
    }
}

/// Opens the database file at `path` with the settings the module's documentation gives.
fn open_file(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open(path)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    Ok(conn)
}

/// The (device, inode) of the file at `path`.
fn file_id(path: &Path) -> std::io::Result<(u64, u64)> {
    let meta = std::fs::metadata(path)?;
    Ok((meta.dev(), meta.ino()))
}

/// `path` with `suffix` added to its file name.
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

impl Db {
    /// `Ok` unless a deleted file is still being made again.
    fn usable(&self) -> Result<(), StoreError> {
        match (&self.recovering, &self.file) {
            (Some(copy), Some((path, _))) => Err(StoreError::Lost {
                path: path.clone(),
                cause: format!("still being made again from {}", copy.display()),
            }),
            _ => Ok(()),
        }
    }

    /// See [`Store::check_file`].
    fn check_file(&mut self) -> Result<(), StoreError> {
        let Some((path, id)) = &self.file else {
            return Ok(());
        };
        if self.recovering.is_some() {
            let path = path.clone();
            return self
                .finish_recovery(&path)
                .map_err(|cause| StoreError::Lost { path, cause });
        }
        match file_id(path) {
            Ok(now) if now == *id => Ok(()),
            Ok(_) => Err(StoreError::Replaced(path.clone())),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                let path = path.clone();
                self.recreate(&path).map_err(|cause| StoreError::Lost {
                    path: path.clone(),
                    cause,
                })
            }
            Err(err) => Err(StoreError::Lost {
                path: path.clone(),
                cause: err.to_string(),
            }),
        }
    }

    /// Makes the deleted file at `path` again from the copy this connection still has open: a
    /// consistent copy written next to it (`VACUUM INTO`), the old connection closed (which
    /// ends its write-ahead log), the copy renamed into place and opened.
    fn recreate(&mut self, path: &Path) -> Result<(), String> {
        tracing::error!(path = %path.display(), "the database file was deleted; making it again from the open copy");
        let copy = with_suffix(path, ".recovering");
        let _ = std::fs::remove_file(&copy);
        let text = copy.to_str().ok_or("the database path is not UTF-8")?;
        self.conn
            .execute("VACUUM INTO ?1", [text])
            .map_err(|e| format!("copying: {e}"))?;
        self.recreated.fetch_add(1, Ordering::Relaxed);
        // From here the copy holds everything: the connection is closed, and nothing may use
        // it until the copy is in place.
        self.recovering = Some(copy);
        let old = std::mem::replace(
            &mut self.conn,
            Connection::open_in_memory().map_err(|e| e.to_string())?,
        );
        // Closing the last connection checkpoints its log into the deleted file and removes the
        // log; any left (another program had it open) belongs to the deleted file, and must not
        // be read as the new file's.
        drop(old);
        for suffix in ["-wal", "-shm"] {
            let _ = std::fs::remove_file(with_suffix(path, suffix));
        }
        self.finish_recovery(path)
    }

    /// Renames the copy [`Db::recreate`] made into place and opens it.
    fn finish_recovery(&mut self, path: &Path) -> Result<(), String> {
        let Some(copy) = self.recovering.clone() else {
            return Ok(());
        };
        if copy.exists() {
            std::fs::rename(&copy, path).map_err(|e| format!("renaming the copy into place: {e}"))?;
        }
        self.conn = open_file(path).map_err(|e| e.to_string())?;
        self.conn.execute_batch(SCHEMA).map_err(|e| e.to_string())?;
        let id = file_id(path).map_err(|e| e.to_string())?;
        self.file = Some((path.to_owned(), id));
        self.recovering = None;
        tracing::warn!(path = %path.display(), "the database file is back, with everything committed");
        Ok(())
    }
}

fn insert_matches(
    tx: &rusqlite::Transaction<'_>,
    tournament: TournamentId,
    matches: &[StoredMatch],
) -> Result<(), StoreError> {
    let mut insert = tx.prepare(
        "INSERT INTO matches (id, tournament, idx, round, seats, opening, deal, state, result) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?;
    for m in matches {
        let s = &m.summary;
        insert.execute(params![
            s.id.to_string(),
            tournament.to_string(),
            s.index,
            s.round,
            serde_json::to_string(&s.seats)?,
            s.opening,
            s.deal,
            state_text(s.state),
            s.result.as_ref().map(serde_json::to_string).transpose()?,
        ])?;
    }
    Ok(())
}

/// Reads the first eight columns of a match row: id, idx, round, seats, opening, deal, state,
/// result.
fn read_match(row: &rusqlite::Row<'_>) -> rusqlite::Result<Result<StoredMatch, StoreError>> {
    let id: String = row.get(0)?;
    let index: u32 = row.get(1)?;
    let round: u32 = row.get(2)?;
    let seats: String = row.get(3)?;
    let opening: Option<String> = row.get(4)?;
    // A deal number; a row stored before deals were numbered holds a 64-bit seed, read as none.
    let deal: Option<i64> = row.get(5)?;
    let deal = deal.and_then(|d| u32::try_from(d).ok());
    let state: String = row.get(6)?;
    let result: Option<String> = row.get(7)?;
    Ok((|| {
        Ok(StoredMatch {
            summary: MatchSummary {
                id: id
                    .parse()
                    .map_err(|e: skirmish_protocol::ParseIdError| StoreError::Task(e.to_string()))?,
                index,
                round,
                seats: serde_json::from_str(&seats)?,
                opening,
                deal,
                sealed: false,
                state: state_from(state)?,
                room: None,
                result: result.map(|r| serde_json::from_str(&r)).transpose()?,
            },
        })
    })())
}

#[cfg(test)]
mod tests {
    use super::*;
    use skirmish_protocol::{GameConfig, RoomConfig};

    fn room(id: RoomId) -> StoredRoom {
        let config = RoomConfig {
            name: None,
            game: GameConfig::Gomoku(skirmish_games::gomoku::Config::default()),
            clock: None,
            on_drop: None,
        };
        StoredRoom {
            id,
            config,
            owner: PlayerId::random(),
            seed: [7; 32],
            entries: Vec::new(),
            unreadable: None,
        }
    }

    fn append(room: RoomId, n: u64) -> JournalWrite {
        JournalWrite::Append {
            room,
            n,
            entry: Entry::Started,
        }
    }

    #[tokio::test]
    async fn a_log_with_a_missing_or_unreadable_entry_is_read_up_to_it_and_says_why() {
        let store = Store::in_memory().unwrap();
        let (gap, bad) = (RoomId::random(), RoomId::random());
        let writes = vec![
            JournalWrite::Open {
                room: Box::new(room(gap)),
                created_ms: 1,
            },
            JournalWrite::Open {
                room: Box::new(room(bad)),
                created_ms: 2,
            },
            append(gap, 0),
            append(gap, 1),
            append(gap, 3),
            append(bad, 0),
            append(bad, 1),
        ];
        store.write_journal(Arc::new(writes)).await.unwrap();
        store
            .run(move |conn| {
                conn.execute(
                    "UPDATE room_log SET entry = '{\"kind\":\"sat\"}' WHERE room = ?1 AND n = 1",
                    [bad.to_string()],
                )?;
                Ok(())
            })
            .await
            .unwrap();
        let rooms = store.open_rooms().await.unwrap();
        assert_eq!(rooms.len(), 2);
        assert_eq!(rooms[0].entries.len(), 2);
        assert_eq!(rooms[0].unreadable.as_deref(), Some("entry 2 is missing"));
        assert_eq!(rooms[1].entries.len(), 1);
        assert!(
            rooms[1]
                .unreadable
                .as_deref()
                .is_some_and(|u| u.starts_with("entry 1 does not read")),
            "{:?}",
            rooms[1].unreadable
        );
    }
}
