//! Storage: tournaments, their matches and every finished match's full record, and every room's
//! log, in one SQLite file (`--database`).
//!
//! Tables: `tournaments` (settings, entrants, state), `matches` (one row per scheduled
//! match: its seats, its result, and once over its whole event log as JSON), `rooms` (a room's
//! settings and the seed of its randomness) and `room_log` (everything that happened to a room,
//! in order, written as it goes by [`crate::journal`]; a room still open after a restart is
//! rebuilt from it). Rows hold the
//! protocol's own JSON shapes, so what is stored is what the HTTP API answers. Writes go through
//! one connection behind a mutex on tokio's blocking pool; SQLite's write-ahead log makes each
//! finished match durable when its write returns, so a killed server loses no finished match.

use std::path::Path;
use std::sync::{Arc, Mutex};

use crate::journal::Entry;

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
}

/// A tournament as stored.
#[derive(Debug, Clone)]
pub struct StoredTournament {
    /// Its id.
    pub id: TournamentId,
    /// Its settings, defaults and seed filled in.
    pub config: TournamentConfig,
    /// Its entrants, in index order.
    pub entrants: Vec<Entrant>,
    /// Where it is.
    pub state: TournamentState,
    /// When it was made, in milliseconds since the Unix epoch.
    pub created_ms: u64,
    /// Every match scheduled, in schedule order.
    pub matches: Vec<StoredMatch>,
}

/// A match as stored (its event log is read only for a replay).
#[derive(Debug, Clone)]
pub struct StoredMatch {
    /// What the status shows of it.
    pub summary: MatchSummary,
    /// The seed of its dealt deployments (duplicate matches), if any.
    pub deal: Option<u64>,
}

/// The database. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Store {
    conn: Arc<Mutex<Connection>>,
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
CREATE TABLE IF NOT EXISTS room_log (
    room TEXT NOT NULL REFERENCES rooms(id),
    n INTEGER NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (room, n)
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
    /// Its log, in order.
    pub entries: Vec<Entry>,
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
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let conn = Connection::open(path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        Store::with(conn)
    }

    /// A database in memory, gone with the process (for tests and throwaway servers).
    ///
    /// # Errors
    /// SQLite's error when the tables cannot be made.
    pub fn in_memory() -> Result<Store, StoreError> {
        Store::with(Connection::open_in_memory()?)
    }

    fn with(conn: Connection) -> Result<Store, StoreError> {
        conn.execute_batch(SCHEMA)?;
        Ok(Store {
            conn: Arc::new(Mutex::new(conn)),
        })
    }

    /// Runs `f` on the connection on tokio's blocking pool.
    async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let conn = self.conn.clone();
        tokio::task::spawn_blocking(move || {
            let mut conn = conn.lock().map_err(|e| StoreError::Task(e.to_string()))?;
            f(&mut conn)
        })
        .await
        .map_err(|e| StoreError::Task(e.to_string()))?
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
                    serde_json::to_string(&tournament.config)?,
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
                tournaments.push(StoredTournament {
                    id,
                    config: serde_json::from_str(&config)?,
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
    /// Writes a batch of the room journal in one transaction, in order.
    ///
    /// # Errors
    /// SQLite's error; nothing of the batch is written then.
    pub async fn write_journal(&self, writes: Vec<JournalWrite>) -> Result<(), StoreError> {
        self.run(move |conn| {
            let tx = conn.transaction()?;
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
                for write in writes {
                    match write {
                        JournalWrite::Open { room, created_ms } => {
                            open.execute(params![
                                room.id.to_string(),
                                serde_json::to_string(&room.config)?,
                                room.owner.to_string(),
                                hex::encode(room.seed),
                                i64::try_from(created_ms).unwrap_or(i64::MAX),
                                ROOM_OPEN,
                            ])?;
                        }
                        JournalWrite::Append { room, n, entry } => {
                            append.execute(params![
                                room.to_string(),
                                i64::try_from(n).unwrap_or(i64::MAX),
                                serde_json::to_string(&entry)?,
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
                });
            }
            let mut query = conn.prepare("SELECT entry FROM room_log WHERE room = ?1 ORDER BY n")?;
            for room in &mut rooms {
                let rows = query.query_map([room.id.to_string()], |row| row.get::<_, String>(0))?;
                for row in rows {
                    room.entries.push(serde_json::from_str(&row?)?);
                }
            }
            Ok(rooms)
        })
        .await
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
            // SQLite integers are signed: the seed's bits are kept as they are.
            m.deal.map(|d| i64::from_ne_bytes(d.to_ne_bytes())),
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
    let deal: Option<i64> = row.get(5)?;
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
                state: state_from(state)?,
                room: None,
                result: result.map(|r| serde_json::from_str(&r)).transpose()?,
            },
            deal: deal.map(|d| u64::from_ne_bytes(d.to_ne_bytes())),
        })
    })())
}
