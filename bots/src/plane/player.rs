//! Plane battle's strategies as a [`Player`]: deploy when the round asks the seat to, fire on its
//! turn.

use rand::RngCore;
use skirmish_games::plane::{Action, PhaseView};
use skirmish_games::{Seat, Viewer};
use skirmish_protocol::{BotInfo, GameView};

use super::PlaneStrategy;
use crate::Budget;
use crate::player::{Decision, Player};

struct PlanePlayer(Box<dyn PlaneStrategy>, Option<BotInfo>);

/// `strategy` as a seat's player.
pub fn player(strategy: Box<dyn PlaneStrategy>) -> Box<dyn Player> {
    Box::new(PlanePlayer(strategy, None))
}

impl Player for PlanePlayer {
    fn decide(
        &mut self,
        view: &GameView,
        seat: Seat,
        _budget: Budget,
        rng: &mut dyn RngCore,
    ) -> Option<Decision> {
        let GameView::Plane(view) = view else { return None };
        if view.viewer != Viewer::Seat(seat) {
            return None;
        }
        let action = match &view.phase {
            PhaseView::Deploy { ready } if !ready.contains(&seat) => Action::Deploy {
                planes: self.0.deploy(view, rng),
            },
            PhaseView::Attack { attacker } if *attacker == seat => {
                let (target, cell) = self.0.fire(view, rng);
                self.1 = self.0.info(view);
                Action::Fire { target, cell }
            }
            _ => return None,
        };
        Some(Decision::Act(skirmish_protocol::Action::Plane(action)))
    }

    fn info(&mut self) -> Option<BotInfo> {
        self.1.take()
    }
}
