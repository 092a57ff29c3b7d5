//! One WebSocket connection: reads and checks frames, says hello, and forwards commands to the
//! lobby and rooms. It never touches game state.
//!
//! One `select!` loop races the client's frames, the connection's outbox (what rooms send it), a
//! slow-client kick and server shutdown. The logic is generic over any `Sink`/`Stream` of WebSocket
//! messages so it can be driven without a socket.

use std::collections::HashSet;
use std::num::NonZeroU32;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes};
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use skirmish_protocol::{
    ClientFrame, ClientMsg, PROTOCOL_VERSION, PlayerId, ResumeToken, RoomId, RoomStatus, ServerMsg, codes,
    parse_client_frame_within,
};
use tracing::{Instrument, debug, info};

use crate::AppState;
use crate::error::ServerError;
use crate::metrics::Metrics;
use crate::outbox::{Frame, Inbox, Outbox};
use crate::room::{self, Member};

/// Close codes: the connection did not say `hello` in time.
pub const CLOSE_NO_HELLO: u16 = 4001;
/// Close code: `hello` named a protocol version this server does not speak.
pub const CLOSE_VERSION: u16 = 4002;
/// Close code: the client did not read its messages fast enough.
pub const CLOSE_TOO_SLOW: u16 = 4008;
/// Close code: the connection sent nothing (not even a pong) for the idle timeout.
pub const CLOSE_IDLE: u16 = 4000;
/// Close code: the connection sent frames faster than its limit allows.
pub const CLOSE_RATE_LIMITED: u16 = 4029;
/// Close code: the server is shutting down.
pub const CLOSE_GOING_AWAY: u16 = 1001;

/// How long a client closed for being too slow has to take its close frame (30 s) before the
/// connection is dropped without it. A client that does not read at all holds its seat no longer.
pub const SLOW_CLOSE_WAIT: Duration = Duration::from_secs(30);

/// The read buffer each WebSocket gets, in bytes (1 KiB). tungstenite's default, 128 KiB, is
/// allocated for every connection and zero-filled up to its size before each read: with it an idle
/// connection held about 150 KiB of resident memory, and the zero-filling was 5% of the server's
/// CPU under load. Client frames are small (an `act` is about 100 bytes, a `create_room` about
/// 300); a larger one grows the buffer as it arrives, up to the frame limit. 1 KiB rather than
/// 4 KiB took 3 KiB off every idle connection (docs/performance.md, "Idle memory").
pub const READ_BUFFER_BYTES: usize = 1024;

/// The token bucket that limits one connection's frames.
type Bucket = governor::DefaultDirectRateLimiter;

/// A bucket refilled at `per_second` frames a second, holding at most `burst`.
fn token_bucket(per_second: u32, burst: u32) -> Bucket {
    let nonzero = |n| NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN);
    governor::RateLimiter::direct(
        governor::Quota::per_second(nonzero(per_second)).allow_burst(nonzero(burst)),
    )
}

struct Session {
    state: AppState,
    player: PlayerId,
    name: String,
    outbox: Outbox,
    watching: HashSet<RoomId>,
    /// Rooms this connection created (some may be over).
    created: Vec<RoomId>,
    bucket: Bucket,
    /// The bucket's average rate, frames per second (people's or bots').
    rate: u32,
}

enum Next {
    Continue,
    Close(u16, &'static str),
}

/// Runs one connection to its end; `socket` comes boxed so that this future does not keep a dead
/// copy of it after the split (async functions keep their arguments for their whole life).
pub async fn run<S, E>(socket: Box<S>, state: AppState)
where
    S: Stream<Item = Result<Message, E>> + Sink<Message> + Unpin,
    E: std::fmt::Display,
{
    let (mut sink, mut stream) = (*socket).split();
    let (outbox, inbox) = Outbox::with_capacity(state.limits.outbox_capacity);
    let hello_timeout = Duration::from_millis(state.limits.hello_timeout_ms);
    let _counted = state.metrics.connection();
    let bucket = token_bucket(state.limits.messages_per_second, state.limits.message_burst);
    let session = tokio::select! {
        () = state.shutdown.cancelled() => Err((CLOSE_GOING_AWAY, "server shutting down")),
        hello = tokio::time::timeout(hello_timeout, hello(&mut sink, &mut stream, &state, outbox, bucket)) => match hello {
            Ok(result) => result,
            Err(_) => Err((CLOSE_NO_HELLO, "no hello")),
        },
    };
    let mut session = match session {
        Ok(session) => session,
        Err((code, reason)) => {
            let _ = sink.send(close(code, reason)).await;
            return;
        }
    };
    let span = tracing::info_span!("session", player = %session.player);
    async move {
        session.pump(&mut sink, &mut stream, inbox).await;
        // Boxed: leaving rooms is the largest state of a session, needed once at its end.
        Box::pin(session.closed()).await;
    }
    .instrument(span)
    .await;
}

fn close(code: u16, reason: &'static str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
        reason: Utf8Bytes::from_static(reason),
    }))
}

/// Writes one message to the socket (before the outbox runs: `welcome` and refusals of `hello`).
async fn send<K: Sink<Message> + Unpin>(sink: &mut K, msg: &ServerMsg, metrics: &Metrics) -> bool {
    let frame = Frame::new(msg);
    metrics.message_out(frame.error_code());
    sink.send(Message::Text(frame.text().clone())).await.is_ok()
}

/// Writes `first` and every frame already queued behind it (up to [`WRITE_BATCH`]) with one flush,
/// so that an event and the `your_turn` that follows it cost one write to the socket rather than
/// two. Returns `false` when the socket is gone.
async fn write_queued<K: Sink<Message> + Unpin>(
    sink: &mut K,
    first: Frame,
    inbox: &mut Inbox,
    metrics: &Metrics,
) -> bool {
    let mut next = Some(first);
    let mut batch = 0;
    while let Some(frame) = next.take() {
        metrics.message_out(frame.error_code());
        if sink.feed(Message::Text(frame.text().clone())).await.is_err() {
            return false;
        }
        batch += 1;
        if batch < WRITE_BATCH {
            next = inbox.rx.try_recv().ok();
        }
    }
    sink.flush().await.is_ok()
}

/// The most frames written with one flush (64: enough for a burst of events from one move, small
/// enough that the first of them is not held back long).
const WRITE_BATCH: usize = 64;

/// Reads frames until a valid `hello`; answers anything else with `hello_first`.
async fn hello<K, S, E>(
    sink: &mut K,
    stream: &mut S,
    state: &AppState,
    outbox: Outbox,
    bucket: Bucket,
) -> Result<Session, (u16, &'static str)>
where
    K: Sink<Message> + Unpin,
    S: Stream<Item = Result<Message, E>> + Unpin,
{
    loop {
        let text = match stream.next().await {
            Some(Ok(Message::Text(text))) => {
                state.metrics.message_in();
                if bucket.check().is_err() {
                    return Err((CLOSE_RATE_LIMITED, "too many messages"));
                }
                text
            }
            Some(Ok(Message::Close(_)) | Err(_)) | None => return Err((1000, "closed")),
            Some(Ok(_)) => continue,
        };
        let frame =
            match parse_client_frame_within(&text, state.limits.max_frame_bytes, state.limits.max_json_depth)
            {
                Ok(frame) => frame,
                Err(err) => {
                    send(sink, &err.to_msg(), &state.metrics).await;
                    continue;
                }
            };
        let refuse = |code: &str, message: String| ServerMsg::Error {
            req: frame.req,
            code: code.to_owned(),
            message,
        };
        let ClientMsg::Hello {
            protocol,
            name,
            bot,
            resume,
            key,
        } = frame.msg
        else {
            send(
                sink,
                &refuse(codes::HELLO_FIRST, "say hello first".to_owned()),
                &state.metrics,
            )
            .await;
            continue;
        };
        if protocol != PROTOCOL_VERSION {
            let message = format!("this server speaks protocol {PROTOCOL_VERSION}, not {protocol}");
            send(sink, &refuse(codes::UNSUPPORTED_VERSION, message), &state.metrics).await;
            return Err((CLOSE_VERSION, "unsupported protocol version"));
        }
        if bot.is_some()
            && let Some(required) = &state.limits.bot_key
            && !required.admits(key.as_ref())
        {
            let message = "this server admits bots only with its key (the bot's --key)".to_owned();
            send(sink, &refuse(codes::BAD_KEY, message), &state.metrics).await;
            continue;
        }
        // Control characters (newlines, tabs, terminal escapes) are dropped, then spaces trimmed;
        // what is left must be 1 to 32 characters.
        let name: String = name.chars().filter(|c| !c.is_control()).collect();
        let name = name.trim().to_owned();
        if name.is_empty() || name.chars().count() > 32 {
            send(
                sink,
                &refuse(
                    codes::BAD_NAME,
                    "a name has 1 to 32 printable characters".to_owned(),
                ),
                &state.metrics,
            )
            .await;
            continue;
        }
        let resumed = resume.clone().and_then(|token| {
            let record = state
                .lobby
                .resume(&token, name.clone(), bot.clone(), outbox.clone())?;
            Some((record, token))
        });
        if resume.is_some() && resumed.is_none() {
            send(
                sink,
                &refuse(
                    codes::BAD_RESUME,
                    "unknown resume token; you are a new player".to_owned(),
                ),
                &state.metrics,
            )
            .await;
        }
        let (player, token, seats): (PlayerId, ResumeToken, _) = match resumed {
            Some((record, token)) => (record.id, token, record.seats),
            None => {
                let (id, token) = state.lobby.register(name.clone(), bot.clone(), outbox.clone());
                (id, token, Vec::new())
            }
        };
        info!(player = %player, name = %name, bot = bot.is_some(), resumed = !seats.is_empty(), "hello");
        let welcome = ServerMsg::Welcome {
            protocol: PROTOCOL_VERSION,
            player,
            name: name.clone(),
            resume: token,
            seats: seats.clone(),
        };
        if !send(sink, &welcome, &state.metrics).await {
            return Err((1000, "closed"));
        }
        let session = Session {
            state: state.clone(),
            player,
            name,
            outbox,
            watching: HashSet::new(),
            created: Vec::new(),
            bucket: if bot.is_some() {
                let rate = state.limits.bot_messages_per_second;
                token_bucket(rate, rate)
            } else {
                bucket
            },
            rate: if bot.is_some() {
                state.limits.bot_messages_per_second
            } else {
                state.limits.messages_per_second
            },
        };
        for seat in seats {
            if let Some(room) = state.lobby.room(seat.room) {
                room.attach(session.member()).await;
            }
        }
        return Ok(session);
    }
}

impl Session {
    fn member(&self) -> Member {
        Member {
            id: self.player,
            name: self.name.clone(),
            outbox: self.outbox.clone(),
        }
    }

    async fn pump<K, S, E>(&mut self, sink: &mut K, stream: &mut S, mut inbox: Inbox)
    where
        K: Sink<Message> + Unpin,
        S: Stream<Item = Result<Message, E>> + Unpin,
        E: std::fmt::Display,
    {
        let idle = Duration::from_millis(self.state.limits.idle_timeout_ms);
        let mut last_heard = tokio::time::Instant::now();
        let mut next_check = last_heard + idle / 2;
        loop {
            let next = tokio::select! {
                () = tokio::time::sleep_until(next_check) => {
                    let now = tokio::time::Instant::now();
                    if now.duration_since(last_heard) >= idle {
                        Next::Close(CLOSE_IDLE, "idle: nothing received in time")
                    } else {
                        // A ping the client's WebSocket answers by itself: quiet clients stay.
                        next_check = now + idle / 2;
                        if sink.send(Message::Ping(Default::default())).await.is_err() {
                            return;
                        }
                        Next::Continue
                    }
                }
                () = self.state.shutdown.cancelled() => Next::Close(CLOSE_GOING_AWAY, "server shutting down"),
                () = inbox.kicked.cancelled() => Next::Close(CLOSE_TOO_SLOW, "too slow: reconnect to resume"),
                Some(frame) = inbox.rx.recv() => {
                    // A client that stops reading blocks this write once the socket's buffers
                    // are full; its outbox then overflows and kicks it. Stop waiting on the write
                    // then, or the connection (and the seat it holds) would hang on forever.
                    let kicked = inbox.kicked.clone();
                    tokio::select! {
                        written = write_queued(sink, frame, &mut inbox, &self.state.metrics) => {
                            if written { Next::Continue } else { return }
                        }
                        () = kicked.cancelled() => {
                            info!(code = CLOSE_TOO_SLOW, "closing connection: too slow");
                            // The close frame waits behind what the socket holds: it gets a while
                            // to go out, then the connection is dropped without it.
                            let _ = tokio::time::timeout(SLOW_CLOSE_WAIT, sink.send(close(CLOSE_TOO_SLOW, "too slow: reconnect to resume"))).await;
                            return;
                        }
                    }
                }
                frame = stream.next() => {
                    last_heard = tokio::time::Instant::now();
                    next_check = last_heard + idle / 2;
                    match frame {
                    Some(Ok(Message::Text(_) | Message::Binary(_))) if self.bucket.check().is_err() => {
                        let message = format!(
                            "more than {} messages a second on average: reconnect and slow down",
                            self.rate
                        );
                        send(sink, &ServerMsg::Error { req: None, code: codes::RATE_LIMITED.to_owned(), message }, &self.state.metrics).await;
                        Next::Close(CLOSE_RATE_LIMITED, "too many messages")
                    }
                    Some(Ok(Message::Text(text))) => {
                        self.state.metrics.message_in();
                        // Boxed: handling a request is the largest state of this loop, and kept
                        // inline it would size every idle connection's task for it.
                        Box::pin(self.on_text(&text)).await;
                        Next::Continue
                    }
                    Some(Ok(Message::Binary(_))) => {
                        let message = "binary frames are not part of the protocol; send JSON text".to_owned();
                        self.outbox.send(ServerMsg::Error { req: None, code: codes::BINARY_FRAME.to_owned(), message });
                        Next::Continue
                    }
                    Some(Ok(Message::Close(_))) | None => return,
                    Some(Ok(_)) => Next::Continue,
                    Some(Err(err)) => {
                        debug!(cause = %err, "socket error");
                        return;
                    }
                    }
                }
            };
            if let Next::Close(code, reason) = next {
                info!(code, reason, "closing connection");
                let _ = sink.send(close(code, reason)).await;
                return;
            }
        }
    }

    /// The connection is gone: rooms keep the player's seats for a reconnect.
    async fn closed(self) {
        self.state.lobby.disconnected(self.player, self.outbox.conn());
        let mut rooms: HashSet<RoomId> = self.watching.clone();
        rooms.extend(self.state.lobby.seats_of(self.player).into_iter().map(|s| s.room));
        for id in rooms {
            if let Some(room) = self.state.lobby.room(id) {
                room.detach(self.player, self.outbox.conn()).await;
            }
        }
        info!(player = %self.player, "disconnected");
    }

    async fn on_text(&mut self, text: &str) {
        match parse_client_frame_within(
            text,
            self.state.limits.max_frame_bytes,
            self.state.limits.max_json_depth,
        ) {
            Ok(frame) => {
                let req = frame.req;
                if let Err(err) = self.on_frame(frame).await {
                    debug!(code = err.code(), cause = %err, "request refused");
                    self.outbox.send(err.to_msg(req));
                }
            }
            Err(err) => {
                debug!(code = err.code, "bad frame");
                self.outbox.send(err.to_msg());
            }
        }
    }

    fn room(&self, id: RoomId) -> Result<room::RoomHandle, ServerError> {
        self.state.lobby.room(id).ok_or(ServerError::NoSuchRoom(id))
    }

    async fn on_frame(&mut self, frame: ClientFrame) -> Result<(), ServerError> {
        let req = frame.req;
        let done = ServerMsg::Done { req };
        match frame.msg {
            ClientMsg::Hello { .. } => {
                self.outbox.send(ServerMsg::Error {
                    req,
                    code: codes::ALREADY_HELLO.to_owned(),
                    message: "hello is said once per connection".to_owned(),
                });
            }
            ClientMsg::ListRooms => {
                self.outbox.send(ServerMsg::Rooms {
                    req,
                    rooms: self.state.lobby.rooms(),
                });
            }
            ClientMsg::ListBots => {
                self.outbox.send(ServerMsg::Bots {
                    req,
                    bots: self.state.lobby.bots(),
                });
            }
            ClientMsg::Ping => {
                self.outbox.send(ServerMsg::Pong { req });
            }
            ClientMsg::CreateRoom { mut config, sit } => {
                check_room_config(&mut config, &self.name, &self.state.limits)?;
                let max = self.state.limits.rooms_per_connection;
                if self.created.len() >= max {
                    // Only at the limit is it worth asking which of them are still open:
                    // `lobby.rooms()` copies every room's summary under the lobby's lock, and
                    // asking on every create made creating N rooms cost N^2 copies (10,000 rooms
                    // created at once stalled the server for minutes, docs/performance.md).
                    let open: HashSet<RoomId> = self
                        .state
                        .lobby
                        .rooms()
                        .into_iter()
                        .filter(|r| r.status != RoomStatus::Finished)
                        .map(|r| r.id)
                        .collect();
                    self.created.retain(|id| open.contains(id));
                }
                if self.created.len() >= max {
                    return Err(ServerError::TooManyRooms(max));
                }
                let room = room::spawn(
                    config,
                    self.player,
                    self.state.lobby.clone(),
                    self.state.journal.clone(),
                    self.state.shutdown.clone(),
                )?;
                self.created.push(room.id());
                self.outbox.send(ServerMsg::RoomCreated { req, room: room.id() });
                if sit {
                    room.join(self.member(), None, req).await?;
                } else {
                    room.spectate(self.member()).await?;
                    self.watching.insert(room.id());
                }
            }
            ClientMsg::JoinRoom { room, seat } => {
                self.room(room)?.join(self.member(), seat, req).await?;
            }
            ClientMsg::Spectate { room } => {
                self.room(room)?.spectate(self.member()).await?;
                self.watching.insert(room);
                self.outbox.send(done);
            }
            ClientMsg::LeaveRoom { room } => {
                self.room(room)?.leave(self.player).await?;
                self.watching.remove(&room);
                self.outbox.send(done);
            }
            ClientMsg::AddBot { room, seat, strategy } => {
                self.room(room)?.add_bot(self.player, seat, strategy).await?;
                self.outbox.send(done);
            }
            ClientMsg::Start { room } => {
                self.room(room)?.start(self.player).await?;
                self.outbox.send(done);
            }
            ClientMsg::Chat { room, text } => {
                self.room(room)?.chat(self.player, text).await?;
                self.outbox.send(done);
            }
            ClientMsg::Act { room, seat, action } => {
                let started = std::time::Instant::now();
                self.room(room)?.act(self.player, seat, action).await?;
                self.state.metrics.move_refereed(started.elapsed());
            }
        }
        Ok(())
    }
}

/// Checks and completes a room's config: a name (made up when absent), sane clocks.
fn check_room_config(
    config: &mut skirmish_protocol::RoomConfig,
    owner: &str,
    limits: &crate::Limits,
) -> Result<(), ServerError> {
    let clock = *config.clock.get_or_insert(skirmish_protocol::Clock {
        deploy_ms: limits.default_deploy_ms,
        move_ms: limits.default_move_ms,
        game_ms: 0,
    });
    let policy = *config.on_drop.get_or_insert(skirmish_protocol::DropPolicy {
        grace_ms: limits.grace_ms,
        then: skirmish_protocol::AfterGrace::Bot,
    });
    let name = config.name.get_or_insert_with(|| format!("{owner}'s room"));
    *name = name.trim().to_owned();
    if name.is_empty() || name.chars().count() > 64 {
        return Err(ServerError::BadConfig(
            "a room name has 1 to 64 characters".to_owned(),
        ));
    }
    let max = limits.max_clock_ms;
    if max > 0 && policy.grace_ms > max {
        return Err(ServerError::BadConfig(format!(
            "a grace period is at most {max} ms on this server"
        )));
    }
    if max > 0 && (clock.deploy_ms > max || clock.move_ms > max || clock.game_ms > max) {
        return Err(ServerError::BadConfig(format!(
            "time limits are at most {max} ms on this server"
        )));
    }
    let too_short = |ms: u64| ms != 0 && ms < 100;
    if too_short(clock.move_ms) || too_short(clock.deploy_ms) || too_short(clock.game_ms) {
        return Err(ServerError::BadConfig(
            "a time limit is at least 100 ms (or 0 for none)".to_owned(),
        ));
    }
    Ok(())
}
