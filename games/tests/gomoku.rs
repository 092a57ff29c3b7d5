//! Gomoku's referee (docs/rules.md, gomoku): wins under each rule, renju's forbidden points including
//! the tricky cases, openings, bad input leaving the state unchanged, and whole random games
//! checked against a brute-force win checker.

use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use skirmish_games::gomoku::{
    Action, Board, Config, ConfigError, End, Forbidden, Gomoku, Opening, Point, Rule, RuleError, Stone,
    openings,
};
use skirmish_games::{Game, Seat, Viewer};

fn p(s: &str) -> Point {
    s.parse().expect("a point")
}

/// A board from a picture: rows top (highest row number) to bottom, `x` black, `o` white, `.` empty;
/// the picture's bottom left is a1.
fn board(size: u8, rows: &[&str]) -> Board {
    let mut board = Board::new(size);
    for (i, row) in rows.iter().enumerate() {
        let y = u8::try_from(rows.len() - 1 - i).unwrap();
        for (x, c) in row.chars().filter(|c| !c.is_whitespace()).enumerate() {
            let stone = match c {
                'x' => Some(Stone::Black),
                'o' => Some(Stone::White),
                _ => None,
            };
            if stone.is_some() {
                board.set(Point::new(u8::try_from(x).unwrap(), y), stone);
            }
        }
    }
    board
}

#[test]
fn points_read_and_print_as_letter_and_row_from_the_bottom() {
    assert_eq!(p("a1"), Point::new(0, 0));
    assert_eq!(p("h8"), Point::new(7, 7));
    assert_eq!(p("O15"), Point::new(14, 14));
    assert_eq!(Point::new(10, 9).to_string(), "k10");
    for bad in ["", "h", "8", "h0", "h123", "#8", "h-1"] {
        assert!(bad.parse::<Point>().is_err(), "{bad}");
    }
}

#[test]
fn an_open_three_on_two_lines_is_a_double_three() {
    // Black to play h8 makes threes on the row (g8 h8 i8) and the column (h7 h8 h9).
    let b = board(
        15,
        &[
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            ".......x.......",
            "......x.x......",
            ".......x.......",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
        ],
    );
    assert_eq!(b.forbidden(p("h8")), Some(Forbidden::DoubleThree));
    // A corner point of the cross makes only one three.
    assert_eq!(b.forbidden(p("g9")), None);
}

/// Black stones from a list of points, white ones from another.
fn stones(size: u8, black: &[&str], white: &[&str]) -> Board {
    let mut board = Board::new(size);
    for b in black {
        board.set(p(b), Some(Stone::Black));
    }
    for w in white {
        board.set(p(w), Some(Stone::White));
    }
    board
}

#[test]
fn a_false_double_three_whose_extension_point_is_forbidden_is_allowed() {
    // h8 makes a three in column h (h6 h7 h8, real) and a split three on row 8 (f8 . h8 i8) whose
    // only straight-four point, g8, would be a double-four (row f8-i8 and column g8-g11): so the
    // row's three is false and h8 is allowed.
    let with_column_g = stones(15, &["h6", "h7", "f8", "i8", "g9", "g10", "g11"], &[]);
    let mut after_h8 = with_column_g.clone();
    after_h8.set(p("h8"), Some(Stone::Black));
    assert_eq!(after_h8.forbidden(p("g8")), Some(Forbidden::DoubleFour));
    assert_eq!(with_column_g.forbidden(p("h8")), None);
    // Without column g, g8 is a fine point and h8 is a true double-three.
    let without = stones(15, &["h6", "h7", "f8", "i8"], &[]);
    assert_eq!(without.forbidden(p("h8")), Some(Forbidden::DoubleThree));
}

#[test]
fn two_fours_on_one_line_are_a_double_four() {
    // b8 . d8 [e8] f8 . h8: e8 makes fours completed at c8 and at g8.
    let b = stones(15, &["b8", "d8", "f8", "h8"], &[]);
    assert_eq!(b.forbidden(p("e8")), Some(Forbidden::DoubleFour));
    // A straight four counts as one four: .d8 e8 f8 [g8]. with a three elsewhere is a four-three.
    let b = stones(15, &["d8", "e8", "f8", "g6", "g7"], &[]);
    assert_eq!(b.forbidden(p("g8")), None);
}

#[test]
fn overlines_are_forbidden_for_black_but_win_for_white_under_renju() {
    let b = stones(15, &["c8", "d8", "e8", "g8", "h8"], &[]);
    assert_eq!(b.forbidden(p("f8")), Some(Forbidden::Overline));
    let config = Config {
        rule: Rule::Renju,
        opening: Some(Opening::Moves(
            ["a1", "c8", "a3", "d8", "a5", "e8", "a7", "g8", "a9", "h8", "a11"]
                .iter()
                .map(|s| p(s))
                .collect(),
        )),
        ..Config::default()
    };
    // Opening with white's stones on c8 e8 ... : here white holds c8 d8 e8 g8 h8 and black to
    // move would be odd; build it as white's overline instead: 11 stones, white to move.
    let (mut game, _) = Gomoku::new(config).unwrap();
    assert_eq!(game.stone_to_move(), Stone::White);
    let events = game.apply(Seat(1), Action::Place { point: p("f8") }).unwrap();
    let outcome = game.outcome().expect("white's overline wins");
    assert_eq!(outcome.winner, Some(Seat(1)));
    assert!(
        matches!(&outcome.end, End::Five { line } if line.len() == 6),
        "{events:?}"
    );
}

#[test]
fn a_five_wins_even_when_it_also_makes_a_forbidden_shape() {
    // f8 completes d8-h8 (exactly five) and also a double-three elsewhere (f6 f7 / e7 g9 lines).
    let b = stones(
        15,
        &["d8", "e8", "g8", "h8", "f6", "f7", "e9", "g7"],
        &["c8", "i8"],
    );
    assert_eq!(b.forbidden(p("f8")), None);
    assert_eq!(
        b.winning_line(p("f8"), Stone::Black, Rule::Renju)
            .map(|l| l.len()),
        Some(5)
    );
}

#[test]
fn each_rule_decides_what_wins() {
    for (rule, stone, length, wins) in [
        (Rule::Freestyle, Stone::Black, 5, true),
        (Rule::Freestyle, Stone::White, 6, true),
        (Rule::Freestyle, Stone::Black, 4, false),
        (Rule::Standard, Stone::Black, 5, true),
        (Rule::Standard, Stone::Black, 6, false),
        (Rule::Standard, Stone::White, 6, false),
        (Rule::Renju, Stone::Black, 5, true),
        (Rule::Renju, Stone::Black, 6, false),
        (Rule::Renju, Stone::White, 6, true),
    ] {
        assert_eq!(rule.wins(stone, length), wins, "{rule:?} {stone:?} {length}");
    }
}

#[test]
fn named_openings_are_all_playable_and_centred_on_larger_boards() {
    assert_eq!(openings::RENJU.len(), 26);
    assert_eq!(openings::SEED.len(), 3);
    for opening in openings::all() {
        for size in [15, 19] {
            let config = Config {
                size,
                rule: Rule::Renju,
                opening: Some(Opening::Named(opening.name.to_owned())),
            };
            let (game, events) = Gomoku::new(config).unwrap_or_else(|e| panic!("{}: {e}", opening.name));
            assert_eq!(game.moves().len(), opening.moves.len());
            assert_eq!(events.len(), 1);
        }
    }
    let (game, _) = Gomoku::new(Config {
        size: 19,
        opening: Some(Opening::Named("kansei".into())),
        ..Config::default()
    })
    .unwrap();
    let points: Vec<String> = game.moves().iter().map(|m| m.point.to_string()).collect();
    assert_eq!(
        points,
        ["j10", "j11", "j12"],
        "j10 is the centre of 19x19 (renju letters keep i)"
    );
    // The seed's formations leave white to move.
    for opening in openings::SEED {
        assert_eq!(opening.moves.len() % 2, 1, "{}", opening.name);
    }
}

#[test]
fn bad_configs_are_refused() {
    let bad = |config: Config| Gomoku::new(config).err();
    assert_eq!(
        bad(Config {
            size: 30,
            ..Config::default()
        }),
        Some(ConfigError::Size(30))
    );
    assert_eq!(
        bad(Config {
            opening: Some(Opening::Named("nope".into())),
            ..Config::default()
        }),
        Some(ConfigError::UnknownOpening("nope".into()))
    );
    assert_eq!(
        bad(Config {
            opening: Some(Opening::Moves(vec![p("h8"), p("h8")])),
            ..Config::default()
        }),
        Some(ConfigError::OpeningPoint(p("h8")))
    );
    let five: Vec<Point> = ["a1", "a2", "b1", "b2", "c1", "c2", "d1", "d2", "e1"]
        .iter()
        .map(|s| p(s))
        .collect();
    assert_eq!(
        bad(Config {
            opening: Some(Opening::Moves(five)),
            ..Config::default()
        }),
        Some(ConfigError::OpeningDecided)
    );
}

#[test]
fn illegal_actions_are_refused_with_stable_codes_and_change_nothing() {
    let (mut game, _) = Gomoku::new(Config {
        rule: Rule::Renju,
        opening: Some(Opening::Moves(
            ["g8", "a1", "i8", "a3", "h9", "a5", "h7"]
                .iter()
                .map(|s| p(s))
                .collect(),
        )),
        ..Config::default()
    })
    .unwrap();
    // White to move; black's g8 i8 h9 h7 make h8 a double-three for later.
    let before = game.view(Viewer::Spectator);
    let cases = [
        (Seat(0), Action::Place { point: p("b2") }, "not_your_turn"),
        (Seat(1), Action::Place { point: p("g8") }, "point_occupied"),
        (
            Seat(1),
            Action::Place {
                point: Point::new(15, 3),
            },
            "point_off_board",
        ),
        (Seat(2), Action::Place { point: p("b2") }, "no_such_seat"),
        (
            Seat(1),
            Action::Resign {
                reason: Some("x".repeat(201)),
            },
            "reason_too_long",
        ),
    ];
    for (seat, action, code) in cases {
        let err = game.apply(seat, action.clone()).unwrap_err();
        assert_eq!(err.code(), code, "{action:?}");
        assert_eq!(
            game.view(Viewer::Spectator),
            before,
            "{action:?} changed the game"
        );
    }
    game.apply(Seat(1), Action::Place { point: p("a7") }).unwrap();
    let view = game.view(Viewer::Seat(Seat(0)));
    for &point in &view.forbidden {
        let err = game.apply(Seat(0), Action::Place { point }).unwrap_err();
        assert!(matches!(err, RuleError::Forbidden { .. }), "{err:?}");
        assert_eq!(err.code(), "forbidden_point");
        assert_eq!(game.view(Viewer::Seat(Seat(0))), view);
    }
    assert_eq!(view.forbidden, vec![p("h8")]);
    // The game goes on; after it ends nothing more is accepted.
    game.apply(Seat(1), Action::Resign { reason: None }).unwrap();
    assert_eq!(game.outcome().unwrap().winner, Some(Seat(0)));
    assert_eq!(
        game.apply(Seat(0), Action::Place { point: p("b2") }).unwrap_err(),
        RuleError::GameOver
    );
}

#[test]
fn running_out_of_time_loses_only_for_the_seat_to_move() {
    let (mut game, _) = Gomoku::new(Config::default()).unwrap();
    assert!(game.time_out(Seat(1)).is_empty(), "white is not to move");
    let events = game.time_out(Seat(0));
    assert_eq!(events.len(), 1);
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Seat(1)));
    assert_eq!(outcome.end, End::TimedOut { seat: Seat(0) });
    assert!(game.to_act().is_empty());
}

/// Every maximal run of one colour on the board, as (stone, length), by scanning every line.
fn runs(board: &Board) -> Vec<(Stone, usize)> {
    let n = i32::from(board.size());
    let mut found = Vec::new();
    for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
        for x in 0..n {
            for y in 0..n {
                let at = |x: i32, y: i32| {
                    ((0..n).contains(&x) && (0..n).contains(&y))
                        .then(|| board.get(Point::new(x as u8, y as u8)))
                        .flatten()
                };
                let Some(stone) = at(x, y) else { continue };
                if at(x - dx, y - dy) == Some(stone) {
                    continue; // not the start of a run
                }
                let mut length = 1;
                while at(x + dx * length as i32, y + dy * length as i32) == Some(stone) {
                    length += 1;
                }
                found.push((stone, length));
            }
        }
    }
    found
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whole random games under every rule: the referee ends the game exactly when a brute-force
    /// scan of the board finds a winning run for the player who just moved, or the board is full.
    #[test]
    fn random_games_end_exactly_when_a_brute_force_scan_finds_a_win(
        seed in any::<u64>(),
        size in 7u8..=15,
        rule in prop_oneof![Just(Rule::Freestyle), Just(Rule::Standard), Just(Rule::Renju)],
    ) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let (mut game, _) = Gomoku::new(Config { size, rule, opening: None }).unwrap();
        while game.outcome().is_none() {
            let seat = game.to_act()[0];
            let Some(point) = game.random_point(&mut rng) else {
                panic!("a game that is not over has a legal point")
            };
            let stone = game.stone_to_move();
            game.apply(seat, Action::Place { point }).unwrap();
            let wins: Vec<usize> = runs(game.board())
                .into_iter()
                .filter(|&(s, len)| s == stone && rule.wins(s, len))
                .map(|(_, len)| len)
                .collect();
            match game.outcome() {
                Some(outcome) => match &outcome.end {
                    End::Five { line } => {
                        prop_assert_eq!(outcome.winner, Some(seat));
                        prop_assert!(wins.contains(&line.len()), "line {:?} vs runs {:?}", line, wins);
                        prop_assert!(line.contains(&point));
                    }
                    End::BoardFull => {
                        prop_assert!(wins.is_empty());
                        prop_assert!(game.board().is_full());
                    }
                    End::NoLegalPoint => {
                        prop_assert_eq!(rule, Rule::Renju);
                        prop_assert!(wins.is_empty());
                    }
                    other => prop_assert!(false, "unexpected end {:?}", other),
                },
                None => {
                    prop_assert!(wins.is_empty(), "a win was missed: {:?}", wins);
                    prop_assert!(!game.board().is_full());
                }
            }
            // Under renju, black never has an overline on the board, except beside the winning
            // five that made it (a five wins even when it makes a forbidden shape too).
            if rule == Rule::Renju && !matches!(game.outcome(), Some(o) if o.winner == Some(Seat(0))) {
                prop_assert!(
                    !runs(game.board()).iter().any(|&(s, len)| s == Stone::Black && len > 5),
                    "{:?}",
                    game.moves()
                );
            }
        }
    }
}
