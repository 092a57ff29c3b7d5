//! Gomoku's referee (RULES.md section 2): wins under each rule, renju's forbidden points including
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
