//! Tic-tac-toe strategies (docs/rules.md, tic-tac-toe): where a seat puts its next mark.
//!
//! `seed-rules` is the seed paper's "advanced" player (`../shared/seeds/003_0f0e4e705e3a46d3.txt`,
//! `Attempt`: win, block, centre, corner, side) with the two rules it lacks to never lose, from
//! Newell and Simon's tic-tac-toe program (1972) as Crowley and Siegler (1993) list it: make a
//! fork (two lines of two at once), and stop the opponent's fork, by a two-in-a-row that makes
//! the opponent block where it cannot fork, or else by taking the fork's cell; and the opposite
//! corner before any corner. Without them the seed's order loses to X in opposite corners (X 0,
//! O 4, X 8, O 2 by "first corner", X 6 forks). A test plays it against every line of play from
//! both seats: it never loses. `seed-junior` is the seed's "junior" player (`Defend`: block,
//! else a random empty cell), an easy opponent; `random` plays any empty cell.

use rand::RngCore;
use rand::seq::IndexedRandom;
use skirmish_games::Seat;
use skirmish_games::tic_tac_toe::{Action, LINES, View};

pub use crate::Budget;
use crate::player::{Decision, Player};
use skirmish_games::Viewer;
use skirmish_protocol::GameView;

struct TicTacToePlayer(Box<dyn TicTacToeStrategy>);

/// `strategy` as a seat's player: a mark on the seat's turn.
pub fn player(strategy: Box<dyn TicTacToeStrategy>) -> Box<dyn Player> {
    Box::new(TicTacToePlayer(strategy))
}

impl Player for TicTacToePlayer {
    fn decide(
        &mut self,
        view: &GameView,
        seat: Seat,
        budget: Budget,
        rng: &mut dyn RngCore,
    ) -> Option<Decision> {
        let GameView::TicTacToe(view) = view else {
            return None;
        };
        if view.viewer != Viewer::Seat(seat) || view.to_move != Some(seat) {
            return None;
        }
        Some(Decision::Act(skirmish_protocol::Action::TicTacToe(
            self.0.act(view, budget, rng),
        )))
    }
}

/// A tic-tac-toe player for one seat of one game.
pub trait TicTacToeStrategy: Send {
    /// The action to take now: it is this seat's turn in `view` (nine cells, row by row).
    fn act(&mut self, view: &View, budget: Budget, rng: &mut dyn RngCore) -> Action;
}

/// Strategy names, strongest first.
pub const STRATEGIES: &[&str] = &["seed-rules", "seed-junior", "random"];

/// A fresh strategy by name, or `None` for an unknown name.
pub fn strategy(name: &str) -> Option<Box<dyn TicTacToeStrategy>> {
    match name {
        "seed-rules" => Some(Box::new(SeedRules)),
        "seed-junior" => Some(Box::new(SeedJunior)),
        "random" => Some(Box::new(RandomMark)),
        _ => None,
    }
}

/// The cells, row by row: each cell's mark.
pub type Cells = [Option<Seat>; 9];

/// The cells of a view as an array (a view from the server always has nine).
fn cells(view: &View) -> Cells {
    let mut out = [None; 9];
    for (cell, mark) in out.iter_mut().zip(&view.cells) {
        *cell = *mark;
    }
    out
}

fn empty(cells: &Cells) -> impl Iterator<Item = u8> + '_ {
    (0u8..9).filter(|&c| cells[usize::from(c)].is_none())
}

/// The empty cells that complete a line of `seat`'s: lines with two of its marks and an empty
/// third.
fn threats(cells: &Cells, seat: Seat) -> Vec<u8> {
    let mut out = Vec::new();
    for line in LINES {
        let mine = line
            .iter()
            .filter(|&&c| cells[usize::from(c)] == Some(seat))
            .count();
        let free: Vec<u8> = line
            .iter()
            .copied()
            .filter(|&c| cells[usize::from(c)].is_none())
            .collect();
        if mine == 2 && free.len() == 1 && !out.contains(&free[0]) {
            out.push(free[0]);
        }
    }
    out
}

fn with(cells: &Cells, cell: u8, seat: Seat) -> Cells {
    let mut next = *cells;
    next[usize::from(cell)] = Some(seat);
    next
}

/// The cells where `seat` would make two threats at once.
fn forks(cells: &Cells, seat: Seat) -> Vec<u8> {
    empty(cells)
        .filter(|&c| threats(&with(cells, c, seat), seat).len() >= 2)
        .collect()
}

fn other(seat: Seat) -> Seat {
    Seat(1 - seat.0)
}

const CENTRE: u8 = 4;
const CORNERS: [u8; 4] = [0, 2, 6, 8];
const SIDES: [u8; 4] = [1, 3, 5, 7];

/// `seed-rules`'s cell for `me` in `cells`: win, block, fork, stop a fork, centre, the corner
/// opposite the opponent's, a corner, a side. `None` on a full board.
pub fn seed_rules_cell(cells: &Cells, me: Seat) -> Option<u8> {
    let them = other(me);
    if let Some(&c) = threats(cells, me).first() {
        return Some(c);
    }
    if let Some(&c) = threats(cells, them).first() {
        return Some(c);
    }
    if let Some(&c) = forks(cells, me).first() {
        return Some(c);
    }
    let their_forks = forks(cells, them);
    if !their_forks.is_empty() {
        // A two-in-a-row whose forced block gives the opponent no fork and no win of its own.
        let order = std::iter::once(CENTRE).chain(CORNERS).chain(SIDES);
        for c in order.filter(|&c| cells[usize::from(c)].is_none()) {
            let after = with(cells, c, me);
            let mine = threats(&after, me);
            if let [block] = mine[..] {
                let answered = with(&after, block, them);
                if threats(&answered, them).len() < 2 {
                    return Some(c);
                }
            }
        }
        return their_forks.first().copied();
    }
    if cells[usize::from(CENTRE)].is_none() {
        return Some(CENTRE);
    }
    for (corner, opposite) in CORNERS.iter().zip(CORNERS.iter().rev()) {
        if cells[usize::from(*corner)] == Some(them) && cells[usize::from(*opposite)].is_none() {
            return Some(*opposite);
        }
    }
    CORNERS
        .into_iter()
        .chain(SIDES)
        .find(|&c| cells[usize::from(c)].is_none())
}

/// The seed paper's advanced player with the fork rules: never loses.
#[derive(Clone, Copy, Debug, Default)]
pub struct SeedRules;

impl TicTacToeStrategy for SeedRules {
    fn act(&mut self, view: &View, _budget: Budget, _rng: &mut dyn RngCore) -> Action {
        let me = view.to_move.unwrap_or(Seat(0));
        match seed_rules_cell(&cells(view), me) {
            Some(cell) => Action::Place { cell },
            None => Action::Resign { reason: None },
        }
    }
}

/// The seed paper's junior player: blocks a line of two, else plays a random empty cell.
#[derive(Clone, Copy, Debug, Default)]
pub struct SeedJunior;

impl TicTacToeStrategy for SeedJunior {
    fn act(&mut self, view: &View, budget: Budget, rng: &mut dyn RngCore) -> Action {
        let me = view.to_move.unwrap_or(Seat(0));
        let cells = cells(view);
        match threats(&cells, other(me)).first() {
            Some(&cell) => Action::Place { cell },
            None => RandomMark.act(view, budget, rng),
        }
    }
}

/// Plays a uniformly random empty cell, for tests.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomMark;

impl TicTacToeStrategy for RandomMark {
    fn act(&mut self, view: &View, _budget: Budget, rng: &mut dyn RngCore) -> Action {
        let cells = cells(view);
        let free: Vec<u8> = empty(&cells).collect();
        match free.choose(rng) {
            Some(&cell) => Action::Place { cell },
            None => Action::Resign { reason: None },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skirmish_games::Game;
    use skirmish_games::tic_tac_toe::TicTacToe;

    /// Plays `seed-rules` as `me` against every reply of the opponent from `game`, and returns
    /// the positions it lost, draws and wins counted.
    fn explore(game: &TicTacToe, me: Seat, lost: &mut Vec<Cells>, games: &mut [u32; 3]) {
        if let Some(outcome) = game.outcome() {
            match outcome.winner {
                Some(w) if w == me => games[0] += 1,
                None => games[1] += 1,
                Some(_) => {
                    games[2] += 1;
                    lost.push(*game.cells());
                }
            }
            return;
        }
        let to_move = game.seat_to_move();
        if to_move == me {
            let cell = seed_rules_cell(game.cells(), me).expect("a cell is free");
            let mut next = game.clone();
            next.apply(me, Action::Place { cell })
                .expect("seed-rules plays legal cells");
            explore(&next, me, lost, games);
        } else {
            for cell in empty(game.cells()).collect::<Vec<_>>() {
                let mut next = game.clone();
                next.apply(to_move, Action::Place { cell }).unwrap();
                explore(&next, me, lost, games);
            }
        }
    }

    #[test]
    fn seed_rules_never_loses_against_any_line_of_play_from_either_seat() {
        for me in [Seat(0), Seat(1)] {
            let (game, _) = TicTacToe::new(Default::default()).unwrap();
            let mut lost = Vec::new();
            let mut games = [0; 3];
            explore(&game, me, &mut lost, &mut games);
            assert!(lost.is_empty(), "as {me}, seed-rules lost in {lost:?}");
            assert!(
                games[0] > 0 && games[1] > 0,
                "as {me}: {games:?} (wins, draws, losses)"
            );
        }
    }

    #[test]
    fn seed_rules_answers_every_position_it_can_meet_with_a_legal_cell() {
        // Every position with the right counts of marks, not only those its own play reaches:
        // after a reconnect or against any opponent, it always has a legal cell.
        for code in 0..3u32.pow(9) {
            let mut cells: Cells = [None; 9];
            let mut n = code;
            for cell in &mut cells {
                *cell = match n % 3 {
                    0 => None,
                    1 => Some(Seat(0)),
                    _ => Some(Seat(1)),
                };
                n /= 3;
            }
            let xs = cells.iter().filter(|c| **c == Some(Seat(0))).count();
            let os = cells.iter().filter(|c| **c == Some(Seat(1))).count();
            let game = TicTacToe::from_cells(cells);
            if !(xs == os || xs == os + 1) || game.outcome().is_some() {
                continue;
            }
            let me = game.seat_to_move();
            let cell = seed_rules_cell(&cells, me).expect("the board is not full");
            assert!(cells[usize::from(cell)].is_none(), "{cells:?}: {cell}");
        }
    }

    #[test]
    fn seed_rules_takes_a_win_before_a_block() {
        // X: 0 1, O: 3 4; X to move wins at 2 rather than blocking at 5.
        let x = Some(Seat(0));
        let o = Some(Seat(1));
        let cells = [x, x, None, o, o, None, None, None, None];
        assert_eq!(seed_rules_cell(&cells, Seat(0)), Some(2));
        // O to move (with one X more) wins at 5.
        let cells = [x, x, None, o, o, None, x, None, None];
        assert_eq!(seed_rules_cell(&cells, Seat(1)), Some(5));
    }
}
