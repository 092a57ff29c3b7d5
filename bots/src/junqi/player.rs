//! Junqi's strategies as a [`Player`]: a layout while deploying, a move on the seat's turn, the
//! forfeit of an outside engine that failed, and the game's end told to the strategy.

use rand::RngCore;
use skirmish_games::junqi::{Action, Event, MAX_REASON_BYTES, Phase};
use skirmish_games::{Seat, Viewer};
use skirmish_protocol::{BotInfo, GameEvent, GameView};

use super::JunqiStrategy;
use crate::Budget;
use crate::player::{Decision, Player};

struct JunqiPlayer(Box<dyn JunqiStrategy>);

/// `strategy` as a seat's player.
pub fn player(strategy: Box<dyn JunqiStrategy>) -> Box<dyn Player> {
    Box::new(JunqiPlayer(strategy))
}

impl Player for JunqiPlayer {
    fn decide(
        &mut self,
        view: &GameView,
        seat: Seat,
        budget: Budget,
        rng: &mut dyn RngCore,
    ) -> Option<Decision> {
        let GameView::Junqi(view) = view else { return None };
        if view.viewer != Viewer::Seat(seat) {
            return None;
        }
        let action = match view.phase {
            Phase::Deploying if !view.deployed[seat] => match self.0.deploy(view, budget, rng) {
                Ok(layout) => Action::Deploy { layout },
                Err(reason) => {
                    return Some(Decision::EngineFailed(Some(crate::engine_process::truncate(
                        reason,
                        MAX_REASON_BYTES,
                    ))));
                }
            },
            Phase::Battle if view.to_move == Some(seat) => match self.0.act(view, budget, rng) {
                Action::Resign { reason } if self.0.engine_failed() => {
                    return Some(Decision::EngineFailed(reason));
                }
                action => action,
            },
            _ => return None,
        };
        Some(Decision::Act(skirmish_protocol::Action::Junqi(action)))
    }

    fn info(&mut self) -> Option<BotInfo> {
        self.0.info()
    }

    fn finish(&mut self, seat: Seat, event: &GameEvent) {
        if let GameEvent::Junqi(Event::Ended { outcome }) = event {
            self.0.finish(seat, outcome);
        }
    }
}
