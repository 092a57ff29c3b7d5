//! Finished casual matches in the store ([`Store`]): the `replays` table (each match's record,
//! for its replay page) and `replay_players` (who sat in it, by the SHA-256 of their resume
//! tokens, for "My games").
//!
//! A record is written by the room journal in the batch that closes the room
//! ([`super::JournalWrite::Keep`]), so it is on disk before anyone is told the match is over.
//! Storage is bounded for the whole server, whoever makes the rooms: at most
//! [`ReplayCap::count`] records and none older than [`ReplayCap::max_age_ms`], the oldest
//! dropped first in the write that keeps a new one; a record's events take at most
//! [`MAX_REPLAY_EVENT_BYTES`] (a longer match keeps no replay). The defaults
//! ([`DEFAULT_REPLAY_CAP`]) bound the table at 10,000 × 256 KiB = 2.5 GiB of events in the worst
//! case; a typical match's events are 5 to 40 KiB.

use std::sync::atomic::Ordering;

use serde::{Deserialize, Serialize};
use skirmish_games::Seat;
use skirmish_protocol::tournament::MatchResult;
use skirmish_protocol::{GameConfig, GameEvent, MoveInfo, RoomId};

use super::{Store, StoreError, db_int, on_conn};

/// The most bytes of JSON a kept record's events may take: 256 KiB. The longest plane battle
/// (6 players, 9 rounds on 9x9) writes about 200 KiB; a gomoku match at most 225 moves, about
/// 30 KiB; junqi ends at its no-attack limit. A match longer than this keeps no replay (logged),
/// so that one record cannot take more than its share of the cap.
pub const MAX_REPLAY_EVENT_BYTES: usize = 256 * 1024;

/// The most games [`Store::my_games`] lists: 50, newest first (a page's list; older games stay
/// reachable by their address until the cap drops them).
pub const MY_GAMES: usize = 50;

/// How many finished casual matches the server keeps, and for how long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplayCap {
    /// The most records kept, whoever played them; the oldest are dropped first.
    pub count: u64,
    /// The oldest a record may be, in milliseconds since it ended; 0 for no age limit.
    pub max_age_ms: u64,
}

/// The cap unless the server is told otherwise (`--replays-kept`, `--replay-days`): 10,000
/// matches (at [`MAX_REPLAY_EVENT_BYTES`] each, 2.5 GiB at worst; about 200 MiB at a typical
/// 20 KiB) for 30 days, long enough to look back at a week's games, small enough for a small
/// server's disk.
pub const DEFAULT_REPLAY_CAP: ReplayCap = ReplayCap {
    count: 10_000,
    max_age_ms: 30 * 24 * 3600 * 1000,
};

/// One seat of a kept match, as people saw it in the room.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplaySeat {
    /// The name the seat's holder played under at the end.
    pub name: String,
    /// The bot's strategy, when a bot held the seat at the end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
    /// For a bot that took the seat over, the name of the person it replaced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub took_over_from: Option<String>,
}

/// What is shown of a kept match without its events: a line of "My games", and the head of its
/// replay.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReplaySummary {
    /// The room the match was played in (its replay is `/replay/<id>`).
    pub id: RoomId,
    /// The game and its settings.
    pub game: GameConfig,
    /// Each seat, in seat order.
    pub seats: Vec<ReplaySeat>,
    /// The result; `None` for a match that ended without one.
    pub result: Option<MatchResult>,
    /// When the match ended, in milliseconds since the Unix epoch.
    pub finished_ms: u64,
}

/// A finished casual match to keep: its summary, its events and who played it.
#[derive(Debug, Clone)]
pub struct KeptMatch {
    /// What is shown without the events.
    pub summary: ReplaySummary,
    /// Every event of the match, in order, whatever its audience (a replay shows each seat only
    /// those its audience includes).
    pub events: Vec<GameEvent>,
    /// The people who held a seat during the match: the seat and the SHA-256 of their resume
    /// token (bots are left out).
    pub players: Vec<(Seat, String)>,
}

/// A line of "My games": a kept match and the seat the asker held in it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MyGame {
    /// The match.
    #[serde(flatten)]
    pub summary: ReplaySummary,
    /// The asker's seat.
    pub seat: Seat,
}

/// A kept match's columns, made before a transaction opens.
pub(super) struct KeepRow {
    pub(super) room: String,
    pub(super) finished_ms: i64,
    pub(super) summary: String,
    pub(super) events: String,
    pub(super) players: Vec<(String, i64)>,
}

impl KeepRow {
    /// The columns of `kept`; `None` when its events are over [`MAX_REPLAY_EVENT_BYTES`].
    pub(super) fn of(kept: &KeptMatch) -> Result<Option<KeepRow>, StoreError> {
        let events = serde_json::to_string(&kept.events)?;
        if events.len() > MAX_REPLAY_EVENT_BYTES {
            tracing::warn!(room = %kept.summary.id, bytes = events.len(), "a match too long to keep its replay");
            return Ok(None);
        }
        Ok(Some(KeepRow {
            room: kept.summary.id.to_string(),
            finished_ms: db_int(kept.summary.finished_ms),
            summary: serde_json::to_string(&kept.summary)?,
            events,
            players: kept
                .players
                .iter()
                .map(|(seat, token)| (token.clone(), i64::from(seat.0)))
                .collect(),
        }))
    }
}

/// Writes `$row` (a [`KeepRow`]) inside the transaction `$tx`, then drops what the cap `$cap`
/// (a [`ReplayCap`]) no longer allows, oldest first.
macro_rules! keep_in {
    ($tx:expr, $row:expr, $cap:expr, $now_ms:expr) => {{
        let row: &KeepRow = $row;
        let cap: ReplayCap = $cap;
        sqlx::query(
            "INSERT INTO replays (room, finished_ms, summary, events) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (room) DO NOTHING",
        )
        .bind(&row.room)
        .bind(row.finished_ms)
        .bind(&row.summary)
        .bind(&row.events)
        .execute(&mut *$tx)
        .await?;
        for (token, seat) in &row.players {
            sqlx::query(
                "INSERT INTO replay_players (room, token, seat) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
            )
            .bind(&row.room)
            .bind(token)
            .bind(*seat)
            .execute(&mut *$tx)
            .await?;
        }
        let oldest = if cap.max_age_ms == 0 {
            i64::MIN
        } else {
            db_int($now_ms).saturating_sub(db_int(cap.max_age_ms))
        };
        // The rooms past the cap: too old, or after the newest `count` (OFFSET with a LIMIT
        // both engines read; SQLite needs a LIMIT before an OFFSET).
        macro_rules! dropped {
            () => {
                "SELECT room FROM replays WHERE finished_ms < $1 UNION \
                 SELECT room FROM (SELECT room FROM replays ORDER BY finished_ms DESC, room DESC \
                 LIMIT $2 OFFSET $3) AS past"
            };
        }
        for delete in [
            concat!("DELETE FROM bot_infos WHERE room IN (", dropped!(), ")"),
            concat!("DELETE FROM replay_players WHERE room IN (", dropped!(), ")"),
            concat!("DELETE FROM replays WHERE room IN (", dropped!(), ")"),
        ] {
            sqlx::query(delete)
                .bind(oldest)
                .bind(i64::MAX)
                .bind(db_int(cap.count))
                .execute(&mut *$tx)
                .await?;
        }
    }};
}
pub(super) use keep_in;

impl Store {
    /// The cap on kept matches ([`ReplayCap`]).
    pub fn replay_cap(&self) -> ReplayCap {
        ReplayCap {
            count: self.inner.replays_kept.load(Ordering::Relaxed),
            max_age_ms: self.inner.replay_age_ms.load(Ordering::Relaxed),
        }
    }

    /// Sets the cap on kept matches; it applies from the next match kept.
    pub fn set_replay_cap(&self, cap: ReplayCap) {
        self.inner.replays_kept.store(cap.count, Ordering::Relaxed);
        self.inner.replay_age_ms.store(cap.max_age_ms, Ordering::Relaxed);
    }

    /// The kept match of room `id`: its summary and every event; `None` when none is kept (an
    /// unknown room, a match not over, or one the cap dropped).
    ///
    /// # Errors
    /// The database's error, or JSON that does not read.
    pub async fn replay(&self, id: RoomId) -> Result<Option<(ReplaySummary, Vec<GameEvent>)>, StoreError> {
        let row: Option<(String, String)> = on_conn!(self, |conn| {
            sqlx::query_as("SELECT summary, events FROM replays WHERE room = $1")
                .bind(id.to_string())
                .fetch_optional(&mut *conn)
                .await?
        });
        row.map(|(summary, events)| Ok((serde_json::from_str(&summary)?, serde_json::from_str(&events)?)))
            .transpose()
    }

    /// The kept matches of the people whose resume tokens' SHA-256 are `tokens` (lowercase hex:
    /// one browser's tokens, old and new), newest first, at most [`MY_GAMES`], each with the seat
    /// held (a match two of the tokens played is listed once, at its first seat).
    ///
    /// # Errors
    /// The database's error, or JSON that does not read.
    pub async fn my_games(&self, tokens: &[String]) -> Result<Vec<MyGame>, StoreError> {
        let mut rows: Vec<(String, i64, i64, String)> = Vec::new();
        for token in tokens {
            let found: Vec<(String, i64, i64, String)> = on_conn!(self, |conn| {
                sqlx::query_as(
                    "SELECT r.room, r.finished_ms, p.seat, r.summary FROM replay_players p \
                     JOIN replays r ON r.room = p.room \
                     WHERE p.token = $1 ORDER BY r.finished_ms DESC, r.room DESC LIMIT $2",
                )
                .bind(token)
                .bind(db_int(MY_GAMES as u64))
                .fetch_all(&mut *conn)
                .await?
            });
            rows.extend(found);
        }
        rows.sort_by(|a, b| (b.1, &b.0, a.2).cmp(&(a.1, &a.0, b.2)));
        rows.dedup_by(|a, b| a.0 == b.0);
        rows.truncate(MY_GAMES);
        rows.into_iter()
            .map(|(_, _, seat, summary)| {
                Ok(MyGame {
                    summary: serde_json::from_str(&summary)?,
                    seat: Seat(
                        u8::try_from(seat).map_err(|e| StoreError::Unreadable(format!("a seat: {e}")))?,
                    ),
                })
            })
            .collect()
    }

    /// The infos kept with finished match `id` (a casual room's or a tournament match's): what
    /// its bots thought at each act, in order; empty when none were sent or kept. The caller
    /// decides whether the match may be shown (the replay API: not while its deal is in
    /// play).
    ///
    /// # Errors
    /// The database's error, or JSON that does not read.
    pub async fn bot_infos(&self, id: RoomId) -> Result<Vec<MoveInfo>, StoreError> {
        let row: Option<(String,)> = on_conn!(self, |conn| {
            sqlx::query_as("SELECT infos FROM bot_infos WHERE room = $1")
                .bind(id.to_string())
                .fetch_optional(&mut *conn)
                .await?
        });
        Ok(row
            .map(|(infos,)| serde_json::from_str(&infos))
            .transpose()?
            .unwrap_or_default())
    }

    /// How many matches are kept (for tests and metrics).
    ///
    /// # Errors
    /// The database's error.
    pub async fn replays_kept(&self) -> Result<u64, StoreError> {
        let (n,): (i64,) = on_conn!(self, |conn| {
            sqlx::query_as("SELECT COUNT(*) FROM replays")
                .fetch_one(&mut *conn)
                .await?
        });
        Ok(u64::try_from(n).unwrap_or(0))
    }
}
