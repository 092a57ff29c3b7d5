//! The `random` strategy: a uniformly random legal point, for tests.

use rand::RngCore;
use skirmish_games::gomoku::{Action, Board, Rule, Stone, View};

use super::{Budget, GomokuStrategy};

/// Places a stone on a uniformly random legal point (under renju, black skips forbidden points).
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomStone;

impl GomokuStrategy for RandomStone {
    fn act(&mut self, view: &View, _budget: Budget, rng: &mut dyn RngCore) -> Action {
        use rand::seq::SliceRandom;
        let board: Board = view.board();
        let mut points: Vec<_> = board.empty_points().collect();
        points.shuffle(rng);
        let black_renju = view.rule == Rule::Renju && view.stone_to_move() == Some(Stone::Black);
        match points
            .into_iter()
            .find(|&p| !black_renju || board.forbidden(p).is_none())
        {
            Some(point) => Action::Place { point },
            None => Action::Resign {
                reason: Some("no legal point".to_owned()),
            },
        }
    }
}
