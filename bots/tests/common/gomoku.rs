//! Helpers for the gomoku strategy tests (`gomoku_strategies.rs`, `pattern_search.rs`,
//! `pattern_search_vct.rs`): positions written as point names, views and games of them, a
//! budget, and a game played out between two strategies.

use std::time::Duration;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use skirmish_bots::gomoku::{Budget, GomokuStrategy};
use skirmish_games::gomoku::{
    Action, Board, Config, Gomoku, Move, Offers, Opening, Point, Rule, Stone, View,
};
use skirmish_games::{Game, Seat, Viewer};

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

/// A 15x15 game under `rule` opened with `black`'s and `white`'s stones, alternating from black
/// (the longer list's extra stones last).
pub fn game_from_points(rule: Rule, black: &[Point], white: &[Point]) -> Gomoku {
    let mut points = Vec::new();
    for i in 0..black.len().max(white.len()) {
        points.extend(black.get(i).copied());
        points.extend(white.get(i).copied());
    }
    Gomoku::new(Config {
        size: 15,
        rule,
        opening: Some(Opening::Moves(points)),
    })
    .expect("a valid test position")
    .0
}

/// Plays `game` out for at most `max_stones` stones and returns the winner; under renju, no
/// black stone may be one the referee lists as forbidden.
pub fn play_out(
    mut game: Gomoku,
    black: &mut dyn GomokuStrategy,
    white: &mut dyn GomokuStrategy,
    max_stones: usize,
) -> Option<Seat> {
    let mut rng = SmallRng::seed_from_u64(7);
    for _ in 0..max_stones {
        let Some(&seat) = game.to_act().first() else {
            break;
        };
        let view = game.view(Viewer::Seat(seat));
        let player: &mut dyn GomokuStrategy = if seat.0 == 0 { &mut *black } else { &mut *white };
        let action = player.act(&view, budget(), &mut rng);
        if let Action::Place { point } = &action {
            assert!(
                seat.0 == 1 || !view.forbidden.contains(point),
                "black chose forbidden {point}"
            );
        }
        game.apply(seat, action).expect("the referee accepts every move");
    }
    game.outcome().and_then(|o| o.winner)
}

/// Positions from `games` games of random play near the centre (up to `stones` stones each, black
/// never on a renju forbidden point under `rule`), each with the side to move.
pub fn random_positions(seed: u64, games: usize, stones: usize, rule: Rule) -> Vec<(Board, Stone)> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut board = Board::new(15);
        let mut stone = Stone::Black;
        for _ in 0..stones {
            let q = Point::new(rng.random_range(3..12), rng.random_range(3..12));
            if board.get(q).is_some()
                || (stone == Stone::Black && board.forbidden(q).is_some() && rule == Rule::Renju)
            {
                continue;
            }
            board.set(q, Some(stone));
            if board.winning_line(q, stone, rule).is_some() {
                break;
            }
            stone = stone.other();
            out.push((board.clone(), stone));
        }
    }
    out
}
