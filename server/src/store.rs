//! Storage: tournaments, their matches and every finished match's full record, bot accounts,
//! and every room's log, through one interface ([`Store`]) on one of two engines, chosen by
//! `--database`: a SQLite file (the single node, the default) or PostgreSQL (`postgres://...`,
//! the storage a cluster of nodes shares, issue 20). Both go through `sqlx`, one crate for both
//! engines (docs/cluster.md, "Storage", says why).
//!
//! Tables: `tournaments` (settings, entrants, state), `matches` (one row per scheduled
//! match: its seats, its result, and once over its whole event log as JSON), `rooms` (a room's
//! settings and the seed of its randomness) and `room_log` (everything that happened to a room,
//! in order, written as it goes by [`crate::journal`], append-only in the order written; a room
//! still open after a restart is rebuilt from it), `replays` and `replay_players` (every finished
//! casual match's record and who played it, under a cap, [`ReplayCap`]), `ladders`,
//! `ladder_entrants`, `ladder_games` and `ladder_history` (the standing ladders, `store::ladder`), `broken_rooms` (rooms whose log did not replay), `accounts` (bot accounts:
//! the name, and only the SHA-256 of the token, [`crate::accounts`]). Rows hold the protocol's
//! own JSON shapes as text, so what is stored is what the HTTP API answers. The schema is made
//! and kept up to date by migrations, one folder per engine (`server/migrations/sqlite`,
//! `server/migrations/postgres`, the same tables with each engine's 64-bit integer type), run
//! when the store opens; a SQLite file made before migrations takes the first one as a no-op.
//! Every query is the same SQL text on both engines (`$1` parameters, `ON CONFLICT`,
//! `RETURNING`, which SQLite and PostgreSQL both read), so there is one place per query.
//!
//! SQLite (`store::sqlite`): one connection behind an async lock, as a single writer wants; the
//! write-ahead log, `synchronous=FULL`, a busy timeout of [`BUSY_TIMEOUT`], and the checks that
//! the file at the path is still the one opened. PostgreSQL: a pool of [`PG_CONNECTIONS`]
//! connections, each with `synchronous_commit=on` (a commit that returned is flushed to the
//! server's disk, whatever the server's default), waiting at most [`PG_ACQUIRE_TIMEOUT`] for a
//! connection; a server that is down makes every call fail with [`StoreError::Database`] until
//! it is back, which the journal turns into `storage_unavailable` (docs/reliability.md).

mod ladder;
mod replays;
mod rooms;
mod sqlite;
mod tournaments;

pub use ladder::{
    EntrantStats, HISTORY_KEPT, LADDER_GAMES_KEPT, LadderFinish, StoredEntrant, StoredLadderGame,
};
pub use replays::{
    DEFAULT_REPLAY_CAP, KeptMatch, MAX_REPLAY_EVENT_BYTES, MY_GAMES, MyGame, ReplayCap, ReplaySeat,
    ReplaySummary,
};
pub use rooms::{JournalWrite, StoredRoom};
pub use tournaments::{StoredMatch, StoredTournament};

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use sqlx::ConnectOptions;
use sqlx::migrate::Migrator;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};

/// The SQLite schema's migrations (`server/migrations/sqlite`), compiled in.
static SQLITE_MIGRATIONS: Migrator = sqlx::migrate!("migrations/sqlite");
/// The PostgreSQL schema's migrations (`server/migrations/postgres`), compiled in.
static POSTGRES_MIGRATIONS: Migrator = sqlx::migrate!("migrations/postgres");

/// A storage failure: the engine's error, or stored JSON that no longer reads.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused, or could not be reached.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// The schema could not be brought up to date.
    #[error("schema migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A stored value is not the JSON it should be.
    #[error("stored JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// A stored value does not read (an id, a seed).
    #[error("stored value: {0}")]
    Unreadable(String),
    /// The database file at the path is no longer the one the server opened (another file was
    /// put there): nothing is written until the original is back.
    #[error("the database file {0} was replaced by another file")]
    Replaced(PathBuf),
    /// PostgreSQL did not answer a journal batch or a check within [`PG_WRITE_TIMEOUT`] (a
    /// server that hangs, or a network that drops packets, rather than refusing).
    #[error("PostgreSQL did not answer within {} ms", .0.as_millis())]
    TimedOut(Duration),
    /// The database file was deleted and could not be made again from the open copy.
    #[error("the database file {path} was deleted and could not be made again: {cause}")]
    Lost {
        /// The file's path.
        path: PathBuf,
        /// Why it could not be made again.
        cause: String,
    },
}

/// How long a SQLite write waits for another connection's lock before failing (SQLite's busy
/// timeout): 1 s. Longer waits are the journal's retries, which let rooms refuse actions in the
/// meantime instead of hanging ([`crate::journal`]).
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(1);

/// The most connections the store holds to PostgreSQL: 8 (the journal's writer uses one at a
/// time; the rest serve tournaments and accounts).
pub const PG_CONNECTIONS: u32 = 8;

/// How long a call waits for a PostgreSQL connection (a new one when the server was restarted)
/// before failing: 1 s, as [`BUSY_TIMEOUT`] for SQLite, for the same reason.
pub const PG_ACQUIRE_TIMEOUT: Duration = Duration::from_secs(1);

/// How long a room journal batch, or a check, may take on PostgreSQL before it counts as a
/// failure (and is tried again): 5 s. A server that refuses connections fails at once; this
/// bounds one that hangs, so that rooms refuse actions (`storage_unavailable`) rather than wait
/// without end. Cut off, a batch may or may not be committed: its retry writes the same rows
/// again, which changes nothing ([`Store::write_journal`]).
pub const PG_WRITE_TIMEOUT: Duration = Duration::from_secs(5);

/// The database: a SQLite file (or memory) or a PostgreSQL pool. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Store {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    engine: Engine,
    /// Times a deleted SQLite database file was made again.
    recreated: AtomicU64,
    /// [`ReplayCap::count`] of the cap on kept matches.
    replays_kept: AtomicU64,
    /// [`ReplayCap::max_age_ms`] of the cap on kept matches.
    replay_age_ms: AtomicU64,
}

/// The engine behind a [`Store`]; [`on_conn`] runs the same code on either.
#[derive(Debug)]
pub(crate) enum Engine {
    /// One SQLite connection, behind an async lock.
    Sqlite(Arc<tokio::sync::Mutex<sqlite::SqliteDb>>),
    /// A pool of PostgreSQL connections.
    Postgres(PgPool),
}

/// Runs `$body` with `$conn` bound to a `&mut` connection of the store's engine (a
/// `SqliteConnection` or a `PgConnection`): the body is compiled once per engine, so one text
/// of each query serves both. `?` in the body returns [`StoreError`]s from the calling function.
macro_rules! on_conn {
    ($store:expr, |$conn:ident| $body:expr) => {
        match $store.engine() {
            $crate::store::Engine::Sqlite(db) => {
                // An owned guard: a borrowed one makes the caller's future not `Send` for every
                // lifetime, which tokio::spawn needs (rust-lang/rust#102211).
                let mut db = ::std::sync::Arc::clone(db).lock_owned().await;
                let $conn: &mut ::sqlx::SqliteConnection = db.conn()?;
                $body
            }
            $crate::store::Engine::Postgres(pool) => {
                let mut pooled = pool.acquire().await?;
                let $conn: &mut ::sqlx::PgConnection = &mut pooled;
                $body
            }
        }
    };
}
pub(crate) use on_conn;

fn state_text<T: serde::Serialize>(state: T) -> String {
    match serde_json::to_value(state) {
        Ok(serde_json::Value::String(s)) => s,
        _ => unreachable!("states serialize as strings"),
    }
}

fn state_from<T: serde::de::DeserializeOwned>(text: String) -> Result<T, StoreError> {
    Ok(serde_json::from_value(serde_json::Value::String(text))?)
}

/// A number as the database holds it (a signed 64-bit integer), saturating.
fn db_int(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// An id read back from a row.
fn parse_id<T: FromStr<Err = skirmish_protocol::ParseIdError>>(text: &str) -> Result<T, StoreError> {
    text.parse()
        .map_err(|e: skirmish_protocol::ParseIdError| StoreError::Unreadable(e.to_string()))
}

/// Whether `url` names a PostgreSQL database (`postgres://` or `postgresql://`) rather than a
/// SQLite file.
pub fn is_postgres_url(url: &str) -> bool {
    url.starts_with("postgres://") || url.starts_with("postgresql://")
}

impl Store {
    /// Opens the database `--database` names: PostgreSQL for a `postgres://` or
    /// `postgresql://` URL ([`Store::postgres`]), memory for `:memory:`
    /// ([`Store::in_memory`]), else the SQLite file at that path ([`Store::open`]).
    ///
    /// # Errors
    /// As the engine's opener.
    pub async fn connect(database: &str) -> Result<Store, StoreError> {
        if is_postgres_url(database) {
            Store::postgres(database).await
        } else if database == ":memory:" {
            Store::in_memory().await
        } else {
            Store::open(Path::new(database)).await
        }
    }

    /// Opens (creating if needed) the SQLite database file at `path`, with the WAL,
    /// `synchronous=FULL` and [`BUSY_TIMEOUT`] (the module's documentation says why), and
    /// brings its schema up to date.
    ///
    /// # Errors
    /// SQLite's error when the file cannot be opened, a migration's when the tables cannot be
    /// made.
    pub async fn open(path: &Path) -> Result<Store, StoreError> {
        Ok(Store::with(Engine::Sqlite(Arc::new(tokio::sync::Mutex::new(
            sqlite::SqliteDb::open_file(path).await?,
        )))))
    }

    /// A SQLite database in memory, gone with the process (for tests and throwaway servers).
    ///
    /// # Errors
    /// SQLite's error when the tables cannot be made.
    pub async fn in_memory() -> Result<Store, StoreError> {
        Ok(Store::with(Engine::Sqlite(Arc::new(tokio::sync::Mutex::new(
            sqlite::SqliteDb::open_memory().await?,
        )))))
    }

    /// Connects to the PostgreSQL database at `url` (`postgres://user:password@host:port/db`,
    /// libpq's parameters such as `?host=/socket/dir` allowed), with `synchronous_commit=on` on
    /// every connection, and brings its schema up to date (under PostgreSQL's migration lock,
    /// so nodes starting together migrate once).
    ///
    /// # Errors
    /// A URL that does not read, a server that cannot be reached or refuses, or a migration
    /// that fails.
    pub async fn postgres(url: &str) -> Result<Store, StoreError> {
        let options = PgConnectOptions::from_str(url)?
            .options([("synchronous_commit", "on")])
            .disable_statement_logging();
        let pool = PgPoolOptions::new()
            .max_connections(PG_CONNECTIONS)
            .acquire_timeout(PG_ACQUIRE_TIMEOUT)
            .connect_with(options)
            .await?;
        POSTGRES_MIGRATIONS.run(&pool).await?;
        Ok(Store::with(Engine::Postgres(pool)))
    }

    fn with(engine: Engine) -> Store {
        Store {
            inner: Arc::new(Inner {
                engine,
                recreated: AtomicU64::new(0),
                replays_kept: AtomicU64::new(DEFAULT_REPLAY_CAP.count),
                replay_age_ms: AtomicU64::new(DEFAULT_REPLAY_CAP.max_age_ms),
            }),
        }
    }

    /// The engine, for [`on_conn`].
    pub(crate) fn engine(&self) -> &Engine {
        &self.inner.engine
    }

    /// `"sqlite"` or `"postgres"`: which engine the store is on.
    pub fn engine_name(&self) -> &'static str {
        match self.engine() {
            Engine::Sqlite(_) => "sqlite",
            Engine::Postgres(_) => "postgres",
        }
    }

    /// Times the SQLite database file was found deleted and made again from the open copy.
    pub fn recreated(&self) -> u64 {
        self.inner.recreated.load(Ordering::Relaxed)
    }

    /// Checks that storage is usable. On SQLite: that the database file at its path is still
    /// the one opened; a deleted file is made again from the open copy (then `Ok`); nothing to
    /// check in memory. On PostgreSQL: that the server answers (`SELECT 1`).
    ///
    /// # Errors
    /// [`StoreError::Replaced`] when another file is at the path, [`StoreError::Lost`] when a
    /// deleted file could not be made again, [`StoreError::Database`] when PostgreSQL does not
    /// answer.
    pub async fn check_file(&self) -> Result<(), StoreError> {
        match self.engine() {
            Engine::Sqlite(db) => {
                Arc::clone(db)
                    .lock_owned()
                    .await
                    .check_file(&self.inner.recreated)
                    .await
            }
            Engine::Postgres(pool) => {
                tokio::time::timeout(PG_WRITE_TIMEOUT, sqlx::query("SELECT 1").execute(pool))
                    .await
                    .map_err(|_| StoreError::TimedOut(PG_WRITE_TIMEOUT))??;
                Ok(())
            }
        }
    }

    /// Closes the store's connections (PostgreSQL's pool; SQLite's connection is closed when the
    /// last clone is dropped). Calls after it fail.
    pub async fn close(&self) {
        if let Engine::Postgres(pool) = self.engine() {
            pool.close().await;
        }
    }
}
