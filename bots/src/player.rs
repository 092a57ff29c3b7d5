//! The one shape every game's strategies take in the bot client: a [`Player`] decides what its
//! seat does from the seat's own view, whatever the game, and hears how the match ended. Each
//! game's module wraps its strategies in one (`plane::player`, `gomoku::player`, ...), and
//! [`built_in`] lists the games once, each with its strategies' names and how to make a player.
//! [`AUDITS`] lists, beside it, the games that hide deployments, each with its check on the
//! referee ([`GameAudit`]); the other games need none.

use std::sync::Arc;

use rand::RngCore;
use skirmish_games::Seat;
use skirmish_protocol::{Action, BotInfo, GameEvent, GameKind, GameView};

use crate::Budget;
use crate::audit::GameAudit;

/// What a seat's player does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Plays this action.
    Act(Action),
    /// Gives up: its outside engine failed, for this reason (the seat forfeits with the cause
    /// `engine_failure`, which standings count apart from losses on the board).
    EngineFailed(Option<String>),
}

/// A seat's player for one match.
pub trait Player: Send {
    /// What `seat` does in `view` (the seat's own view, as the server sent it), or `None` when it
    /// is not to act or `view` is another game's.
    fn decide(
        &mut self,
        view: &GameView,
        seat: Seat,
        budget: Budget,
        rng: &mut dyn RngCore,
    ) -> Option<Decision>;

    /// What the player thought when it made the decision [`Player::decide`] just returned, taken
    /// (a second call gives `None`): sent with the action as the `act`'s `info`, kept sealed by
    /// the server and shown in the match's replay. `None` by default.
    fn info(&mut self) -> Option<BotInfo> {
        None
    }

    /// The match ended with `event` (an outside engine is told how). Nothing by default.
    fn finish(&mut self, seat: Seat, event: &GameEvent) {
        let _ = (seat, event);
    }
}

/// Makes a fresh player by strategy name (`None` for a name it does not know).
pub type PlayerFactory = Arc<dyn Fn(&str) -> Option<Box<dyn Player>> + Send + Sync>;

/// The built-in strategies of every game, listed once: the game, its strategies' names
/// (strongest first) and how to make a player of one.
pub fn built_in() -> Vec<(GameKind, &'static [&'static str], PlayerFactory)> {
    vec![
        (
            GameKind::Plane,
            crate::plane::STRATEGIES,
            Arc::new(|name: &str| crate::plane::strategy(name).map(crate::plane::player)),
        ),
        (
            GameKind::Gomoku,
            crate::gomoku::STRATEGIES,
            Arc::new(|name: &str| crate::gomoku::strategy(name).map(crate::gomoku::player)),
        ),
        (
            GameKind::Junqi,
            crate::junqi::STRATEGIES,
            Arc::new(|name: &str| crate::junqi::strategy(name).map(crate::junqi::player)),
        ),
        (
            GameKind::TicTacToe,
            crate::tic_tac_toe::STRATEGIES,
            Arc::new(|name: &str| crate::tic_tac_toe::strategy(name).map(crate::tic_tac_toe::player)),
        ),
    ]
}

/// A built-in player of `game` by strategy name.
pub fn built_in_player(game: GameKind, name: &str) -> Option<Box<dyn Player>> {
    built_in()
        .into_iter()
        .find(|(g, _, _)| *g == game)
        .and_then(|(_, _, make)| make(name))
}

/// Makes a fresh audit of one match of a game that hides deployments.
pub type AuditFactory = fn() -> Box<dyn GameAudit>;

/// The games that hide deployments, listed once, each with how to make its audit
/// ([`crate::audit`]): plane battle's planes and junqi's layouts. Gomoku and tic-tac-toe hide
/// nothing, so they have none.
pub const AUDITS: &[(GameKind, AuditFactory)] = &[
    (GameKind::Plane, || Box::new(crate::plane::PlaneAudit::default())),
    (GameKind::Junqi, || Box::new(crate::junqi::JunqiAudit::default())),
];

/// How to make the audit of `game`, or `None` for a game that hides nothing.
pub fn audit_of(game: GameKind) -> Option<AuditFactory> {
    AUDITS.iter().find(|(g, _)| *g == game).map(|(_, new)| *new)
}
