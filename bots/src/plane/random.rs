//! The `random` strategy: a uniformly random legal deployment and a uniformly random legal shot, the
//! referee's own default action (docs/rules.md, plane battle, "Deploy"); the baseline of the benchmark.

use rand::RngCore;
use skirmish_games::Seat;
use skirmish_games::plane::{Cell, Placement, View, random_deployment};

use super::belief::{Knowledge, Universe};
use super::{PlaneStrategy, pick, targets};

/// Uniformly random deployments and shots: every (opponent still in the round, non-public cell)
/// pair is equally likely. Public = shot before, or a cell of a downed plane.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomStrategy;

impl PlaneStrategy for RandomStrategy {
    fn deploy(&mut self, view: &View, rng: &mut dyn RngCore) -> Vec<Placement> {
        random_deployment(view.config.variant, rng)
    }

    fn fire(&mut self, view: &View, rng: &mut dyn RngCore) -> (Seat, Cell) {
        let universe = Universe::of(view.config.variant);
        let mut shots = Vec::new();
        for board in targets(view) {
            let public = Knowledge::of_board(universe, board).public;
            for i in 0..universe.cells {
                if public & (1u128 << i) == 0 {
                    shots.push((board.seat, universe.cell(i)));
                }
            }
        }
        pick(&shots, rng)
    }
}
