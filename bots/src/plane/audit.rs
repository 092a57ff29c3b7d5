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

#[cfg(test)]
mod tests {
    use skirmish_games::plane::{self, Facing, RoundResult};

    use super::*;

    fn shot(cell: &str, result: ShotResult, plane: Option<Placement>) -> GameEvent {
        GameEvent::Plane(Event::Shot {
            attacker: Seat(1),
            target: Seat(0),
            cell: cell.parse().unwrap(),
            result,
            plane,
            points: 0,
            knocked_out: false,
            by_default: false,
        })
    }

    /// A round in which seat 0's one plane (head D4, facing up) was shot at `shots`, then revealed.
    fn round(shots: Vec<GameEvent>) -> (PlaneAudit, String) {
        let planes = vec![Placement::new("D4".parse().unwrap(), Facing::Up)];
        let mut audit = PlaneAudit::default();
        let mut events = vec![GameEvent::Plane(Event::RoundStarted {
            round: 0,
            extra: false,
            players: vec![Seat(0), Seat(1)],
            first_attacker: Seat(1),
        })];
        events.extend(shots);
        events.push(GameEvent::Plane(Event::RoundEnded {
            result: RoundResult {
                round: 0,
                extra: false,
                survivor: Seat(1),
                points: PerSeat(vec![0, 0]),
                deployments: PerSeat(vec![planes.clone(), Vec::new()]),
            },
            totals: PerSeat(vec![0, 0]),
        }));
        for event in &events {
            assert!(audit.record(event));
        }
        (audit, serde_json::to_string(&planes).unwrap())
    }

    #[test]
    fn shots_the_revealed_planes_give_pass_and_others_are_caught() {
        let head = Placement::new("D4".parse().unwrap(), Facing::Up);
        let (mut audit, opened) = round(vec![
            shot("A1", ShotResult::Miss, None),
            shot("D4", ShotResult::Down, Some(head)),
        ]);
        assert_eq!(audit.open(Seat(0), 0, &opened), Ok(()));
        assert_eq!(
            audit.open(Seat(0), 1, &opened),
            Err(Mismatch::NotRevealed),
            "no round 1"
        );
        assert_eq!(
            audit.open(Seat(1), 0, &opened),
            Err(Mismatch::NotRevealed),
            "not seat 1's"
        );
        assert!(!audit.done(2, 2), "the match goes on");

        let (mut lying, opened) = round(vec![shot("D4", ShotResult::Hit, None)]);
        assert!(matches!(
            lying.open(Seat(0), 0, &opened),
            Err(Mismatch::Inconsistent(_))
        ));
    }

    #[test]
    fn dealt_deployments_are_checked_round_by_round() {
        let game = GameConfig::Plane(plane::Config::default());
        let GameConfig::Plane(config) = &game else {
            unreachable!()
        };
        let dealt = |round, seat| deal::plane_deployment(7, round, seat, config.variant);
        let mut events = Vec::new();
        for round in 0..2 {
            events.push(GameEvent::Plane(Event::RoundStarted {
                round,
                extra: false,
                players: vec![Seat(0), Seat(1)],
                first_attacker: Seat(0),
            }));
            for seat in [Seat(0), Seat(1)] {
                events.push(GameEvent::Plane(Event::Deployment {
                    seat,
                    planes: dealt(round, seat),
                }));
            }
        }
        assert_eq!(PlaneAudit::default().check_deal(&game, &events, 7), Ok(4));
        // Seat 0's round 1 board in round 0, and its round 0 board in round 1.
        events.swap(1, 4);
        assert_eq!(
            PlaneAudit::default().check_deal(&game, &events, 7),
            Err(NotDealt {
                seat: Seat(0),
                round: 0
            })
        );
    }
}
