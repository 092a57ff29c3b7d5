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
//! `no_such_match` (404), `tournament_over`, `deal_in_play` (409), `too_many_tournaments`,
//! `too_many_tournaments_from_address` (429), `storage` (500), and axum's own rejections of a
//! body that is not the JSON expected (`bad_json`, 400 or 422).
//!
//! Who may create and cancel (docs/tournaments.md, "Who may make tournaments"): the holder of
//! the admin key or the tournament key (`Authorization: Bearer <key>`), and no one else, unless
//! the server was started with `--open-tournaments`; then anyone may create, each address
//! running at most `--tournaments-per-address` at once, and may cancel only what its address
//! made. A node runs at most `--max-tournaments` at once, whoever made them.

use axum::extract::rejection::JsonRejection;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Mutex;

use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use skirmish_protocol::ErrorCode;
use skirmish_protocol::tournament::{TournamentConfig, TournamentId, TournamentState, TournamentStatus};

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

/// Who made each tournament made without a key (on a server with `--open-tournaments`).
#[derive(Debug, Default)]
pub struct Makers {
    /// Each such tournament's maker's address.
    by_tournament: Mutex<HashMap<TournamentId, IpAddr>>,
    /// Held from a creation's count to its tournament's start: one creation at a time.
    creating: tokio::sync::Mutex<()>,
}

/// Who is asking: a key's holder, or a stranger from an address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Caller {
    /// Offered the admin key or the tournament key.
    Keyed,
    /// Offered no key the server has, on a server with open tournaments; from this address
    /// (none when the connection's address is unknown, as in tests without a socket).
    Stranger(Option<IpAddr>),
}

/// Who is asking, or a refusal: without a key the server has, only a server with open
/// tournaments lets the request on.
fn caller(state: &AppState, headers: &HeaderMap, peer: Option<SocketAddr>) -> Result<Caller, HttpError> {
    let offered = offered_key(headers);
    let keys = [&state.limits.admin_key, &state.limits.tournament_key];
    if offered.is_some()
        && keys
            .iter()
            .any(|k| k.as_ref().is_some_and(|k| k.admits(offered.as_ref())))
    {
        return Ok(Caller::Keyed);
    }
    if state.limits.open_tournaments {
        return Ok(Caller::Stranger(peer.map(|p| p.ip())));
    }
    let message = if keys.iter().all(|k| k.is_none()) {
        "this server makes and cancels tournaments only with its admin key or tournament key, and has neither (start it with --admin-key, --tournament-key or --open-tournaments)"
    } else {
        "this server makes and cancels tournaments only with its admin key or tournament key: Authorization: Bearer <key>"
    };
    Err(HttpError::new(
        StatusCode::UNAUTHORIZED,
        ErrorCode::BadKey,
        message,
    ))
}

/// Refuses one more tournament when the node runs `--max-tournaments`, or a stranger's address
/// runs `--tournaments-per-address`.
fn check_room_for_one_more(state: &AppState, caller: Caller) -> Result<(), HttpError> {
    let running: Vec<TournamentId> = state
        .tournaments
        .list()
        .into_iter()
        .filter(|t| t.state == TournamentState::Running)
        .map(|t| t.id)
        .collect();
    if running.len() >= state.limits.max_tournaments {
        return Err(HttpError::new(
            StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::TooManyTournaments,
            format!(
                "this server runs at most {} tournaments at once; try again when one is over",
                state.limits.max_tournaments
            ),
        ));
    }
    if let Caller::Stranger(Some(address)) = caller {
        let mut makers = state
            .tournament_makers
            .by_tournament
            .lock()
            .expect("not poisoned");
        makers.retain(|id, _| running.contains(id));
        let own = makers.values().filter(|a| **a == address).count();
        if own >= state.limits.tournaments_per_address {
            return Err(HttpError::new(
                StatusCode::TOO_MANY_REQUESTS,
                ErrorCode::TooManyTournamentsFromAddress,
                format!(
                    "one address runs at most {} tournaments at once here; try again when yours is over",
                    state.limits.tournaments_per_address
                ),
            ));
        }
    }
    Ok(())
}

fn parse_id<T: std::str::FromStr>(text: &str, code: ErrorCode) -> Result<T, HttpError> {
    text.parse()
        .map_err(|_| HttpError::new(StatusCode::NOT_FOUND, code, format!("`{text}` is not an id")))
}

async fn create(
    State(state): State<AppState>,
    headers: HeaderMap,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    body: Result<Json<TournamentConfig>, JsonRejection>,
) -> Result<(StatusCode, Json<TournamentStatus>), HttpError> {
    let caller = caller(&state, &headers, peer.map(|Extension(ConnectInfo(p))| p))?;
    let Json(config) = body?;
    // One creation at a time, from the count to the tournament's start: requests sent at once
    // would otherwise all pass the count before any of them is running.
    let _one_at_a_time = state.tournament_makers.creating.lock().await;
    check_room_for_one_more(&state, caller)?;
    let status = state.tournaments.create(config).await?;
    if let Caller::Stranger(Some(address)) = caller {
        state
            .tournament_makers
            .by_tournament
            .lock()
            .expect("not poisoned")
            .insert(status.summary.id, address);
    }
    Ok((StatusCode::CREATED, Json(status)))
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
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    Path(id): Path<String>,
) -> Result<Json<TournamentStatus>, HttpError> {
    let caller = caller(&state, &headers, peer.map(|Extension(ConnectInfo(p))| p))?;
    let id: TournamentId = parse_id(&id, ErrorCode::NoSuchTournament)?;
    if let Caller::Stranger(address) = caller {
        let maker = state
            .tournament_makers
            .by_tournament
            .lock()
            .expect("not poisoned")
            .get(&id)
            .copied();
        if address.is_none() || maker != address {
            return Err(HttpError::new(
                StatusCode::UNAUTHORIZED,
                ErrorCode::BadKey,
                "only the address that made a tournament, or a key's holder, may cancel it",
            ));
        }
    }
    Ok(Json(state.tournaments.cancel(id).await?))
}
