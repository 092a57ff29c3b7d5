//! What one gomoku player may ask of the other (docs/rules.md, gomoku, "Draw offers and
//! takebacks"): a draw, which ends the game drawn when accepted, and a takeback (悔棋), which
//! takes the asker's last stone off the board, with the other's reply after it, so that it is the
//! asker's turn again.
//!
//! Each waits for the other player's answer; a draw offer lapses when the other player places a
//! stone, a takeback when anyone does. A seat may offer a draw once, and ask for a takeback once,
//! between two of its own stones, and is granted at most [`MAX_TAKEBACKS`] takebacks a game. So a
//! game has at most `size² + 4 × MAX_TAKEBACKS` stones placed (each takeback puts back at most two
//! points), each followed by at most two offers and their two answers: what a game costs to keep
//! is bounded by its board.

use super::{End, Event, Gomoku, Move, RuleError, Stone, other};
use crate::Seat;

/// The most takebacks one seat is granted in a game: 3, as in the casual rooms of the Chinese
/// gomoku sites, where 悔棋 is usually counted out in threes.
pub const MAX_TAKEBACKS: u8 = 3;

/// The offers waiting for an answer, and the takebacks granted so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Offers {
    /// The seat whose draw offer waits for the other's answer.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub draw: Option<Seat>,
    /// The seat whose takeback waits for the other's answer.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub takeback: Option<Seat>,
    /// Takebacks granted so far, per seat (black's, white's), at most [`MAX_TAKEBACKS`] each.
    #[cfg_attr(feature = "serde", serde(default))]
    pub taken_back: [u8; 2],
}

impl Offers {
    /// `seat` placed a stone: the other's draw offer lapses, and any takeback.
    pub(super) fn placed(&mut self, seat: Seat) {
        if self.draw == Some(other(seat)) {
            self.draw = None;
        }
        self.takeback = None;
    }

    /// The takebacks `seat` may still be granted this game.
    pub fn takebacks_left(&self, seat: Seat) -> u8 {
        self.taken_back
            .get(seat.index())
            .map_or(0, |used| MAX_TAKEBACKS.saturating_sub(*used))
    }
}

impl Gomoku {
    /// The offers waiting for an answer, and the takebacks granted so far.
    pub fn offers(&self) -> &Offers {
        &self.offers
    }

    /// How many stones `seat`'s takeback would take off: 1 when the last stone is its own, 2
    /// when the last is the other's reply to its own, after the opening.
    ///
    /// # Errors
    /// [`RuleError::NothingToTakeBack`] when `seat` has no stone of its own there.
    pub fn takeback_size(&self, seat: Seat) -> Result<usize, RuleError> {
        let stone = Stone::of_seat(seat).ok_or(RuleError::NoSuchSeat(seat))?;
        let played = &self.moves[self.opening..];
        match played {
            [.., last] if last.stone == stone => Ok(1),
            [.., own, _] if own.stone == stone => Ok(2),
            _ => Err(RuleError::NothingToTakeBack),
        }
    }

    pub(super) fn offer_draw(&mut self, seat: Seat) -> Result<Vec<Event>, RuleError> {
        if self.offers.draw.is_some() {
            return Err(RuleError::DrawPending);
        }
        if self.asked[seat.index()].draw {
            return Err(RuleError::DrawOfferedAlready);
        }
        self.offers.draw = Some(seat);
        self.asked[seat.index()].draw = true;
        Ok(vec![Event::DrawOffered { seat }])
    }

    pub(super) fn answer_draw(&mut self, seat: Seat, accept: bool) -> Result<Vec<Event>, RuleError> {
        let offered_by = other(seat);
        if self.offers.draw != Some(offered_by) {
            return Err(RuleError::NoDrawOffer);
        }
        self.offers.draw = None;
        if accept {
            self.offers.takeback = None;
            Ok(self.finish(None, End::DrawAgreed { offered_by }))
        } else {
            Ok(vec![Event::DrawDeclined { seat }])
        }
    }

    pub(super) fn ask_takeback(&mut self, seat: Seat) -> Result<Vec<Event>, RuleError> {
        if self.offers.takeback.is_some() {
            return Err(RuleError::TakebackPending);
        }
        if self.asked[seat.index()].takeback {
            return Err(RuleError::TakebackAskedAlready);
        }
        if self.offers.takebacks_left(seat) == 0 {
            return Err(RuleError::TakebackLimit);
        }
        self.takeback_size(seat)?;
        self.offers.takeback = Some(seat);
        self.asked[seat.index()].takeback = true;
        Ok(vec![Event::TakebackAsked { seat }])
    }

    pub(super) fn answer_takeback(&mut self, seat: Seat, accept: bool) -> Result<Vec<Event>, RuleError> {
        let asker = other(seat);
        if self.offers.takeback != Some(asker) {
            return Err(RuleError::NoTakeback);
        }
        self.offers.takeback = None;
        if !accept {
            return Ok(vec![Event::TakebackDeclined { seat }]);
        }
        // Nothing was placed since the request (a stone clears it): the same stones come off.
        let count = self
            .takeback_size(asker)
            .expect("checked when asked, and nothing placed since");
        let moves = self.undo(count);
        self.offers.taken_back[asker.index()] += 1;
        // The position changed: an offer made on the old one no longer stands. The asker's
        // request stays counted until its next stone: one takeback between two stones.
        self.offers.draw = None;
        Ok(vec![Event::TakenBack { seat: asker, moves }])
    }

    /// Takes the last `count` stones off the board: the position is the one before them, with
    /// the same colour to move as then. Returns them in the order they were played.
    fn undo(&mut self, count: usize) -> Vec<Move> {
        let from = self.moves.len() - count;
        let taken: Vec<Move> = self.moves.drain(from..).collect();
        for m in &taken {
            self.board.set(m.point, None);
        }
        taken
    }
}
