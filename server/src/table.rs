//! The game a room referees, whatever the game: the protocol's [`Table`](skirmish_protocol::Table)
//! (one refereeing interface over every engine), with its refusals as [`ServerError`]s and its
//! result as a [`MatchResult`]. Nothing here names a game.

use rand::RngCore;
use skirmish_games::{Seat, Viewer};
use skirmish_protocol::tournament::MatchResult;
use skirmish_protocol::{Action, GameConfig, GameView, Offer, Refused, WireStep};

pub(crate) use skirmish_games::referee::TurnKind;

use crate::error::ServerError;

/// What one applied action caused: its events with their audiences, whether a turn began, the
/// deployments to commit to and the round to reveal ([`skirmish_games::referee::Step`]).
pub(crate) type Applied = WireStep;

/// A game in progress.
#[derive(Debug, Clone)]
pub(crate) struct Table(Box<dyn skirmish_protocol::Table>);

impl From<Refused> for ServerError {
    fn from(refused: Refused) -> Self {
        match refused {
            Refused::WrongGame => ServerError::WrongGame,
            Refused::Rule { code, message } => ServerError::Rule { code, message },
        }
    }
}

impl Table {
    /// A new game, with the events that open it.
    pub(crate) fn new(config: &GameConfig) -> Result<(Table, Applied), ServerError> {
        let (table, opening) = config.start().map_err(ServerError::BadConfig)?;
        Ok((Table(table), opening))
    }

    pub(crate) fn to_act(&self) -> Vec<Seat> {
        self.0.to_act()
    }

    pub(crate) fn turn_kind(&self) -> TurnKind {
        self.0.turn_kind()
    }

    pub(crate) fn is_over(&self) -> bool {
        self.0.is_over()
    }

    pub(crate) fn view(&self, viewer: Viewer) -> GameView {
        self.0.view(viewer)
    }

    /// Applies `seat`'s action.
    pub(crate) fn apply(&mut self, seat: Seat, action: Action) -> Result<Applied, ServerError> {
        Ok(self.0.act(seat, action)?)
    }

    /// Acts on `seat`'s running out of time, as docs/rules.md says for the game.
    pub(crate) fn time_out(&mut self, seat: Seat, rng: &mut dyn RngCore) -> Applied {
        self.0.time_out(seat, rng)
    }

    /// Ends the match with `seat` resigning (the room's forfeit), giving `reason`; nothing when
    /// the match is over.
    pub(crate) fn resign(&mut self, seat: Seat, reason: &str) -> Applied {
        self.0.resign(seat, reason)
    }

    /// `seat`'s dealt deployment when it is to deploy: the same for every match of the deal whose
    /// seed is `seed` (duplicate matches), as [`skirmish_protocol::deal`] says, so anyone can
    /// check it once the tournament's seed is revealed. `None` when the seat has nothing to deploy.
    pub(crate) fn deal(&mut self, seat: Seat, seed: u64) -> Option<Applied> {
        self.0.deal(seat, seed)
    }

    /// The game's action that makes `offer` (`answer` `None`) or answers it; `None` when the game
    /// has no such offer.
    pub(crate) fn offer_action(&self, offer: Offer, answer: Option<bool>) -> Option<Action> {
        self.0.offer_action(offer, answer)
    }

    /// The offer `action` makes or answers, if it is one.
    pub(crate) fn offer_of(&self, action: &Action) -> Option<Offer> {
        self.0.offer_of(action)
    }

    /// The offer waiting for `seat`'s answer.
    pub(crate) fn offer_to(&self, seat: Seat) -> Option<Offer> {
        self.0.offer_to(seat)
    }

    /// The match's result once it is over: points by the game's own scoring and places.
    pub(crate) fn result(&self) -> Option<MatchResult> {
        let standing = self.0.result()?;
        Some(MatchResult {
            points: standing.points,
            placings: standing.placings,
            end: standing.end.to_owned(),
            forfeit: None,
        })
    }
}
