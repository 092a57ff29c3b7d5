//! The game a room referees, behind one enum so that rooms do not care which game it is.

use rand::Rng;
use skirmish_games::gomoku::{self, Gomoku};
use skirmish_games::junqi::{self, Junqi};
use skirmish_games::plane::{self, PlaneBattle};
use skirmish_games::{Audience, Game, Seat, Viewer};
use skirmish_protocol::tournament::MatchResult;
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
    /// Secret deployments fixed by this action, to commit to right after the event at the
    /// index given: (index, seat, round, the deployment's text as
    /// [`skirmish_protocol::commitment`] defines it).
    pub(crate) sealed: Vec<(usize, Seat, u32, String)>,
    /// A round whose deployments the game revealed with the event at the index given (plane
    /// battle's round end; round 0 at the end of a junqi game), to open right after it.
    pub(crate) revealed: Option<(usize, u32)>,
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
                Ok((Table::Plane(game), plane_applied(events, 0)))
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
            (Table::Plane(game), Action::Plane(action)) => {
                // Deployments belong to the round they were made in, before any round change.
                let round = game.round();
                Ok(plane_applied(game.apply(seat, action)?, round))
            }
            (Table::Gomoku(game), Action::Gomoku(action)) => Ok(gomoku_applied(game.apply(seat, action)?)),
            (Table::Junqi(game), Action::Junqi(action)) => Ok(junqi_applied(game.apply(seat, action)?)),
            _ => Err(ServerError::WrongGame),
        }
    }

    /// Acts on `seat`'s running out of time: in plane battle the referee plays a random legal
    /// deployment or shot (docs/rules.md, plane battle); in gomoku the seat loses; in junqi a seat still
    /// deploying gets a random legal layout and one to move loses (docs/rules.md, junqi).
    pub(crate) fn time_out(&mut self, seat: Seat, rng: &mut (impl Rng + ?Sized)) -> Applied {
        match self {
            Table::Plane(game) => {
                let round = game.round();
                plane_applied(game.apply_default(seat, rng), round)
            }
            Table::Gomoku(game) => gomoku_applied(game.time_out(seat)),
            Table::Junqi(game) => junqi_applied(game.time_out(seat, rng)),
        }
    }
}

impl Table {
    /// Ends the match with `seat` resigning (the room's forfeit), giving `reason`.
    pub(crate) fn resign(&mut self, seat: Seat, reason: &str) -> Applied {
        let reason = Some(reason.to_owned());
        let applied = match self {
            Table::Plane(_) => self.apply(seat, Action::Plane(plane::Action::Resign)),
            Table::Gomoku(_) => self.apply(seat, Action::Gomoku(gomoku::Action::Resign { reason })),
            Table::Junqi(_) => self.apply(seat, Action::Junqi(junqi::Action::Resign { reason })),
        };
        applied.unwrap_or_else(|_| plane_applied(Vec::new(), 0))
    }

    /// `seat`'s dealt deployment when it is to deploy: the same for every match of the deal whose
    /// seed is `seed` (duplicate matches), drawn uniformly among legal ones as
    /// [`skirmish_protocol::deal`] says (from the seed, the round and the seat), so anyone can
    /// check it once the tournament's seed is revealed. `None` when the seat has nothing to deploy.
    pub(crate) fn deal(&mut self, seat: Seat, seed: u64) -> Option<Applied> {
        use skirmish_protocol::deal;
        if self.turn_kind() != TurnKind::Deploy || !self.to_act().contains(&seat) {
            return None;
        }
        let action = match self {
            Table::Plane(game) => Action::Plane(plane::Action::Deploy {
                planes: deal::plane_deployment(seed, game.round(), seat, game.config().variant),
            }),
            Table::Junqi(_) => Action::Junqi(junqi::Action::Deploy {
                layout: deal::junqi_layout(seed, seat),
            }),
            Table::Gomoku(_) => return None,
        };
        self.apply(seat, action).ok()
    }

    /// The match's result once it is over: points by the game's own scoring and places.
    pub(crate) fn result(&self) -> Option<MatchResult> {
        fn two(winner: Option<Seat>) -> (Vec<f64>, Vec<u8>) {
            match winner {
                Some(w) => (
                    (0..2).map(|s| if s == w.index() { 1.0 } else { 0.0 }).collect(),
                    (0..2).map(|s| if s == w.index() { 1 } else { 2 }).collect(),
                ),
                None => (vec![0.5, 0.5], vec![1, 1]),
            }
        }
        // The end's name as the protocol writes it: its `kind` tag, or its string.
        fn name<T: serde::Serialize>(end: &T) -> String {
            match serde_json::to_value(end) {
                Ok(serde_json::Value::String(s)) => s,
                Ok(serde_json::Value::Object(o)) => o
                    .get("kind")
                    .and_then(|k| k.as_str())
                    .unwrap_or("over")
                    .to_owned(),
                _ => "over".to_owned(),
            }
        }
        let (points, placings, end) = match self {
            Table::Plane(game) => {
                let outcome = game.outcome()?;
                let end = if outcome.resigned.is_some() {
                    "resigned"
                } else {
                    match game.config().format {
                        plane::MatchFormat::Rounds(_) => "rounds",
                        plane::MatchFormat::FirstTo(_) => "first_to",
                    }
                };
                (
                    outcome.totals.0.iter().map(|p| f64::from(*p)).collect(),
                    outcome.placings.0.clone(),
                    end.to_owned(),
                )
            }
            Table::Gomoku(game) => {
                let outcome = game.outcome()?;
                let (points, placings) = two(outcome.winner);
                (points, placings, name(&outcome.end))
            }
            Table::Junqi(game) => {
                let outcome = game.outcome()?;
                let (points, placings) = two(outcome.winner);
                (points, placings, name(&outcome.end))
            }
        };
        Some(MatchResult {
            points,
            placings,
            end,
            forfeit: None,
        })
    }
}

fn plane_applied(events: Vec<plane::Event>, round: u32) -> Applied {
    let new_turn = events
        .iter()
        .any(|e| matches!(e, plane::Event::Turn { .. } | plane::Event::RoundStarted { .. }));
    let sealed = events
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match e {
            plane::Event::Deployment { seat, planes } => Some((
                i,
                *seat,
                round,
                serde_json::to_string(planes).expect("placements serialize"),
            )),
            _ => None,
        })
        .collect();
    let revealed = events.iter().enumerate().find_map(|(i, e)| match e {
        plane::Event::RoundEnded { result, .. } => Some((i, result.round)),
        _ => None,
    });
    Applied {
        sealed,
        revealed,
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
        sealed: Vec::new(),
        revealed: None,
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
    let sealed = events
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match e {
            junqi::Event::Deployment { seat, layout } => Some((i, *seat, 0, layout.to_string())),
            _ => None,
        })
        .collect();
    let revealed = events
        .iter()
        .position(|e| matches!(e, junqi::Event::Ended { .. }))
        .map(|i| (i, 0));
    Applied {
        sealed,
        revealed,
        events: events
            .into_iter()
            .map(|e| (e.audience(), GameEvent::Junqi(e)))
            .collect(),
        new_turn,
    }
}
