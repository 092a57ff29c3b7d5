//! Tournaments and their matches in the store ([`Store`]): the `tournaments` and `matches`
//! tables.

use skirmish_protocol::GameEvent;
use skirmish_protocol::tournament::{
    Entrant, MatchId, MatchRecord, MatchResult, MatchState, MatchSummary, TournamentConfig, TournamentId,
    TournamentState,
};
use sqlx::Connection;

use super::{Store, StoreError, db_int, on_conn, parse_id, state_from, state_text};

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

/// The insert of one [`MatchInsert`], as a query either engine binds.
macro_rules! insert_match {
    ($row:expr) => {{
        let row: &MatchInsert = $row;
        sqlx::query(
            "INSERT INTO matches (id, tournament, idx, round, seats, opening, deal, state, result) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(&row.id)
        .bind(&row.tournament)
        .bind(row.index)
        .bind(row.round)
        .bind(&row.seats)
        .bind(&row.opening)
        .bind(row.deal)
        .bind(&row.state)
        .bind(&row.result)
    }};
}

impl Store {
    /// Stores a new tournament with its first matches, in one transaction.
    ///
    /// # Errors
    /// The database's error.
    pub async fn create_tournament(&self, tournament: StoredTournament) -> Result<(), StoreError> {
        let config = serde_json::to_string(&ConfigColumn {
            config: tournament.config.clone(),
            seed_salt: tournament.seed_salt.clone(),
        })?;
        let entrants = serde_json::to_string(&tournament.entrants)?;
        let rows = match_rows(tournament.id, &tournament.matches)?;
        on_conn!(self, |conn| {
            let mut tx = conn.begin().await?;
            sqlx::query(
                "INSERT INTO tournaments (id, config, entrants, state, created_ms) VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(tournament.id.to_string())
            .bind(&config)
            .bind(&entrants)
            .bind(state_text(tournament.state))
            .bind(db_int(tournament.created_ms))
            .execute(&mut *tx)
            .await?;
            for row in rows {
                insert_match!(&row).execute(&mut *tx).await?;
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// Adds scheduled matches (a Swiss round) to a tournament.
    ///
    /// # Errors
    /// The database's error.
    pub async fn add_matches(
        &self,
        tournament: TournamentId,
        matches: Vec<StoredMatch>,
    ) -> Result<(), StoreError> {
        let rows = match_rows(tournament, &matches)?;
        on_conn!(self, |conn| {
            let mut tx = conn.begin().await?;
            for row in rows {
                insert_match!(&row).execute(&mut *tx).await?;
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// Records a match's end: its result and full event log.
    ///
    /// # Errors
    /// The database's error.
    pub async fn finish_match(
        &self,
        id: MatchId,
        result: MatchResult,
        events: Vec<GameEvent>,
    ) -> Result<(), StoreError> {
        let result = serde_json::to_string(&result)?;
        let events = serde_json::to_string(&events)?;
        on_conn!(self, |conn| {
            sqlx::query("UPDATE matches SET state = $2, result = $3, events = $4 WHERE id = $1")
                .bind(id.to_string())
                .bind(state_text(MatchState::Finished))
                .bind(&result)
                .bind(&events)
                .execute(&mut *conn)
                .await?;
        });
        Ok(())
    }

    /// Sets a tournament's state; cancelling also cancels its matches not yet over.
    ///
    /// # Errors
    /// The database's error.
    pub async fn set_state(&self, id: TournamentId, state: TournamentState) -> Result<(), StoreError> {
        on_conn!(self, |conn| {
            let mut tx = conn.begin().await?;
            sqlx::query("UPDATE tournaments SET state = $2 WHERE id = $1")
                .bind(id.to_string())
                .bind(state_text(state))
                .execute(&mut *tx)
                .await?;
            if state == TournamentState::Cancelled {
                sqlx::query("UPDATE matches SET state = $2 WHERE tournament = $1 AND state != $3")
                    .bind(id.to_string())
                    .bind(state_text(MatchState::Cancelled))
                    .bind(state_text(MatchState::Finished))
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// Every stored tournament with its matches, oldest first. Matches that were running when
    /// the server stopped come back pending: the runner rebuilds them from their room's log
    /// ([`Store::open_rooms`]) or plays them again from the start.
    ///
    /// # Errors
    /// The database's error, or JSON that does not read.
    pub async fn tournaments(&self) -> Result<Vec<StoredTournament>, StoreError> {
        let (rows, matches): (Vec<TournamentRow>, Vec<(String, MatchRow)>) = on_conn!(self, |conn| {
            let rows = sqlx::query_as(
                "SELECT id, config, entrants, state, created_ms FROM tournaments ORDER BY created_ms, id",
            )
            .fetch_all(&mut *conn)
            .await?;
            let matches: Vec<TournamentMatchRow> = sqlx::query_as(
                "SELECT tournament, id, idx, round, seats, opening, deal, state, result FROM matches \
                     ORDER BY tournament, idx",
            )
            .fetch_all(&mut *conn)
            .await?;
            let matches = matches
                .into_iter()
                .map(|(t, id, idx, round, seats, opening, deal, state, result)| {
                    (t, (id, idx, round, seats, opening, deal, state, result))
                })
                .collect();
            (rows, matches)
        });
        let mut tournaments = Vec::with_capacity(rows.len());
        for (id, config, entrants, state, created_ms) in rows {
            let column: ConfigColumn = serde_json::from_str(&config)?;
            tournaments.push(StoredTournament {
                id: parse_id(&id)?,
                config: column.config,
                seed_salt: column.seed_salt,
                entrants: serde_json::from_str(&entrants)?,
                state: state_from(state)?,
                created_ms: u64::try_from(created_ms).unwrap_or(0),
                matches: Vec::new(),
            });
        }
        let index: std::collections::HashMap<String, usize> = tournaments
            .iter()
            .enumerate()
            .map(|(i, t)| (t.id.to_string(), i))
            .collect();
        for (tournament, row) in matches {
            let Some(&i) = index.get(&tournament) else {
                continue;
            };
            let mut stored = read_match(row)?;
            if stored.summary.state == MatchState::Running {
                stored.summary.state = MatchState::Pending;
            }
            tournaments[i].matches.push(stored);
        }
        Ok(tournaments)
    }

    /// A finished match's full record, for a replay; `None` for an unknown id or a match not
    /// over.
    ///
    /// # Errors
    /// The database's error, or JSON that does not read.
    pub async fn match_record(&self, id: MatchId) -> Result<Option<MatchRecord>, StoreError> {
        type RecordRow = (
            String,
            i64,
            i64,
            String,
            Option<String>,
            Option<i64>,
            String,
            Option<String>,
            String,
            String,
            String,
            String,
        );
        let row: Option<RecordRow> = on_conn!(self, |conn| {
            sqlx::query_as(
                "SELECT m.id, m.idx, m.round, m.seats, m.opening, m.deal, m.state, m.result, m.events, \
                 m.tournament, t.entrants, t.config FROM matches m JOIN tournaments t ON t.id = m.tournament \
                 WHERE m.id = $1 AND m.events IS NOT NULL",
            )
            .bind(id.to_string())
            .fetch_optional(&mut *conn)
            .await?
        });
        let Some((id, idx, round, seats, opening, deal, state, result, events, tournament, entrants, config)) =
            row
        else {
            return Ok(None);
        };
        let stored = read_match((id, idx, round, seats, opening, deal, state, result))?;
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
            tournament: parse_id(&tournament)?,
            game: config.game,
            events: serde_json::from_str(&events)?,
        }))
    }
}

/// A tournament row: id, config, entrants, state, created_ms.
type TournamentRow = (String, String, String, String, i64);

/// A match row with its tournament first: tournament, then a [`MatchRow`]'s columns.
type TournamentMatchRow = (
    String,
    String,
    i64,
    i64,
    String,
    Option<String>,
    Option<i64>,
    String,
    Option<String>,
);

/// A match row's first eight columns: id, idx, round, seats, opening, deal, state, result.
type MatchRow = (
    String,
    i64,
    i64,
    String,
    Option<String>,
    Option<i64>,
    String,
    Option<String>,
);

/// A match as the columns it is inserted with.
struct MatchInsert {
    id: String,
    tournament: String,
    index: i64,
    round: i64,
    seats: String,
    opening: Option<String>,
    deal: Option<i64>,
    state: String,
    result: Option<String>,
}

fn match_rows(tournament: TournamentId, matches: &[StoredMatch]) -> Result<Vec<MatchInsert>, StoreError> {
    matches
        .iter()
        .map(|m| {
            let s = &m.summary;
            Ok(MatchInsert {
                id: s.id.to_string(),
                tournament: tournament.to_string(),
                index: i64::from(s.index),
                round: i64::from(s.round),
                seats: serde_json::to_string(&s.seats)?,
                opening: s.opening.clone(),
                deal: s.deal.map(i64::from),
                state: state_text(s.state),
                result: s.result.as_ref().map(serde_json::to_string).transpose()?,
            })
        })
        .collect()
}

/// Reads a match row ([`MatchRow`]).
fn read_match(row: MatchRow) -> Result<StoredMatch, StoreError> {
    let (id, index, round, seats, opening, deal, state, result) = row;
    Ok(StoredMatch {
        summary: MatchSummary {
            id: parse_id(&id)?,
            index: u32::try_from(index).map_err(|e| StoreError::Unreadable(format!("match index: {e}")))?,
            round: u32::try_from(round).map_err(|e| StoreError::Unreadable(format!("match round: {e}")))?,
            seats: serde_json::from_str(&seats)?,
            opening,
            // A deal number; a row stored before deals were numbered holds a 64-bit seed, read
            // as none.
            deal: deal.and_then(|d| u32::try_from(d).ok()),
            sealed: false,
            state: state_from(state)?,
            room: None,
            result: result.map(|r| serde_json::from_str(&r)).transpose()?,
        },
    })
}
