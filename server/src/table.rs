//! The game a room referees, behind one enum so that rooms do not care which game it is.

use rand::Rng;
use skirmish_games::plane::{self, PlaneBattle};
use skirmish_games::{Audience, Game, Seat, Viewer};
use skirmish_protocol::{Action, GameConfig, GameEvent, GameView};

use crate::error::ServerError;

/// A game in progress.
#[derive(Debug, Clone)]
pub(crate) enum Table {
    Plane(PlaneBattle),
}

/// What one applied action caused.
pub(crate) struct Applied {
    /// Events with who may see them, in order.
    pub(crate) events: Vec<(Audience, GameEvent)>,
    /// Whether a new turn began (a new attacker, or a new round's deployment): every seat to act
    /// gets a fresh deadline.
    pub(crate) new_turn: bool,
}

/// Whether a seat's time limit is the deployment one or the move one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TurnKind {
    Deploy,
    Move,
}

impl Table {
    /// A new game, with the events that open it.
    pub(crate) fn new(config: &GameConfig) -> Result<(Table, Applied), ServerError> {
        match config {
            GameConfig::Plane(config) => {
                let (game, events) =
                    PlaneBattle::new(*config).map_err(|e| ServerError::BadConfig(e.to_string()))?;
                Ok((Table::Plane(game), plane_applied(events)))
            }
        }
    }

    pub(crate) fn to_act(&self) -> Vec<Seat> {
        match self {
            Table::Plane(game) => game.to_act(),
        }
    }

    pub(crate) fn turn_kind(&self) -> TurnKind {
        match self {
            Table::Plane(game) if game.deploying() => TurnKind::Deploy,
            Table::Plane(_) => TurnKind::Move,
        }
    }

    pub(crate) fn is_over(&self) -> bool {
        match self {
            Table::Plane(game) => game.outcome().is_some(),
        }
    }

    pub(crate) fn view(&self, viewer: Viewer) -> GameView {
        match self {
            Table::Plane(game) => GameView::Plane(game.view(viewer)),
        }
    }

    /// Applies `seat`'s action.
    pub(crate) fn apply(&mut self, seat: Seat, action: Action) -> Result<Applied, ServerError> {
        match (self, action) {
            (Table::Plane(game), Action::Plane(action)) => Ok(plane_applied(game.apply(seat, action)?)),
        }
    }

    /// Acts for `seat` whose time ran out (RULES.md section 1: a random legal deployment or shot).
    pub(crate) fn apply_default(&mut self, seat: Seat, rng: &mut (impl Rng + ?Sized)) -> Applied {
        match self {
            Table::Plane(game) => plane_applied(game.apply_default(seat, rng)),
        }
    }
}

fn plane_applied(events: Vec<plane::Event>) -> Applied {
    let new_turn = events
        .iter()
        .any(|e| matches!(e, plane::Event::Turn { .. } | plane::Event::RoundStarted { .. }));
    Applied {
        events: events
            .into_iter()
            .map(|e| (e.audience(), GameEvent::Plane(e)))
            .collect(),
        new_turn,
    }
}
