//! The ladders' HTTP API, JSON out (docs/ladder.md, "The HTTP API"); reading only, for anyone:
//! - `GET /api/ladders`: every ladder's summary ([`LadderSummary`]).
//! - `GET /api/ladders/{id}`: its table ([`LadderStatus`]); `404 no_such_ladder`.
//! - `GET /api/ladders/{id}/entrants/{entrant}`: one entrant's rating history, head-to-head
//!   results and latest games ([`EntrantDetail`]); `404 no_such_ladder` or `no_such_entrant`.
//!
//! Nothing here changes a ladder: entrants join and leave by their bots' `hello`, which needs
//! the account's token.

use std::collections::HashMap;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use skirmish_protocol::ErrorCode;
use skirmish_protocol::ladder::{
    EntrantDetail, HeadToHead, LadderEntrant, LadderGame, LadderId, LadderStatus, LadderSummary,
};

use crate::AppState;
use crate::http_error::HttpError;

/// The most recent games an entrant's page lists: 30.
pub(crate) const RECENT_GAMES: usize = 30;

/// The API's routes.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/ladders", get(list))
        .route("/api/ladders/{id}", get(status))
        .route("/api/ladders/{id}/entrants/{entrant}", get(entrant))
}

async fn list(State(state): State<AppState>) -> Json<Vec<LadderSummary>> {
    Json(state.ladders.list())
}

fn ladder(state: &AppState, id: &str) -> Result<(LadderId, LadderStatus), HttpError> {
    let not_found = || {
        let shown: String = id.chars().take(32).collect();
        HttpError::new(
            StatusCode::NOT_FOUND,
            ErrorCode::NoSuchLadder,
            format!("no ladder is called `{shown}`"),
        )
    };
    let ladder: LadderId = id.parse().map_err(|_| not_found())?;
    let status = state.ladders.status(ladder).ok_or_else(not_found)?;
    Ok((ladder, status))
}

async fn status(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<LadderStatus>, HttpError> {
    Ok(Json(ladder(&state, &id)?.1))
}

fn storage(err: impl std::fmt::Display) -> HttpError {
    tracing::warn!(cause = %err, "a ladder could not be read");
    HttpError::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        ErrorCode::Storage,
        "the server's storage could not be read",
    )
}

async fn entrant(
    State(state): State<AppState>,
    Path((id, entrant)): Path<(String, String)>,
) -> Result<Json<EntrantDetail>, HttpError> {
    let (ladder, status) = ladder(&state, &id)?;
    let row = entrant
        .parse::<u64>()
        .ok()
        .and_then(|n| status.table.iter().find(|r| r.entrant.id == n))
        .cloned()
        .ok_or_else(|| {
            let shown: String = entrant.chars().take(32).collect();
            HttpError::new(
                StatusCode::NOT_FOUND,
                ErrorCode::NoSuchEntrant,
                format!("ladder {ladder} has no entrant {shown}"),
            )
        })?;
    let me = row.entrant.id;
    let store = state.ladders.store();
    let history = store.ladder_history(ladder, me).await.map_err(storage)?;
    let games = store.finished_ladder_games(ladder, 0).await.map_err(storage)?;
    let who: HashMap<u64, LadderEntrant> = status
        .table
        .iter()
        .map(|r| (r.entrant.id, r.entrant.clone()))
        .collect();
    let mut against: HashMap<u64, HeadToHead> = HashMap::new();
    let mut recent = Vec::new();
    for game in games.iter().rev() {
        let Some(mine) = game.seats.iter().position(|s| *s == me) else {
            continue;
        };
        let Some(result) = &game.result else {
            continue;
        };
        for (seat, other) in game.seats.iter().enumerate() {
            if seat == mine {
                continue;
            }
            let Some(opponent) = who.get(other) else {
                continue;
            };
            let h = against.entry(*other).or_insert_with(|| HeadToHead {
                opponent: opponent.clone(),
                games: 0,
                wins: 0,
                draws: 0,
                losses: 0,
            });
            h.games += 1;
            match result.placings.get(mine).cmp(&result.placings.get(seat)) {
                std::cmp::Ordering::Less => h.wins += 1,
                std::cmp::Ordering::Equal => h.draws += 1,
                std::cmp::Ordering::Greater => h.losses += 1,
            }
        }
        if recent.len() < RECENT_GAMES {
            recent.push(LadderGame {
                id: game.id,
                seats: game.seats.iter().filter_map(|s| who.get(s).cloned()).collect(),
                result: result.clone(),
                deal: game.deal,
                finished_ms: game.finished_ms,
            });
        }
    }
    let mut head_to_head: Vec<HeadToHead> = against.into_values().collect();
    head_to_head.sort_by(|a, b| b.games.cmp(&a.games).then(a.opponent.id.cmp(&b.opponent.id)));
    Ok(Json(EntrantDetail {
        ladder,
        row,
        history,
        head_to_head,
        recent,
    }))
}
