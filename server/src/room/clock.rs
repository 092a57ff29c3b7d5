//! A room's clocks: each turn's deadline, the game clock's bank, a dropped seat's grace period,
//! and what the referee does when one runs out (docs/rules.md, "Clocks").

use std::time::Duration;

use skirmish_games::Seat;
use skirmish_protocol::tournament::ForfeitReason;
use skirmish_protocol::{AfterGrace, DropPolicy, RoomStatus};
use tokio::time::Instant;
use tracing::info;

use super::Room;
use crate::journal::Entry;
use crate::table::TurnKind;

/// How long a room's clocks wait before looking again when a deadline passes while storage is
/// failing (the time-out or forfeit would have to be written): 250 ms.
const STORAGE_WAIT: Duration = Duration::from_millis(250);

impl Room {
    /// Takes the time `seat` spent on its turn off its game clock; returns it, in milliseconds.
    pub(super) fn charge(&mut self, seat: Seat) -> u64 {
        let spent = self.seats[seat]
            .turn_started
            .take()
            .map(|started| u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX));
        if let Some(spent) = spent {
            self.charge_ms(seat, spent);
        }
        spent.unwrap_or(0)
    }

    /// Takes `ms` milliseconds off `seat`'s game clock.
    pub(super) fn charge_ms(&mut self, seat: Seat, ms: u64) {
        self.seats[seat].turn_started = None;
        if let Some(bank) = self.seats[seat].bank.as_mut() {
            *bank = bank.saturating_sub(Duration::from_millis(ms));
        }
    }

    /// The time limit for the current turn kind, in milliseconds; `None` for no limit.
    pub(super) fn limit(&self) -> Option<u64> {
        let ms = match self.table.turn_kind() {
            TurnKind::Deploy => self.config.clock().deploy_ms,
            TurnKind::Move => self.config.clock().move_ms,
        };
        (ms > 0).then_some(ms)
    }

    /// Per seat, the milliseconds left of its current turn; empty unless the match is on.
    pub(super) fn deadlines_ms(&self) -> Vec<Option<u64>> {
        if self.status != RoomStatus::Playing {
            return Vec::new();
        }
        let now = Instant::now();
        self.seats
            .values()
            .map(|s| s.deadline)
            .map(|d| {
                d.map(|d| u64::try_from(d.saturating_duration_since(now).as_millis()).unwrap_or(u64::MAX))
            })
            .collect()
    }

    /// How long a dropped seat waits for its player: the tournament's grace period, or the
    /// room's drop policy's; `None` when the seat waits for the rest of the match.
    pub(super) fn grace(&self) -> Option<Duration> {
        match &self.tournament {
            Some(m) => Some(m.grace),
            None => {
                let policy: DropPolicy = self.config.on_drop();
                (policy.then != AfterGrace::Wait).then(|| Duration::from_millis(policy.grace_ms))
            }
        }
    }

    /// A dropped seat's grace period ran out: the room's policy applies (a tournament match's
    /// seat always forfeits).
    pub(super) fn grace_over(&mut self, seat: Seat) {
        if self.status != RoomStatus::Playing || self.seats[seat].holder.as_ref().is_none_or(|h| h.connected)
        {
            return;
        }
        if self.tournament.is_none() && self.config.on_drop().then == AfterGrace::Bot && self.take_over(seat)
        {
            return;
        }
        self.forfeit(seat, ForfeitReason::Disconnected, None);
    }

    pub(super) fn on_deadline(&mut self) {
        let now = Instant::now();
        if self.writable().is_err() {
            // A time-out or forfeit would have to be written: the clocks wait for storage.
            for deadline in self
                .seats
                .values_mut()
                .flat_map(|s| [&mut s.deadline, &mut s.dropped])
                .flatten()
            {
                if *deadline <= now {
                    *deadline = now + STORAGE_WAIT;
                }
            }
            return;
        }
        for seat in self.seats.seats() {
            if self.seats[seat].dropped.is_some_and(|d| d <= now) {
                self.seats[seat].dropped = None;
                self.grace_over(seat);
            }
            if self.seats[seat].deadline.is_some_and(|d| d <= now) {
                self.seats[seat].deadline = None;
                if self.table.to_act().contains(&seat) {
                    info!(seat = seat.0, "time ran out");
                    let spent_ms = self.charge(seat);
                    let bank_empty = self.seats[seat].bank.is_some_and(|b| b.is_zero());
                    if bank_empty || self.tournament.is_some() {
                        self.forfeit(seat, ForfeitReason::TimedOut, None);
                    } else {
                        self.record(Entry::TimedOut { seat, spent_ms });
                        let applied = self.table.time_out(seat, &mut self.rng);
                        self.dispatch(applied);
                    }
                }
            }
        }
    }
}
