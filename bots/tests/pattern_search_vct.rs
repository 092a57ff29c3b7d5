//! `pattern-search`'s VCT search (victory by continuous threats) on positions built for it and
//! in games through the referee: a built win found (by `threat-search`'s solver too) and played
//! out by the engine, a built win refused because the defender has a counter-four, every win it
//! claims in random positions won against `threat-search`'s defence (by a player following the
//! search's line and by the engine), renju black's forbidden points, and the engine's own five
//! before the opponent's. No timing: the engines run on node limits.

mod common;

use common::gomoku::{budget, game_from_points, p, place, play_out, random_positions, view_of_moves};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use skirmish_bots::gomoku::pattern_search::VERIFY_NODES_PER_SECOND;
use skirmish_bots::gomoku::pattern_search::board::{BLACK, Position, WHITE, side_of};
use skirmish_bots::gomoku::pattern_search::eval::WIN_THRESHOLD;
use skirmish_bots::gomoku::pattern_search::line::{C_F4, C_FIVE};
use skirmish_bots::gomoku::pattern_search::search::VCT_TABLE_BITS;
use skirmish_bots::gomoku::pattern_search::vcf::{self, Outcome, Vcf};
use skirmish_bots::gomoku::pattern_search::vct::{self, Vct};
use skirmish_bots::gomoku::threat_search::find_vct;
use skirmish_bots::gomoku::{Budget, GomokuStrategy, PatternSearch, ThreatSearch};
use skirmish_games::gomoku::{Action, Board, Gomoku, Move, Point, Rule, Stone, View};
use skirmish_games::{Game, Seat, Viewer};

fn board_of(black: &[&str], white: &[&str]) -> Board {
    let mut board = Board::new(15);
    for s in black {
        board.set(p(s), Some(Stone::Black));
    }
    for s in white {
        board.set(p(s), Some(Stone::White));
    }
    board
}

fn view_of(board: &Board, rule: Rule, to_move: Stone) -> View {
    let moves: Vec<Move> = board
        .points()
        .filter_map(|q| board.get(q).map(|stone| Move { stone, point: q }))
        .collect();
    view_of_moves(rule, moves, to_move)
}

fn vcf_of(board: &Board, rule: Rule, stone: Stone) -> Outcome {
    let mut pos = Position::new(board, rule, side_of(stone));
    Vcf::new(14).solve(&mut pos, vcf::ROOT_DEPTH, 200_000, &mut Vec::new())
}

/// Threats the tests' VCTs may chain (the built positions need at most three).
const BUILT_DEPTH: u32 = 6;

fn vct_of(board: &Board, rule: Rule, stone: Stone, line: &mut Vec<Point>) -> Outcome {
    let mut pos = Position::new(board, rule, side_of(stone));
    let mut raw = Vec::new();
    let outcome = Vct::new(16).solve(&mut pos, BUILT_DEPTH, 400_000, &mut raw);
    *line = raw.iter().map(|&i| pos.point(i)).collect();
    outcome
}

/// The referee's game from `board`'s stones (any order: the opening places them as they are)
/// with `to_move` to play.
fn game_from(board: &Board, rule: Rule, to_move: Stone) -> Gomoku {
    let mut black: Vec<Point> = Vec::new();
    let mut white: Vec<Point> = Vec::new();
    for q in board.points() {
        match board.get(q) {
            Some(Stone::Black) => black.push(q),
            Some(Stone::White) => white.push(q),
            None => {}
        }
    }
    // `Opening::Moves` alternates from black: pad the shorter colour with far corner stones
    // so that the side to move comes out right.
    let spare = ["a1", "o1", "a15", "o15", "a2", "o2", "a14", "o14"];
    let mut spares = spare.iter().map(|s| p(s)).filter(|q| board.get(*q).is_none());
    let want_white = if to_move == Stone::Black {
        black.len()
    } else {
        black.len() - 1
    };
    while white.len() < want_white {
        white.push(spares.next().expect("a free corner"));
    }
    while black.len() < white.len() + usize::from(to_move == Stone::White) {
        black.push(spares.next().expect("a free corner"));
    }
    game_from_points(rule, &black, &white)
}

/// Black h8 i8 (row 8) and j10 j11 (column j): j8 makes two open threes (a win by threes, no
/// four in it), far from white's stones.
const THREES_BLACK: &[&str] = &["h8", "i8", "j10", "j11", "b2"];
const THREES_WHITE: &[&str] = &["a14", "c14", "e14", "o8", "n2"];

#[test]
fn the_vct_search_finds_the_built_win() {
    let board = board_of(THREES_BLACK, THREES_WHITE);
    assert_eq!(vcf_of(&board, Rule::Freestyle, Stone::Black), Outcome::NoWin);
    let mut line = Vec::new();
    assert_eq!(
        vct_of(&board, Rule::Freestyle, Stone::Black, &mut line),
        Outcome::Win
    );
    assert!(line.len() >= 3, "{line:?}");
    // White, to move, has none.
    assert_eq!(
        vct_of(&board, Rule::Freestyle, Stone::White, &mut Vec::new()),
        Outcome::NoWin
    );
    // The reference solver finds one too.
    assert!(find_vct(&board, Rule::Freestyle, Stone::Black, 400_000).is_some());
    // The engine plays the VCT's first threat, decided before the main search (depth 0).
    let mut engine = PatternSearch::with_node_limit(2_000);
    let view = view_of(&board, Rule::Freestyle, Stone::Black);
    let first = place(engine.act(&view, budget(), &mut SmallRng::seed_from_u64(1)));
    let thought = engine.thought().expect("a thought").clone();
    assert!(thought.score > WIN_THRESHOLD, "{first}: {thought:?}");
    assert_eq!(thought.depth, 0, "{thought:?}");
    // And wins through the referee against another engine's defence.
    let winner = play_out(
        game_from(&board, Rule::Freestyle, Stone::Black),
        &mut PatternSearch::with_node_limit(2_000),
        &mut ThreatSearch::with_node_limit(20_000),
        2 * vct::ROOT_DEPTH as usize + 1,
    );
    assert_eq!(winner, Some(Seat(0)));
}

#[test]
fn pattern_search_makes_its_own_five_before_blocking_the_opponents() {
    // Black's h8 i8 j8 k8 (g8 white) and white's c3 d3 e3 f3 (b3 black): both have a five to
    // make, black to move wins at l8.
    let board = board_of(
        &["h8", "i8", "j8", "k8", "b3", "a10"],
        &["g8", "c3", "d3", "e3", "f3", "o14"],
    );
    let view = view_of(&board, Rule::Freestyle, Stone::Black);
    let mut engine = PatternSearch::with_node_limit(1_000);
    assert_eq!(
        place(engine.act(&view, budget(), &mut SmallRng::seed_from_u64(1))),
        p("l8")
    );
    assert!(engine.score().expect("a thought") > WIN_THRESHOLD);
}

#[test]
fn the_vct_search_refuses_when_the_defender_has_a_counter_four() {
    // The built win, but white's d4 e4 f4 (c4 black) and g5 g6 make g4 a four-three: after
    // black's double three at j8, white's g4 is a four black must block at h4, and white's
    // three then becomes a flex four before black's threes can.
    let black: Vec<&str> = THREES_BLACK.iter().copied().chain(["c4"]).collect();
    let white: Vec<&str> = THREES_WHITE
        .iter()
        .copied()
        .chain(["d4", "e4", "f4", "g5", "g6"])
        .collect();
    let board = board_of(&black, &white);
    assert_eq!(vcf_of(&board, Rule::Freestyle, Stone::Black), Outcome::NoWin);
    let mut line = Vec::new();
    assert_eq!(
        vct_of(&board, Rule::Freestyle, Stone::Black, &mut line),
        Outcome::NoWin,
        "{line:?}"
    );
    // The reference solver agrees, and the counter is real: white to move wins by fours.
    assert_eq!(find_vct(&board, Rule::Freestyle, Stone::Black, 400_000), None);
    assert_eq!(vcf_of(&board, Rule::Freestyle, Stone::White), Outcome::Win);
    // Without white's shape the same black stones win: the refusal is the counter-four's doing.
    let board = board_of(&black, THREES_WHITE);
    assert_eq!(
        vct_of(&board, Rule::Freestyle, Stone::Black, &mut line),
        Outcome::Win
    );
}

#[test]
fn under_renju_black_never_threatens_from_a_forbidden_point() {
    // Black's double three at j8 is forbidden under renju: black may win only by another
    // order (a four-three at j8 is allowed), and every black stone of its line is legal when
    // played.
    let board = board_of(THREES_BLACK, THREES_WHITE);
    assert!(board.forbidden(p("j8")).is_some());
    let mut line = Vec::new();
    let outcome = vct_of(&board, Rule::Renju, Stone::Black, &mut line);
    assert_ne!(outcome, Outcome::Unknown);
    if outcome == Outcome::Win {
        assert_ne!(line[0], p("j8"));
        let mut b = board.clone();
        for (n, &q) in line.iter().enumerate() {
            if n % 2 == 0 {
                assert!(b.forbidden(q).is_none(), "black's {q} in {line:?} is forbidden");
                b.set(q, Some(Stone::Black));
            } else {
                b.set(q, Some(Stone::White));
            }
        }
        let last = line[line.len() - 1];
        assert!(
            b.winning_line(last, Stone::Black, Rule::Renju).is_some(),
            "{line:?}"
        );
    }
    // With the four-three made impossible (white at f8 and k8), it has no win; white, with
    // black's shape, wins by the double three.
    let white: Vec<&str> = THREES_WHITE.iter().copied().chain(["f8", "k8"]).collect();
    let board = board_of(THREES_BLACK, &white);
    assert_eq!(
        vct_of(&board, Rule::Renju, Stone::Black, &mut line),
        Outcome::NoWin,
        "{line:?}"
    );
    let board = board_of(THREES_WHITE, THREES_BLACK);
    assert_eq!(vct_of(&board, Rule::Renju, Stone::White, &mut line), Outcome::Win);
}

/// The board as rows of `x` (black), `o` (white) and `.`, the top row first.
fn picture(board: &Board) -> String {
    let mut out = String::new();
    for y in (0..15).rev() {
        out.push_str(&format!("{:>2} ", y + 1));
        for x in 0..15 {
            out.push(match board.get(Point::new(x, y)) {
                Some(Stone::Black) => 'x',
                Some(Stone::White) => 'o',
                None => '.',
            });
        }
        out.push('\n');
    }
    out.push_str("   abcdefghijklmno\n");
    out
}

/// A player that plays the first stone of its own VCT line each turn (its five first), and
/// asserts the search still claims the win: a claim the defender's reply broke shows here.
struct VctPlayer;

impl GomokuStrategy for VctPlayer {
    fn act(&mut self, view: &View, _budget: Budget, _rng: &mut dyn rand::RngCore) -> Action {
        let board = view.board();
        let stone = view.stone_to_move().expect("a stone to move");
        let mut pos = Position::new(&board, view.rule, side_of(stone));
        if pos.has(side_of(stone), C_FIVE) > 0 {
            let five = vcf::find(&pos, side_of(stone), C_FIVE, None).expect("a five point");
            return Action::Place {
                point: pos.point(five),
            };
        }
        let mut raw = Vec::new();
        let outcome = Vct::new(16).solve(&mut pos, BUILT_DEPTH, 2_000_000, &mut raw);
        let line: Vec<Point> = raw.iter().map(|&i| pos.point(i)).collect();
        assert_eq!(
            outcome,
            Outcome::Win,
            "the claim broke after {:?}\n{}",
            view.moves.last(),
            picture(&board)
        );
        Action::Place { point: line[0] }
    }
}

/// Every VCT win the search claims in random positions (and no VCF) is won through the referee
/// against `threat-search`'s defence, by a player that follows the search's own line
/// ([`VctPlayer`]) or by the engine (`engine`).
fn claimed_wins_hold(rule: Rule, seed: u64, games: usize, engine: bool) {
    let (mut wins, mut longest) = (0, 0);
    for (board, stone) in random_positions(seed, games, 30, rule) {
        // The referee's game (padded with corner stones to put `stone` to move), and its board.
        let game = game_from(&board, rule, stone);
        let board = game.view(Viewer::Spectator).board();
        let side = side_of(stone);
        let pos = Position::new(&board, rule, side);
        if pos.has(side, C_FIVE) > 0 || pos.has(side ^ 1, C_FIVE) > 0 || pos.has(side, C_F4) > 0 {
            continue;
        }
        if vcf_of(&board, rule, stone) != Outcome::NoWin {
            continue;
        }
        let mut line = Vec::new();
        if vct_of(&board, rule, stone, &mut line) != Outcome::Win {
            continue;
        }
        wins += 1;
        longest = longest.max(line.len());
        let mut solver = VctPlayer;
        let mut player = PatternSearch::with_node_limit(1_000);
        let attacker: &mut dyn GomokuStrategy = if engine { &mut player } else { &mut solver };
        let mut defender = ThreatSearch::with_node_limit(20_000);
        let (black, white): (&mut dyn GomokuStrategy, &mut dyn GomokuStrategy) = if stone == Stone::Black {
            (attacker, &mut defender)
        } else {
            (&mut defender, attacker)
        };
        let winner = play_out(game, black, white, 4 * vct::ROOT_DEPTH as usize);
        assert_eq!(
            winner,
            Some(stone.seat()),
            "{stone:?} claimed {line:?}\n{board:?}"
        );
    }
    eprintln!("{rule:?}: {wins} VCT wins held, the longest line {longest} plies");
    assert!(wins >= 5, "the sample has VCTs ({wins})");
    assert!(
        longest >= 5,
        "the sample has VCTs past one threat ({longest} plies)"
    );
}

#[test]
fn every_claimed_vct_win_holds_through_the_referee() {
    claimed_wins_hold(Rule::Freestyle, 11, 12, false);
}

#[test]
fn the_engine_wins_every_claimed_vct_through_the_referee() {
    claimed_wins_hold(Rule::Freestyle, 19, 12, true);
}

#[test]
fn every_claimed_vct_win_holds_through_the_referee_under_renju() {
    claimed_wins_hold(Rule::Renju, 13, 12, false);
}

#[test]
fn black_and_white_sides_do_not_share_table_entries() {
    // The same search answers for both colours in turn from one position.
    let board = board_of(THREES_BLACK, THREES_WHITE);
    let mut search = Vct::new(14);
    let mut raw = Vec::new();
    let mut pos = Position::new(&board, Rule::Freestyle, BLACK);
    assert_eq!(
        search.solve(&mut pos, BUILT_DEPTH, 100_000, &mut raw),
        Outcome::Win
    );
    let mut pos = Position::new(&board, Rule::Freestyle, WHITE);
    assert_eq!(
        search.solve(&mut pos, BUILT_DEPTH, 100_000, &mut raw),
        Outcome::NoWin
    );
    pos.pass();
    assert_eq!(
        search.solve(&mut pos, BUILT_DEPTH, 100_000, &mut raw),
        Outcome::Win
    );
}

/// The threat solvers stop at the decision's deadline whatever their node budgets: on a loaded
/// machine a budget sized for the think time can take several times as long (`tests/budgets.rs`
/// holds the whole decision to its time).
#[test]
fn the_threat_solvers_stop_at_their_deadline_whatever_their_node_budget() {
    let mut line = Vec::new();
    let mut checked = 0;
    for (board, stone) in random_positions(3, 20, 30, Rule::Freestyle) {
        let mut pos = Position::new(&board, Rule::Freestyle, side_of(stone));
        let mut free = Vct::new(14);
        free.solve(&mut pos, vct::ROOT_DEPTH, 1_000_000, &mut line);
        if free.nodes() < 20 * vcf::DEADLINE_EVERY {
            continue;
        }
        let mut late = Vct::new(14);
        late.set_deadline(Some(std::time::Instant::now()));
        assert_eq!(
            late.solve(&mut pos, vct::ROOT_DEPTH, 1_000_000, &mut line),
            Outcome::Unknown
        );
        assert!(
            late.nodes() <= 3 * vcf::DEADLINE_EVERY,
            "{} nodes past the deadline (without one: {})",
            late.nodes(),
            free.nodes()
        );
        let mut fours = Vcf::new(14);
        fours.set_deadline(Some(std::time::Instant::now()));
        fours.solve(&mut pos, vcf::ROOT_DEPTH, 1_000_000, &mut line);
        assert!(fours.nodes() <= vcf::DEADLINE_EVERY);
        checked += 1;
    }
    assert!(checked >= 3, "the sample has long VCT searches ({checked})");
}

/// Openings of games `pattern-search` lost as white to figrid's codebook build and to
/// `threat-search`, each up to white's move at which it played a stone that let black win by a
/// VCT (`h6`, `f9`, `e7` and `n5` in turn; VCTs of 1 to 7 threats).
const WALKED_INTO_A_VCT: &[&str] = &[
    "h8 i9 g7 j8 f8",
    "h8 h9 h7 j8 g8 g10 i8",
    "h8 h9 h6 i10 i7 g9 j8 g5 h7 g8 f7",
    "h8 h9 i9 j10 j8 i8 j7 k7 i6 j6 k8 h5 l8 l9 m8 n8 j5 h7 g6 i10 l7 k6 k10 j11 k12 k11 l11 g10 m6",
];

/// On one second's worth of nodes (the engine's own VCT check), no stone it chooses after these
/// openings lets the opponent win by a VCT the solver proves on the same budget: with the check off
/// the first fails, and with 8 refutations allowed instead of 12 the second.
#[test]
fn the_chosen_stone_leaves_the_opponent_no_vct_the_solver_proves() {
    for game in WALKED_INTO_A_VCT {
        let moves: Vec<Move> = game
            .split_whitespace()
            .enumerate()
            .map(|(n, s)| Move {
                stone: if n % 2 == 0 { Stone::Black } else { Stone::White },
                point: p(s),
            })
            .collect();
        let to_move = if moves.len().is_multiple_of(2) {
            Stone::Black
        } else {
            Stone::White
        };
        let view = view_of_moves(Rule::Freestyle, moves, to_move);
        let mut engine = PatternSearch::with_node_limit(100_000);
        let stone = place(engine.act(&view, budget(), &mut SmallRng::seed_from_u64(1)));
        let mut board = view.board();
        board.set(stone, Some(to_move));
        let mut line = Vec::new();
        let theirs = {
            let mut pos = Position::new(&board, Rule::Freestyle, side_of(to_move.other()));
            let mut raw = Vec::new();
            let outcome =
                Vct::new(VCT_TABLE_BITS).solve(&mut pos, vct::ROOT_DEPTH, VERIFY_NODES_PER_SECOND, &mut raw);
            line.extend(raw.iter().map(|&i| pos.point(i)));
            outcome
        };
        assert_ne!(
            theirs,
            Outcome::Win,
            "after {game}, {stone} lets the opponent win by {line:?}"
        );
    }
}
