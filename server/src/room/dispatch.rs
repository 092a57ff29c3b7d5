//! What a room sends its viewers: each event to the viewers its audience includes (decided by the
//! rules engine), `your_turn`, snapshots, commitments and their reveals, the summary the lobby lists,
//! and the chat's lines.

use std::collections::HashSet;
use std::time::Duration;

use skirmish_games::{Audience, Seat, Viewer};
use skirmish_protocol::{
    NumberedEvent, Occupant, PlayerId, Reveal, RoomSnapshot, RoomStatus, RoomSummary, SNAPSHOT_HISTORY,
    SeatInfo, ServerMsg,
};
use tokio::time::Instant;

use super::Room;
use crate::chat::clean_line;
use crate::error::ServerError;
use crate::outbox::Outbox;
use crate::table::Applied;

/// How many events a room keeps for snapshots, whatever their audience: twice what a snapshot
/// carries ([`SNAPSHOT_HISTORY`]), so the events meant for one seat (its deployment: one a
/// round) do not shorten what a snapshot can carry.
const HISTORY: usize = 2 * SNAPSHOT_HISTORY;

impl Room {
    pub(super) fn summary(&self) -> RoomSummary {
        RoomSummary {
            id: self.id,
            owner: self.kind.owner(),
            config: self.config.clone(),
            status: self.status,
            seats: self
                .seats
                .iter()
                .map(|(seat, state)| SeatInfo {
                    seat,
                    occupant: state.holder.as_ref().map(|h| Occupant {
                        player: h.member.id,
                        name: h.member.name.clone(),
                        bot: h.bot.clone(),
                        connected: h.connected,
                        took_over_from: h.took_over_from.clone(),
                        level: h.level,
                    }),
                })
                .collect(),
            spectators: u32::try_from(self.spectators.len()).unwrap_or(u32::MAX),
        }
    }

    pub(super) fn publish_summary(&self) {
        self.lobby.update_room(self.summary());
    }

    pub(super) fn snapshot(&self, viewer: Viewer) -> ServerMsg {
        ServerMsg::Room(Box::new(RoomSnapshot {
            room: self.summary(),
            you: match viewer {
                Viewer::Seat(seat) => Some(seat),
                Viewer::Spectator => None,
            },
            seq: self.seq,
            view: self.table.view(viewer),
            commitments: self.commitments.clone(),
            reveals: self.reveals.clone(),
            history: self.history_for(viewer),
            deadlines_ms: self.deadlines_ms(),
            chat: if self.reads_chat(viewer) {
                self.chat.lines()
            } else {
                Vec::new()
            },
        }))
    }

    /// Whether `viewer` is sent the chat: a spectator or a seat a person holds, not a seat held
    /// by a bot (a bot does not read chat, and one connection may play in many rooms).
    fn reads_chat(&self, viewer: Viewer) -> bool {
        match viewer {
            Viewer::Spectator => true,
            Viewer::Seat(seat) => self
                .seats
                .get(seat)
                .and_then(|s| s.holder.as_ref())
                .is_none_or(|h| h.bot.is_none()),
        }
    }

    /// The newest events `viewer` may see (the engine's audience of each decides), oldest first,
    /// at most [`SNAPSHOT_HISTORY`].
    pub(super) fn history_for(&self, viewer: Viewer) -> Vec<NumberedEvent> {
        let mut seen: Vec<NumberedEvent> = self
            .history
            .iter()
            .rev()
            .filter(|(audience, _)| audience.includes(viewer))
            .take(SNAPSHOT_HISTORY)
            .map(|(_, event)| event.clone())
            .collect();
        seen.reverse();
        seen
    }

    pub(super) fn send_snapshot(&self, outbox: &Outbox, viewer: Viewer) {
        self.out.say(outbox, &self.snapshot(viewer));
    }

    /// Sends every viewer a fresh snapshot (after a change of seats or status).
    pub(super) fn broadcast_snapshots(&self) {
        for (seat, state) in self.seats.iter() {
            if let Some(h) = state.holder.as_ref().filter(|h| h.connected) {
                self.send_snapshot(&h.member.outbox, Viewer::Seat(seat));
            }
        }
        if !self.spectators.is_empty() {
            let snapshot = self.snapshot(Viewer::Spectator);
            let spectators = self.spectators.values().map(|m| &m.outbox);
            self.out.say_all(spectators, &snapshot);
        }
        self.publish_summary();
    }

    /// Sends `msg` to every connected seat and spectator.
    pub(super) fn broadcast(&self, msg: &ServerMsg) {
        let seated = self.holders().filter(|h| h.connected).map(|h| &h.member);
        let everyone = seated.chain(self.spectators.values()).map(|m| &m.outbox);
        self.out.say_all(everyone, msg);
    }

    /// Commits to `seat`'s deployment of `round` (see [`skirmish_protocol::commitment`]).
    pub(super) fn commit(&mut self, seat: Seat, round: u32, deployment: String) {
        let (commitment, reveal) = Reveal::seal(seat, round, deployment, &mut self.rng);
        self.commitments.push(commitment.clone());
        self.sealed.push(reveal);
        self.broadcast(&ServerMsg::Commitment {
            room: self.id,
            commitment,
        });
    }

    /// Opens every commitment of `round`, which the game has just revealed.
    pub(super) fn reveal(&mut self, round: u32) {
        let (now, later) = std::mem::take(&mut self.sealed)
            .into_iter()
            .partition(|r| r.round == round);
        self.sealed = later;
        for reveal in now {
            self.reveals.push(reveal.clone());
            self.broadcast(&ServerMsg::Reveal {
                room: self.id,
                reveal,
            });
        }
    }

    /// Sends each event to the viewers its audience includes, commits to and reveals
    /// deployments, then updates the clock.
    pub(super) fn dispatch(&mut self, applied: Applied) {
        let mut sealed = applied.sealed.into_iter().peekable();
        for (index, (audience, event)) in applied.events.into_iter().enumerate() {
            if let Some(m) = self.kind.tournament_mut() {
                m.log.push(event.clone());
            }
            self.keep_event(&event);
            self.seq += 1;
            if self.history.len() == HISTORY {
                self.history.pop_front();
            }
            self.history.push_back((
                audience,
                NumberedEvent {
                    seq: self.seq,
                    event: event.clone(),
                },
            ));
            let msg = ServerMsg::Event {
                room: self.id,
                seq: self.seq,
                event,
            };
            let seated = self.seats.iter().filter_map(|(seat, state)| {
                state
                    .holder
                    .as_ref()
                    .filter(|h| h.connected && audience.includes(Viewer::Seat(seat)))
                    .map(|h| &h.member.outbox)
            });
            let watching = self
                .spectators
                .values()
                .filter(|_| audience == Audience::Everyone)
                .map(|m| &m.outbox);
            self.out.say_all(seated.chain(watching), &msg);
            while let Some(seal) = sealed.next_if(|s| s.after == index) {
                self.commit(seal.seat, seal.round, seal.text);
            }
            if let Some((_, round)) = applied.revealed.filter(|r| r.0 == index) {
                self.reveal(round);
            }
        }
        if self.table.is_over() {
            self.finish();
            return;
        }
        // Duplicate matches: the referee deploys for each seat from the deal, one at a time.
        if let Some(seed) = self.kind.tournament().and_then(|m| m.deal)
            && let Some(dealt) = self
                .table
                .to_act()
                .into_iter()
                .find_map(|seat| self.table.deal(seat, seed))
        {
            self.dispatch(dealt);
            return;
        }
        let to_act = self.table.to_act();
        let now = Instant::now();
        for seat in self.seats.seats() {
            if !to_act.contains(&seat) {
                self.seats[seat].clock.stop();
            } else if applied.new_turn {
                let limit = self.limit().map(Duration::from_millis);
                self.seats[seat].clock.start(now, limit);
                self.your_turn_to(seat);
            }
        }
    }

    /// Sends `seat` its `your_turn` if it is to act, the match is on and its holder connected.
    pub(super) fn send_your_turn(&self, seat: Seat) {
        if self.table.to_act().contains(&seat) {
            self.your_turn_to(seat);
        }
    }

    /// [`Room::send_your_turn`] for a seat the caller knows is to act (the move's path has the
    /// seats to act at hand: asking the engine again allocated them once more per move).
    fn your_turn_to(&self, seat: Seat) {
        if self.status != RoomStatus::Playing {
            return;
        }
        if let Some(h) = self.seats[seat].holder.as_ref().filter(|h| h.connected) {
            let deadline_ms = self.seats[seat].clock.left_ms(Instant::now());
            self.out.say(
                &h.member.outbox,
                &ServerMsg::YourTurn {
                    room: self.id,
                    seat,
                    deadline_ms,
                    view: h
                        .member
                        .outbox
                        .turn_view()
                        .then(|| self.table.view(Viewer::Seat(seat))),
                },
            );
        }
    }

    /// Says a line in the room's one chat: kept in its history and sent to every person in the
    /// room (connected seats held by people, and spectators), each connection once, and to no
    /// seat held by a bot. The name and the seat are the room's record of the speaker, not the
    /// client's.
    ///
    /// # Errors
    /// [`ServerError::NotSeated`] from a player who neither sits nor watches here,
    /// [`ServerError::BadChat`], [`ServerError::ChatTooFast`]; a refused line changes nothing.
    pub(super) fn chat(&mut self, player: PlayerId, text: &str) -> Result<(), ServerError> {
        let (seat, name) = if let Some(seat) = self.seat_of(player) {
            let holder = self.seats[seat].holder.as_ref().ok_or(ServerError::NotSeated)?;
            (Some(seat), holder.member.name.clone())
        } else if let Some(member) = self.spectators.get(&player) {
            (None, member.name.clone())
        } else {
            return Err(ServerError::NotSeated);
        };
        let text = clean_line(text)?;
        self.chat_limit.allow(player, Instant::now())?;
        let line = self.chat.push(seat, name, text);
        let msg = ServerMsg::Chat { room: self.id, line };
        // A seated player may watch its own room too: it is in both lists, and hears a line once.
        let mut heard = HashSet::new();
        let people = self
            .holders()
            .filter(|h| h.connected && h.bot.is_none())
            .map(|h| &h.member)
            .chain(self.spectators.values())
            .filter(|m| heard.insert(m.id))
            .map(|m| &m.outbox);
        self.out.say_all(people, &msg);
        Ok(())
    }
}
