//! `pattern-search` on positions built for it and in whole games through the referee: its VCF
//! solver's wins (checked against `threat-search`'s solver and played out through the
//! referee), its refusal of a VCF when the defender has a counter-four, its defence against the
//! opponent's VCF, a mate found by the main search at shallow depth, renju legality as black,
//! and wins against the seed player. No timing: the engine runs on node limits.

mod common;

use common::gomoku::{budget, game_from_points, p, place, play_out, random_positions, view};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use skirmish_bots::gomoku::pattern_search::board::{BLACK, Position, WHITE, side_of};
use skirmish_bots::gomoku::pattern_search::eval::{WIN_THRESHOLD, Weights};
use skirmish_bots::gomoku::pattern_search::search::{Limits, Searcher};
use skirmish_bots::gomoku::pattern_search::time::Clock;
use skirmish_bots::gomoku::pattern_search::vcf::{self, Outcome, Vcf};
use skirmish_bots::gomoku::threat_search::find_vcf;
use skirmish_bots::gomoku::{GomokuStrategy, PatternSearch, RandomStone, SeedMinimax};
use skirmish_games::gomoku::{
    Action, Board, Config, Gomoku, Move, Offers, Opening, Point, Rule, Stone, View, openings,
};
use skirmish_games::{Game, Seat, Viewer};

fn rng() -> SmallRng {
    SmallRng::seed_from_u64(7)
}

/// Black to move wins by fours: h8 i8 j8 (row 8, white g8) and h7 i7 j7 (row 7, white g7) and
/// k9 k10 (column k).
const VCF_BLACK: &[&str] = &["h8", "i8", "j8", "h7", "i7", "j7", "k9", "k10"];
const VCF_WHITE: &[&str] = &["g8", "g7", "k11", "a1", "c1", "e1", "a15", "o15"];

/// Whether `line` (attacker and defender alternating, from `board` with `attacker` to move) is
/// a real VCF: every defender move is the attacker's only five point, and the attacker's last
/// stone makes five through the referee.
fn line_wins(board: &Board, rule: Rule, attacker: Stone, line: &[Point]) -> bool {
    let mut points = Vec::new();
    // An opening of the board's stones in play order is not needed: the referee takes the
    // stones as an opening (`Opening::Moves` alternates from black), so build the position by
    // replaying the line on a copy of the board and asking the rules engine about fives.
    let mut b = board.clone();
    for (n, &q) in line.iter().enumerate() {
        let stone = if n % 2 == 0 { attacker } else { attacker.other() };
        if b.get(q).is_some() {
            return false;
        }
        b.set(q, Some(stone));
        points.push(q);
        let five = b.winning_line(q, stone, rule).is_some();
        if n + 1 == line.len() {
            return n % 2 == 0 && five;
        }
        if five {
            return false;
        }
    }
    false
}

#[test]
fn the_vcf_solver_finds_the_built_win_and_the_engine_plays_it_out() {
    let v = view(Rule::Freestyle, VCF_BLACK, VCF_WHITE, Stone::Black);
    let board = v.board();
    let mut pos = Position::new(&board, Rule::Freestyle, BLACK);
    let mut line = Vec::new();
    let mut solver = Vcf::new(14);
    assert_eq!(
        solver.solve(&mut pos, vcf::ROOT_DEPTH, 100_000, &mut line),
        Outcome::Win
    );
    let points: Vec<Point> = line.iter().map(|&i| pos.point(i)).collect();
    assert!(
        line_wins(&board, Rule::Freestyle, Stone::Black, &points),
        "{points:?}"
    );
    // White to move instead has none.
    let mut pos = Position::new(&board, Rule::Freestyle, WHITE);
    assert_eq!(
        solver.solve(&mut pos, vcf::ROOT_DEPTH, 100_000, &mut line),
        Outcome::NoWin
    );
    // The engine plays it and says so.
    let mut engine = PatternSearch::with_node_limit(2_000);
    let first = place(engine.act(&v, budget(), &mut rng()));
    assert_eq!(first, points[0]);
    assert!(engine.score().expect("a thought") > WIN_THRESHOLD);
    assert_eq!(engine.pv().expect("a thought"), points.as_slice());
}

#[test]
fn the_vcf_solver_refuses_when_the_defender_has_a_counter_four() {
    // The built VCF, but white has a closed four on row 13 (e13 black, f13-i13 white): black
    // must block at j13, which is no four of black's, so no VCF starts.
    let black: Vec<&str> = VCF_BLACK.iter().copied().chain(["e13"]).collect();
    let white: Vec<&str> = VCF_WHITE
        .iter()
        .copied()
        .chain(["f13", "g13", "h13", "i13"])
        .collect();
    let v = view(Rule::Freestyle, &black, &white, Stone::Black);
    let mut pos = Position::new(&v.board(), Rule::Freestyle, BLACK);
    let mut line = Vec::new();
    assert_eq!(
        Vcf::new(14).solve(&mut pos, vcf::ROOT_DEPTH, 100_000, &mut line),
        Outcome::NoWin
    );
    // Without white's four it wins (the refusal is the counter-four's doing).
    let v2 = view(Rule::Freestyle, &black, VCF_WHITE, Stone::Black);
    let mut pos = Position::new(&v2.board(), Rule::Freestyle, BLACK);
    assert_eq!(
        Vcf::new(14).solve(&mut pos, vcf::ROOT_DEPTH, 100_000, &mut line),
        Outcome::Win
    );
    // The engine blocks.
    let mut engine = PatternSearch::with_node_limit(2_000);
    assert_eq!(place(engine.act(&v, budget(), &mut rng())), p("j13"));
}

#[test]
fn the_vcf_solver_never_misses_a_vcf_the_reference_solver_finds() {
    let mut solver = Vcf::new(16);
    let mut line = Vec::new();
    let (mut wins, mut longest) = (0, 0);
    for (board, stone) in random_positions(5, 60, 40, Rule::Freestyle) {
        let mut pos = Position::new(&board, Rule::Freestyle, side_of(stone));
        if pos.has(
            side_of(stone),
            skirmish_bots::gomoku::pattern_search::line::C_FIVE,
        ) > 0
        {
            continue;
        }
        let reference = find_vcf(&board, Rule::Freestyle, stone, 200_000).is_some();
        let ours = solver.solve(&mut pos, vcf::ROOT_DEPTH, 400_000, &mut line);
        assert_ne!(ours, Outcome::Unknown);
        if reference {
            assert_eq!(ours, Outcome::Win, "missed a VCF\n{board:?}");
        }
        if ours == Outcome::Win {
            let points: Vec<Point> = line.iter().map(|&i| pos.point(i)).collect();
            assert!(
                line_wins(&board, Rule::Freestyle, stone, &points),
                "{points:?}\n{board:?}"
            );
            wins += 1;
            longest = longest.max(points.len());
        }
    }
    eprintln!("{wins} VCFs, the longest {longest} plies");
    assert!(wins >= 20, "the sample has VCFs ({wins})");
    assert!(longest >= 9, "the sample has long VCFs ({longest} plies)");
}

#[test]
fn pattern_search_leaves_the_opponent_no_vcf() {
    // The built VCF with white to move (black has one more stone, far away).
    let mut v = view(Rule::Freestyle, VCF_BLACK, VCF_WHITE, Stone::White);
    v.moves.push(Move {
        stone: Stone::Black,
        point: p("o1"),
    });
    let mut engine = PatternSearch::with_node_limit(3_000);
    let point = place(engine.act(&v, budget(), &mut rng()));
    let mut board = v.board();
    board.set(point, Some(Stone::White));
    assert!(
        find_vcf(&board, Rule::Freestyle, Stone::Black, 200_000).is_none(),
        "after white's {point}, black still has a VCF"
    );
    // And in random positions: whenever some move stops the opponent's VCF, the engine's does.
    let mut checked = 0;
    for (board, stone) in random_positions(9, 40, 24, Rule::Freestyle) {
        let mut pos = Position::new(&board, Rule::Freestyle, side_of(stone));
        let me = side_of(stone);
        use skirmish_bots::gomoku::pattern_search::line::{C_F4, C_FIVE};
        if pos.has(me, C_FIVE) > 0 || pos.has(me, C_F4) > 0 || pos.has(me ^ 1, C_FIVE) > 0 {
            continue;
        }
        let mut line = Vec::new();
        if Vcf::new(12).solve(&mut pos, vcf::ROOT_DEPTH, 100_000, &mut line) == Outcome::Win {
            continue;
        }
        pos.pass();
        let threat = Vcf::new(12).solve(&mut pos, vcf::ROOT_DEPTH, 100_000, &mut line) == Outcome::Win;
        pos.pass();
        if !threat {
            continue;
        }
        let stoppable = board.empty_points().any(|q| {
            let mut b = board.clone();
            b.set(q, Some(stone));
            find_vcf(&b, Rule::Freestyle, stone.other(), 100_000).is_none()
        });
        if !stoppable {
            continue;
        }
        let mut moves: Vec<Move> = Vec::new();
        for q in board.points() {
            if let Some(s) = board.get(q) {
                moves.push(Move { stone: s, point: q });
            }
        }
        let v = View {
            viewer: Viewer::Seat(stone.seat()),
            size: 15,
            rule: Rule::Freestyle,
            opening: moves.len(),
            moves,
            to_move: Some(stone.seat()),
            forbidden: Vec::new(),
            outcome: None,
            offers: Offers::default(),
        };
        let point = place(PatternSearch::with_node_limit(1_000).act(&v, budget(), &mut rng()));
        let mut b = board.clone();
        b.set(point, Some(stone));
        assert!(
            find_vcf(&b, Rule::Freestyle, stone.other(), 100_000).is_none(),
            "{point} leaves a VCF that a move could stop\n{board:?}"
        );
        checked += 1;
    }
    eprintln!("{checked} positions with a stoppable VCF threat");
    assert!(checked >= 5, "the sample has threats to stop ({checked})");
}

#[test]
fn pattern_search_finds_a_mate_by_threes_at_shallow_depth() {
    // Black's h8 i8 (row 8) and j10 j11 (column j): j8 makes two open threes. No fours yet,
    // so no VCF: the main search must see the win.
    let black = &["h8", "i8", "j10", "j11", "b2"];
    let white = &["a14", "c14", "e14", "o8", "n2"];
    let v = view(Rule::Freestyle, black, white, Stone::Black);
    let mut pos = Position::new(&v.board(), Rule::Freestyle, BLACK);
    let mut line = Vec::new();
    assert_eq!(
        Vcf::new(12).solve(&mut pos, vcf::ROOT_DEPTH, 100_000, &mut line),
        Outcome::NoWin
    );
    // The main search alone (the engine's root VCT would decide this before it).
    let mut searcher = Searcher::new(4, Weights::fitted());
    let mut cands = Vec::new();
    Searcher::candidates(&pos, &mut cands, false);
    // Given worst first, so that the winning point is last.
    let root: Vec<usize> = cands.iter().rev().map(|&(i, _)| i).collect();
    let limits = Limits {
        max_depth: 60,
        node_limit: 20_000,
    };
    let report = searcher.iterate(&mut pos, &root, limits, Clock::new(None), false);
    assert!(report.score > WIN_THRESHOLD, "{report:?}");
    assert!((1..=6).contains(&report.depth), "{report:?}");
    assert_eq!(report.pv.first(), report.best.as_ref());
    // The root's order after the search: the same moves, the best (given last) first, as a
    // search after a refuted move starts from.
    assert_ne!(root.first(), report.best.as_ref());
    assert_eq!(report.order.first(), report.best.as_ref());
    let (mut given, mut ordered) = (root.clone(), report.order.clone());
    given.sort_unstable();
    ordered.sort_unstable();
    assert_eq!(given, ordered);
    // The engine sees it too (by its VCT).
    let mut engine = PatternSearch::with_node_limit(20_000);
    let point = place(engine.act(&v, budget(), &mut rng()));
    let thought = engine.thought().expect("a thought").clone();
    assert!(thought.score > WIN_THRESHOLD, "{point}: {thought:?}");
    assert_eq!(thought.pv.first(), Some(&point));
    // And the game is won in at most 11 more stones against the same engine.
    let game = game_from(Rule::Freestyle, black, white);
    let winner = play_out(
        game,
        &mut PatternSearch::with_node_limit(5_000),
        &mut PatternSearch::with_node_limit(5_000),
        11,
    );
    assert_eq!(winner, Some(Seat(0)));
}

fn game_from(rule: Rule, black: &[&str], white: &[&str]) -> Gomoku {
    let points = |names: &[&str]| names.iter().map(|s| p(s)).collect::<Vec<_>>();
    game_from_points(rule, &points(black), &points(white))
}

#[test]
fn pattern_search_as_black_under_renju_never_plays_a_forbidden_point() {
    for seed in 0..4u64 {
        let (mut game, _) = Gomoku::new(Config {
            size: 15,
            rule: Rule::Renju,
            opening: None,
        })
        .expect("an empty renju board");
        let mut black = PatternSearch::with_node_limit(800);
        let mut white = RandomStone;
        let mut rng = SmallRng::seed_from_u64(seed);
        while let Some(&seat) = game.to_act().first() {
            let view = game.view(Viewer::Seat(seat));
            let action = if seat.0 == 0 {
                black.act(&view, budget(), &mut rng)
            } else {
                white.act(&view, budget(), &mut rng)
            };
            if let Action::Place { point } = &action {
                assert!(
                    seat.0 == 1 || !view.forbidden.contains(point),
                    "black chose forbidden {point}"
                );
            }
            game.apply(seat, action)
                .expect("the referee accepts black's every move");
        }
        assert_eq!(game.outcome().and_then(|o| o.winner), Some(Seat(0)));
    }
}

#[test]
fn pattern_search_wins_the_seed_formations_as_black_against_seed_minimax() {
    for opening in openings::SEED.iter() {
        let (game, _) = Gomoku::new(Config {
            size: 15,
            rule: Rule::Freestyle,
            opening: Some(Opening::Named(opening.name.to_owned())),
        })
        .expect("a seed formation");
        let winner = play_out(
            game,
            // 20,000 nodes: about four plies, where a double three of the opponent's shows.
            &mut PatternSearch::with_node_limit(20_000),
            &mut SeedMinimax,
            225,
        );
        assert_eq!(winner, Some(Seat(0)), "black wins from {}", opening.name);
    }
}
