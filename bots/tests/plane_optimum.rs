//! `bayes` on 7x7 (one plane) plays the exact optimum: the solver's value of the fresh board agrees
//! with the mean shots of its own policy over all 48 boards, with an unpruned brute-force search on
//! smaller sets, and `bayes` only ever picks a cell of optimal value.

use std::collections::HashMap;

use rand::SeedableRng;
use rand::rngs::SmallRng;
use skirmish_bots::eval::{SoloBoard, evaluate};
use skirmish_bots::plane::PlaneStrategy;
use skirmish_bots::plane::belief::{Knowledge, Universe, last_plane_set};
use skirmish_bots::plane::optimal::Solver;
use skirmish_games::plane::{Cell, ShotResult, Variant};
use skirmish_games::{Seat, plane::View};

/// The optimal expected shots to clear a fresh 7x7 board, 107/24, as the solver found it.
const CLASSIC_OPTIMUM: f64 = 107.0 / 24.0;

/// Unpruned, memoised brute force over placement sets, written apart from the solver: cells are
/// tried in full, every split is evaluated.
fn brute(universe: &Universe, set: u128, memo: &mut HashMap<u128, f64>) -> f64 {
    let n = set.count_ones();
    if n <= 1 {
        return f64::from(n);
    }
    if let Some(v) = memo.get(&set) {
        return *v;
    }
    let mut best = f64::INFINITY;
    for c in 0..universe.cells {
        let mut hit = 0u128;
        let mut miss = 0u128;
        for p in 0..universe.placements.len() {
            if set & (1u128 << p) == 0 {
                continue;
            }
            let cells = universe.placements[p].cells(universe.side).unwrap();
            let cell = Cell::from_index(c, universe.side);
            if cells[0] == cell {
                continue;
            } else if cells.contains(&cell) {
                hit |= 1u128 << p;
            } else {
                miss |= 1u128 << p;
            }
        }
        if hit == set || miss == set {
            continue;
        }
        let v = 1.0
            + (f64::from(hit.count_ones()) * brute(universe, hit, memo)
                + f64::from(miss.count_ones()) * brute(universe, miss, memo))
                / f64::from(n);
        best = best.min(v);
    }
    memo.insert(set, best);
    best
}

#[test]
fn solver_agrees_with_brute_force_on_small_sets() {
    let universe = Universe::of(Variant::Classic);
    let mut solver = Solver::new(universe, u32::MAX);
    let mut memo = HashMap::new();
    // Sets of placements with heads in a window of the board, 6 to 18 placements.
    for (r0, c0, h) in [
        (0u8, 0u8, 3u8),
        (1, 1, 3),
        (2, 0, 4),
        (0, 2, 4),
        (3, 3, 4),
        (1, 2, 3),
    ] {
        let mut set = 0u128;
        for (i, p) in universe.placements.iter().enumerate() {
            if (r0..r0 + h).contains(&p.head.row) && (c0..c0 + h).contains(&p.head.col) {
                set |= 1u128 << i;
            }
        }
        let a = solver.value(set);
        let b = brute(universe, set, &mut memo);
        assert!(
            (a - b).abs() < 1e-9,
            "set of {}: solver {a}, brute force {b}",
            set.count_ones()
        );
    }
}

#[test]
fn solver_policy_achieves_its_value_on_every_board() {
    let universe = Universe::of(Variant::Classic);
    let mut solver = Solver::new(universe, u32::MAX);
    let all = (1u128 << 48) - 1;
    let value = solver.value(all);
    assert!((value - CLASSIC_OPTIMUM).abs() < 1e-9, "optimum {value}");
    // Follow the solver's first-ranked cell against each of the 48 planes.
    let mut total = 0;
    for truth in 0..48 {
        let mut set = all;
        let mut shots = 0;
        loop {
            let (cell, _) = solver.best(set);
            shots += 1;
            if usize::from(universe.placement_head[truth]) == cell {
                break;
            }
            let (hit, miss) = solver.split(set, cell);
            set = if hit & (1u128 << truth) != 0 { hit } else { miss };
        }
        total += shots;
    }
    assert!(
        (f64::from(total) / 48.0 - value).abs() < 1e-9,
        "policy mean {}",
        f64::from(total) / 48.0
    );
}

#[test]
fn bayes_fires_only_optimal_cells_on_seven_by_seven() {
    let universe = Universe::of(Variant::Classic);
    let mut solver = Solver::new(universe, u32::MAX);
    // Unclocked: the first decision solves the fresh board whatever the machine's load.
    let mut bayes = skirmish_bots::plane::Bayes::with_budget(None);
    let mut rng = SmallRng::seed_from_u64(5);
    for (truth, placement) in universe.placements.iter().enumerate() {
        let mut board = SoloBoard::new(Variant::Classic, vec![*placement]);
        while !board.cleared() {
            let view: View = board.view();
            let knowledge = Knowledge::of_board(universe, &view.boards[1]);
            let set = last_plane_set(universe, &knowledge, &knowledge.consistent(universe));
            assert!(set & (1u128 << truth) != 0);
            let optimum = solver.value(set);
            let (seat, cell) = bayes.fire(&view, &mut rng);
            assert_eq!(seat, Seat(1));
            let c = cell.index(7);
            let value = if set.count_ones() == 1 {
                1.0
            } else {
                solver
                    .ranked(set)
                    .into_iter()
                    .find(|x| x.0 == c)
                    .expect("an informative cell")
                    .1
            };
            assert!(
                (value - optimum).abs() < 1e-9,
                "{cell}: {value} vs optimum {optimum}"
            );
            let _: ShotResult = board.fire(cell).unwrap();
        }
    }
}

#[test]
fn bayes_beats_seed_cv_on_the_same_boards() {
    let bayes = evaluate("bayes", Variant::Classic, 400, 3).unwrap();
    let seed_cv = evaluate("seed-cv", Variant::Classic, 400, 3).unwrap();
    assert!(
        bayes.mean + 0.3 < seed_cv.mean,
        "bayes {} vs seed-cv {}",
        bayes.mean,
        seed_cv.mean
    );
}
