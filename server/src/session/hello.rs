//! Saying hello: the frames before a valid `hello`, who says it (a bot account, a name, a resumed
//! or a new player), and the `welcome` that starts the session. Every refusal on the way is a
//! [`ServerError`], answered in one place.

use std::collections::HashSet;
use std::net::IpAddr;

use axum::extract::ws::{Message, Utf8Bytes};
use futures_util::{Sink, Stream, StreamExt};
use skirmish_protocol::{
    BotOffer, ClientFrame, ClientMsg, PROTOCOL_VERSION, PlayerId, ResumeToken, RoomId, SeatRef, ServerMsg,
    clean_name, parse_client_frame_within,
};
use tracing::info;

use super::identity::{account_of, check_name};
use super::write::send;
use super::{Bucket, CLOSE_RATE_LIMITED, CLOSE_VERSION, Session, close_for, token_bucket};
use crate::AppState;
use crate::error::ServerError;
use crate::lobby::ResumeRefused;
use crate::outbox::Outbox;

/// Who said `hello`, once admitted: a player resumed (by its token or its bot account) or new.
struct Identity {
    player: PlayerId,
    /// The display name in use (a bot account's as registered).
    name: String,
    /// The token the `welcome` gives, to resume later.
    token: ResumeToken,
    bot: Option<BotOffer>,
    /// The bot account the `hello`'s token proved.
    account: Option<String>,
    /// The seats the player holds, to take back.
    seats: Vec<SeatRef>,
    /// Rooms the player held a seat in that could not be restored after a restart.
    broken: Vec<RoomId>,
    /// The `hello` named a resume token the server does not know: the player is a new one, and
    /// is told so before `welcome`.
    resume_unknown: bool,
}

/// Reads frames until a valid `hello`; answers anything else with `hello_first`, and a refused
/// `hello` with its refusal (the client may say it again, but after `unsupported_version`, which
/// closes the connection).
pub(super) async fn hello<T, E>(
    socket: &mut T,
    state: &AppState,
    outbox: Outbox,
    bucket: Bucket,
    address: Option<IpAddr>,
) -> Result<Session, (u16, &'static str)>
where
    T: Sink<Message> + Stream<Item = Result<Message, E>> + Unpin,
    E: std::error::Error + 'static,
{
    loop {
        let Some(text) = next_text(socket, state, &bucket).await? else {
            continue;
        };
        let limits = &state.limits;
        let (req, greeted) =
            match parse_client_frame_within(&text, limits.max_frame_bytes, limits.max_json_depth) {
                Ok(frame) => (frame.req, greet(state, frame, &outbox).await),
                Err(err) => (err.req, Err(ServerError::from(err))),
            };
        match greeted {
            Ok(identity) => {
                welcome(socket, state, &identity, req).await?;
                return Ok(start(state, identity, outbox, bucket, address).await);
            }
            Err(refusal) => {
                send(socket, &refusal.to_msg(req), &state.metrics).await;
                if let ServerError::UnsupportedVersion(_) = refusal {
                    return Err((CLOSE_VERSION, "unsupported protocol version"));
                }
            }
        }
    }
}

/// The next text frame before `hello`, counted against the connection's bucket: `None` for a
/// frame that is not one (a binary frame, answered with `binary_frame`; a ping or a pong).
///
/// # Errors
/// The close code and reason that end the connection: too many frames, a broken socket, or the
/// client gone.
async fn next_text<T, E>(
    socket: &mut T,
    state: &AppState,
    bucket: &Bucket,
) -> Result<Option<Utf8Bytes>, (u16, &'static str)>
where
    T: Sink<Message> + Stream<Item = Result<Message, E>> + Unpin,
    E: std::error::Error + 'static,
{
    match socket.next().await {
        Some(Ok(message @ (Message::Text(_) | Message::Binary(_)))) => {
            state.metrics.message_in();
            if bucket.check().is_err() {
                return Err((CLOSE_RATE_LIMITED, "too many messages"));
            }
            let Message::Text(text) = message else {
                send(socket, &ServerError::BinaryFrame.to_msg(None), &state.metrics).await;
                return Ok(None);
            };
            Ok(Some(text))
        }
        Some(Err(err)) => Err(close_for(&err).unwrap_or((1000, "closed"))),
        Some(Ok(Message::Close(_))) | None => Err((1000, "closed")),
        Some(Ok(_)) => Ok(None),
    }
}

/// Reads a `hello`: its version, the bot account its token proves (or the bot key), the bot's
/// offer and the name, then the player it resumes or a new one.
///
/// # Errors
/// [`ServerError::HelloFirst`] for any other message, [`ServerError::UnsupportedVersion`],
/// [`ServerError::BadOffer`], [`ServerError::BadName`], the ladders' refusals
/// ([`crate::ladder::ladders_of`]), and the refusals of [`account_of`],
/// [`check_name`] and [`identify`].
async fn greet(state: &AppState, frame: ClientFrame, outbox: &Outbox) -> Result<Identity, ServerError> {
    let ClientMsg::Hello {
        protocol,
        name,
        bot,
        resume,
        key,
        token,
        turn_view,
        ladder,
    } = frame.msg
    else {
        return Err(ServerError::HelloFirst);
    };
    outbox.set_turn_view(turn_view.unwrap_or(bot.is_some()));
    if protocol != PROTOCOL_VERSION {
        return Err(ServerError::UnsupportedVersion(protocol));
    }
    let account = account_of(state, bot.is_some(), token.as_ref(), key.as_ref()).await?;
    let ladders = crate::ladder::ladders_of(&ladder, account.as_deref())?;
    if let Some(Err(message)) = bot.as_ref().map(BotOffer::check) {
        return Err(ServerError::BadOffer(message));
    }
    // Control and bidirectional-formatting characters (newlines, tabs, terminal escapes,
    // U+202E...) are dropped, then spaces trimmed; what is left must be 1 to 32 characters.
    let name = clean_name(&name);
    if name.is_empty() || name.chars().count() > 32 {
        return Err(ServerError::BadName);
    }
    let name = check_name(state, name, account.as_deref()).await?;
    let identity = identify(state, name, bot, resume, account, outbox).await?;
    if let Some(account) = &identity.account {
        state.ladders.join(account, ladders);
    }
    Ok(identity)
}

/// The player a `hello` takes back, by its resume token or its bot account, or a new one (also
/// when the token is not known).
///
/// # Errors
/// [`ServerError::ResumeOtherAccount`]: the token is a bot account's player, and the `hello` did
/// not prove the account.
async fn identify(
    state: &AppState,
    name: String,
    bot: Option<BotOffer>,
    resume: Option<ResumeToken>,
    account: Option<String>,
    outbox: &Outbox,
) -> Result<Identity, ServerError> {
    // A player this node does not know may be another node's (a reconnect through the load
    // balancer, or their node is gone): taken from the cluster's directory.
    if let Some(cluster) = &state.cluster {
        let digest = resume.as_ref().map(ResumeToken::digest);
        let unknown = match (&digest, &account) {
            (Some(digest), _) => !state.lobby.knows_token(digest),
            (None, Some(account)) => !state.lobby.knows_account(account),
            (None, None) => false,
        };
        if unknown {
            cluster.adopt_player(digest.as_deref(), account.as_deref()).await;
        }
    }
    let resumed = state
        .lobby
        .resume(
            resume.as_ref(),
            account.as_deref(),
            name.clone(),
            bot.clone(),
            outbox.clone(),
        )
        .map_err(|refused| match refused {
            ResumeRefused::OtherAccount => ServerError::ResumeOtherAccount,
        })?;
    let resume_unknown = resume.is_some() && resumed.is_none();
    let (player, token, seats, broken) = match resumed {
        Some(record) => {
            // A player taken back by its account has no resume token in this `hello`: a fresh
            // one replaces the old (whose digest the rooms keep for a restart).
            let token = match resume {
                Some(token) if token.digest() == record.token => token,
                _ => state.lobby.new_token(record.id),
            };
            (record.id, token, record.seats, record.broken)
        }
        None => {
            let (id, token) =
                state
                    .lobby
                    .register(name.clone(), bot.clone(), outbox.clone(), account.clone());
            (id, token, Vec::new(), Vec::new())
        }
    };
    Ok(Identity {
        player,
        name,
        token,
        bot,
        account,
        seats,
        broken,
        resume_unknown,
    })
}

/// Says `welcome` to the player who said `hello` (request `req`): after `bad_resume` when its
/// resume token was not known, and before a `room_broken` for each room it lost in a restart.
///
/// # Errors
/// The close code for a client gone before it was welcomed.
async fn welcome<T: Sink<Message> + Unpin>(
    socket: &mut T,
    state: &AppState,
    identity: &Identity,
    req: Option<u64>,
) -> Result<(), (u16, &'static str)> {
    if identity.resume_unknown {
        send(socket, &ServerError::UnknownResume.to_msg(req), &state.metrics).await;
    }
    let Identity {
        player,
        name,
        bot,
        account,
        seats,
        ..
    } = identity;
    info!(player = %player, name = %name, bot = bot.is_some(), account = account.is_some(), resumed = !seats.is_empty(), "hello");
    let welcome = ServerMsg::Welcome {
        protocol: PROTOCOL_VERSION,
        player: *player,
        name: name.clone(),
        resume: identity.token.clone(),
        seats: seats.clone(),
    };
    if !send(socket, &welcome, &state.metrics).await {
        return Err((1000, "closed"));
    }
    // A seat lost with a room that could not be restored is never dropped in silence.
    for &room in &identity.broken {
        if !send(
            socket,
            &ServerError::RoomBroken(room).to_msg(None),
            &state.metrics,
        )
        .await
        {
            return Err((1000, "closed"));
        }
    }
    Ok(())
}

/// The session of a welcomed player, attached to the rooms it holds seats in. A bot gets its own
/// rate: its bucket is refilled at the bots' rate and holds one second of it.
async fn start(
    state: &AppState,
    identity: Identity,
    outbox: Outbox,
    bucket: Bucket,
    address: Option<IpAddr>,
) -> Session {
    let is_bot = identity.bot.is_some();
    let session = Session {
        state: state.clone(),
        player: identity.player,
        name: identity.name,
        outbox,
        watching: HashSet::new(),
        last_room: std::sync::Mutex::new(None),
        address,
        bucket: if is_bot {
            let rate = state.limits.bot_messages_per_second;
            token_bucket(rate, rate)
        } else {
            bucket
        },
        rate: if is_bot {
            state.limits.bot_messages_per_second
        } else {
            state.limits.messages_per_second
        },
    };
    for seat in identity.seats {
        if let Some(room) = state.lobby.room(seat.room) {
            room.attach(session.member()).await;
        }
    }
    session
}
