//! A model of the `seed-cv` attackers (bots/src/plane/seed_cv.rs), used by `points` to predict,
//! from the public view alone, which board each opponent fires at next and how likely that shot
//! is to down a plane (issue 19: "a strategy that knows the CV heuristic can predict which board
//! and cell each `seed-cv` opponent will shoot next"). The strategies are public, so this is what
//! any tournament entrant may do; against an opponent that is not `seed-cv` the prediction is
//! merely a guess, and `points` uses it only to order its own choices.
//!
//! The rule modelled (seeds/000, problems 1-3, as `seed-cv` implements it): with one target it
//! fires there; with two it fires at the "risky" target (the single leader on match totals) with
//! probability [`RISKY_PROBABILITY`], else at the "safe" one (the board whose most likely head is
//! most likely; on a tie, the later board in seat order, as `Iterator::max_by` keeps the last
//! maximum). Its cell: the first [`PROBES`] shots of a round on a board are drawn in proportion to
//! the fresh board's CV, then the largest CV, ties at random.

use skirmish_games::Seat;
use skirmish_games::plane::{BoardView, View};

use super::belief::{Knowledge, Universe};
use super::seed_cv::{PROBES, RISKY_PROBABILITY, argmax_cells, cube_values};

/// What the model knows of one board that is still in the round.
#[derive(Clone, Debug)]
pub struct BoardRead {
    /// Whose board.
    pub seat: Seat,
    /// `seed-cv`'s "safety": the largest number of consistent deployments with a head on one cell,
    /// over the number of consistent deployments (0 to 1).
    pub safety: f64,
    /// Planes not yet downed (1 or 2 on `double`).
    pub planes_left: usize,
    /// The probability, under a uniform prior over consistent deployments, that a `seed-cv`
    /// shot past its probes (a largest-CV cell, ties at random) downs a plane.
    pub cv_down: f64,
    /// The largest head probability of any open cell (uniform prior over consistent deployments).
    pub best_head: f64,
}

impl BoardRead {
    /// Reads one board.
    pub fn of(universe: &Universe, board: &BoardView) -> BoardRead {
        let knowledge = Knowledge::of_board(universe, board);
        let (cv, heads, alive) = cube_values(universe, &knowledge);
        let n = alive.max(1) as f64;
        let best = argmax_cells(&cv, knowledge.public);
        let cv_down = if best.is_empty() {
            0.0
        } else {
            best.iter().map(|&c| f64::from(heads[c])).sum::<f64>() / best.len() as f64 / n
        };
        let top = heads.iter().copied().max().unwrap_or(0);
        BoardRead {
            seat: board.seat,
            safety: f64::from(top) / n,
            planes_left: knowledge.planes_left(universe),
            cv_down,
            best_head: f64::from(top) / n,
        }
    }
}

/// The boards in the round (playing, not knocked out), read once, in seat order.
pub fn read_boards(view: &View) -> Vec<BoardRead> {
    let universe = Universe::of(view.config.variant);
    view.boards
        .iter()
        .filter(|b| b.playing && !b.knocked_out)
        .map(|b| BoardRead::of(universe, b))
        .collect()
}

/// The probability that a `seed-cv` at `shooter` fires at each board of `boards` on its next
/// turn, as (seat, probability) pairs summing to 1 over its targets (every board but its own).
pub fn seed_cv_targets(view: &View, boards: &[BoardRead], shooter: Seat) -> Vec<(Seat, f64)> {
    let targets: Vec<&BoardRead> = boards.iter().filter(|b| b.seat != shooter).collect();
    match targets.len() {
        0 => return Vec::new(),
        1 => return vec![(targets[0].seat, 1.0)],
        _ => {}
    }
    let safe = targets
        .iter()
        .copied()
        .max_by(|a, b| a.safety.total_cmp(&b.safety))
        .expect("two targets")
        .seat;
    let top = targets
        .iter()
        .map(|b| view.totals[b.seat])
        .max()
        .expect("two targets");
    let leaders: Vec<Seat> = targets
        .iter()
        .filter(|b| view.totals[b.seat] == top)
        .map(|b| b.seat)
        .collect();
    targets
        .iter()
        .map(|b| {
            let mut p = if b.seat == safe { 1.0 } else { 0.0 };
            if leaders.len() == 1 {
                p *= 1.0 - RISKY_PROBABILITY;
                if b.seat == leaders[0] {
                    p += RISKY_PROBABILITY;
                }
            }
            (b.seat, p)
        })
        .collect()
}

/// Whether `shooter`'s next shot at `board` is one of `seed-cv`'s probes (drawn from the fresh
/// CV, not aimed).
pub fn probing(board: &BoardView, shooter: Seat) -> bool {
    board.shots.iter().filter(|s| s.by == shooter).count() < PROBES
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::SmallRng;
    use skirmish_games::plane::{Action, Config, PlaneBattle, Variant};
    use skirmish_games::{Game, Viewer};

    use super::super::{PlaneStrategy, SeedCv};
    use super::*;

    /// Over whole 3-player matches of `seed-cv`, every target it picks has a positive predicted
    /// probability, and a target predicted with certainty is the one it picks.
    #[test]
    fn predicts_the_seed_cv_target() {
        let config = Config {
            players: 3,
            variant: Variant::Double,
            ..Config::default()
        };
        let (mut game, _) = PlaneBattle::new(config).unwrap();
        let mut rng = SmallRng::seed_from_u64(3);
        let (mut certain, mut checked) = (0, 0);
        while game.outcome().is_none() && checked < 2_000 {
            for seat in game.to_act() {
                let view = game.view(Viewer::Seat(seat));
                let action = if game.deploying() {
                    Action::Deploy {
                        planes: SeedCv::default().deploy(&view, &mut rng),
                    }
                } else {
                    let boards = read_boards(&view);
                    let predicted = seed_cv_targets(&view, &boards, seat);
                    let (target, cell) = SeedCv::default().fire(&view, &mut rng);
                    let p = predicted.iter().find(|(s, _)| *s == target).map(|x| x.1);
                    assert!(p.is_some_and(|p| p > 0.0), "{predicted:?} {target}");
                    if predicted.iter().any(|(_, p)| *p == 1.0) {
                        assert_eq!(p, Some(1.0));
                        certain += 1;
                    }
                    checked += 1;
                    Action::Fire { target, cell }
                };
                game.apply(seat, action).unwrap();
                if !game.deploying() {
                    break;
                }
            }
        }
        assert!(certain > 100, "{certain} of {checked}");
    }
}
