//! The game a room referees, behind one enum so that rooms do not care which game it is.

use rand::Rng;
use skirmish_games::gomoku::{self, Gomoku};
use skirmish_games::junqi::{self, Junqi};
use skirmish_games::plane::{self, PlaneBattle};
use skirmish_games::{Audience, Game, Seat, Viewer};
use skirmish_protocol::{Action, GameConfig, GameEvent, GameView};

use crate::error::ServerError;

/// A game in progress.
#[derive(Debug, Clone)]
pub(crate) enum Table {
    Plane(PlaneBattle),
    Gomoku(Gomoku),
    Junqi(Junqi),
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
            GameConfig::Gomoku(config) => {
                let (game, events) =
                    Gomoku::new(config.clone()).map_err(|e| ServerError::BadConfig(e.to_string()))?;
                Ok((Table::Gomoku(game), gomoku_applied(events)))
            }
            GameConfig::Junqi(config) => {
                let (game, events) =
                    Junqi::new(*config).map_err(|e| ServerError::BadConfig(e.to_string()))?;
                Ok((Table::Junqi(game), junqi_applied(events)))
            }
        }
    }

    pub(crate) fn to_act(&self) -> Vec<Seat> {
        match self {
            Table::Plane(game) => game.to_act(),
            Table::Gomoku(game) => game.to_act(),
            Table::Junqi(game) => game.to_act(),
        }
    }

    pub(crate) fn turn_kind(&self) -> TurnKind {
        match self {
            Table::Plane(game) if game.deploying() => TurnKind::Deploy,
            Table::Junqi(game) if game.phase() == junqi::Phase::Deploying => TurnKind::Deploy,
            Table::Plane(_) | Table::Gomoku(_) | Table::Junqi(_) => TurnKind::Move,
        }
    }

    pub(crate) fn is_over(&self) -> bool {
        match self {
            Table::Plane(game) => game.outcome().is_some(),
            Table::Gomoku(game) => game.outcome().is_some(),
            Table::Junqi(game) => game.outcome().is_some(),
        }
    }

    pub(crate) fn view(&self, viewer: Viewer) -> GameView {
        match self {
            Table::Plane(game) => GameView::Plane(game.view(viewer)),
            Table::Gomoku(game) => GameView::Gomoku(game.view(viewer)),
            Table::Junqi(game) => GameView::Junqi(game.view(viewer)),
        }
    }

    /// Applies `seat`'s action.
    pub(crate) fn apply(&mut self, seat: Seat, action: Action) -> Result<Applied, ServerError> {
        match (self, action) {
            (Table::Plane(game), Action::Plane(action)) => Ok(plane_applied(game.apply(seat, action)?)),
            (Table::Gomoku(game), Action::Gomoku(action)) => Ok(gomoku_applied(game.apply(seat, action)?)),
            (Table::Junqi(game), Action::Junqi(action)) => Ok(junqi_applied(game.apply(seat, action)?)),
            _ => Err(ServerError::WrongGame),
        }
    }

    /// Acts on `seat`'s running out of time: in plane battle the referee plays a random legal
    /// deployment or shot (RULES.md section 1); in gomoku the seat loses; in junqi a seat still
    /// deploying gets a random legal layout and one to move loses (RULES.md section 3).
    pub(crate) fn time_out(&mut self, seat: Seat, rng: &mut (impl Rng + ?Sized)) -> Applied {
        match self {
            Table::Plane(game) => plane_applied(game.apply_default(seat, rng)),
            Table::Gomoku(game) => gomoku_applied(game.time_out(seat)),
            Table::Junqi(game) => junqi_applied(game.time_out(seat, rng)),
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

fn gomoku_applied(events: Vec<gomoku::Event>) -> Applied {
    let new_turn = events
        .iter()
        .any(|e| matches!(e, gomoku::Event::Started { .. } | gomoku::Event::Placed { .. }));
    Applied {
        events: events
            .into_iter()
            .map(|e| (e.audience(), GameEvent::Gomoku(e)))
            .collect(),
        new_turn,
    }
}

fn junqi_applied(events: Vec<junqi::Event>) -> Applied {
    // The deployment's clock starts with the game; each seat's move clock with its turn.
    let new_turn = events.iter().any(|e| {
        matches!(
            e,
            junqi::Event::Started { .. } | junqi::Event::BattleStarted { .. } | junqi::Event::Moved { .. }
        )
    });
    Applied {
        events: events
            .into_iter()
            .map(|e| (e.audience(), GameEvent::Junqi(e)))
            .collect(),
        new_turn,
    }
}
