//! Plane battle's part of the check on the referee ([`crate::audit`]): each opened deployment
//! must be the planes the round's end revealed for its seat, and every shot at that seat's board
//! in that round must have been answered as those planes answer it; in a duplicate tournament,
//! every dealt deployment must be the one the deal's seed gives for its seat and round.

use std::collections::HashMap;

use skirmish_games::plane::{Cell, Event, Placement, ShotResult};
use skirmish_games::{PerSeat, Seat};
use skirmish_protocol::{GameConfig, GameEvent, deal};

use crate::audit::{GameAudit, Mismatch, NotDealt};

/// The longest board side of plane battle, in cells: cells of a legal plane are the same on any
/// board at least this wide.
const PLANE_SIDE: u8 = 9;

/// One shot as everyone saw it: the target, the cell, the result, the downed plane.
type Shot = (Seat, Cell, ShotResult, Option<Placement>);

/// What one plane battle match has shown so far.
#[derive(Debug, Default)]
pub struct PlaneAudit {
    /// Each round's shots.
    shots: HashMap<u32, Vec<Shot>>,
    /// The round being played.
    round: u32,
    /// Each finished round's deployments as the game revealed them.
    revealed: HashMap<u32, PerSeat<Vec<Placement>>>,
    /// Whether the match is over: a plane battle's last reveals come before its end, so nothing
    /// is left to check then.
    ended: bool,
}

impl GameAudit for PlaneAudit {
    fn record(&mut self, event: &GameEvent) -> bool {
        let GameEvent::Plane(event) = event else {
            return false;
        };
        match event {
            Event::RoundStarted { round, .. } => self.round = *round,
            Event::Shot {
                target,
                cell,
                result,
                plane,
                ..
            } => self
                .shots
                .entry(self.round)
                .or_default()
                .push((*target, *cell, *result, *plane)),
            Event::RoundEnded { result, .. } => {
                self.revealed.insert(result.round, result.deployments.clone());
            }
            Event::MatchEnded { .. } => self.ended = true,
            _ => {}
        }
        true
    }

    fn open(&mut self, seat: Seat, round: u32, deployment: &str) -> Result<(), Mismatch> {
        let deployments = self.revealed.get(&round).ok_or(Mismatch::NotRevealed)?;
        let planes: Vec<Placement> = serde_json::from_str(deployment).map_err(|_| Mismatch::NotRevealed)?;
        if deployments.0.get(usize::from(seat.0)) != Some(&planes) {
            return Err(Mismatch::NotRevealed);
        }
        self.check_shots(seat, round, &planes)
    }

    fn done(&self, _opened: usize, _committed: usize) -> bool {
        self.ended
    }

    fn check_deal(
        &mut self,
        game: &GameConfig,
        events: &[GameEvent],
        deal_seed: u64,
    ) -> Result<usize, NotDealt> {
        let GameConfig::Plane(config) = game else {
            return Ok(0);
        };
        let (mut round, mut boards) = (0, 0);
        for event in events {
            match event {
                GameEvent::Plane(Event::RoundStarted { round: r, .. }) => round = *r,
                GameEvent::Plane(Event::Deployment { seat, planes }) => {
                    let dealt = deal::plane_deployment(deal_seed, round, *seat, config.variant);
                    if !same_planes(&dealt, planes) {
                        return Err(NotDealt { seat: *seat, round });
                    }
                    boards += 1;
                }
                _ => {}
            }
        }
        Ok(boards)
    }
}

impl PlaneAudit {
    /// Every shot at `seat`'s board in `round` must be what `planes` give.
    fn check_shots(&self, seat: Seat, round: u32, planes: &[Placement]) -> Result<(), Mismatch> {
        for &(target, cell, result, downed) in self.shots.get(&round).into_iter().flatten() {
            if target != seat {
                continue;
            }
            let head = planes.iter().find(|p| p.head == cell);
            let body = planes
                .iter()
                .any(|p| p.cells(PLANE_SIDE).is_some_and(|cells| cells.contains(&cell)));
            let expected = match (head, body) {
                (Some(_), _) => ShotResult::Down,
                (None, true) => ShotResult::Hit,
                (None, false) => ShotResult::Miss,
            };
            if result != expected || (result == ShotResult::Down && downed != head.copied()) {
                return Err(Mismatch::Inconsistent(format!(
                    "round {round}: the shot at {cell} on seat {}'s board said {result:?}",
                    seat.0
                )));
            }
        }
        Ok(())
    }
}

/// The same planes, in any order.
fn same_planes(a: &[Placement], b: &[Placement]) -> bool {
    a.len() == b.len() && a.iter().all(|p| b.contains(p))
}
