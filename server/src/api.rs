//! The tournament HTTP API, JSON in and out (docs/tournaments.md, "The HTTP API"):
//!
//! - `POST /api/tournaments` with a [`TournamentConfig`]: creates one; `201` with its status.
//! - `GET /api/tournaments`: every tournament's summary, newest first.
//! - `GET /api/tournaments/{id}`: its status, with every match; the seed only once it is over
//!   (the commitment to it from the start).
//! - `GET /api/tournaments/{id}/standings`: its standings and crosstable.
//! - `POST /api/tournaments/{id}/cancel`: cancels it; `200` with its status.
//!
//! A finished match's record, to replay it (`GET /api/matches/{id}`), is served by
//! [`crate::replays_api`].
//!
//! Refusals are `{"code": ..., "message": ...}` with a stable code: `bad_config`,
//! `unknown_entrant`, `too_few_entrants` (400), `bad_key` (401), `no_such_tournament`,
//! `no_such_match` (404), `tournament_over`, `deal_in_play` (409), `storage` (500), and axum's own rejections of
//! a body that is not the JSON expected (`bad_json`, 400 or 422). When the server has a
//! tournament key (`--tournament-key`), creating and cancelling need `Authorization: Bearer
//! <key>`.

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use skirmish_protocol::ErrorCode;
use skirmish_protocol::tournament::{TournamentConfig, TournamentId, TournamentStatus};

use crate::AppState;
use crate::bearer::offered_key;
use crate::http_error::HttpError;
use crate::tournament::TournamentError;

/// The API's routes.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/tournaments", post(create).get(list))
        .route("/api/tournaments/{id}", get(status))
        .route("/api/tournaments/{id}/standings", get(standings))
        .route("/api/tournaments/{id}/cancel", post(cancel))
}

impl From<TournamentError> for HttpError {
    fn from(err: TournamentError) -> Self {
        let status = match &err {
            TournamentError::BadConfig(_)
            | TournamentError::UnknownEntrant(..)
            | TournamentError::TooFewEntrants(..) => StatusCode::BAD_REQUEST,
            TournamentError::NoSuchTournament(_) => StatusCode::NOT_FOUND,
            TournamentError::Over(_) | TournamentError::DealInPlay(_) => StatusCode::CONFLICT,
            TournamentError::Store(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        HttpError::new(status, err.code(), err.to_string())
    }
}

/// Refuses a request without the server's tournament key, when it has one.
fn check_key(state: &AppState, headers: &HeaderMap) -> Result<(), HttpError> {
    let Some(required) = &state.limits.tournament_key else {
        return Ok(());
    };
    let offered = offered_key(headers);
    if required.admits(offered.as_ref()) {
        Ok(())
    } else {
        Err(HttpError::new(
            StatusCode::UNAUTHORIZED,
            ErrorCode::BadKey,
            "this server makes and cancels tournaments only with its key: Authorization: Bearer <key>",
        ))
    }
}

fn parse_id<T: std::str::FromStr>(text: &str, code: ErrorCode) -> Result<T, HttpError> {
    text.parse()
        .map_err(|_| HttpError::new(StatusCode::NOT_FOUND, code, format!("`{text}` is not an id")))
}

async fn create(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Result<Json<TournamentConfig>, JsonRejection>,
) -> Result<(StatusCode, Json<TournamentStatus>), HttpError> {
    check_key(&state, &headers)?;
    let Json(config) = body?;
    Ok((StatusCode::CREATED, Json(state.tournaments.create(config).await?)))
}

async fn list(State(state): State<AppState>) -> Response {
    Json(state.tournaments.list()).into_response()
}

async fn status(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<TournamentStatus>, HttpError> {
    let id: TournamentId = parse_id(&id, ErrorCode::NoSuchTournament)?;
    match any_status(&state, id).await? {
        Some(status) => Ok(Json(status)),
        None => Err(TournamentError::NoSuchTournament(id).into()),
    }
}

/// Tournament `id`'s status: this node's, or in a cluster, as the shared store holds one that
/// another node runs (a page behind the load balancer finds it on any node).
async fn any_status(state: &AppState, id: TournamentId) -> Result<Option<TournamentStatus>, TournamentError> {
    if let Some(status) = state.tournaments.status(id) {
        return Ok(Some(status));
    }
    if state.cluster.is_none() {
        return Ok(None);
    }
    Ok(state.tournaments.stored_status(id).await?)
}

async fn standings(State(state): State<AppState>, Path(id): Path<String>) -> Result<Response, HttpError> {
    let id: TournamentId = parse_id(&id, ErrorCode::NoSuchTournament)?;
    if let Some(standings) = state.tournaments.standings(id) {
        return Ok(Json(standings).into_response());
    }
    match any_status(&state, id).await? {
        Some(status) => Ok(Json(crate::tournament::standings_of(&status)).into_response()),
        None => Err(TournamentError::NoSuchTournament(id).into()),
    }
}

async fn cancel(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Json<TournamentStatus>, HttpError> {
    check_key(&state, &headers)?;
    let id: TournamentId = parse_id(&id, ErrorCode::NoSuchTournament)?;
    Ok(Json(state.tournaments.cancel(id).await?))
}
