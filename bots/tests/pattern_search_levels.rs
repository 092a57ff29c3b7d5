//! `pattern-search`'s levels (bots/README.md, "Levels"; the players' 简单 / 中等 / 困难): easy
//! searches at most 2 plies, medium at most 6, and each reaches its depth. On node limits, with
//! no clock, so deterministic.

mod common;

use common::gomoku::{budget, random_positions, view_of_moves};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use skirmish_bots::gomoku::GomokuStrategy;
use skirmish_bots::gomoku::pattern_search::eval::WIN_THRESHOLD;
use skirmish_bots::gomoku::pattern_search::{Level, PatternSearch};
use skirmish_games::gomoku::{Board, Move, Rule, Stone};

/// `level` on node and depth limits alone.
fn unclocked(level: Level) -> PatternSearch {
    PatternSearch::with_level(Level {
        ignore_clock: true,
        ..level
    })
}

/// What `engine` thinks of `board` with `stone` to move: whether it claims a forced win, and the
/// depth it searched to.
fn think(engine: &mut PatternSearch, board: &Board, stone: Stone) -> (bool, u32) {
    let moves: Vec<Move> = board
        .points()
        .filter_map(|q| board.get(q).map(|s| Move { stone: s, point: q }))
        .collect();
    let view = view_of_moves(Rule::Freestyle, moves, stone);
    engine.act(&view, budget(), &mut SmallRng::seed_from_u64(1));
    let thought = engine.thought().expect("a thought");
    (thought.score >= WIN_THRESHOLD, thought.depth)
}

#[test]
fn each_level_searches_no_deeper_than_its_plies() {
    let positions = random_positions(5, 8, 16, Rule::Freestyle);
    for (level, most) in [(Level::EASY, 2), (Level::MEDIUM, 6)] {
        let mut deepest = 0;
        for (board, stone) in positions.iter().step_by(4) {
            let (_, depth) = think(&mut unclocked(level), board, *stone);
            deepest = deepest.max(depth);
        }
        assert!(deepest <= most, "{level:?} searched to {deepest} plies");
        assert!(
            deepest == most,
            "{level:?} never reached its {most} plies: the test is blind"
        );
    }
}

/// A level's node limit holds for each move, not for the engine's life: one engine thinking
/// about one position after another searches the later ones as deep, 5 or 6 of medium's 6 plies
/// (with the limit counted from the engine's first move, 1 or 2).
#[test]
fn a_level_keeps_its_depth_move_after_move() {
    let positions = random_positions(5, 8, 16, Rule::Freestyle);
    let mut engine = unclocked(Level::MEDIUM);
    let depths: Vec<u32> = positions
        .iter()
        .step_by(4)
        .map(|(board, stone)| think(&mut engine, board, *stone).1)
        .collect();
    let later_deep = depths.iter().skip(1).filter(|&&d| d >= 5).count();
    assert!(later_deep >= 15, "depths move after move: {depths:?}");
}
