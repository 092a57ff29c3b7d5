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

/// One seat's clock: the deadline of its current turn, and what is left of its game clock
/// ([`skirmish_protocol::Clock`]; docs/rules.md, "Clocks"). A turn runs out at its limit or
/// when the game clock is empty, whichever comes first; the time a turn took is charged to the
/// game clock when it ends.
#[derive(Debug, Clone, Default)]
pub(super) struct SeatClock {
    /// When the current turn runs out; `None` without a turn or without a limit.
    deadline: Option<Instant>,
    /// What is left of the game clock; `None` without one.
    bank: Option<Duration>,
    /// When the current turn began; `None` without a turn.
    started: Option<Instant>,
}

impl SeatClock {
    /// A clock with `bank` on its game clock (`None`: no game clock) and no turn.
    pub(super) fn new(bank: Option<Duration>) -> SeatClock {
        SeatClock {
            bank,
            ..SeatClock::default()
        }
    }

    /// Starts a turn at `now`, with at most `limit` for it (`None`: no limit per turn).
    pub(super) fn start(&mut self, now: Instant, limit: Option<Duration>) {
        let limit = match (limit, self.bank) {
            (Some(limit), Some(bank)) => Some(limit.min(bank)),
            (limit, bank) => limit.or(bank),
        };
        self.deadline = limit.map(|limit| now + limit);
        self.started = Some(now);
    }

    /// Ends the turn without charging it (the seat is not to act).
    pub(super) fn stop(&mut self) {
        self.deadline = None;
        self.started = None;
    }

    /// Ends the turn and charges the time it took to the game clock; returns that time in
    /// milliseconds (0 without a turn).
    pub(super) fn charge(&mut self) -> u64 {
        self.deadline = None;
        let spent = self.started.take().map_or(0, |started| {
            u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX)
        });
        self.charge_ms(spent);
        spent
    }

    /// Ends the turn and charges `ms` milliseconds to the game clock (a logged turn, replayed).
    pub(super) fn charge_ms(&mut self, ms: u64) {
        self.started = None;
        if let Some(bank) = self.bank.as_mut() {
            *bank = bank.saturating_sub(Duration::from_millis(ms));
        }
    }

    /// Whether the game clock is empty (never without one).
    pub(super) fn bank_empty(&self) -> bool {
        self.bank.is_some_and(|b| b.is_zero())
    }

    /// When the current turn runs out.
    pub(super) fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Milliseconds left of the current turn at `now`; `None` without a deadline.
    pub(super) fn left_ms(&self, now: Instant) -> Option<u64> {
        self.deadline
            .map(|d| u64::try_from(d.saturating_duration_since(now).as_millis()).unwrap_or(u64::MAX))
    }

    /// Whether the turn's deadline has passed at `now`; it is cleared then (the referee acts
    /// once).
    pub(super) fn ran_out(&mut self, now: Instant) -> bool {
        let out = self.deadline.is_some_and(|d| d <= now);
        if out {
            self.deadline = None;
        }
        out
    }

    /// Moves a deadline passed at `now` to `now + wait` (what would follow must wait).
    fn postpone(&mut self, now: Instant, wait: Duration) {
        if let Some(deadline) = self.deadline.as_mut()
            && *deadline <= now
        {
            *deadline = now + wait;
        }
    }
}

impl Room {
    /// Ends `seat`'s turn, charging its game clock; returns the time taken, in milliseconds.
    pub(super) fn charge(&mut self, seat: Seat) -> u64 {
        self.seats[seat].clock.charge()
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
        self.seats.values().map(|s| s.clock.left_ms(now)).collect()
    }

    /// How long a dropped seat waits for its player: the tournament's grace period, or the
    /// room's drop policy's; `None` when the seat waits for the rest of the match.
    pub(super) fn grace(&self) -> Option<Duration> {
        match self.kind.tournament() {
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
        if self.kind.tournament().is_none()
            && self.config.on_drop().then == AfterGrace::Bot
            && self.take_over(seat)
        {
            return;
        }
        self.forfeit(seat, ForfeitReason::Disconnected, None);
    }

    pub(super) fn on_deadline(&mut self) {
        let now = Instant::now();
        if self.writable().is_err() {
            // A time-out or forfeit would have to be written: the clocks wait for storage.
            for seat in self.seats.values_mut() {
                seat.clock.postpone(now, STORAGE_WAIT);
                if let Some(dropped) = seat.dropped.as_mut()
                    && *dropped <= now
                {
                    *dropped = now + STORAGE_WAIT;
                }
            }
            return;
        }
        for seat in self.seats.seats() {
            if self.seats[seat].dropped.is_some_and(|d| d <= now) {
                self.seats[seat].dropped = None;
                self.grace_over(seat);
            }
            if self.seats[seat].clock.ran_out(now) && self.table.to_act().contains(&seat) {
                info!(seat = seat.0, "time ran out");
                let spent_ms = self.charge(seat);
                let bank_empty = self.seats[seat].clock.bank_empty();
                if bank_empty || self.kind.tournament().is_some() {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_turn_runs_out_at_its_limit_or_the_game_clock_and_is_charged_what_it_took() {
        let mut clock = SeatClock::new(Some(Duration::from_millis(5_000)));
        let now = Instant::now();
        clock.start(now, Some(Duration::from_millis(2_000)));
        assert_eq!(clock.left_ms(now), Some(2_000));
        tokio::time::advance(Duration::from_millis(1_500)).await;
        assert!(!clock.ran_out(Instant::now()));
        assert_eq!(clock.charge(), 1_500);
        assert_eq!(clock.deadline(), None, "the turn is over");
        // 3.5 s left on the game clock: a turn limit of 4 s is cut to it.
        let now = Instant::now();
        clock.start(now, Some(Duration::from_millis(4_000)));
        assert_eq!(clock.left_ms(now), Some(3_500));
        tokio::time::advance(Duration::from_millis(3_500)).await;
        assert!(clock.ran_out(Instant::now()));
        assert!(!clock.ran_out(Instant::now()), "the referee acts once");
        clock.charge();
        assert!(clock.bank_empty());
        // Without a game clock or a limit, a turn has no deadline and the bank is never empty.
        let mut free = SeatClock::new(None);
        free.start(Instant::now(), None);
        assert_eq!(free.deadline(), None);
        assert!(!free.bank_empty());
    }
}
