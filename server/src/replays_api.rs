//! The replay HTTP API, JSON out (docs/playing.md, "Replays and My games"):
//!
//! - `GET /api/matches/{id}`: a finished match's record, to replay it, whether a tournament's
//!   match (its id) or a casual room's (the room's id). `?seat=N` (0-based) gives the match as
//!   seat `N` saw it: only the events whose audience includes that seat, decided by the engine's
//!   own audience function, the one that decides the live stream ([`GameEvent::audience`]).
//!   Without it, every event: the match is over, so nothing is hidden any more. A tournament
//!   match is refused with `deal_in_play` (409) while its deal is still being played at another
//!   table, whichever view is asked. The record carries `infos`: what the bots thought at each
//!   act that sent an `info` ([`MoveInfo`]), sealed like the record (never sent during the
//!   match; a duplicate match's only once its deal is over at every table); a seat's view holds
//!   only that seat's own.
//! - `POST /api/my/games` with `{"tokens": ["<resume token>", ...]}` (1 to [`MY_TOKENS`]: the
//!   tokens `welcome` gave this browser, the current one and those it had before the server
//!   forgot it): the finished casual matches those players sat in, newest first, at most
//!   [`MY_GAMES`](crate::store::MY_GAMES), each with the seat held. A token is a secret; the public player id is not
//!   enough, so nobody lists another's games.
//!
//! Refusals: `no_such_match` (404: no finished match has this id, or the cap dropped it),
//! `match_in_play` (409: the room exists and its match is not over), `no_such_seat` (400),
//! `token_required` (400: no resume token, or more than [`MY_TOKENS`]), `bad_json`, `deal_in_play` (409), `storage` (500).

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use skirmish_games::{Seat, Viewer};
use skirmish_protocol::tournament::MatchId;
use skirmish_protocol::{ErrorCode, GameEvent, MoveInfo, ResumeToken, RoomId, RoomStatus};

use crate::AppState;
use crate::http_error::HttpError;
use crate::store::{MyGame, ReplaySummary};

/// The API's routes.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/matches/{id}", get(replay))
        .route("/api/my/games", post(my_games))
}

/// `?seat=N`: the seat whose view to give; everything without it.
#[derive(Debug, Deserialize)]
struct ViewQuery {
    seat: Option<String>,
}

/// A replay as served: the record (a tournament's [`skirmish_protocol::tournament::MatchRecord`]
/// or a casual [`CasualRecord`]) with its events cut to the view asked.
#[derive(Serialize)]
struct Served<T> {
    /// `tournament` or `casual`.
    kind: &'static str,
    #[serde(flatten)]
    record: T,
    /// The seat whose view the events are; `null` for everything.
    view: Option<Seat>,
    /// What the bots thought at each act whose `act` carried an `info`, in order, each placed by
    /// the index in `events` (as served: in the view asked) where its act's events start.
    infos: Vec<MoveInfo>,
}

/// A casual match's record: its summary and its events.
#[derive(Serialize)]
struct CasualRecord {
    #[serde(flatten)]
    summary: ReplaySummary,
    events: Vec<GameEvent>,
}

/// "My games": the list.
#[derive(Serialize)]
struct MyGames {
    games: Vec<MyGame>,
}

fn storage(err: impl std::fmt::Display) -> HttpError {
    tracing::warn!(cause = %err, "replays could not be read");
    HttpError::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        ErrorCode::Storage,
        "the server's storage could not be read",
    )
}

fn no_such_match(id: &str) -> HttpError {
    HttpError::new(
        StatusCode::NOT_FOUND,
        ErrorCode::NoSuchMatch,
        format!("no finished match {id}"),
    )
}

/// The seat `?seat=` names in a match of `seats` seats.
fn view_of(query: &ViewQuery, seats: usize) -> Result<Option<Seat>, HttpError> {
    let Some(text) = query.seat.as_deref().filter(|t| !t.is_empty() && *t != "all") else {
        return Ok(None);
    };
    match text.parse::<u8>() {
        Ok(n) if usize::from(n) < seats => Ok(Some(Seat(n))),
        _ => Err(HttpError::new(
            StatusCode::BAD_REQUEST,
            ErrorCode::rule("no_such_seat"),
            format!(
                "the match has seats 0 to {}; `{text}` is not one",
                seats.saturating_sub(1)
            ),
        )),
    }
}

/// Keeps the events `view` saw (all for `None`), by the engine's audience of each, and the infos
/// it saw: a seat saw only its own bot's thoughts (the others' were sealed from it), each placed
/// at the first event its act caused that the view kept (an info whose act's events the view saw
/// none of is placed at the next one it saw).
fn seen_by(events: &mut Vec<GameEvent>, infos: &mut Vec<MoveInfo>, view: Option<Seat>) {
    let Some(seat) = view else { return };
    infos.retain(|info| info.seat == seat);
    // `kept_before[i]`: how many of the first `i` events the view keeps.
    let mut kept_before = Vec::with_capacity(events.len() + 1);
    kept_before.push(0u32);
    for event in events.iter() {
        let seen = u32::from(event.audience().includes(Viewer::Seat(seat)));
        kept_before.push(kept_before.last().copied().unwrap_or(0) + seen);
    }
    for info in infos.iter_mut() {
        let at = usize::try_from(info.at).unwrap_or(usize::MAX).min(events.len());
        info.at = kept_before[at];
    }
    events.retain(|e| e.audience().includes(Viewer::Seat(seat)));
}

async fn replay(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<ViewQuery>,
) -> Result<Response, HttpError> {
    let Ok(match_id) = id.parse::<MatchId>() else {
        return Err(no_such_match(&id));
    };
    // Sealed while the deal is in play anywhere: `match_record` refuses it then, and the infos
    // are read only once it has answered.
    if let Some(mut record) = state.tournaments.match_record(match_id).await? {
        let view = view_of(&query, record.game.seats())?;
        let mut infos = state.store.bot_infos(RoomId(match_id.0)).await.map_err(storage)?;
        seen_by(&mut record.events, &mut infos, view);
        return Ok(Json(Served {
            kind: "tournament",
            record,
            view,
            infos,
        })
        .into_response());
    }
    let room: RoomId = id.parse().map_err(|_| no_such_match(&id))?;
    if let Some((summary, mut events)) = state.store.replay(room).await.map_err(storage)? {
        let view = view_of(&query, summary.game.seats())?;
        let mut infos = state.store.bot_infos(room).await.map_err(storage)?;
        seen_by(&mut events, &mut infos, view);
        return Ok(Json(Served {
            kind: "casual",
            record: CasualRecord { summary, events },
            view,
            infos,
        })
        .into_response());
    }
    // A room listed and not finished: its match is still to be played. (A finished room still
    // listed whose record the cap dropped, or too long to keep, has none: `no_such_match`.)
    let playing = state
        .lobby
        .summary(room)
        .is_some_and(|r| r.status != RoomStatus::Finished);
    if playing {
        return Err(HttpError::new(
            StatusCode::CONFLICT,
            ErrorCode::MatchInPlay,
            format!("the match of room {id} is not over: its replay exists once it is"),
        ));
    }
    Err(no_such_match(&id))
}

/// The most tokens one "My games" request may name: 20 (a browser keeps its last 20, net.js).
pub(crate) const MY_TOKENS: usize = 20;

/// "My games": the browser's resume tokens.
#[derive(Debug, Deserialize)]
struct MyTokens {
    tokens: Vec<ResumeToken>,
}

async fn my_games(
    State(state): State<AppState>,
    body: Result<Json<MyTokens>, JsonRejection>,
) -> Result<Response, HttpError> {
    let Json(MyTokens { tokens }) = body?;
    if tokens.is_empty() || tokens.len() > MY_TOKENS {
        return Err(HttpError::new(
            StatusCode::BAD_REQUEST,
            ErrorCode::TokenRequired,
            format!("your games are listed with 1 to {MY_TOKENS} of your browser's resume tokens"),
        ));
    }
    let digests: Vec<String> = tokens.iter().map(ResumeToken::digest).collect();
    let games = state.store.my_games(&digests).await.map_err(storage)?;
    Ok(Json(MyGames { games }).into_response())
}
