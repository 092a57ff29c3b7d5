//! Who sits where: joining, bots seated, leaving, dropping and coming back, a bot taking a dropped
//! seat over, and which seat a connection may act in.

use skirmish_games::Seat;
use skirmish_protocol::{BotLevel, PlayerId, RoomStatus, ServerMsg};
use tokio::time::Instant;
use tracing::info;

use super::{Holder, Member, Room};
use crate::error::ServerError;
use crate::journal::Entry;
use crate::lobby::{BotPick, BotWish};
use crate::table::Table;

impl Room {
    /// The seats `player` holds here, in seat order (a bot may hold several).
    pub(super) fn seats_of(&self, player: PlayerId) -> Vec<Seat> {
        self.seats
            .iter()
            .filter(|(_, s)| s.holder.as_ref().is_some_and(|h| h.member.id == player))
            .map(|(seat, _)| seat)
            .collect()
    }

    pub(super) fn seat_of(&self, player: PlayerId) -> Option<Seat> {
        self.seats_of(player).first().copied()
    }

    pub(super) fn free_seat(&self, wanted: Option<Seat>) -> Result<Seat, ServerError> {
        match wanted {
            Some(seat) if self.seats.get(seat).is_some_and(|s| s.holder.is_none()) => Ok(seat),
            Some(_) => Err(ServerError::SeatTaken),
            None => self
                .seats
                .iter()
                .find(|(_, s)| s.holder.is_none())
                .map(|(seat, _)| seat)
                .ok_or(ServerError::RoomFull),
        }
    }

    pub(super) fn join(
        &mut self,
        member: Member,
        wanted: Option<Seat>,
        req: Option<u64>,
    ) -> Result<Seat, ServerError> {
        if self.status != RoomStatus::Waiting {
            return Err(ServerError::RoomStarted);
        }
        if self.seat_of(member.id).is_some() {
            return Err(ServerError::AlreadySeated);
        }
        let seat = self.free_seat(wanted)?;
        self.writable()?;
        self.out.say(
            &member.outbox,
            &ServerMsg::Seated {
                req,
                room: self.id,
                seat,
                strategy: None,
                think_ms: None,
            },
        );
        self.spectators.remove(&member.id);
        self.lobby.seated(member.id, self.id, seat, None);
        self.keep_player(seat, member.id);
        info!(player = %member.id, seat = seat.0, "seated");
        self.record(Entry::Seated {
            seat,
            player: member.id,
            name: member.name.clone(),
            bot: None,
            token: self.lobby.token_digest(member.id).unwrap_or_default(),
            took_over_from: None,
            account: None,
            level: None,
        });
        self.seats[seat].holder = Some(Holder {
            member,
            connected: true,
            bot: None,
            took_over_from: None,
            level: None,
        });
        self.broadcast_snapshots();
        self.start_if_full();
        Ok(seat)
    }

    pub(super) fn check_owner_waiting(&self, by: PlayerId) -> Result<(), ServerError> {
        if by != self.kind.owner() {
            return Err(ServerError::NotOwner);
        }
        if self.status != RoomStatus::Waiting {
            return Err(ServerError::RoomStarted);
        }
        Ok(())
    }

    pub(super) fn add_bot(&mut self, wanted: Option<Seat>, wish: &BotWish) -> Result<(), ServerError> {
        let seat = self.free_seat(wanted)?;
        let here: Vec<PlayerId> = self.holders().map(|h| h.member.id).collect();
        let game = self.config.game.kind();
        let pick = self.lobby.pick_any_bot(game, wish, &here).ok_or_else(|| {
            ServerError::NoBot(wish.strategy.clone().unwrap_or_else(|| format!("{game:?}")))
        })?;
        self.seat_bot(seat, pick, None);
        Ok(())
    }

    /// A quick-match room's wait is over: when a person sits here and the match has not
    /// started, bots of `level` fill the empty seats and the match starts. An empty room (its
    /// people left) is left to expire.
    pub(super) fn quick_fill(&mut self, level: BotLevel) {
        let person_here = self.holders().any(|h| h.bot.is_none());
        if self.status != RoomStatus::Waiting || !person_here || self.writable().is_err() {
            return;
        }
        let wish = BotWish {
            strategy: None,
            level: Some(level),
        };
        while self.seats.values().any(|s| s.holder.is_none()) {
            if let Err(err) = self.add_bot(None, &wish) {
                info!(cause = %err, "a quick match's room found no bot: it waits for people");
                return;
            }
        }
        self.start_if_full();
    }

    /// Gives `seat` to the bot picked, telling it which strategy to play; `took_over_from` names
    /// the dropped player it replaces mid-match.
    pub(super) fn seat_bot(&mut self, seat: Seat, pick: BotPick, took_over_from: Option<String>) {
        self.out.say(
            &pick.outbox,
            &ServerMsg::Seated {
                req: None,
                room: self.id,
                seat,
                strategy: Some(pick.strategy.clone()),
                think_ms: pick.think_ms,
            },
        );
        self.lobby
            .seated(pick.player, self.id, seat, Some(&pick.strategy));
        info!(bot = %pick.player, seat = seat.0, strategy = %pick.strategy, "bot seated");
        self.record(Entry::Seated {
            seat,
            player: pick.player,
            name: pick.name.clone(),
            bot: Some(pick.strategy.clone()),
            token: self.lobby.token_digest(pick.player).unwrap_or_default(),
            took_over_from: took_over_from.clone(),
            account: self.lobby.account_of(pick.player),
            level: pick.level,
        });
        let member = Member {
            id: pick.player,
            name: pick.name,
            outbox: pick.outbox,
        };
        self.seats[seat].holder = Some(Holder {
            member,
            connected: true,
            bot: Some(pick.strategy),
            took_over_from,
            level: pick.level,
        });
        self.broadcast_snapshots();
    }

    pub(super) fn start_if_full(&mut self) {
        if self.status != RoomStatus::Waiting || self.seats.values().any(|s| s.holder.is_none()) {
            return;
        }
        self.status = RoomStatus::Playing;
        self.kind.started();
        self.start_keeping();
        self.record(Entry::Started);
        info!("match started");
        let (table, opening) = Table::new(&self.config.game).expect("the config was checked at creation");
        self.table = table;
        self.broadcast_snapshots();
        self.dispatch(opening);
    }

    pub(super) fn attach(&mut self, member: Member) {
        let seats = self.seats_of(member.id);
        for &seat in &seats {
            let holder = self.seats[seat].holder.as_mut().expect("seats_of found it");
            holder.member.outbox = member.outbox.clone();
            holder.connected = true;
            self.seats[seat].dropped = None;
            info!(player = %member.id, seat = seat.0, "reconnected");
        }
        if !seats.is_empty() {
            self.broadcast_snapshots();
            seats.into_iter().for_each(|seat| self.send_your_turn(seat));
        }
    }

    pub(super) fn detach(&mut self, player: PlayerId, conn: u64) {
        if self
            .spectators
            .get(&player)
            .is_some_and(|m| m.outbox.conn() == conn)
        {
            self.spectators.remove(&player);
            self.publish_summary();
        }
        let mut changed = false;
        for seat in self.seats_of(player) {
            let holder = self.seats[seat].holder.as_mut().expect("seats_of found it");
            if holder.member.outbox.conn() == conn && holder.connected {
                holder.connected = false;
                info!(player = %player, seat = seat.0, "disconnected");
                changed = true;
                if self.status == RoomStatus::Playing
                    && let Some(grace) = self.grace()
                {
                    self.seats[seat].dropped = Some(Instant::now() + grace);
                }
            }
        }
        if changed {
            self.broadcast_snapshots();
        }
    }

    pub(super) fn leave(&mut self, player: PlayerId) -> Result<(), ServerError> {
        let watched = self.spectators.remove(&player).is_some();
        let Some(seat) = self.seat_of(player) else {
            if watched {
                self.publish_summary();
                return Ok(());
            }
            return Err(ServerError::NotSeated);
        };
        if self.status == RoomStatus::Waiting {
            self.writable()?;
            self.seats[seat].holder = None;
            self.lobby.unseated(player, self.id);
            self.record(Entry::Unseated { seat });
        } else {
            // During a match the seat stays, as after a drop: the clock plays for it, and the
            // room's drop policy applies when the grace period ends.
            self.seats[seat]
                .holder
                .as_mut()
                .expect("seat_of found it")
                .connected = false;
            if self.status == RoomStatus::Playing
                && let Some(grace) = self.grace()
            {
                self.seats[seat].dropped = Some(Instant::now() + grace);
            }
        }
        self.broadcast_snapshots();
        Ok(())
    }

    /// The seat `player`'s connection `conn` acts in: `seat` when it holds it, else the one of
    /// its seats here whose turn it is (or its first).
    pub(super) fn acting_seat(
        &self,
        player: PlayerId,
        conn: u64,
        seat: Option<Seat>,
    ) -> Result<Seat, ServerError> {
        // Only the connection holding the seat now: one that a resume replaced acts no more.
        // Read in place, without collecting: this runs at every move.
        let holds = |s: &Seat| {
            self.seats
                .get(*s)
                .and_then(|s| s.holder.as_ref())
                .is_some_and(|h| h.member.id == player && h.member.outbox.conn() == conn)
        };
        let held = || self.seats.seats().filter(holds);
        Ok(match seat {
            Some(seat) if holds(&seat) => seat,
            Some(_) => return Err(ServerError::NotSeated),
            // A client with several seats here acts in the one whose turn it is.
            None => {
                let to_act = self.table.to_act();
                held()
                    .find(|s| to_act.contains(s))
                    .or_else(|| held().next())
                    .ok_or(ServerError::NotSeated)?
            }
        })
    }

    /// A bot takes `seat` over from its dropped player and plays the match out; `false` when no
    /// bot is connected that plays the game.
    pub(super) fn take_over(&mut self, seat: Seat) -> bool {
        let here: Vec<PlayerId> = self.holders().map(|h| h.member.id).collect();
        let wish = BotWish::default();
        let Some(pick) = self.lobby.pick_any_bot(self.config.game.kind(), &wish, &here) else {
            return false;
        };
        let Some(dropped) = self.seats[seat].holder.take() else {
            return false;
        };
        info!(seat = seat.0, player = %dropped.member.id, bot = %pick.player, "a bot takes the seat over");
        self.lobby.unseated_from(dropped.member.id, self.id, seat);
        self.seat_bot(seat, pick, Some(dropped.member.name));
        self.send_your_turn(seat);
        true
    }
}
