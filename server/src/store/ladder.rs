//! The standing ladders in the store ([`Store`]): the `ladders`, `ladder_entrants`,
//! `ladder_games` and `ladder_history` tables (`server/migrations/*/0005_ladder.sql`).
//!
//! A game is stored `running` before its room opens, and finished in one transaction that also
//! writes its entrants' new ratings, their history points and the game's replay record
//! ([`Store::finish_ladder_game`]); that transaction changes nothing unless the game is still
//! `running`, so a result reported twice (a game finished again from its log after a stop) is
//! counted once. Storage per ladder is bounded: at most [`LADDER_GAMES_KEPT`] finished games and
//! [`HISTORY_KEPT`] history points per entrant, the oldest dropped first; replay records go under
//! the server's replay cap ([`super::ReplayCap`]).

use serde::{Deserialize, Serialize};
use skirmish_protocol::ladder::{LadderEntrant, LadderId, RatingPoint};
use skirmish_protocol::tournament::{ForfeitCounts, ForfeitReason, MatchId, MatchResult};
use sqlx::Connection;

use super::replays::{KeepRow, KeptMatch, ReplayCap, keep_in};
use super::{Store, StoreError, db_int, on_conn, parse_id};

/// The most finished games a ladder keeps: 20,000 (about 6 MiB of rows; each game's replay is
/// under the replay cap besides). Older ones drop out of head-to-head and recent games; the
/// ratings they made stay.
pub const LADDER_GAMES_KEPT: u64 = 20_000;

/// The most rating history points kept per entrant: 500, the newest (a chart's worth).
pub const HISTORY_KEPT: u64 = 500;

/// An entrant's rating and counts, as the `stats` column holds them (JSON).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EntrantStats {
    /// The rating (Glicko-2 points, or Weng-Lin's mu).
    pub rating: f64,
    /// Its deviation, on the rating's scale.
    pub deviation: f64,
    /// Glicko-2's volatility (unused by Weng-Lin).
    pub volatility: f64,
    /// Games rated.
    pub games: u32,
    /// Won alone in first place.
    pub wins: u32,
    /// First place shared.
    pub draws: u32,
    /// Lost.
    pub losses: u32,
    /// Losses by forfeit, by cause.
    pub forfeits: ForfeitCounts,
    /// Games lost in a row by its engine failing or its clock running out.
    pub fail_streak: u32,
    /// The cause of the last such loss.
    pub last_fail: Option<ForfeitReason>,
    /// Paused until then (milliseconds since the Unix epoch; 0: not paused).
    pub paused_until_ms: u64,
    /// When its bot was last seen in the ladder (as of its last game stored).
    pub last_seen_ms: u64,
}

/// An entrant as stored: who, and its stats.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredEntrant {
    /// Who.
    pub entrant: LadderEntrant,
    /// Its rating and counts.
    pub stats: EntrantStats,
}

/// A ladder game as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredLadderGame {
    /// Its id (its room's).
    pub id: MatchId,
    /// The entrant number in each seat.
    pub seats: Vec<u64>,
    /// Its deal number, when dealt.
    pub deal: Option<u32>,
    /// The result, once finished.
    pub result: Option<MatchResult>,
    /// When it was paired, in milliseconds since the Unix epoch.
    pub created_ms: u64,
    /// When it ended (0 while running).
    pub finished_ms: u64,
}

/// What finishing a game writes besides its result.
#[derive(Debug, Clone)]
pub struct LadderFinish {
    /// Each seated entrant's number and new stats.
    pub entrants: Vec<(u64, EntrantStats)>,
    /// The game's replay record, if it is to be kept.
    pub kept: Option<KeptMatch>,
}

type GameRow = (String, String, Option<i64>, Option<String>, i64, Option<i64>);

fn read_game(row: GameRow) -> Result<StoredLadderGame, StoreError> {
    let (id, seats, deal, result, created_ms, finished_ms) = row;
    Ok(StoredLadderGame {
        id: parse_id(&id)?,
        seats: serde_json::from_str(&seats)?,
        deal: deal.and_then(|d| u32::try_from(d).ok()),
        result: result.map(|r| serde_json::from_str(&r)).transpose()?,
        created_ms: u64::try_from(created_ms).unwrap_or(0),
        finished_ms: finished_ms.and_then(|f| u64::try_from(f).ok()).unwrap_or(0),
    })
}

impl Store {
    /// Ladder `ladder`'s secret seed, made (from `fresh`) and stored the first time.
    ///
    /// # Errors
    /// The database's error, or a stored seed that does not read.
    pub async fn ladder_seed(&self, ladder: LadderId, fresh: u64) -> Result<u64, StoreError> {
        let text: String = on_conn!(self, |conn| {
            sqlx::query("INSERT INTO ladders (ladder, seed) VALUES ($1, $2) ON CONFLICT (ladder) DO NOTHING")
                .bind(ladder.as_str())
                .bind(fresh.to_string())
                .execute(&mut *conn)
                .await?;
            let (seed,): (String,) = sqlx::query_as("SELECT seed FROM ladders WHERE ladder = $1")
                .bind(ladder.as_str())
                .fetch_one(&mut *conn)
                .await?;
            seed
        });
        text.parse()
            .map_err(|_| StoreError::Unreadable(format!("ladder seed `{text}`")))
    }

    /// Every entrant of `ladder`, by number.
    ///
    /// # Errors
    /// The database's error, or JSON that does not read.
    pub async fn ladder_entrants(&self, ladder: LadderId) -> Result<Vec<StoredEntrant>, StoreError> {
        let rows: Vec<(i64, String, String, String, String)> = on_conn!(self, |conn| {
            sqlx::query_as(
                "SELECT id, bot, strategy, version, stats FROM ladder_entrants WHERE ladder = $1 ORDER BY id",
            )
            .bind(ladder.as_str())
            .fetch_all(&mut *conn)
            .await?
        });
        rows.into_iter()
            .map(|(id, bot, strategy, version, stats)| {
                Ok(StoredEntrant {
                    entrant: LadderEntrant {
                        id: u64::try_from(id).unwrap_or(0),
                        bot,
                        strategy,
                        version,
                    },
                    stats: serde_json::from_str(&stats)?,
                })
            })
            .collect()
    }

    /// Stores a new entrant of `ladder`.
    ///
    /// # Errors
    /// The database's error (one with its number, or its account, strategy and version, is
    /// stored already).
    pub async fn add_ladder_entrant(
        &self,
        ladder: LadderId,
        entrant: &StoredEntrant,
    ) -> Result<(), StoreError> {
        let stats = serde_json::to_string(&entrant.stats)?;
        on_conn!(self, |conn| {
            sqlx::query(
                "INSERT INTO ladder_entrants (ladder, id, bot, strategy, version, stats) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(ladder.as_str())
            .bind(db_int(entrant.entrant.id))
            .bind(&entrant.entrant.bot)
            .bind(&entrant.entrant.strategy)
            .bind(&entrant.entrant.version)
            .bind(&stats)
            .execute(&mut *conn)
            .await?;
        });
        Ok(())
    }

    /// Stores a game of `ladder` as running, before its room opens.
    ///
    /// # Errors
    /// The database's error.
    pub async fn start_ladder_game(
        &self,
        ladder: LadderId,
        game: &StoredLadderGame,
    ) -> Result<(), StoreError> {
        let seats = serde_json::to_string(&game.seats)?;
        on_conn!(self, |conn| {
            sqlx::query(
                "INSERT INTO ladder_games (id, ladder, seats, deal, state, result, created_ms, finished_ms) \
                 VALUES ($1, $2, $3, $4, 'running', NULL, $5, NULL)",
            )
            .bind(game.id.to_string())
            .bind(ladder.as_str())
            .bind(&seats)
            .bind(game.deal.map(i64::from))
            .bind(db_int(game.created_ms))
            .execute(&mut *conn)
            .await?;
        });
        Ok(())
    }

    /// The games of `ladder` stored as running (cut off by a stop, after a restart).
    ///
    /// # Errors
    /// The database's error, or JSON that does not read.
    pub async fn running_ladder_games(&self, ladder: LadderId) -> Result<Vec<StoredLadderGame>, StoreError> {
        self.ladder_games_where(ladder, "running", 0).await
    }

    /// The finished games of `ladder` that ended at or after `since_ms`, oldest first.
    ///
    /// # Errors
    /// The database's error, or JSON that does not read.
    pub async fn finished_ladder_games(
        &self,
        ladder: LadderId,
        since_ms: u64,
    ) -> Result<Vec<StoredLadderGame>, StoreError> {
        self.ladder_games_where(ladder, "finished", since_ms).await
    }

    async fn ladder_games_where(
        &self,
        ladder: LadderId,
        state: &str,
        since_ms: u64,
    ) -> Result<Vec<StoredLadderGame>, StoreError> {
        let rows: Vec<GameRow> = on_conn!(self, |conn| {
            sqlx::query_as(
                "SELECT id, seats, deal, result, created_ms, finished_ms FROM ladder_games \
                 WHERE ladder = $1 AND state = $2 AND COALESCE(finished_ms, created_ms) >= $3 \
                 ORDER BY COALESCE(finished_ms, created_ms), id",
            )
            .bind(ladder.as_str())
            .bind(state)
            .bind(db_int(since_ms))
            .fetch_all(&mut *conn)
            .await?
        });
        rows.into_iter().map(read_game).collect()
    }

    /// Marks a running game void: cut off by a stop with no log to go on from, it is not rated.
    ///
    /// # Errors
    /// The database's error.
    pub async fn void_ladder_game(&self, id: MatchId) -> Result<(), StoreError> {
        on_conn!(self, |conn| {
            sqlx::query("UPDATE ladder_games SET state = 'void' WHERE id = $1 AND state = 'running'")
                .bind(id.to_string())
                .execute(&mut *conn)
                .await?;
        });
        Ok(())
    }

    /// Finishes game `id` of `ladder` with `result` at `finished_ms`: in one transaction, its
    /// result, its entrants' new stats and history points, its replay record (under the replay
    /// cap), and the caps on kept games and history. Returns `false`, writing nothing, when the
    /// game is not running (finished already, or void).
    ///
    /// # Errors
    /// The database's error; nothing is written then.
    pub async fn finish_ladder_game(
        &self,
        ladder: LadderId,
        id: MatchId,
        result: &MatchResult,
        finished_ms: u64,
        finish: LadderFinish,
    ) -> Result<bool, StoreError> {
        let result = serde_json::to_string(result)?;
        let stats: Vec<(i64, String, f64, f64)> = finish
            .entrants
            .iter()
            .map(|(e, s)| Ok((db_int(*e), serde_json::to_string(s)?, s.rating, s.deviation)))
            .collect::<Result<_, StoreError>>()?;
        let kept = finish.kept.as_ref().map(KeepRow::of).transpose()?.flatten();
        let cap: ReplayCap = self.replay_cap();
        let finished = on_conn!(self, |conn| {
            let mut tx = conn.begin().await?;
            let updated = sqlx::query(
                "UPDATE ladder_games SET state = 'finished', result = $2, finished_ms = $3 \
                 WHERE id = $1 AND state = 'running'",
            )
            .bind(id.to_string())
            .bind(&result)
            .bind(db_int(finished_ms))
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if updated == 0 {
                tx.rollback().await?;
                false
            } else {
                for (entrant, stats, rating, deviation) in &stats {
                    sqlx::query("UPDATE ladder_entrants SET stats = $3 WHERE ladder = $1 AND id = $2")
                        .bind(ladder.as_str())
                        .bind(*entrant)
                        .bind(stats)
                        .execute(&mut *tx)
                        .await?;
                    sqlx::query(
                        "INSERT INTO ladder_history (ladder, entrant, game, at_ms, rating, deviation) \
                         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING",
                    )
                    .bind(ladder.as_str())
                    .bind(*entrant)
                    .bind(id.to_string())
                    .bind(db_int(finished_ms))
                    .bind(*rating)
                    .bind(*deviation)
                    .execute(&mut *tx)
                    .await?;
                    sqlx::query(
                        "DELETE FROM ladder_history WHERE ladder = $1 AND entrant = $2 AND game IN \
                         (SELECT game FROM ladder_history WHERE ladder = $1 AND entrant = $2 \
                          ORDER BY at_ms DESC, game DESC LIMIT $3 OFFSET $4)",
                    )
                    .bind(ladder.as_str())
                    .bind(*entrant)
                    .bind(i64::MAX)
                    .bind(db_int(HISTORY_KEPT))
                    .execute(&mut *tx)
                    .await?;
                }
                sqlx::query(
                    "DELETE FROM ladder_games WHERE ladder = $1 AND state != 'running' AND id IN \
                     (SELECT id FROM ladder_games WHERE ladder = $1 AND state != 'running' \
                      ORDER BY created_ms DESC, id DESC LIMIT $2 OFFSET $3)",
                )
                .bind(ladder.as_str())
                .bind(i64::MAX)
                .bind(db_int(LADDER_GAMES_KEPT))
                .execute(&mut *tx)
                .await?;
                if let Some(row) = &kept {
                    keep_in!(tx, row, cap, finished_ms);
                }
                tx.commit().await?;
                true
            }
        });
        Ok(finished)
    }

    /// Entrant `entrant`'s rating history on `ladder`, oldest first (at most [`HISTORY_KEPT`]).
    ///
    /// # Errors
    /// The database's error, or an id that does not read.
    pub async fn ladder_history(
        &self,
        ladder: LadderId,
        entrant: u64,
    ) -> Result<Vec<RatingPoint>, StoreError> {
        let rows: Vec<(String, i64, f64, f64)> = on_conn!(self, |conn| {
            sqlx::query_as(
                "SELECT game, at_ms, rating, deviation FROM ladder_history WHERE ladder = $1 AND entrant = $2 \
                 ORDER BY at_ms, game",
            )
            .bind(ladder.as_str())
            .bind(db_int(entrant))
            .fetch_all(&mut *conn)
            .await?
        });
        rows.into_iter()
            .map(|(game, at_ms, rating, deviation)| {
                Ok(RatingPoint {
                    game: parse_id(&game)?,
                    at_ms: u64::try_from(at_ms).unwrap_or(0),
                    rating,
                    deviation,
                })
            })
            .collect()
    }
}
