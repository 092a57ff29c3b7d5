//! A room as the rest of the server holds it: a [`RoomHandle`] that sends `Command`s to the
//! room's actor ([`crate::room`]), and the [`Member`] a room knows a player by. Kept apart from the
//! actor so that the lobby, which lists handles, does not depend on the actor, which uses the lobby.

use serde::{Deserialize, Serialize};
use skirmish_protocol::{Action, BotInfo, BotLevel, ForfeitCause, Offer, PlayerId, RoomId, Seat};
use std::time::Instant;

use prometheus_client::metrics::histogram::Histogram;
use tokio::sync::{mpsc, oneshot};

use crate::error::ServerError;
use crate::lobby::BotWish;
use crate::outbox::Outbox;

/// What a seated player does in a room's match: one of the game's actions (`act`), or an offer
/// made or answered (`offer`, `answer`), which the room turns into the game's action for it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Play {
    /// A game's action, with what the bot thought when it chose it (`act`'s `info`, kept sealed
    /// with the match's record).
    Act(Action, Option<Box<BotInfo>>),
    /// An offer made (`answer` `None`) or answered (`Some(accept)`).
    Offer {
        /// What is offered.
        offer: Offer,
        /// The answer, for an answer.
        answer: Option<bool>,
    },
}

/// A player as a room sees it: who, and where to send their messages.
#[derive(Debug, Clone)]
pub struct Member {
    /// The player.
    pub id: PlayerId,
    /// Display name.
    pub name: String,
    /// Their connection.
    pub outbox: Outbox,
}

/// What a room's actor can be asked. Commands travel boxed ([`RoomHandle`]): the command queue
/// allocates its slots 32 at a time, each the size of what it carries, for every room, idle or
/// not, and 32 commands of 104 bytes were the largest part of an idle room (3.4 KiB, heaptrack;
/// docs/performance.md, "What the design choices are worth").
#[derive(Debug)]
pub(crate) enum Command {
    Join {
        member: Box<Member>,
        seat: Option<Seat>,
        req: Option<u64>,
        reply: oneshot::Sender<Result<Seat, ServerError>>,
    },
    Spectate {
        member: Box<Member>,
        reply: oneshot::Sender<Result<(), ServerError>>,
    },
    Attach {
        member: Box<Member>,
    },
    Detach {
        player: PlayerId,
        conn: u64,
    },
    Leave {
        player: PlayerId,
        reply: oneshot::Sender<Result<(), ServerError>>,
    },
    AddBot {
        by: PlayerId,
        seat: Option<Seat>,
        wish: BotWish,
        reply: oneshot::Sender<Result<(), ServerError>>,
    },
    /// A quick-match room's wait is over (never sent between nodes: quick match seats people in
    /// its own node's rooms).
    QuickFill {
        level: BotLevel,
    },
    Start {
        by: PlayerId,
        reply: oneshot::Sender<Result<(), ServerError>>,
    },
    Chat {
        player: PlayerId,
        text: String,
        reply: oneshot::Sender<Result<(), ServerError>>,
    },
    /// Answered only when refused: the error goes to `outbox` with `req`, behind the events
    /// already said there (no reply round trip on the move's path).
    Act {
        player: PlayerId,
        seat: Option<Seat>,
        action: Play,
        req: Option<u64>,
        outbox: Outbox,
        received: Instant,
        refereed: Histogram,
    },
    Forfeit {
        player: PlayerId,
        conn: u64,
        seat: Option<Seat>,
        cause: ForfeitCause,
        detail: Option<String>,
        reply: oneshot::Sender<Result<(), ServerError>>,
    },
    /// A tournament match's tournament stopped: the room closes.
    Abandon,
}

/// A handle to a room's actor. Methods return [`ServerError::Unavailable`] when the actor is gone;
/// they never hang.
#[derive(Debug, Clone)]
pub struct RoomHandle {
    pub(crate) id: RoomId,
    pub(crate) tx: mpsc::Sender<Box<Command>>,
}

impl RoomHandle {
    /// The room's id.
    pub fn id(&self) -> RoomId {
        self.id
    }

    /// Whether the room's actor has ended (its commands would fail with
    /// [`ServerError::Unavailable`]).
    pub fn is_gone(&self) -> bool {
        self.tx.is_closed()
    }

    async fn ask<T>(
        &self,
        make: impl FnOnce(oneshot::Sender<Result<T, ServerError>>) -> Command,
    ) -> Result<T, ServerError> {
        let (reply, answer) = oneshot::channel();
        self.tx
            .send(Box::new(make(reply)))
            .await
            .map_err(|_| ServerError::Unavailable)?;
        answer.await.map_err(|_| ServerError::Unavailable)?
    }

    /// Seats `member` (in `seat`, or the first free one); the room sends them `seated` (answering
    /// `req`) and a snapshot.
    ///
    /// # Errors
    /// [`ServerError::RoomStarted`], [`ServerError::RoomFull`], [`ServerError::SeatTaken`],
    /// [`ServerError::AlreadySeated`].
    pub async fn join(
        &self,
        member: Member,
        seat: Option<Seat>,
        req: Option<u64>,
    ) -> Result<Seat, ServerError> {
        self.ask(|reply| Command::Join {
            member: Box::new(member),
            seat,
            req,
            reply,
        })
        .await
    }

    /// Adds `member` as a spectator and sends them a snapshot.
    ///
    /// # Errors
    /// [`ServerError::Unavailable`] when the room is gone.
    pub async fn spectate(&self, member: Member) -> Result<(), ServerError> {
        self.ask(|reply| Command::Spectate {
            member: Box::new(member),
            reply,
        })
        .await
    }

    /// Gives a reconnected seated player their connection back, with a fresh snapshot.
    pub async fn attach(&self, member: Member) {
        let _ = self
            .tx
            .send(Box::new(Command::Attach {
                member: Box::new(member),
            }))
            .await;
    }

    /// Abandons a tournament match: the room tells everyone in it (`room_closed`,
    /// `match_abandoned`), records that it is over and leaves the lobby.
    pub(crate) async fn abandon(&self) {
        let _ = self.tx.send(Box::new(Command::Abandon)).await;
    }

    /// Resolves once the room's actor has ended.
    pub(crate) async fn gone(&self) {
        self.tx.closed().await;
    }

    /// Tells the room that connection `conn` of `player` closed.
    pub async fn detach(&self, player: PlayerId, conn: u64) {
        let _ = self.tx.send(Box::new(Command::Detach { player, conn })).await;
    }

    /// Leaves the room (see `leave_room` in the protocol).
    ///
    /// # Errors
    /// [`ServerError::NotSeated`] when the player neither sits nor watches here.
    pub async fn leave(&self, player: PlayerId) -> Result<(), ServerError> {
        self.ask(|reply| Command::Leave { player, reply }).await
    }

    /// Seats a bot playing what `wish` asks (owner only, while waiting).
    ///
    /// # Errors
    /// [`ServerError::NotOwner`], [`ServerError::RoomStarted`], [`ServerError::RoomFull`],
    /// [`ServerError::SeatTaken`], [`ServerError::NoBot`].
    pub async fn add_bot(&self, by: PlayerId, seat: Option<Seat>, wish: BotWish) -> Result<(), ServerError> {
        self.ask(|reply| Command::AddBot {
            by,
            seat,
            wish,
            reply,
        })
        .await
    }

    /// Tells a quick-match room its wait is over: if a person sits there and the match has not
    /// started, bots of `level` fill its empty seats and the match starts. Not answered.
    pub async fn quick_fill(&self, level: BotLevel) {
        let _ = self.tx.send(Box::new(Command::QuickFill { level })).await;
    }

    /// Fills every empty seat with a bot and starts the match (owner only).
    ///
    /// # Errors
    /// [`ServerError::NotOwner`], [`ServerError::RoomStarted`], [`ServerError::NoBot`].
    pub async fn start(&self, by: PlayerId) -> Result<(), ServerError> {
        self.ask(|reply| Command::Start { by, reply }).await
    }

    /// Says `text` in the room's one chat as `player`, who sits or watches here: every person in
    /// the room reads it (seats held by bots are sent none), and the room keeps it for snapshots.
    ///
    /// # Errors
    /// [`ServerError::NotSeated`] when the player neither sits nor watches here,
    /// [`ServerError::BadChat`], [`ServerError::ChatTooFast`].
    pub async fn chat(&self, player: PlayerId, text: String) -> Result<(), ServerError> {
        self.ask(|reply| Command::Chat { player, text, reply }).await
    }

    /// Hands `player`'s action in `seat` (or, when absent, in the player's seat whose turn it is)
    /// to the room, sent on the connection whose outbox is `outbox` (only the connection that
    /// holds the seat now may act in it, not an older one a resume replaced), `received` when its
    /// frame was read. Does not wait for the room: the events go to every viewer, the acting
    /// connection included, and a refusal comes back on `outbox` as an `error` answering `req`
    /// ([`ServerError::NotSeated`], [`ServerError::NotStarted`], [`ServerError::WrongGame`],
    /// [`ServerError::StorageUnavailable`] or the rules' refusal, [`ServerError::Rule`]; the game
    /// is then unchanged). The seconds from `received` to the events queued are observed in
    /// `refereed` ([`crate::metrics::Metrics::move_histogram`]).
    ///
    /// # Errors
    /// [`ServerError::Unavailable`] when the room is gone.
    pub async fn act(
        &self,
        player: PlayerId,
        (seat, action): (Option<Seat>, Play),
        (req, outbox): (Option<u64>, &Outbox),
        received: Instant,
        refereed: &Histogram,
    ) -> Result<(), ServerError> {
        self.tx
            .send(Box::new(Command::Act {
                player,
                seat,
                action,
                req,
                outbox: outbox.clone(),
                received,
                refereed: refereed.clone(),
            }))
            .await
            .map_err(|_| ServerError::Unavailable)
    }

    /// `player`'s seat `seat` (or its only seat here) gives up the match for `cause`, sent on
    /// the connection `conn`: the seat loses as by resigning, and a tournament books a forfeit by
    /// that cause.
    ///
    /// # Errors
    /// [`ServerError::NotSeated`] (not this connection's seat), [`ServerError::NotStarted`].
    pub async fn forfeit(
        &self,
        player: PlayerId,
        conn: u64,
        seat: Option<Seat>,
        cause: ForfeitCause,
        detail: Option<String>,
    ) -> Result<(), ServerError> {
        self.ask(|reply| Command::Forfeit {
            player,
            conn,
            seat,
            cause,
            detail,
            reply,
        })
        .await
    }
}
