//! The `random` strategy: a uniformly random legal layout and a uniformly random legal move.

use rand::RngCore;
use rand::seq::IndexedRandom;
use skirmish_games::junqi::{Action, Layout, Piece, Position, View};
use skirmish_games::{Seat, Viewer};

use super::{Budget, JunqiStrategy};

/// Deploys a uniformly random legal layout and plays a uniformly random legal move.
///
/// Legal moves do not depend on hidden ranks (only on where pieces stand and which of one's own
/// can move), so the seat's view is enough to list them exactly.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomMove;

impl JunqiStrategy for RandomMove {
    fn deploy(&mut self, _view: &View, _budget: Budget, rng: &mut dyn RngCore) -> Result<Layout, String> {
        Ok(Layout::random(rng))
    }

    fn act(&mut self, view: &View, _budget: Budget, rng: &mut dyn RngCore) -> Action {
        let Viewer::Seat(seat) = view.viewer else {
            return resign("a spectator cannot move");
        };
        let position = own_side_position(view, seat);
        match position.legal_moves(seat).choose(rng) {
            Some(mv) => Action::Move {
                from: mv.from,
                to: mv.to,
            },
            None => resign("no legal move"),
        }
    }
}

fn resign(reason: &str) -> Action {
    Action::Resign {
        reason: Some(reason.to_owned()),
    }
}

/// The position as `seat` knows it: its own pieces with their ranks, and each enemy piece as a
/// stand-in of a movable rank (its true rank does not change which moves are legal for `seat`).
pub fn own_side_position(view: &View, seat: Seat) -> Position {
    let mut position = Position::empty(view.to_move.unwrap_or(seat));
    for piece in &view.pieces {
        let rank = piece.rank.unwrap_or(skirmish_games::junqi::Rank::Captain);
        position.put(
            piece.post,
            Some(Piece {
                owner: piece.owner,
                rank,
            }),
        );
    }
    position.set_quiet_moves(view.quiet_moves);
    position
}
