//! Helpers for the gomoku strategy tests (`gomoku_strategies.rs`, `pattern_search.rs`,
//! `pattern_search_vct.rs`): positions written as point names, views of them, a budget.

use std::time::Duration;

use skirmish_bots::gomoku::Budget;
use skirmish_games::Viewer;
use skirmish_games::gomoku::{Action, Move, Offers, Point, Rule, Stone, View};

/// The point named `s` (`h8`: column letter, row from 1 at the bottom).
pub fn p(s: &str) -> Point {
    s.parse().expect("a point name")
}

/// A view of a 15x15 position under `rule` whose stones are `moves` (all counted as the opening),
/// `to_move` to play.
pub fn view_of_moves(rule: Rule, moves: Vec<Move>, to_move: Stone) -> View {
    View {
        viewer: Viewer::Seat(to_move.seat()),
        size: 15,
        rule,
        opening: moves.len(),
        moves,
        to_move: Some(to_move.seat()),
        forbidden: Vec::new(),
        outcome: None,
        offers: Offers::default(),
    }
}

/// A view of a freestyle (or `rule`) position with the given stones, `to_move` to play.
pub fn view(rule: Rule, black: &[&str], white: &[&str], to_move: Stone) -> View {
    let stones = |names: &[&str], stone: Stone| -> Vec<Move> {
        names.iter().map(|s| Move { stone, point: p(s) }).collect()
    };
    let mut moves = stones(black, Stone::Black);
    moves.extend(stones(white, Stone::White));
    view_of_moves(rule, moves, to_move)
}

/// One second a move, no clock.
pub fn budget() -> Budget {
    Budget::new(0, Duration::from_secs(1))
}

/// The point of a stone's action; panics on any other action.
pub fn place(action: Action) -> Point {
    match action {
        Action::Place { point } => point,
        other => panic!("expected a stone, got {other:?}"),
    }
}
