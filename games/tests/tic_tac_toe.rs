//! Tic-tac-toe's referee (docs/rules.md, tic-tac-toe): every line wins, a full board draws, bad
//! input leaves the state unchanged, the clock and resigning end the game, and whole random games
//! agree with a brute-force line check.

use proptest::prelude::*;
use skirmish_games::tic_tac_toe::{Action, End, LINES, RuleError, TicTacToe};
use skirmish_games::{Audience, Game, Seat, Viewer};

fn new() -> TicTacToe {
    TicTacToe::new(Default::default()).unwrap().0
}

fn place(
    game: &mut TicTacToe,
    seat: u8,
    cell: u8,
) -> Result<Vec<skirmish_games::tic_tac_toe::Event>, RuleError> {
    game.apply(Seat(seat), Action::Place { cell })
}

#[test]
fn x_moves_first_and_the_seats_alternate() {
    let mut game = new();
    assert_eq!(game.to_act(), vec![Seat(0)]);
    place(&mut game, 0, 4).unwrap();
    assert_eq!(game.to_act(), vec![Seat(1)]);
    assert_eq!(
        place(&mut game, 0, 0),
        Err(RuleError::NotYourTurn { to_move: Seat(1) })
    );
}

/// Plays `winner`'s marks on `line` and the other seat's on `theirs`, alternating from X; `None`
/// when the game ends before the winner's third mark.
fn play_line(line: [u8; 3], winner: u8, theirs: &[u8]) -> Option<TicTacToe> {
    let mut game = new();
    let (mut mine, mut other) = (line.iter(), theirs.iter());
    for turn in 0..9u8 {
        let seat = turn % 2;
        let cell = if seat == winner { mine.next() } else { other.next() }?;
        place(&mut game, seat, *cell).ok()?;
        if game.outcome().is_some() {
            return Some(game);
        }
    }
    None
}

#[test]
fn every_line_of_three_wins_for_either_seat() {
    for line in LINES {
        for winner in [0u8, 1] {
            let others: Vec<u8> = (0..9).filter(|c| !line.contains(c)).collect();
            // Any three of the other cells with which the other seat makes no line first.
            let n = others.len();
            let game = (0..n)
                .flat_map(|a| (0..n).flat_map(move |b| (0..n).map(move |c| [a, b, c])))
                .filter(|[a, b, c]| a != b && b != c && a != c)
                .find_map(|idx| {
                    let theirs = idx.map(|i| others[i]);
                    play_line(line, winner, &theirs)
                        .filter(|g| g.outcome().unwrap().winner == Some(Seat(winner)))
                })
                .expect("some order lets the line win");
            let outcome = game.outcome().unwrap();
            assert_eq!(outcome.end, End::Line { cells: line }, "line {line:?}");
            assert_eq!(game.to_act(), Vec::<Seat>::new());
        }
    }
}

#[test]
fn nine_marks_and_no_line_draw() {
    // X O X / X O O / O X X
    let mut game = new();
    for (seat, cell) in [
        (0, 0),
        (1, 1),
        (0, 2),
        (1, 4),
        (0, 3),
        (1, 5),
        (0, 7),
        (1, 6),
        (0, 8),
    ] {
        place(&mut game, seat, cell).unwrap();
    }
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winner, None);
    assert_eq!(outcome.end, End::BoardFull);
}

#[test]
fn refused_actions_change_nothing_and_say_why_with_a_stable_code() {
    let mut game = new();
    place(&mut game, 0, 4).unwrap();
    let before = game.clone();
    let cases = [
        (place(&mut game, 1, 4), "cell_occupied"),
        (place(&mut game, 1, 9), "cell_off_board"),
        (place(&mut game, 0, 0), "not_your_turn"),
        (place(&mut game, 2, 0), "no_such_seat"),
        (
            game.apply(
                Seat(1),
                Action::Resign {
                    reason: Some("x".repeat(201)),
                },
            ),
            "reason_too_long",
        ),
    ];
    for (result, code) in cases {
        assert_eq!(result.unwrap_err().code(), code);
        assert_eq!(game, before);
    }
    game.apply(Seat(1), Action::Resign { reason: None }).unwrap();
    let over = game.clone();
    assert_eq!(place(&mut game, 1, 0).unwrap_err().code(), "game_over");
    assert_eq!(game, over);
}

#[test]
fn running_out_of_time_loses_and_resigning_loses() {
    let mut game = new();
    assert!(
        game.time_out(Seat(1)).is_empty(),
        "not seat 1's turn: nothing happens"
    );
    let events = game.time_out(Seat(0));
    assert_eq!(events.len(), 1);
    assert_eq!(game.outcome().unwrap().winner, Some(Seat(1)));
    assert_eq!(game.outcome().unwrap().end, End::TimedOut { seat: Seat(0) });

    let mut game = new();
    game.apply(
        Seat(1),
        Action::Resign {
            reason: Some("bored".into()),
        },
    )
    .unwrap();
    assert_eq!(game.outcome().unwrap().winner, Some(Seat(0)));
}

#[test]
fn everything_is_public() {
    let mut game = new();
    let events = place(&mut game, 0, 0).unwrap();
    assert!(events.iter().all(|e| e.audience() == Audience::Everyone));
    let seat = game.view(Viewer::Seat(Seat(0)));
    let spectator = game.view(Viewer::Spectator);
    assert_eq!(seat.cells, spectator.cells);
    assert_eq!(seat.cells[0], Some(Seat(0)));
    assert_eq!(seat.to_move, Some(Seat(1)));
}

proptest! {
    /// Random games: the referee ends the game exactly when a brute-force check finds a line or
    /// a full board, and never accepts a mark on a taken cell.
    #[test]
    fn random_games_agree_with_a_brute_force_check(order in Just((0u8..9).collect::<Vec<_>>()).prop_shuffle()) {
        let mut game = new();
        let mut cells = [None; 9];
        for (k, cell) in order.into_iter().enumerate() {
            let seat = u8::try_from(k % 2).unwrap();
            place(&mut game, seat, cell).unwrap();
            cells[usize::from(cell)] = Some(seat);
            let line = LINES.iter().any(|l| {
                l.iter().all(|c| cells[usize::from(*c)] == Some(seat))
            });
            let full = cells.iter().all(Option::is_some);
            prop_assert_eq!(game.outcome().is_some(), line || full);
            if line {
                prop_assert_eq!(game.outcome().unwrap().winner, Some(Seat(seat)));
                break;
            }
        }
    }
}
