//! A room's commands across nodes: [`forward`] turns a handle's commands into requests on the
//! bus to the room's owner; [`serve`] turns them back into commands of the owner's room actor,
//! with each player's connection as a remote outbox.

use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use prometheus_client::metrics::histogram::Histogram;
use skirmish_protocol::{RoomId, Seat};
use tokio::sync::{mpsc, oneshot};

use super::Cluster;
use super::wire::{WireCommand, WireConn, WireError, WireMember, WireReply, WireRequest};
use crate::error::ServerError;
use crate::outbox::Outbox;
use crate::room_handle::{Command, Member, RoomHandle};

/// How long a node waits for another node's room to answer a command (5 s); then the command
/// is refused as [`ServerError::Unavailable`] (the owner is gone or overloaded; a take-over
/// follows within the lease).
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(5);

/// Room commands a handle to another node's room may have queued (as a local room's queue).
const FORWARD_QUEUE: usize = 64;

/// The subject of node `node`'s rooms' commands.
fn rooms_subject(node: &str) -> String {
    format!("skirmish.node.{node}.rooms")
}

/// A handle to room `id` of another node: its commands go over the bus to whichever node owns
/// the room now (the directory says), in order.
pub(super) fn forward(cluster: Cluster, id: RoomId) -> RoomHandle {
    let (tx, mut rx) = mpsc::channel::<Box<Command>>(FORWARD_QUEUE);
    tokio::spawn(async move {
        while let Some(command) = rx.recv().await {
            let owner = {
                let cache = cluster.0.cache.lock().expect("not poisoned");
                cache.rooms.get(&id).map(|r| Arc::clone(&r.node))
            };
            // A match is abandoned by its own node's runner, never over the bus.
            let Some((wire, replier)) = to_wire(&cluster, id, *command) else {
                continue;
            };
            let Some(owner) = owner else {
                replier.answer(Err(ServerError::NoSuchRoom(id)));
                continue;
            };
            let payload: bytes::Bytes = serde_json::to_vec(&WireRequest {
                room: id,
                command: wire,
            })
            .expect("room commands serialize")
            .into();
            let subject = rooms_subject(&owner);
            if let Replier::None = replier {
                if let Err(cause) = cluster.0.client.publish(subject, payload).await {
                    tracing::warn!(room = %id, %cause, "a command for another node's room was not published");
                }
                continue;
            }
            // The sender waits for this answer before its next command; other senders' go on.
            let client = cluster.0.client.clone();
            tokio::spawn(async move {
                let answer =
                    match tokio::time::timeout(REQUEST_TIMEOUT, client.request(subject, payload)).await {
                        Ok(Ok(msg)) => match serde_json::from_slice::<WireReply>(&msg.payload) {
                            Ok(reply) => reply.map_err(ServerError::from),
                            Err(_) => Err(ServerError::Unavailable),
                        },
                        _ => Err(ServerError::Unavailable),
                    };
                replier.answer(answer);
            });
        }
    });
    RoomHandle { id, tx }
}

/// Where a command's answer goes.
enum Replier {
    None,
    Seat(oneshot::Sender<Result<Seat, ServerError>>),
    Unit(oneshot::Sender<Result<(), ServerError>>),
}

impl Replier {
    fn answer(self, answer: Result<Option<Seat>, ServerError>) {
        match self {
            Replier::None => {}
            Replier::Seat(tx) => {
                let _ = tx.send(answer.and_then(|s| s.ok_or(ServerError::Unavailable)));
            }
            Replier::Unit(tx) => {
                let _ = tx.send(answer.map(|_| ()));
            }
        }
    }
}

/// A connection as another node reaches it: this node's connections become reachable.
fn conn_of(cluster: &Cluster, outbox: &Outbox) -> WireConn {
    cluster.reachable(outbox);
    WireConn {
        node: outbox
            .node()
            .map_or_else(|| Arc::clone(&cluster.0.node), Arc::clone),
        conn: outbox.conn(),
        turn_view: outbox.turn_view(),
    }
}

fn member_of(cluster: &Cluster, member: &Member) -> WireMember {
    let lobby = cluster.lobby();
    WireMember {
        id: member.id,
        name: member.name.clone(),
        token: lobby.token_digest(member.id).unwrap_or_default(),
        account: lobby.account_of(member.id),
        conn: conn_of(cluster, &member.outbox),
    }
}

/// The command as the room's node takes it over the bus, and what answers its sender; `None` for
/// a command only a room's own node gives ([`Command::Abandon`]).
fn to_wire(cluster: &Cluster, id: RoomId, command: Command) -> Option<(WireCommand, Replier)> {
    Some(match command {
        Command::Join {
            member,
            seat,
            req,
            reply,
        } => (
            WireCommand::Join {
                member: member_of(cluster, &member),
                seat,
                req,
            },
            Replier::Seat(reply),
        ),
        Command::Spectate { member, reply } => {
            cluster.spectating(id, &member);
            (
                WireCommand::Spectate {
                    member: member_of(cluster, &member),
                },
                Replier::Unit(reply),
            )
        }
        Command::Attach { member } => (
            WireCommand::Attach {
                member: member_of(cluster, &member),
            },
            Replier::None,
        ),
        Command::Detach { player, conn } => {
            cluster.stopped_spectating(id, player, Some(conn));
            (WireCommand::Detach { player, conn }, Replier::None)
        }
        Command::Leave { player, reply } => {
            cluster.stopped_spectating(id, player, None);
            (WireCommand::Leave { player }, Replier::Unit(reply))
        }
        Command::AddBot {
            by,
            seat,
            wish,
            reply,
        } => (
            WireCommand::AddBot {
                by,
                seat,
                strategy: wish.strategy,
                level: wish.level,
            },
            Replier::Unit(reply),
        ),
        Command::Start { by, reply } => (WireCommand::Start { by }, Replier::Unit(reply)),
        Command::Chat { player, text, reply } => (WireCommand::Chat { player, text }, Replier::Unit(reply)),
        Command::Act {
            player,
            seat,
            action,
            req,
            outbox,
            ..
        } => (
            WireCommand::Act {
                player,
                seat,
                action,
                req,
                conn: conn_of(cluster, &outbox),
            },
            Replier::None,
        ),
        Command::Forfeit {
            player,
            conn,
            seat,
            cause,
            detail,
            reply,
        } => (
            WireCommand::Forfeit {
                player,
                conn,
                seat,
                cause,
                detail,
            },
            Replier::Unit(reply),
        ),
        Command::Abandon | Command::QuickFill { .. } => return None,
    })
}

/// Serves this node's rooms to the other nodes: each request becomes a command of the room's
/// actor, in the order received; a reply is sent when the room answers.
pub(super) async fn serve(cluster: &Cluster, refereed: Histogram) -> Result<(), String> {
    let mut requests = cluster
        .0
        .client
        .subscribe(rooms_subject(&cluster.0.node))
        .await
        .map_err(|e| e.to_string())?;
    let cluster = cluster.clone();
    tokio::spawn(async move {
        while let Some(msg) = requests.next().await {
            let reply_to = msg.reply.clone();
            let request = match serde_json::from_slice::<WireRequest>(&msg.payload) {
                Ok(request) => request,
                Err(cause) => {
                    tracing::warn!(%cause, "a room command from another node does not read");
                    continue;
                }
            };
            let asks = request.command.asks();
            let answer = deliver(&cluster, request, &refereed).await;
            if !asks {
                continue;
            }
            let Some(reply_to) = reply_to else { continue };
            let client = cluster.0.client.clone();
            tokio::spawn(async move {
                let reply: WireReply = match answer {
                    Ok(rx) => match rx.await {
                        Ok(Ok(seat)) => Ok(seat),
                        Ok(Err(err)) => Err(WireError::from(&err)),
                        Err(_) => Err(WireError::from(&ServerError::Unavailable)),
                    },
                    Err(err) => Err(WireError::from(&err)),
                };
                let payload = serde_json::to_vec(&reply).expect("replies serialize");
                let _ = client.publish(reply_to, payload.into()).await;
            });
        }
    });
    Ok(())
}

/// The answer a delivered command will give.
type Answer = oneshot::Receiver<Result<Option<Seat>, ServerError>>;

/// Hands `request` to its room here; returns where the room's answer will come.
async fn deliver(
    cluster: &Cluster,
    request: WireRequest,
    refereed: &Histogram,
) -> Result<Answer, ServerError> {
    let lobby = cluster.lobby();
    let room = lobby
        .local_room(request.room)
        .ok_or(ServerError::NoSuchRoom(request.room))?;
    let (tx, rx) = oneshot::channel::<Result<Option<Seat>, ServerError>>();
    // A player who takes (or holds) a seat is known to the lobby here: the room stores their
    // token's digest with the seat and tells their node of seat changes. A spectator needs no
    // record (none is left behind).
    let member = |m: WireMember, seated: bool| {
        let outbox = Outbox::remote(
            m.conn.node,
            m.conn.conn,
            m.conn.turn_view,
            cluster.0.relay.clone(),
        );
        if seated {
            lobby.know_remote(m.id, &m.name, &m.token, m.account.as_deref(), outbox.clone());
        }
        Box::new(Member {
            id: m.id,
            name: m.name,
            outbox,
        })
    };
    // Each command's reply is mapped into the common answer by a small task.
    fn unit(
        tx: oneshot::Sender<Result<Option<Seat>, ServerError>>,
    ) -> oneshot::Sender<Result<(), ServerError>> {
        let (unit_tx, unit_rx) = oneshot::channel();
        tokio::spawn(async move {
            let answer = unit_rx.await.unwrap_or(Err(ServerError::Unavailable));
            let _ = tx.send(answer.map(|()| None));
        });
        unit_tx
    }
    let command = match request.command {
        WireCommand::Join { member: m, seat, req } => {
            let (seat_tx, seat_rx) = oneshot::channel();
            let (player, refused) = (m.id, lobby.clone());
            tokio::spawn(async move {
                let answer = seat_rx.await.unwrap_or(Err(ServerError::Unavailable));
                if answer.is_err() {
                    // Refused: the record made for the join goes, unless it holds something.
                    refused.release(player);
                }
                let _ = tx.send(answer.map(Some));
            });
            Command::Join {
                member: member(m, true),
                seat,
                req,
                reply: seat_tx,
            }
        }
        WireCommand::Spectate { member: m } => Command::Spectate {
            member: member(m, false),
            reply: unit(tx),
        },
        WireCommand::Attach { member: m } => Command::Attach {
            member: member(m, true),
        },
        WireCommand::Detach { player, conn } => Command::Detach { player, conn },
        WireCommand::Leave { player } => Command::Leave {
            player,
            reply: unit(tx),
        },
        WireCommand::AddBot {
            by,
            seat,
            strategy,
            level,
        } => Command::AddBot {
            by,
            seat,
            wish: crate::lobby::BotWish { strategy, level },
            reply: unit(tx),
        },
        WireCommand::Start { by } => Command::Start { by, reply: unit(tx) },
        WireCommand::Chat { player, text } => Command::Chat {
            player,
            text,
            reply: unit(tx),
        },
        WireCommand::Act {
            player,
            seat,
            action,
            req,
            conn,
        } => Command::Act {
            player,
            seat,
            action,
            req,
            outbox: Outbox::remote(conn.node, conn.conn, conn.turn_view, cluster.0.relay.clone()),
            received: std::time::Instant::now(),
            refereed: refereed.clone(),
        },
        WireCommand::Forfeit {
            player,
            conn,
            seat,
            cause,
            detail,
        } => Command::Forfeit {
            player,
            conn,
            seat,
            cause,
            detail,
            reply: unit(tx),
        },
    };
    room.tx
        .send(Box::new(command))
        .await
        .map_err(|_| ServerError::Unavailable)?;
    Ok(rx)
}
