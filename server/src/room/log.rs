//! A room and its journal: opening the log, writing each input to it, and rebuilding a room
//! from its stored log after a restart (see [`crate::journal`]).

use std::collections::HashMap;

use skirmish_games::Seat;
use skirmish_protocol::tournament::ForfeitReason;
use skirmish_protocol::{PlayerId, RoomStatus};
use tokio::time::Instant;
use tracing::info;

use super::matches::MatchRoom;
use super::{Channel, Holder, Kind, Member, Room};
use crate::error::ServerError;
use crate::journal::{Entry, Journal};
use crate::lobby::Lobby;
use crate::outbox::Outbox;
use crate::store::StoredRoom;

/// The players holding a seat at the end of a stored room's log, with their names and token
/// digests (as the log's `seated` entries give them), whether or not the log replays: whom to
/// tell when it does not ([`Lobby::room_broken`]).
pub fn seat_holders(stored: &StoredRoom) -> Vec<SeatHolder> {
    let mut seats: HashMap<Seat, SeatHolder> = HashMap::new();
    for entry in &stored.entries {
        match entry {
            Entry::Seated {
                seat,
                player,
                name,
                token,
                account,
                ..
            } => {
                let holder = SeatHolder {
                    player: *player,
                    name: name.clone(),
                    token: token.clone(),
                    account: account.clone(),
                };
                seats.insert(*seat, holder);
            }
            Entry::Unseated { seat } => {
                seats.remove(seat);
            }
            _ => {}
        }
    }
    let mut holders: Vec<_> = seats.into_values().collect();
    holders.sort_by_key(|h| h.player);
    holders.dedup_by_key(|h| h.player);
    holders
}

/// Who held a seat in a stored room, as its log says ([`seat_holders`]).
#[derive(Debug, Clone)]
pub struct SeatHolder {
    /// The player.
    pub player: PlayerId,
    /// Their display name.
    pub name: String,
    /// The digest of their resume token.
    pub token: String,
    /// The bot account they are, if any.
    pub account: Option<String>,
}

impl Room {
    /// Records the new room in the journal and writes its log there from now on.
    pub(super) fn open_log(&mut self, journal: Journal) {
        let created_ms = crate::wall_clock::now_ms();
        self.written = journal.open(
            StoredRoom {
                id: self.id,
                config: self.config.clone(),
                owner: self.kind.owner(),
                seed: self.seed,
                entries: Vec::new(),
                unreadable: None,
            },
            created_ms,
        );
        self.out.behind(&journal);
        self.journal = Some(journal);
    }

    /// The room `stored` describes, its log replayed (with `tournament` set for a match), writing
    /// to `journal` from now on. In a match, every seat has the grace period from now to be
    /// taken back. A room whose log ends its match is closed in the journal.
    pub(super) fn rebuild(
        stored: StoredRoom,
        lobby: Lobby,
        journal: Journal,
        tournament: Option<MatchRoom>,
    ) -> Result<(Room, Channel), ServerError> {
        let kind = match tournament {
            Some(m) => Kind::Match(m),
            None => Kind::casual(stored.owner, None),
        };
        let (mut room, channel) = Room::new(stored.config.clone(), kind, lobby, stored.id, stored.seed)?;
        let entries = stored.entries.len();
        let mut replayed = stored
            .entries
            .iter()
            .cloned()
            .enumerate()
            .try_for_each(|(n, entry)| {
                room.replay(entry)
                    .map_err(|e| format!("entry {n} of the room's log: {e}"))
            });
        if let (Ok(()), Some(unreadable)) = (&replayed, &stored.unreadable) {
            replayed = Err(format!("the room's log after entry {entries}: {unreadable}"));
        }
        // Nobody is connected yet: nothing said while replaying reached anyone.
        room.out.forget_said();
        if let Err(err) = replayed {
            // The seats taken while replaying are not the players' any more.
            for holder in room.holders() {
                room.lobby.unseated(holder.member.id, room.id);
            }
            return Err(ServerError::BadConfig(err));
        }
        room.logged = u64::try_from(entries).unwrap_or(u64::MAX);
        if room.status == RoomStatus::Finished {
            // A log that ends the match: its record was not written before the stop (it is
            // written in the batch that closes the room), so it is kept now.
            room.keep_infos(&journal);
            room.keep(&journal);
            journal.close(room.id);
            return Ok((room, channel));
        }
        room.out.behind(&journal);
        room.journal = Some(journal);
        if room.status == RoomStatus::Playing
            && let Some(grace) = room.grace()
        {
            for state in room.seats.values_mut() {
                if state.holder.is_some() {
                    state.dropped = Some(Instant::now() + grace);
                }
            }
        }
        info!(room = %room.id, entries, status = ?room.status, "room restored from its log");
        Ok((room, channel))
    }

    /// Applies one entry of the room's stored log, as the room did when it was written.
    pub(super) fn replay(&mut self, entry: Entry) -> Result<(), String> {
        let seats = self.seats.len();
        let check = |seat: Seat| {
            if seat.index() < seats {
                Ok(())
            } else {
                Err(format!("seat {} in a room of {seats}", seat.0))
            }
        };
        match entry {
            Entry::Seated {
                seat,
                player,
                name,
                bot,
                token,
                took_over_from,
                account,
                level,
            } => {
                check(seat)?;
                if let Some(old) = self.seats[seat].holder.take() {
                    self.lobby.unseated_from(old.member.id, self.id, seat);
                }
                self.lobby
                    .restore_player(player, &name, &token, account.as_deref());
                self.lobby.seated(player, self.id, seat, bot.as_deref());
                if bot.is_none() {
                    self.keep_player(seat, player);
                }
                self.seats[seat].holder = Some(Holder {
                    member: Member {
                        id: player,
                        name,
                        outbox: Outbox::closed(),
                    },
                    connected: false,
                    bot,
                    took_over_from,
                    level,
                });
            }
            Entry::Unseated { seat } => {
                check(seat)?;
                if let Some(old) = self.seats[seat].holder.take() {
                    self.lobby.unseated_from(old.member.id, self.id, seat);
                }
            }
            Entry::Started => {
                self.start_if_full();
                if self.status == RoomStatus::Waiting {
                    return Err("started with a seat empty".to_owned());
                }
            }
            Entry::Acted {
                seat,
                action,
                spent_ms,
                info,
            } => {
                check(seat)?;
                // An offer or its answer is no move: it ends no turn (`Room::act`).
                let offer = self.table.offer_of(&action).is_some();
                let applied = self.table.apply(seat, action).map_err(|e| e.to_string())?;
                if !offer {
                    self.seats[seat].clock.charge_ms(spent_ms);
                }
                // Checked when it was played; measured again for the seat's share.
                if let Some(info) = info {
                    let bytes = serde_json::to_string(&info).map_or(usize::MAX, |t| t.len());
                    self.note_info(seat, *info, bytes);
                }
                self.dispatch(applied);
            }
            Entry::TimedOut { seat, spent_ms } => {
                check(seat)?;
                self.seats[seat].clock.charge_ms(spent_ms);
                let applied = self.table.time_out(seat, &mut self.rng);
                self.dispatch(applied);
            }
            Entry::Forfeited { seat, reason, detail } => {
                check(seat)?;
                self.forfeit(seat, ForfeitReason::parse(&reason), detail);
            }
        }
        Ok(())
    }

    /// Writes `entry` to the room's log.
    pub(super) fn record(&mut self, entry: Entry) {
        if let Some(journal) = &self.journal {
            self.written = journal.append(self.id, self.logged, entry);
            self.logged += 1;
        }
    }

    /// `Ok` unless storage is failing: what would write to the log is refused then.
    pub(super) fn writable(&self) -> Result<(), ServerError> {
        match &self.journal {
            Some(journal) if !journal.available() => Err(ServerError::StorageUnavailable),
            _ => Ok(()),
        }
    }
}
