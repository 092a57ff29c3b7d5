//! The tournament HTTP API, JSON in and out (docs/tournaments.md, "The HTTP API"):
//!
//! - `POST /api/tournaments` with a [`TournamentConfig`]: creates one; `201` with its status.
//! - `GET /api/tournaments`: every tournament's summary, newest first.
//! - `GET /api/tournaments/{id}`: its status, with every match; the seed only once it is over
//!   (the commitment to it from the start).
//! - `GET /api/tournaments/{id}/standings`: its standings and crosstable.
//! - `POST /api/tournaments/{id}/cancel`: cancels it; `200` with its status.
//! - `GET /api/matches/{id}`: a finished match's full record, to replay it; refused with
//!   `deal_in_play` (409) while its deal is still being played at another table.
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
use skirmish_protocol::tournament::{MatchId, TournamentConfig, TournamentId, TournamentStatus};

use crate::AppState;
use crate::bearer::offered_key;
use crate::tournament::TournamentError;

/// The API's routes.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/tournaments", post(create).get(list))
        .route("/api/tournaments/{id}", get(status))
        .route("/api/tournaments/{id}/standings", get(standings))
        .route("/api/tournaments/{id}/cancel", post(cancel))
        .route("/api/matches/{id}", get(match_record))
}

fn refuse(status: StatusCode, code: &str, message: String) -> Response {
    (
        status,
        Json(serde_json::json!({ "code": code, "message": message })),
    )
        .into_response()
}

/// A refusal not yet made into a response: its status, code and message.
struct Refusal(StatusCode, &'static str, String);

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        refuse(self.0, self.1, self.2)
    }
}

impl IntoResponse for TournamentError {
    fn into_response(self) -> Response {
        let status = match &self {
            TournamentError::BadConfig(_)
            | TournamentError::UnknownEntrant(..)
            | TournamentError::TooFewEntrants(..) => StatusCode::BAD_REQUEST,
            TournamentError::NoSuchTournament(_) => StatusCode::NOT_FOUND,
            TournamentError::Over(_) | TournamentError::DealInPlay(_) => StatusCode::CONFLICT,
            TournamentError::Store(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        refuse(status, self.code(), self.to_string())
    }
}

/// Refuses a request without the server's tournament key, when it has one.
fn check_key(state: &AppState, headers: &HeaderMap) -> Result<(), Refusal> {
    let Some(required) = &state.limits.tournament_key else {
        return Ok(());
    };
    let offered = offered_key(headers);
    if required.admits(offered.as_ref()) {
        Ok(())
    } else {
        Err(Refusal(
            StatusCode::UNAUTHORIZED,
            skirmish_protocol::codes::BAD_KEY,
            "this server makes and cancels tournaments only with its key: Authorization: Bearer <key>"
                .to_owned(),
        ))
    }
}

fn parse_id<T: std::str::FromStr>(text: &str, code: &'static str) -> Result<T, Refusal> {
    text.parse()
        .map_err(|_| Refusal(StatusCode::NOT_FOUND, code, format!("`{text}` is not an id")))
}

async fn create(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Result<Json<TournamentConfig>, JsonRejection>,
) -> Response {
    if let Err(refused) = check_key(&state, &headers) {
        return refused.into_response();
    }
    let config = match body {
        Ok(Json(config)) => config,
        Err(rejection) => return refuse(rejection.status(), "bad_json", rejection.body_text()),
    };
    match state.tournaments.create(config).await {
        Ok(status) => (StatusCode::CREATED, Json(status)).into_response(),
        Err(err) => err.into_response(),
    }
}

async fn list(State(state): State<AppState>) -> Response {
    Json(state.tournaments.list()).into_response()
}

async fn status(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    let id: TournamentId = match parse_id(&id, "no_such_tournament") {
        Ok(id) => id,
        Err(refused) => return refused.into_response(),
    };
    match any_status(&state, id).await {
        Ok(Some(status)) => Json(status).into_response(),
        Ok(None) => TournamentError::NoSuchTournament(id).into_response(),
        Err(err) => err.into_response(),
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

async fn standings(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    let id: TournamentId = match parse_id(&id, "no_such_tournament") {
        Ok(id) => id,
        Err(refused) => return refused.into_response(),
    };
    if let Some(standings) = state.tournaments.standings(id) {
        return Json(standings).into_response();
    }
    match any_status(&state, id).await {
        Ok(Some(status)) => Json(crate::tournament::standings_of(&status)).into_response(),
        Ok(None) => TournamentError::NoSuchTournament(id).into_response(),
        Err(err) => err.into_response(),
    }
}

async fn cancel(State(state): State<AppState>, headers: HeaderMap, Path(id): Path<String>) -> Response {
    if let Err(refused) = check_key(&state, &headers) {
        return refused.into_response();
    }
    let id: TournamentId = match parse_id(&id, "no_such_tournament") {
        Ok(id) => id,
        Err(refused) => return refused.into_response(),
    };
    match state.tournaments.cancel(id).await {
        Ok(status) => Json(status).into_response(),
        Err(err) => err.into_response(),
    }
}

async fn match_record(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    let id: MatchId = match parse_id(&id, "no_such_match") {
        Ok(id) => id,
        Err(refused) => return refused.into_response(),
    };
    match state.tournaments.match_record(id).await {
        Ok(Some(record)) => Json(record).into_response(),
        Ok(None) => refuse(
            StatusCode::NOT_FOUND,
            "no_such_match",
            format!("no finished match {id}"),
        ),
        Err(err) => err.into_response(),
    }
}
