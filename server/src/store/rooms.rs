//! Rooms and their logs in the store ([`Store`]): the `rooms`, `room_log` and `broken_rooms`
//! tables the room journal ([`crate::journal`]) writes and a restart reads.

use std::sync::Arc;

use skirmish_protocol::{MoveInfo, PlayerId, RoomConfig, RoomId};
use sqlx::Connection;

use super::replays::{KeepRow, keep_in};
use super::{Engine, KeptMatch, PG_WRITE_TIMEOUT, ReplayCap, Store, StoreError, db_int, on_conn, parse_id};
use crate::entry::Entry;

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
    /// A finished casual match's record, kept for its replay under the store's cap
    /// ([`super::ReplayCap`]); a record kept already is left as it is.
    Keep {
        /// The match.
        kept: Box<KeptMatch>,
    },
    /// A finished match's infos (what its bots thought), read with its record; infos kept
    /// already are left as they are.
    Infos {
        /// The room (a tournament match's id is its room's).
        room: RoomId,
        /// Every act's info kept, in order.
        infos: Vec<MoveInfo>,
    },
}

/// The `state` of a room still to be restored after a restart.
const ROOM_OPEN: &str = "open";
/// The `state` of a room over.
const ROOM_CLOSED: &str = "closed";
/// The `state` of a room whose log could not be replayed after a restart: kept, with its log
/// and the reason in `broken_rooms`, for someone to look at; never restored.
const ROOM_BROKEN: &str = "broken";

/// A room journal write as the columns it binds, made before a transaction opens (so that JSON
/// that does not serialize fails before anything is written).
///
/// `Open` is boxed: a batch holds one row per move, nearly all `Append`, and the rare room
/// opening would otherwise size every row of it at twice an entry's.
enum JournalRow {
    Open(Box<OpenRow>),
    Append {
        room: String,
        n: i64,
        entry: String,
    },
    Close {
        room: String,
    },
    Discard {
        room: String,
    },
    /// `None`: a match too long to keep ([`super::MAX_REPLAY_EVENT_BYTES`]).
    Keep(Option<Box<KeepRow>>),
    Infos {
        room: String,
        infos: String,
    },
}

/// The columns of a room's row as [`JournalRow::Open`] writes them.
struct OpenRow {
    id: String,
    config: String,
    owner: String,
    seed: String,
    created_ms: i64,
}

/// The most entries one statement writes: 3 parameters each, within SQLite's 32,766 and
/// PostgreSQL's 65,535 parameters a statement.
const APPEND_ROWS: usize = 1000;

/// A query builder for the engine of `tx`.
fn builder_for<DB: sqlx::Database>(_: &sqlx::Transaction<'_, DB>) -> sqlx::QueryBuilder<DB> {
    sqlx::QueryBuilder::new("")
}

/// A query builder for the engine of `conn`.
fn builder_on<C: sqlx::Connection>(_: &C) -> sqlx::QueryBuilder<C::Database> {
    sqlx::QueryBuilder::new("")
}

/// `$builder` (empty, of either engine) made the one statement that writes `$run`, entries as
/// `(room, n, entry)`: a multi-row insert at the end of the log (its `seq` order). An entry an
/// earlier try of the batch wrote is written again after it, and the log is read as its last
/// row ([`Store::open_rooms`]): the log has no `(room, n)` key, whose B-tree a batch of many
/// rooms' moves would touch at as many pages as rooms (docs/performance.md, "What the design
/// choices are worth").
macro_rules! append_insert {
    ($builder:expr, $run:expr) => {{
        let mut insert = $builder;
        insert.push("INSERT INTO room_log (room, n, entry) ");
        insert.push_values($run, |mut row, (room, n, entry): (String, i64, String)| {
            row.push_bind(room).push_bind(n).push_bind(entry);
        });
        insert
    }};
}

impl JournalRow {
    /// An entry's row as `(room, n, entry)`; `None` for any other row.
    fn into_append(self) -> Option<(String, i64, String)> {
        match self {
            JournalRow::Append { room, n, entry } => Some((room, n, entry)),
            _ => None,
        }
    }

    fn of(write: &JournalWrite) -> Result<JournalRow, StoreError> {
        Ok(match write {
            JournalWrite::Open { room, created_ms } => JournalRow::Open(Box::new(OpenRow {
                id: room.id.to_string(),
                config: serde_json::to_string(&room.config)?,
                owner: room.owner.to_string(),
                seed: hex::encode(room.seed),
                created_ms: db_int(*created_ms),
            })),
            JournalWrite::Append { room, n, entry } => JournalRow::Append {
                room: room.to_string(),
                n: db_int(*n),
                entry: serde_json::to_string(entry)?,
            },
            JournalWrite::Close { room } => JournalRow::Close {
                room: room.to_string(),
            },
            JournalWrite::Discard { room } => JournalRow::Discard {
                room: room.to_string(),
            },
            JournalWrite::Keep { kept } => JournalRow::Keep(KeepRow::of(kept)?.map(Box::new)),
            JournalWrite::Infos { room, infos } => JournalRow::Infos {
                room: room.to_string(),
                infos: serde_json::to_string(infos)?,
            },
        })
    }
}

impl Store {
    /// Writes a batch of the room journal in one transaction, in order, after checking that
    /// the database file is still the one opened ([`Store::check_file`], SQLite only; on
    /// PostgreSQL the write itself shows whether the server answers).
    ///
    /// # Errors
    /// The database's error, or the file's; nothing of the batch is written then, and the same
    /// batch may be written again (an entry written twice is read as its last row, every other
    /// statement replaces what an earlier try wrote).
    pub async fn write_journal(&self, writes: Arc<Vec<JournalWrite>>) -> Result<(), StoreError> {
        // Sized once: collecting through `Result` grows the vector by doubling, and a batch of a
        // thousand rows then takes fresh pages (zeroed by the kernel) at every step.
        let mut rows = Vec::with_capacity(writes.len());
        for write in writes.iter() {
            rows.push(JournalRow::of(write)?);
        }
        if let Engine::Sqlite(db) = self.engine() {
            Arc::clone(db)
                .lock_owned()
                .await
                .check_file(&self.inner.recreated)
                .await?;
        }
        let cap: ReplayCap = self.replay_cap();
        let now_ms = crate::wall_clock::now_ms();
        // The common batch, moves only: one multi-row statement, atomic by itself, without
        // BEGIN and COMMIT around it (through sqlx each is one more hand-off to SQLite's thread).
        let moves_only = !rows.is_empty()
            && rows.len() <= APPEND_ROWS
            && rows.iter().all(|row| matches!(row, JournalRow::Append { .. }));
        let write = async {
            on_conn!(self, |conn| {
                if moves_only {
                    let run: Vec<_> = rows.into_iter().filter_map(JournalRow::into_append).collect();
                    append_insert!(builder_on(&*conn), run)
                        .build()
                        .execute(&mut *conn)
                        .await?;
                    return Ok(());
                }
                let mut tx = conn.begin().await?;
                let mut rows = rows.into_iter().peekable();
                while let Some(row) = rows.next() {
                    match row {
                        JournalRow::Open(open) => {
                            let OpenRow {
                                id,
                                config,
                                owner,
                                seed,
                                created_ms,
                            } = *open;
                            sqlx::query(
                                // log_from: every entry of the room is written after this
                                // and has a larger `seq` (it never goes back); a room opened
                                // again keeps the first (reading from it reads every entry).
                                "INSERT INTO rooms (id, config, owner, seed, created_ms, state, log_from) \
                             VALUES ($1, $2, $3, $4, $5, $6, (SELECT COALESCE(MAX(seq), 0) FROM room_log)) \
                             ON CONFLICT (id) DO UPDATE SET \
                             config = excluded.config, owner = excluded.owner, seed = excluded.seed, \
                             created_ms = excluded.created_ms, state = excluded.state",
                            )
                            .bind(id)
                            .bind(config)
                            .bind(owner)
                            .bind(seed)
                            .bind(created_ms)
                            .bind(ROOM_OPEN)
                            .execute(&mut *tx)
                            .await?;
                        }
                        // A run of entries (most of a batch: every room's moves) is one
                        // statement of up to APPEND_ROWS rows: sqlx hands each statement to
                        // SQLite's thread, and one per entry cost 24 to 44 µs a move
                        // (docs/cluster.md, "What sqlx costs").
                        JournalRow::Append { room, n, entry } => {
                            let mut run = vec![(room, n, entry)];
                            while run.len() < APPEND_ROWS
                                && let Some(JournalRow::Append { .. }) = rows.peek()
                            {
                                if let Some(JournalRow::Append { room, n, entry }) = rows.next() {
                                    run.push((room, n, entry));
                                }
                            }
                            append_insert!(builder_for(&tx), run)
                                .build()
                                .execute(&mut *tx)
                                .await?;
                        }
                        JournalRow::Close { room } => {
                            sqlx::query("UPDATE rooms SET state = $2 WHERE id = $1")
                                .bind(room)
                                .bind(ROOM_CLOSED)
                                .execute(&mut *tx)
                                .await?;
                        }
                        JournalRow::Discard { room } => {
                            sqlx::query(
                                "DELETE FROM room_log WHERE room = $1 \
                                 AND seq > (SELECT log_from FROM rooms WHERE id = $1)",
                            )
                            .bind(&room)
                            .execute(&mut *tx)
                            .await?;
                            sqlx::query("DELETE FROM broken_rooms WHERE room = $1")
                                .bind(&room)
                                .execute(&mut *tx)
                                .await?;
                            sqlx::query("DELETE FROM rooms WHERE id = $1")
                                .bind(room)
                                .execute(&mut *tx)
                                .await?;
                        }
                        JournalRow::Keep(Some(row)) => {
                            keep_in!(tx, &row, cap, now_ms);
                        }
                        JournalRow::Keep(None) => {}
                        JournalRow::Infos { room, infos } => {
                            sqlx::query(
                                "INSERT INTO bot_infos (room, infos) VALUES ($1, $2) ON CONFLICT (room) DO NOTHING",
                            )
                            .bind(room)
                            .bind(infos)
                            .execute(&mut *tx)
                            .await?;
                        }
                    }
                }
                tx.commit().await?;
            });
            Ok::<(), StoreError>(())
        };
        match self.engine() {
            Engine::Postgres(_) => tokio::time::timeout(PG_WRITE_TIMEOUT, write)
                .await
                .map_err(|_| StoreError::TimedOut(PG_WRITE_TIMEOUT))?,
            Engine::Sqlite(_) => write.await,
        }
    }

    /// Every room not over when the server stopped, with its log, oldest first.
    ///
    /// # Errors
    /// The database's error, or a row that does not read.
    pub async fn open_rooms(&self) -> Result<Vec<StoredRoom>, StoreError> {
        self.read_open(None).await
    }

    /// Room `id` with its log, when it is stored as open (a room a node of a cluster takes over
    /// from a node that stopped).
    ///
    /// # Errors
    /// The database's error, or a row that does not read.
    pub async fn open_room(&self, id: RoomId) -> Result<Option<StoredRoom>, StoreError> {
        Ok(self.read_open(Some(id)).await?.pop())
    }

    /// The id, owner and creation time (milliseconds since the Unix epoch) of every room
    /// stored as open, without their logs.
    ///
    /// # Errors
    /// The database's error, or a row that does not read.
    pub async fn open_room_ids(&self) -> Result<Vec<(RoomId, PlayerId, u64)>, StoreError> {
        let rows: Vec<(String, String, i64)> = on_conn!(self, |conn| {
            sqlx::query_as("SELECT id, owner, created_ms FROM rooms WHERE state = $1 ORDER BY created_ms, id")
                .bind(ROOM_OPEN)
                .fetch_all(&mut *conn)
                .await?
        });
        rows.into_iter()
            .map(|(id, owner, created)| {
                Ok((
                    parse_id(&id)?,
                    parse_id(&owner)?,
                    u64::try_from(created).unwrap_or(0),
                ))
            })
            .collect()
    }

    /// The open rooms (only `only`, when given) with their logs.
    async fn read_open(&self, only: Option<RoomId>) -> Result<Vec<StoredRoom>, StoreError> {
        // id, config, owner, seed; and room, n, entry.
        type RoomRow = (String, String, String, String);
        type LogRow = (String, i64, String);
        let one = only.map(|id| id.to_string());
        let (rows, log): (Vec<RoomRow>, Vec<LogRow>) = on_conn!(self, |conn| {
            let rows = match &one {
                None => {
                    sqlx::query_as(
                        "SELECT id, config, owner, seed FROM rooms WHERE state = $1 ORDER BY created_ms, id",
                    )
                    .bind(ROOM_OPEN)
                    .fetch_all(&mut *conn)
                    .await?
                }
                Some(id) => {
                    sqlx::query_as("SELECT id, config, owner, seed FROM rooms WHERE state = $1 AND id = $2")
                        .bind(ROOM_OPEN)
                        .bind(id.clone())
                        .fetch_all(&mut *conn)
                        .await?
                }
            };
            let log = match &one {
                None => {
                    // One scan of the log's tail, from the oldest open room's start: the log
                    // is in the order it was written, and rows of rooms not open are skipped
                    // below.
                    sqlx::query_as(
                        "SELECT room, n, entry FROM room_log \
                     WHERE seq > (SELECT COALESCE(MIN(log_from), 0) FROM rooms WHERE state = $1) \
                     ORDER BY room, n, seq",
                    )
                    .bind(ROOM_OPEN)
                    .fetch_all(&mut *conn)
                    .await?
                }
                Some(id) => {
                    sqlx::query_as(
                        "SELECT l.room, l.n, l.entry FROM room_log l JOIN rooms r ON r.id = l.room \
                     WHERE r.state = $1 AND r.id = $2 AND l.seq > r.log_from ORDER BY l.n, l.seq",
                    )
                    .bind(ROOM_OPEN)
                    .bind(id.clone())
                    .fetch_all(&mut *conn)
                    .await?
                }
            };
            (rows, log)
        });
        let mut rooms = Vec::with_capacity(rows.len());
        for (id, config, owner, seed) in rows {
            let mut bytes = [0u8; 32];
            hex::decode_to_slice(&seed, &mut bytes)
                .map_err(|e| StoreError::Unreadable(format!("room seed: {e}")))?;
            rooms.push(StoredRoom {
                id: parse_id(&id)?,
                config: serde_json::from_str(&config)?,
                owner: parse_id(&owner)?,
                seed: bytes,
                entries: Vec::new(),
                unreadable: None,
            });
        }
        let index: std::collections::HashMap<String, usize> = rooms
            .iter()
            .enumerate()
            .map(|(i, r)| (r.id.to_string(), i))
            .collect();
        for (room, n, text) in log {
            let Some(room) = index.get(&room).map(|&i| &mut rooms[i]) else {
                continue;
            };
            if room.unreadable.is_some() {
                continue;
            }
            // An entry written again (a batch tried again after a failed commit) comes after
            // its earlier row, and the last row is the entry.
            if usize::try_from(n)
                .ok()
                .is_some_and(|n| n + 1 == room.entries.len())
            {
                room.entries.pop();
            }
            if usize::try_from(n).ok() != Some(room.entries.len()) {
                room.unreadable = Some(format!("entry {} is missing", room.entries.len()));
                continue;
            }
            match serde_json::from_str(&text) {
                Ok(entry) => room.entries.push(entry),
                Err(err) => room.unreadable = Some(format!("entry {n} does not read: {err}")),
            }
        }
        Ok(rooms)
    }

    /// Marks `room` broken: its log could not be replayed (`reason`). It is kept, log and all,
    /// for someone to look at, and never restored again.
    ///
    /// # Errors
    /// The database's error.
    pub async fn mark_broken(&self, room: RoomId, reason: String, at_ms: u64) -> Result<(), StoreError> {
        on_conn!(self, |conn| {
            let mut tx = conn.begin().await?;
            sqlx::query("UPDATE rooms SET state = $2 WHERE id = $1")
                .bind(room.to_string())
                .bind(ROOM_BROKEN)
                .execute(&mut *tx)
                .await?;
            sqlx::query(
                "INSERT INTO broken_rooms (room, reason, at_ms) VALUES ($1, $2, $3) \
                 ON CONFLICT (room) DO UPDATE SET reason = excluded.reason, at_ms = excluded.at_ms",
            )
            .bind(room.to_string())
            .bind(&reason)
            .bind(db_int(at_ms))
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skirmish_protocol::{GameConfig, RoomConfig, Seat};

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

    /// Makes entry 1 of `room`'s log JSON that is no [`Entry`].
    async fn corrupt(store: &Store, room: RoomId) -> Result<(), StoreError> {
        on_conn!(store, |conn| {
            sqlx::query("UPDATE room_log SET entry = '{\"kind\":\"sat\"}' WHERE room = $1 AND n = 1")
                .bind(room.to_string())
                .execute(&mut *conn)
                .await?;
        });
        Ok(())
    }

    #[tokio::test]
    async fn a_log_with_a_missing_or_unreadable_entry_is_read_up_to_it_and_says_why() {
        let store = Store::in_memory().await.unwrap();
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
        corrupt(&store, bad).await.unwrap();
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

    fn unseated(room: RoomId, n: u64, seat: u8) -> JournalWrite {
        JournalWrite::Append {
            room,
            n,
            entry: Entry::Unseated { seat: Seat(seat) },
        }
    }

    #[tokio::test]
    async fn an_entry_written_again_reads_as_its_last_row_and_a_discard_takes_only_its_rooms_log() {
        let store = Store::in_memory().await.unwrap();
        let (kept, again, gone) = (RoomId::random(), RoomId::random(), RoomId::random());
        let open = |id| JournalWrite::Open {
            room: Box::new(room(id)),
            created_ms: 1,
        };
        let first = vec![
            open(kept),
            open(again),
            append(kept, 0),
            unseated(again, 0, 0),
            unseated(again, 1, 0),
            open(gone),
            append(gone, 0),
            append(kept, 1),
        ];
        store.write_journal(Arc::new(first)).await.unwrap();
        // The batch after a commit whose answer was lost: `again`'s last entry once more, changed.
        let retry = vec![
            unseated(again, 1, 1),
            unseated(again, 2, 2),
            JournalWrite::Discard { room: gone },
        ];
        store.write_journal(Arc::new(retry)).await.unwrap();
        let rooms = store.open_rooms().await.unwrap();
        let ids: Vec<_> = rooms.iter().map(|r| r.id).collect();
        assert_eq!(ids.len(), 2, "{ids:?}");
        assert!(!ids.contains(&gone));
        for room in &rooms {
            assert_eq!(room.unreadable, None, "{}", room.id);
        }
        let of = |id| rooms.iter().find(|r| r.id == id).unwrap();
        assert_eq!(of(kept).entries.len(), 2);
        assert_eq!(unseated_seats(of(again)), [0, 1, 2]);
        assert_eq!(store.open_room(again).await.unwrap().unwrap().entries.len(), 3);
        assert_eq!(logged(&store, gone).await.unwrap(), 0);
        assert_eq!(logged(&store, again).await.unwrap(), 4);
    }

    /// The seats of a log made of `Unseated` entries only.
    fn unseated_seats(room: &StoredRoom) -> Vec<u8> {
        room.entries
            .iter()
            .map(|e| match e {
                Entry::Unseated { seat } => seat.0,
                other => panic!("{other:?}"),
            })
            .collect()
    }

    /// Rows of `room`'s log.
    async fn logged(store: &Store, room: RoomId) -> Result<i64, StoreError> {
        Ok(on_conn!(store, |conn| {
            sqlx::query_scalar("SELECT COUNT(*) FROM room_log WHERE room = $1")
                .bind(room.to_string())
                .fetch_one(&mut *conn)
                .await?
        }))
    }

    #[tokio::test]
    async fn a_database_with_the_keyed_log_of_migration_1_is_read_whole_after_migration_2() {
        let dir = std::env::temp_dir().join(format!("skirmish-log-migration-{}", RoomId::random()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("old.db");
        let (open, over) = (RoomId::random(), RoomId::random());
        {
            let db = rusqlite::Connection::open(&path).unwrap();
            db.execute_batch(include_str!("../../migrations/sqlite/0001_initial.sql"))
                .unwrap();
            for (id, state) in [(open, ROOM_OPEN), (over, ROOM_CLOSED)] {
                let config = serde_json::to_string(&room(id).config).unwrap();
                db.execute(
                    "INSERT INTO rooms (id, config, owner, seed, created_ms, state) VALUES (?1, ?2, ?3, ?4, 1, ?5)",
                    rusqlite::params![id.to_string(), config, PlayerId::random().to_string(), hex::encode([7u8; 32]), state],
                )
                .unwrap();
                // Written out of order, as two rooms' entries interleave.
                for n in [2, 0, 1] {
                    let entry = serde_json::to_string(&Entry::Unseated { seat: Seat(n) }).unwrap();
                    db.execute(
                        "INSERT INTO room_log (room, n, entry) VALUES (?1, ?2, ?3)",
                        rusqlite::params![id.to_string(), n, entry],
                    )
                    .unwrap();
                }
            }
        }
        let store = Store::open(&path).await.unwrap();
        let rooms = store.open_rooms().await.unwrap();
        assert_eq!(rooms.len(), 1);
        assert_eq!(rooms[0].id, open);
        assert_eq!(rooms[0].unreadable, None);
        assert_eq!(unseated_seats(&rooms[0]), [0, 1, 2]);
        // Written after the migration, appended after the migrated rows.
        store
            .write_journal(Arc::new(vec![unseated(open, 3, 3)]))
            .await
            .unwrap();
        assert_eq!(store.open_room(open).await.unwrap().unwrap().entries.len(), 4);
        assert_eq!(logged(&store, over).await.unwrap(), 3);
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
