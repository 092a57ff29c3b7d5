//! Skirmish's rules engines: one module per game, each pure and synchronous (no IO, no async, no clock).
//!
//! Every engine follows the shape of [`Game`]: it says who may act ([`Game::to_act`]), applies one
//! seat's action or refuses it with a precise error and no change of state ([`Game::apply`]), computes
//! what one [`Viewer`] may know ([`Game::view`]), and tags every event it emits with the [`Audience`]
//! allowed to see it. The server forwards what the engine allows and nothing more, so hidden
//! information is decided here, in one place per game.
//!
//! Randomness (a default deployment when a player's time runs out) is passed in, so engines are
//! deterministic given their inputs.

pub mod gomoku;
pub mod junqi;
pub mod plane;
#[cfg(feature = "serde")]
pub mod referee;
mod seat;
pub mod tic_tac_toe;

pub use seat::{Audience, PerSeat, Seat, Viewer};

/// Reads a board coordinate written as a column letter and a number from 1 (`E5`, `h8`, either
/// case): the letter's index from `a` (0) and the number less one, or `None` for anything else
/// (a missing or non-ASCII letter, no digits, more than two, or the number 0).
fn letter_and_number(s: &str) -> Option<(u8, u8)> {
    let mut chars = s.chars();
    let letter = chars.next()?.to_ascii_lowercase();
    if !letter.is_ascii_lowercase() {
        return None;
    }
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let number: u8 = digits.parse().ok()?;
    (number > 0).then(|| (letter as u8 - b'a', number - 1))
}

/// The core every rules engine shares, which the bots search over; [`referee::Referee`] adds what
/// a referee needs.
pub trait Game {
    /// What a seat may do: deploy, fire, place a stone, move a piece.
    type Action;
    /// What one viewer may know now.
    type View;
    /// What happened, with who may see it.
    type Event;
    /// Why an action was refused.
    type Error;
    /// The final result once the match is over.
    type Outcome;

    /// The seats that may act now: several during a secret deployment, one during attacks, none
    /// once the match is over.
    fn to_act(&self) -> Vec<Seat>;

    /// Applies `seat`'s action and returns the events it caused, in order.
    ///
    /// # Errors
    /// Refuses an illegal action with a precise error; the state is then unchanged.
    fn apply(&mut self, seat: Seat, action: Self::Action) -> Result<Vec<Self::Event>, Self::Error>;

    /// What `viewer` may know now.
    fn view(&self, viewer: Viewer) -> Self::View;

    /// Scores and placings once the match is over; `None` before.
    fn outcome(&self) -> Option<&Self::Outcome>;
}
