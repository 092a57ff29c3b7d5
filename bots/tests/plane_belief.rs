//! The belief filter: consistent-deployment counts on fresh boards (48 on 7x7, 2,352 on 9x9) and,
//! after shot sequences, the same count as a brute force over plane shapes.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use skirmish_bots::eval::SoloBoard;
use skirmish_bots::plane::belief::{Knowledge, Universe};
use skirmish_games::plane::{Cell, Placement, ShotResult, Variant, placements, random_deployment};

/// Every unordered legal deployment, built from `Placement::cells` alone.
fn brute_deployments(variant: Variant) -> Vec<Vec<Placement>> {
    let side = variant.side();
    let all = placements(side);
    let mut out = Vec::new();
    for (i, a) in all.iter().enumerate() {
        if variant.planes() == 1 {
            out.push(vec![*a]);
            continue;
        }
        for b in &all[i + 1..] {
            let (ca, cb) = (a.cells(side).unwrap(), b.cells(side).unwrap());
            if !ca.iter().any(|c| cb.contains(c)) {
                out.push(vec![*a, *b]);
            }
        }
    }
    out
}

/// What a shot at `cell` would find on `planes`.
fn result_on(planes: &[Placement], side: u8, cell: Cell) -> ShotResult {
    for p in planes {
        let cells = p.cells(side).unwrap();
        if cells[0] == cell {
            return ShotResult::Down;
        }
        if cells.contains(&cell) {
            return ShotResult::Hit;
        }
    }
    ShotResult::Miss
}

#[test]
fn fresh_boards_admit_every_deployment() {
    let classic = Universe::of(Variant::Classic);
    let double = Universe::of(Variant::Double);
    assert_eq!(Knowledge::default().consistent(classic).len(), 48);
    assert_eq!(Knowledge::default().consistent(double).len(), 2352);
    assert_eq!(brute_deployments(Variant::Classic).len(), 48);
    assert_eq!(brute_deployments(Variant::Double).len(), 2352);
}

#[test]
fn filter_matches_brute_force_after_shots() {
    let mut rng = SmallRng::seed_from_u64(11);
    for variant in [Variant::Classic, Variant::Double] {
        let side = variant.side();
        let universe = Universe::of(variant);
        let brute = brute_deployments(variant);
        for _ in 0..12 {
            let mut board = SoloBoard::new(variant, random_deployment(variant, &mut rng));
            let shots = rng.random_range(1..12);
            let mut fired: Vec<(Cell, ShotResult)> = Vec::new();
            for _ in 0..shots {
                if board.cleared() {
                    break;
                }
                let view = board.view();
                let knowledge = Knowledge::of_board(universe, &view.boards[1]);
                let open: Vec<usize> = (0..universe.cells)
                    .filter(|c| knowledge.public & (1u128 << c) == 0)
                    .collect();
                let cell = Cell::from_index(open[rng.random_range(0..open.len())], side);
                fired.push((cell, board.fire(cell).unwrap()));
                let view = board.view();
                let downed = &view.boards[1].downed;
                let expected = brute
                    .iter()
                    .filter(|d| fired.iter().all(|(c, r)| result_on(d, side, *c) == *r))
                    .filter(|d| downed.iter().all(|p| d.contains(p)))
                    .count();
                let knowledge = Knowledge::of_board(universe, &view.boards[1]);
                assert_eq!(
                    knowledge.consistent(universe).len(),
                    expected,
                    "{variant:?} after {fired:?}"
                );
                assert!(expected >= 1, "the true deployment stays consistent");
            }
        }
    }
}

#[test]
fn a_known_sequence_on_seven_by_seven() {
    // The plane of docs/rules.md's drawing with its head at C1, facing up; shots A1 (miss), C3 (body:
    // hit) and D4 (tail: hit).
    let planes = vec![Placement::new(
        "C1".parse().unwrap(),
        skirmish_games::plane::Facing::Up,
    )];
    let mut board = SoloBoard::new(Variant::Classic, planes);
    assert_eq!(board.fire("A1".parse().unwrap()).unwrap(), ShotResult::Miss);
    assert_eq!(board.fire("C3".parse().unwrap()).unwrap(), ShotResult::Hit);
    assert_eq!(board.fire("D4".parse().unwrap()).unwrap(), ShotResult::Hit);
    let universe = Universe::of(Variant::Classic);
    let knowledge = Knowledge::of_board(universe, &board.view().boards[1]);
    let brute = brute_deployments(Variant::Classic)
        .into_iter()
        .filter(|d| {
            result_on(d, 7, "A1".parse().unwrap()) == ShotResult::Miss
                && result_on(d, 7, "C3".parse().unwrap()) == ShotResult::Hit
                && result_on(d, 7, "D4".parse().unwrap()) == ShotResult::Hit
        })
        .count();
    let filtered = knowledge.consistent(universe).len();
    assert_eq!(filtered, brute);
    assert!(
        (2..48).contains(&filtered),
        "the shots narrow it down: {filtered}"
    );
}
