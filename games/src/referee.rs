//! The refereeing interface: what a server needs of a rules engine to run a room, and nothing
//! game-specific beyond it.
//!
//! [`Game`] is the engine's core (who acts, apply, view, outcome) that bots search over;
//! [`Referee`] adds what a referee decides: how a match starts, which seat's limit is a
//! deployment's or a move's, what running out of time does, resigning, a dealt deployment for
//! duplicate matches, who may see each event, which events start a turn, which deployments are
//! fixed (to commit to) and which are revealed (to open), and the result in points and placings.
//! A server holds any game behind this trait; the rules knowledge stays in the engine.

use std::fmt::Debug;

use rand::RngCore;
use rand::SeedableRng;
use rand_chacha::ChaCha12Rng;

use crate::{Audience, Game, Seat};

/// A rule error with a stable, machine-readable code, as sent in the protocol's `error` message
/// (`point_occupied`, `cell_public`, ...; docs/rules.md names each refusal).
pub trait RuleCode: std::error::Error {
    /// The stable code: lowercase ASCII words joined by `_`.
    fn code(&self) -> &'static str;
}

/// Whether a seat's time limit is the deployment one or the move one (the room's clock,
/// `deploy_ms` or `move_ms`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnKind {
    /// A secret deployment (plane battle's planes, junqi's layout).
    Deploy,
    /// A move, a shot or a stone.
    Move,
}

/// A deployment the engine has just fixed, which the referee commits to
/// (`skirmish_protocol::commitment`) right after the event at index `after`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sealed {
    /// The index in [`Step::events`] of the event that fixed it.
    pub after: usize,
    /// Whose deployment.
    pub seat: Seat,
    /// The round it belongs to (plane battle, 0-based); 0 in a game of one deployment.
    pub round: u32,
    /// The deployment's text, as `skirmish_protocol::commitment` defines it for the game.
    pub text: String,
}

/// What one action, time-out or resignation caused, with the referee's reading of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step<E> {
    /// The events, in order, each tagged by the engine with its audience.
    pub events: Vec<E>,
    /// Whether a new turn began (a new seat to move, or a new round's deployment): every seat to
    /// act gets a fresh deadline.
    pub new_turn: bool,
    /// Deployments fixed by this step.
    pub sealed: Vec<Sealed>,
    /// A round whose deployments the game revealed with the event at the index given
    /// (`(index, round)`), to open right after it.
    pub revealed: Option<(usize, u32)>,
}

impl<E> Step<E> {
    /// A step with no events.
    pub fn none() -> Step<E> {
        Step {
            events: Vec::new(),
            new_turn: false,
            sealed: Vec::new(),
            revealed: None,
        }
    }
}

/// What one player may ask of the others, who accept or decline it (docs/rules.md says which games
/// have which, and what each does to the score). A server allows them in casual rooms only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Offer {
    /// End the game drawn.
    Draw,
    /// Take back the asker's last move (and the replies after it), so that it is the asker's turn
    /// again (悔棋).
    Takeback,
}

/// A finished match's result in the shape every game shares: points and placings per seat, in
/// seat order, and the name of how it ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Standing {
    /// Points per seat: plane battle's totals; 1, 0.5 or 0 in a two-player game.
    pub points: Vec<f64>,
    /// Place per seat, 1 for the winner; tied seats share a place.
    pub placings: Vec<u8>,
    /// How it ended, as the protocol names it (`five`, `flag_captured`, `rounds`, `resigned`).
    pub end: &'static str,
}

impl Standing {
    /// A two-player result: the winner takes 1 point and place 1, the loser 0 and place 2; a draw
    /// gives each 0.5 and place 1.
    pub fn two_players(winner: Option<Seat>, end: &'static str) -> Standing {
        let (points, placings) = match winner {
            Some(w) => (
                (0..2).map(|s| if s == w.index() { 1.0 } else { 0.0 }).collect(),
                (0..2).map(|s| if s == w.index() { 1 } else { 2 }).collect(),
            ),
            None => (vec![0.5, 0.5], vec![1, 1]),
        };
        Standing {
            points,
            placings,
            end,
        }
    }
}

/// How a game takes part in duplicate tournaments, where every table of a deal is dealt the same
/// deployments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dealing {
    /// The game has no secret deployment to deal (gomoku: its balance comes from openings).
    Never,
    /// Deployments can be dealt; a tournament deals them unless it says otherwise.
    ByDefault,
    /// Deployments can be dealt when a tournament asks for it.
    OnRequest,
}

/// The generator a dealt deployment is drawn from: seat `seat`'s board in round `round` of the
/// deal whose seed is `deal_seed` (`skirmish_protocol::deal`).
///
/// ChaCha with 12 rounds (`rand_chacha`), whose stream for a seed is fixed by its specification,
/// not by the version of `rand`; seeded with [`SeedableRng::seed_from_u64`] of `deal_seed`
/// mixed with the round and the seat. This is the stream `rand` 0.9's `StdRng` gave for the same
/// seed, so deals published before the change check the same.
pub fn deal_rng(deal_seed: u64, round: u32, seat: Seat) -> ChaCha12Rng {
    let mix = deal_seed ^ (u64::from(round) << 8 | u64::from(seat.0)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    ChaCha12Rng::seed_from_u64(mix)
}

/// The refereeing interface every engine implements: everything a server needs to run a match of
/// the game without knowing which game it is.
pub trait Referee: Game<Error: RuleCode> + Clone + Debug + Send + Sync + Sized + 'static {
    /// The match's settings.
    type Config: Clone + Debug;
    /// Why a config cannot be played.
    type ConfigError: std::error::Error;

    /// The game's name for people (`Plane battle`).
    const NAME: &'static str;
    /// How the game takes part in duplicate tournaments.
    const DEALING: Dealing;

    /// The number of seats a match of `config` has.
    fn seats(config: &Self::Config) -> usize;

    /// A new match, with the step that opens it.
    ///
    /// # Errors
    /// The config cannot be played.
    fn start(config: Self::Config) -> Result<(Self, Step<Self::Event>), Self::ConfigError>;

    /// Whether the seats to act now are deploying or moving.
    fn turn_kind(&self) -> TurnKind;

    /// Who may see `event`: the one place per game that decides it.
    fn audience(event: &Self::Event) -> Audience;

    /// Whether `event` is the one that ends the match (a bot then lets its seat's strategy go).
    fn ends_match(event: &Self::Event) -> bool;

    /// Applies `seat`'s action, with the referee's reading of what it caused.
    ///
    /// # Errors
    /// The rules refuse the action; the state is then unchanged.
    fn act(&mut self, seat: Seat, action: Self::Action) -> Result<Step<Self::Event>, Self::Error>;

    /// Acts on `seat`'s running out of time, as docs/rules.md says for the game (a random legal
    /// deployment or shot, or the loss of the match). An empty step when `seat` has nothing to do.
    fn time_out(&mut self, seat: Seat, rng: &mut dyn RngCore) -> Step<Self::Event>;

    /// Ends the match with `seat` resigning, giving `reason` (cut to what the game records). An
    /// empty step when the match is over.
    fn resign(&mut self, seat: Seat, reason: &str) -> Step<Self::Event>;

    /// `seat`'s dealt deployment when it is to deploy, drawn uniformly among legal ones from
    /// [`deal_rng`]; `None` when the seat has nothing to deploy or the game deals nothing.
    fn deal(&mut self, seat: Seat, deal_seed: u64) -> Option<Step<Self::Event>> {
        let _ = (seat, deal_seed);
        None
    }

    /// The result once the match is over; `None` before.
    fn result(&self) -> Option<Standing>;

    /// Points per seat, in seat order, of a match that the seats in `absent` (indices) did not
    /// come to: by default, as in a game won or lost, the seats present share 1 point and the
    /// absent get 0 (nothing when nobody came).
    fn walkover_points(seats: usize, absent: &[usize]) -> Vec<f64> {
        let present = seats - absent.len();
        (0..seats)
            .map(|s| {
                if absent.contains(&s) || present == 0 {
                    0.0
                } else {
                    #[allow(clippy::cast_precision_loss, reason = "a handful of seats")]
                    let share = 1.0 / present as f64;
                    share
                }
            })
            .collect()
    }

    /// `config` set to play the opening named `opening` (or none, for `None`), for a tournament
    /// that plays its openings in turn; `None` when the game has no openings.
    fn with_opening(config: &Self::Config, opening: Option<&str>) -> Option<Self::Config> {
        let _ = (config, opening);
        None
    }

    /// The action by which a seat makes `offer` (`answer` `None`) or answers the other side's
    /// (`Some(accept)`); `None` when the game has no such offer (by default, none: plane battle
    /// and junqi have no takeback, since a shot or a collision has already told the other side
    /// something).
    fn offer_action(offer: Offer, answer: Option<bool>) -> Option<Self::Action> {
        let _ = (offer, answer);
        None
    }

    /// The offer `action` makes or answers, if it is one (a server refuses them in tournament
    /// matches).
    fn offer_of(action: &Self::Action) -> Option<Offer> {
        let _ = action;
        None
    }

    /// The offer waiting for `seat`'s answer, if any (a server answers at once for a bot's seat).
    fn offer_to(&self, seat: Seat) -> Option<Offer> {
        let _ = seat;
        None
    }

    /// Whether the match is over.
    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }
}

/// Cuts `reason` to at most `max` bytes at a character boundary.
pub(crate) fn cut(reason: &str, max: usize) -> String {
    let mut end = reason.len().min(max);
    while !reason.is_char_boundary(end) {
        end -= 1;
    }
    reason[..end].to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;
    use rand::rngs::StdRng;

    #[test]
    fn the_deal_generator_is_the_stream_std_rng_gave() {
        // Deals and rooms stored before the generator was named restore the same way.
        for seed in [0, 7, u64::MAX] {
            let mut a = deal_rng(seed, 3, Seat(1));
            let mix = seed ^ (3u64 << 8 | 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let mut b = StdRng::seed_from_u64(mix);
            for _ in 0..64 {
                assert_eq!(a.random::<u64>(), b.random::<u64>());
            }
        }
    }

    #[test]
    fn a_room_generator_is_the_stream_std_rng_gave() {
        // A room's generator is ChaCha12 from its stored 32-byte seed: journals written while it
        // was `StdRng` replay the same default actions and salts.
        let seed = [7u8; 32];
        let mut a = ChaCha12Rng::from_seed(seed);
        let mut b = StdRng::from_seed(seed);
        for _ in 0..64 {
            assert_eq!(a.random::<u64>(), b.random::<u64>());
        }
    }

    #[test]
    fn reasons_are_cut_at_a_character_boundary() {
        assert_eq!(cut("héllo", 2), "h");
        assert_eq!(cut("abc", 10), "abc");
    }
}
