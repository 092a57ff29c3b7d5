//! Gomoku's strategies as a [`Player`]: a stone on the seat's turn, or the forfeit of an outside
//! engine that failed.

use rand::RngCore;
use skirmish_games::gomoku::Action;
use skirmish_games::{Seat, Viewer};
use skirmish_protocol::{BotInfo, GameView};

use super::GomokuStrategy;
use crate::Budget;
use crate::player::{Decision, Player};

struct GomokuPlayer(Box<dyn GomokuStrategy>);

/// `strategy` as a seat's player.
pub fn player(strategy: Box<dyn GomokuStrategy>) -> Box<dyn Player> {
    Box::new(GomokuPlayer(strategy))
}

impl Player for GomokuPlayer {
    fn decide(
        &mut self,
        view: &GameView,
        seat: Seat,
        budget: Budget,
        rng: &mut dyn RngCore,
    ) -> Option<Decision> {
        let GameView::Gomoku(view) = view else { return None };
        if view.viewer != Viewer::Seat(seat) || view.to_move != Some(seat) {
            return None;
        }
        Some(match self.0.act(view, budget, rng) {
            Action::Resign { reason } if self.0.engine_failed() => Decision::EngineFailed(reason),
            action => Decision::Act(skirmish_protocol::Action::Gomoku(action)),
        })
    }

    fn info(&mut self) -> Option<BotInfo> {
        self.0.info()
    }
}
