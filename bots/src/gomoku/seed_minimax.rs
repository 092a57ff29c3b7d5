//! The `seed-minimax` strategy: the seed paper's player (seed 001, summarised in
//! `shared/seeds/README.md`), a depth-2 minimax with alpha-beta over the empty points within
//! Chebyshev distance 2 of a stone, scored by a table of line patterns.

use rand::RngCore;
use skirmish_games::gomoku::{Action, Board, DIRECTIONS, Point, Rule, Stone, View};

use super::{Budget, GomokuStrategy};

/// Value of an open four (`.xxxx.`), from the seed paper's pattern table.
pub const OPEN_FOUR: i64 = 1000;
/// Value of a closed four (a run of four with one open end), from the seed paper's table.
pub const CLOSED_FOUR: i64 = 300;
/// Value of an open three (`.xxx.`), from the seed paper's table.
pub const OPEN_THREE: i64 = 120;
/// Value of a closed three (a run of three with one open end), from the seed paper's table.
pub const CLOSED_THREE: i64 = 30;
/// Value of an open two (`.xx.`). The paper's table lists the open two but its number did not
/// survive the text extraction; 10 is our choice (below a closed three, as the table's order
/// implies). Closed twos score 0, as in the paper.
pub const OPEN_TWO: i64 = 10;
/// The score of a five: a win, larger than any sum of patterns.
pub const FIVE: i64 = 1_000_000_000;

/// Candidate points lie within this Chebyshev distance of a stone (the paper's choice: 2 points).
pub const NEIGHBOURHOOD: u8 = 2;

/// The seed paper's minimax player: depth 2 (its move, the opponent's reply), alpha-beta,
/// evaluation = its patterns minus the opponent's. Ties go to the first candidate in board order
/// (row by row from the bottom), so it is deterministic. It ignores the time budget: depth 2 takes
/// well under a second on 15x15.
#[derive(Clone, Copy, Debug, Default)]
pub struct SeedMinimax;

impl GomokuStrategy for SeedMinimax {
    fn act(&mut self, view: &View, _budget: Budget, _rng: &mut dyn RngCore) -> Action {
        let Some(me) = view.stone_to_move() else {
            return Action::Resign {
                reason: Some("the game is over".to_owned()),
            };
        };
        let mut board = view.board();
        match best_move(&mut board, view.rule, me) {
            Some(point) => Action::Place { point },
            None => Action::Resign {
                reason: Some("no legal point".to_owned()),
            },
        }
    }
}

/// The move the seed player chooses for `me` on `board` under `rule`, or `None` when no point is
/// legal. On an empty board, the centre.
pub fn best_move(board: &mut Board, rule: Rule, me: Stone) -> Option<Point> {
    let size = board.size();
    if board.stones() == 0 {
        return Some(Point::new(size / 2, size / 2));
    }
    let mine = legal_candidates(board, rule, me);
    let mut best: Option<(i64, Point)> = None;
    let mut alpha = -FIVE * 4;
    for &p in &mine {
        board.set(p, Some(me));
        if board.winning_line(p, me, rule).is_some() {
            board.set(p, None);
            return Some(p);
        }
        // The opponent replies to minimise our evaluation.
        let replies = legal_candidates(board, rule, me.other());
        let mut worst = i64::MAX;
        for &q in &replies {
            board.set(q, Some(me.other()));
            let value = if board.winning_line(q, me.other(), rule).is_some() {
                -FIVE
            } else {
                evaluate(board, rule, me)
            };
            board.set(q, None);
            worst = worst.min(value);
            if worst <= alpha {
                break; // alpha cut: this move is no better than one we have
            }
        }
        if replies.is_empty() {
            worst = evaluate(board, rule, me);
        }
        board.set(p, None);
        if best.is_none_or(|(v, _)| worst > v) {
            best = Some((worst, p));
            alpha = alpha.max(worst);
        }
    }
    best.map(|(_, p)| p)
}

/// Empty points within [`NEIGHBOURHOOD`] of a stone where `stone` may play (under renju, black
/// skips forbidden points), in board order.
fn legal_candidates(board: &Board, rule: Rule, stone: Stone) -> Vec<Point> {
    let size = board.size();
    let near = |p: Point| {
        let lo = |v: u8| v.saturating_sub(NEIGHBOURHOOD);
        let hi = |v: u8| (v + NEIGHBOURHOOD).min(size - 1);
        (lo(p.y)..=hi(p.y)).any(|y| (lo(p.x)..=hi(p.x)).any(|x| board.get(Point::new(x, y)).is_some()))
    };
    board
        .empty_points()
        .filter(|&p| near(p))
        .filter(|&p| !(rule == Rule::Renju && stone == Stone::Black) || board.forbidden(p).is_none())
        .collect()
}

/// The paper's static evaluation from `me`'s side: the sum of `me`'s patterns minus the sum of
/// the opponent's, each run of stones scored by its length and open ends.
pub fn evaluate(board: &Board, rule: Rule, me: Stone) -> i64 {
    patterns(board, rule, me) - patterns(board, rule, me.other())
}

/// The sum of `stone`'s patterns: every maximal run of `stone` along a line, scored by length and
/// by how many of its two ends are empty points.
fn patterns(board: &Board, rule: Rule, stone: Stone) -> i64 {
    let size = board.size();
    let mut total = 0;
    for p in board.points() {
        if board.get(p) != Some(stone) {
            continue;
        }
        for dir in DIRECTIONS {
            // Count each run once, from its first stone.
            if p.step(dir, -1, size).is_some_and(|q| board.get(q) == Some(stone)) {
                continue;
            }
            let mut len = 1;
            while p
                .step(dir, len, size)
                .is_some_and(|q| board.get(q) == Some(stone))
            {
                len += 1;
            }
            let open = |q: Option<Point>| q.is_some_and(|q| board.get(q).is_none());
            let ends = u8::from(open(p.step(dir, -1, size))) + u8::from(open(p.step(dir, len, size)));
            total += match (len, ends) {
                (l, _) if l >= 5 && rule.wins(stone, l as usize) => FIVE,
                (l, _) if l >= 5 => 0,
                (4, 2) => OPEN_FOUR,
                (4, 1) => CLOSED_FOUR,
                (3, 2) => OPEN_THREE,
                (3, 1) => CLOSED_THREE,
                (2, 2) => OPEN_TWO,
                _ => 0,
            };
        }
    }
    total
}
