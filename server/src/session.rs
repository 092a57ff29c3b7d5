//! One WebSocket connection: reads and checks frames, says hello, and forwards commands to the
//! lobby and rooms. It never touches game state.
//!
//! One `select!` loop races the client's frames, the connection's outbox (what rooms send it), a
//! slow-client kick and server shutdown. The logic is generic over any `Sink`/`Stream` of WebSocket
//! messages so it can be driven without a socket.

use std::collections::HashSet;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use axum::extract::ws::Message;
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use skirmish_protocol::{
    ClientFrame, ClientMsg, PlayerId, RoomConfig, RoomId, ServerMsg, parse_client_frame_within,
};
use tokio_util::sync::CancellationToken;
use tracing::{Instrument, debug, info};

use crate::AppState;
use crate::error::ServerError;
use crate::outbox::{Frame, Inbox, Outbox};
use crate::room::{self, Member};
use crate::room_handle::Play;

mod close;
mod hello;
mod identity;
mod quick_match;
mod room_config;
mod write;

pub use close::*;
use hello::hello;
use room_config::check_room_config;
pub use write::SLOW_CLOSE_WAIT;
use write::{send, write_within};

/// The read buffer each WebSocket gets, in bytes (1 KiB). tungstenite's default, 128 KiB, is
/// allocated for every connection and zero-filled up to its size before each read: with it an idle
/// connection held about 150 KiB of resident memory, and the zero-filling was 5% of the server's
/// CPU under load. Client frames are small (an `act` is about 100 bytes, a `create_room` about
/// 300); a larger one grows the buffer as it arrives, up to the frame limit. 1 KiB rather than
/// 4 KiB took 3 KiB off every idle connection (docs/performance.md, "What the design choices are worth").
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
    /// The last room of this node a frame went to: a move finds its room here, not under the
    /// lobby's lock, which every connection shares (the lookup was 1.3% of the server's CPU at
    /// 1,000 busy rooms; docs/performance.md). A handle whose room's actor has ended is not used.
    last_room: std::sync::Mutex<Option<room::RoomHandle>>,
    /// The client's IP address, which the open-room limit per address counts.
    address: Option<IpAddr>,
    bucket: Bucket,
    /// The bucket's average rate, frames per second (people's or bots').
    rate: u32,
}

/// What the session's loop does after one of its turns.
enum Next {
    /// Goes on.
    Continue,
    /// Sends a close frame with this code and reason, and ends.
    Close(u16, &'static str),
    /// Ends without a close frame: the client is gone, or the close frame was sent already.
    End,
}

/// Who is at the other end of a connection.
#[derive(Debug, Default)]
pub struct Peer {
    /// The client's IP address (what per-address limits count).
    pub address: Option<IpAddr>,
    /// Counts the connection among its address's connections without `hello`
    /// ([`crate::Limits::upgrades_per_address`]) until it is dropped, once the hello is said.
    pub unwelcomed: Option<crate::AddressGuard>,
}

/// Runs one connection from `peer` to its end; `socket` comes boxed so that it lives on the heap,
/// not in this future's state (which every idle connection's task would carry).
pub async fn run<S, E>(mut socket: Box<S>, state: AppState, peer: Peer)
where
    S: Stream<Item = Result<Message, E>> + Sink<Message> + Unpin,
    E: std::error::Error + 'static,
{
    // Not split: the session reads and writes from one task, and a split's lock was taken at
    // every read and write (some 1% of the server's CPU at 1,000 busy rooms, docs/performance.md).
    let (outbox, inbox) = Outbox::with_capacity_under(state.limits.outbox_capacity, &state.shutdown);
    let hello_timeout = Duration::from_millis(state.limits.hello_timeout_ms);
    let _counted = state.metrics.connection();
    let bucket = token_bucket(state.limits.messages_per_second, state.limits.message_burst);
    let Peer { address, unwelcomed } = peer;
    // Boxed: the handshake awaits the store (a bot account's token, a name that is an
    // account's, a resume), whose futures are large, and kept inline they sized every
    // connection's task for its whole life: 7 KiB more per idle connection since the store went
    // through sqlx (docs/performance.md, "What the design choices are worth").
    let handshake = Box::pin(hello(&mut *socket, &state, outbox, bucket, address));
    let session = tokio::select! {
        () = state.shutdown.cancelled() => Err((CLOSE_GOING_AWAY, "server shutting down")),
        hello = tokio::time::timeout(hello_timeout, handshake) => match hello {
            Ok(result) => result,
            Err(_) => Err((CLOSE_NO_HELLO, "no hello")),
        },
    };
    drop(unwelcomed);
    let mut session = match session {
        Ok(session) => session,
        Err((code, reason)) => {
            let _ = tokio::time::timeout(SLOW_CLOSE_WAIT, socket.send(close(code, reason))).await;
            return;
        }
    };
    let span = tracing::info_span!("session", player = %session.player);
    // The session stays in this future once: an `async move` block around the two calls below
    // would hold it a second time.
    session.pump(&mut *socket, inbox).instrument(span.clone()).await;
    // Boxed: leaving rooms is the largest state of a session, needed once at its end.
    Box::pin(session.closed()).instrument(span).await;
}

/// How often a session's loop reads the shutdown token even when it never waits: every 64
/// turns (reading the token takes a lock, which the loop keeps off most frames; the server
/// waits for every session to end before it exits, so a session must see it).
const SHUTDOWN_CHECK_EVERY: u32 = 64;

impl Session {
    fn member(&self) -> Member {
        Member {
            id: self.player,
            name: self.name.clone(),
            outbox: self.outbox.clone(),
        }
    }

    /// Runs the session's loop until the connection ends: the client leaves or breaks the
    /// protocol, goes idle, is too fast or too slow, is replaced, or the server shuts down.
    async fn pump<T, E>(&mut self, socket: &mut T, mut inbox: Inbox)
    where
        T: Sink<Message> + Stream<Item = Result<Message, E>> + Unpin,
        E: std::error::Error + 'static,
    {
        let idle = Duration::from_millis(self.state.limits.idle_timeout_ms);
        let mut last_heard = tokio::time::Instant::now();
        // The idle check's timer and the wait for a reason to close are made once, not at every
        // frame in or out: a timer entry and three cancellation waiters set up and torn down per
        // frame were some 4% of the server's CPU at 100 busy rooms (docs/performance.md).
        let check = tokio::time::sleep_until(last_heard + idle / 2);
        tokio::pin!(check);
        // One token per connection, a child of the server's shutdown ([`Inbox::closing`]): what
        // the loop polls is this connection's alone.
        let closing = inbox.closing();
        let ending = closing.cancelled();
        tokio::pin!(ending);
        // The loop's order: a kick or a takeover first (one atomic load at every turn, so that a
        // busy connection cannot miss it; a shutdown every SHUTDOWN_CHECK_EVERY turns), then the
        // outbox, the client's frames, the idle check, and last the token, which takes a lock to
        // poll. Biased: the timer and the token are polled only when the connection has nothing
        // to write or read (whether that saves CPU per move is below what the peers' duel
        // resolves on the 2-core machine: docs/performance.md, "What the design choices are worth"). Nothing
        // waits for long: the outbox is ready at every turn only while frames come faster than
        // one write of up to WRITE_BATCH of them takes (and when the socket cannot keep up, the
        // outbox overflows and kicks); the client's frames only while it sends, at its bucket's
        // rate, and a client that sends is not idle; a server shutting down is seen as soon as
        // the connection waits, in a write (the inner select) or between frames, and at the
        // latest SHUTDOWN_CHECK_EVERY turns on.
        let mut turn: u32 = 0;
        loop {
            turn = turn.wrapping_add(1);
            // The token (a server shutting down) every SHUTDOWN_CHECK_EVERY turns as well, so a
            // connection whose limits let it keep its socket full still sees it.
            let told =
                inbox.reason_given() || (turn.is_multiple_of(SHUTDOWN_CHECK_EVERY) && closing.is_cancelled());
            let next = tokio::select! {
                biased;
                () = std::future::ready(()), if told => close_as_told(&inbox),
                Some(frame) = inbox.rx.recv() => self.write_out(socket, frame, &mut inbox, &closing).await,
                frame = socket.next() => {
                    last_heard = tokio::time::Instant::now();
                    self.on_socket(socket, frame).await
                }
                () = &mut check => keep_alive(socket, check.as_mut(), last_heard, idle).await,
                () = &mut ending => close_as_told(&inbox),
            };
            match next {
                Next::Continue => {}
                Next::End => return,
                Next::Close(code, reason) => {
                    info!(code, reason, "closing connection");
                    let _ = tokio::time::timeout(SLOW_CLOSE_WAIT, socket.send(close(code, reason))).await;
                    return;
                }
            }
        }
    }

    /// Writes `frame` and the frames queued behind it, racing the connection's reason to close.
    async fn write_out<T: Sink<Message> + Unpin>(
        &self,
        socket: &mut T,
        frame: Frame,
        inbox: &mut Inbox,
        closing: &CancellationToken,
    ) -> Next {
        // A client that stops reading blocks this write once the socket's buffers are full. Its
        // outbox then overflows and kicks it, if more frames come; if none do, the write gives
        // up after SLOW_CLOSE_WAIT. Either way the connection (and the seat it holds) does not
        // hang on forever. Biased, the write first: a write that completes at once (the usual
        // case) does not set up a wait on the token at all.
        tokio::select! {
            biased;
            written = write_within(socket, frame, inbox, &self.state.metrics) => match written {
                Some(true) => Next::Continue,
                Some(false) => Next::End,
                None => {
                    info!("a write waited too long on the socket: the client stopped reading");
                    Next::End
                }
            },
            () = closing.cancelled() => {
                let (code, reason) = close_code(inbox.close_reason());
                info!(code, reason, "closing connection during a write");
                // The close frame waits behind what the socket holds: it gets a while to go out,
                // then the connection is dropped without it.
                let _ = tokio::time::timeout(SLOW_CLOSE_WAIT, socket.send(close(code, reason))).await;
                Next::End
            }
        }
    }

    /// Handles what the socket gave: a frame counted against the connection's bucket, the end
    /// of the connection, or a breach of the WebSocket protocol.
    async fn on_socket<T, E>(&mut self, socket: &mut T, frame: Option<Result<Message, E>>) -> Next
    where
        T: Sink<Message> + Unpin,
        E: std::error::Error + 'static,
    {
        match frame {
            Some(Ok(Message::Text(_) | Message::Binary(_))) if self.bucket.check().is_err() => {
                let refusal = ServerError::RateLimited(self.rate).to_msg(None);
                let _ =
                    tokio::time::timeout(SLOW_CLOSE_WAIT, send(socket, &refusal, &self.state.metrics)).await;
                Next::Close(CLOSE_RATE_LIMITED, "too many messages")
            }
            Some(Ok(Message::Text(text))) => {
                self.state.metrics.message_in();
                // Boxed: handling a request is the largest state of this loop, and kept inline it
                // would size every idle connection's task for it.
                Box::pin(self.on_text(&text)).await;
                Next::Continue
            }
            Some(Ok(Message::Binary(_))) => {
                self.outbox.send(ServerError::BinaryFrame.to_msg(None));
                Next::Continue
            }
            Some(Ok(Message::Close(_))) | None => Next::End,
            Some(Ok(_)) => Next::Continue,
            Some(Err(err)) => {
                debug!(cause = %err, "socket error");
                // A breach of the WebSocket protocol gets its close code; a failed connection has
                // no one left to tell.
                match close_for(&err) {
                    Some((code, reason)) => Next::Close(code, reason),
                    None => Next::End,
                }
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

    /// Reads one text frame and handles it; a frame that cannot be read or a request refused
    /// is answered with its `error`.
    async fn on_text(&mut self, text: &str) {
        let received = std::time::Instant::now();
        let limits = &self.state.limits;
        let (req, handled) =
            match parse_client_frame_within(text, limits.max_frame_bytes, limits.max_json_depth) {
                Ok(frame) => (frame.req, self.on_frame(frame, received).await),
                Err(err) => (err.req, Err(ServerError::from(err))),
            };
        if let Err(err) = handled {
            debug!(code = %err.code(), cause = %err, "request refused");
            self.outbox.send(err.to_msg(req));
        }
    }

    /// The room `id`, on this node or another of the cluster (whose directory entry is read
    /// when this node has not seen it yet).
    async fn room(&self, id: RoomId) -> Result<room::RoomHandle, ServerError> {
        let cached = self
            .last_room
            .lock()
            .expect("not poisoned")
            .as_ref()
            .filter(|room| room.id() == id && !room.is_gone())
            .cloned();
        if let Some(room) = cached {
            return Ok(room);
        }
        if let Some(room) = self.state.lobby.local_room(id) {
            *self.last_room.lock().expect("not poisoned") = Some(room.clone());
            return Ok(room);
        }
        if let Some(room) = self.state.lobby.room(id) {
            return Ok(room);
        }
        if let Some(cluster) = &self.state.cluster
            && cluster.fetch_room(id).await
            && let Some(room) = self.state.lobby.room(id)
        {
            return Ok(room);
        }
        Err(ServerError::NoSuchRoom(id))
    }

    /// Handles one client frame, read at `received`.
    ///
    /// # Errors
    /// The refusal that answers it; nothing changed.
    async fn on_frame(
        &mut self,
        frame: ClientFrame,
        received: std::time::Instant,
    ) -> Result<(), ServerError> {
        let req = frame.req;
        match frame.msg {
            ClientMsg::Hello { .. } => return Err(ServerError::AlreadyHello),
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
            ClientMsg::CreateRoom { config, sit } => self.create_room(config, sit, req).await?,
            ClientMsg::Act {
                room,
                seat,
                action,
                info,
            } => {
                // Handed over without waiting: the room answers on the outbox, and only a refusal.
                self.room(room)
                    .await?
                    .act(
                        self.player,
                        (seat, Play::Act(action, info)),
                        (req, &self.outbox),
                        received,
                        self.state.metrics.move_histogram(),
                    )
                    .await?;
            }
            ClientMsg::Offer { room, seat, offer } => {
                self.room(room)
                    .await?
                    .act(
                        self.player,
                        (seat, Play::Offer { offer, answer: None }),
                        (req, &self.outbox),
                        received,
                        self.state.metrics.move_histogram(),
                    )
                    .await?;
            }
            ClientMsg::Answer {
                room,
                seat,
                offer,
                accept,
            } => {
                self.room(room)
                    .await?
                    .act(
                        self.player,
                        (
                            seat,
                            Play::Offer {
                                offer,
                                answer: Some(accept),
                            },
                        ),
                        (req, &self.outbox),
                        received,
                        self.state.metrics.move_histogram(),
                    )
                    .await?;
            }
            ClientMsg::Forfeit {
                room,
                seat,
                cause,
                detail,
            } => {
                self.room(room)
                    .await?
                    .forfeit(self.player, self.outbox.conn(), seat, cause, detail)
                    .await?;
            }
            ClientMsg::JoinRoom { room, seat } => {
                self.room(room).await?.join(self.member(), seat, req).await?;
            }
            ClientMsg::QuickMatch { game, name } => self.quick_match(game, name, req).await?,
            other => {
                self.in_room(other).await?;
                self.outbox.send(ServerMsg::Done { req });
            }
        }
        Ok(())
    }

    /// Creates a room for `create_room` (request `req`), within the open-room limits of the
    /// player and of its address, and seats its creator (`sit`) or has it watch.
    ///
    /// # Errors
    /// [`ServerError::BadConfig`], [`ServerError::TooManyRooms`],
    /// [`ServerError::TooManyRoomsFromAddress`], or as the room's join or spectate.
    async fn create_room(
        &mut self,
        config: RoomConfig,
        sit: bool,
        req: Option<u64>,
    ) -> Result<(), ServerError> {
        let room = self.open_room(config)?;
        if let Some(cluster) = &self.state.cluster {
            cluster.list_now(room.id()).await;
        }
        self.outbox.send(ServerMsg::RoomCreated { req, room: room.id() });
        if sit {
            room.join(self.member(), None, req).await?;
        } else {
            room.spectate(self.member()).await?;
            self.watching.insert(room.id());
        }
        Ok(())
    }

    /// Opens a room of `config` owned by this player, within the open-room limits of the player
    /// and of its address.
    ///
    /// # Errors
    /// [`ServerError::BadConfig`], [`ServerError::TooManyRooms`],
    /// [`ServerError::TooManyRoomsFromAddress`], [`ServerError::StorageUnavailable`].
    fn open_room(&self, mut config: RoomConfig) -> Result<room::RoomHandle, ServerError> {
        check_room_config(&mut config, &self.name, &self.state.limits)?;
        // The limits follow the player (a reconnect with the resume token keeps the count) and
        // the address (a reconnect as a new player does too). Counting scans the rooms under the
        // lobby's lock without copying them (copying every summary on every create once made
        // creating N rooms cost N^2, docs/performance.md).
        let open = self.state.lobby.open_rooms(self.player, self.address);
        let limits = &self.state.limits;
        if open.player >= limits.rooms_per_player {
            return Err(ServerError::TooManyRooms(limits.rooms_per_player));
        }
        if self.address.is_some() && open.address >= limits.rooms_per_address {
            return Err(ServerError::TooManyRoomsFromAddress(limits.rooms_per_address));
        }
        let room = room::spawn(
            config,
            self.player,
            self.state.lobby.clone(),
            self.state.journal.clone(),
            self.state.shutdown.clone(),
            self.state.limits.room_expiry(),
        )?;
        if let Some(address) = self.address {
            self.state.lobby.created_from(room.id(), address);
        }
        Ok(room)
    }

    /// Handles a request about a room that is answered by `done`: `spectate`, `leave_room`,
    /// `add_bot`, `start` and `chat`.
    ///
    /// # Errors
    /// The room's refusal ([`ServerError::NoSuchRoom`] when there is none), or
    /// [`ServerError::DealInPlay`] for a tournament match that cannot be watched yet.
    async fn in_room(&mut self, msg: ClientMsg) -> Result<(), ServerError> {
        match msg {
            ClientMsg::Spectate { room } => {
                // Another table of the deal is still playing: watching this one would tell.
                if self.state.tournaments.sealed(skirmish_protocol::MatchId(room.0)) {
                    return Err(ServerError::DealInPlay);
                }
                self.room(room).await?.spectate(self.member()).await?;
                self.watching.insert(room);
            }
            ClientMsg::LeaveRoom { room } => {
                self.room(room).await?.leave(self.player).await?;
                self.watching.remove(&room);
            }
            ClientMsg::AddBot {
                room,
                seat,
                strategy,
                level,
            } => {
                let wish = crate::lobby::BotWish { strategy, level };
                self.room(room).await?.add_bot(self.player, seat, wish).await?;
            }
            ClientMsg::Start { room } => self.room(room).await?.start(self.player).await?,
            ClientMsg::Chat { room, text } => self.room(room).await?.chat(self.player, text).await?,
            ClientMsg::Hello { .. }
            | ClientMsg::ListRooms
            | ClientMsg::CreateRoom { .. }
            | ClientMsg::JoinRoom { .. }
            | ClientMsg::QuickMatch { .. }
            | ClientMsg::Act { .. }
            | ClientMsg::Offer { .. }
            | ClientMsg::Answer { .. }
            | ClientMsg::Forfeit { .. }
            | ClientMsg::ListBots
            | ClientMsg::Ping => unreachable!("on_frame handles {msg:?} itself"),
        }
        Ok(())
    }
}

/// The close code and reason of a connection told to close (a kick, a takeover, a shutdown).
fn close_as_told(inbox: &Inbox) -> Next {
    let (code, reason) = close_code(inbox.close_reason());
    Next::Close(code, reason)
}

/// The idle check, when its timer `check` fires: closes a connection that sent nothing for
/// `idle`, pings one quiet for half of it (a ping the client's WebSocket answers by itself, so
/// quiet clients stay), and sets the timer again.
async fn keep_alive<T: Sink<Message> + Unpin>(
    socket: &mut T,
    check: std::pin::Pin<&mut tokio::time::Sleep>,
    last_heard: tokio::time::Instant,
    idle: Duration,
) -> Next {
    let now = tokio::time::Instant::now();
    let quiet = now.duration_since(last_heard);
    if quiet >= idle {
        return Next::Close(CLOSE_IDLE, "idle: nothing received in time");
    }
    if quiet < idle / 2 {
        // Heard from since the timer was set: check again half the idle time after the last
        // frame.
        check.reset(last_heard + idle / 2);
        return Next::Continue;
    }
    check.reset(now + idle / 2);
    let ping = socket.send(Message::Ping(Default::default()));
    if matches!(tokio::time::timeout(SLOW_CLOSE_WAIT, ping).await, Ok(Ok(()))) {
        Next::Continue
    } else {
        Next::End
    }
}

#[cfg(test)]
mod tests;
