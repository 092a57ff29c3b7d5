//! The `seed-cv` strategy: the seed paper's attack (seeds/000, problems 1-3).
//!
//! - CV ("cube value") of a cell: over every deployment still consistent with the board's public
//!   results, 5 for a head not yet downed there and 1 for another plane cell there (the paper's head
//!   weight `ph/pb = 5`, chosen there for the best expected shot count). Fire at the largest CV,
//!   ties broken at random ("取随机数").
//! - The first 2 shots of a round by this player on a board are probes ("试探性进攻", `probe = 2`),
//!   drawn with probability proportional to the initial CV matrix ("概率矩阵 x"); like the paper's
//!   `tanCe`, a cell whose current CV is 0 is never drawn.
//! - With two opponents left, the target is "safe" (稳妥型: the opponent whose most likely head is
//!   most likely) or "risky" (风险型: the opponent with the highest match total), mixed with
//!   probability [`RISKY_PROBABILITY`] for risky.
//! - Deployment: the paper's defensive mix, close together mostly, far apart now and then.

use rand::{Rng, RngCore};
use skirmish_games::Seat;
use skirmish_games::plane::{BoardView, Cell, Placement, View};

use super::belief::{Knowledge, Universe};
use super::{PlaneStrategy, deploy, me, pick, targets, weighted_index};

/// Head weight of the CV sum; other plane cells weigh 1 (the paper's `ph / pb = 5`).
pub const HEAD_WEIGHT: u32 = 5;

/// Probes per board per round (the paper's `probe = 2`).
pub const PROBES: usize = 2;

/// The probability of the risky target choice when two opponents are left. The paper leaves the
/// mix `xa` to a Nash program it does not solve; risky is the occasional choice, 0.3 is ours.
pub const RISKY_PROBABILITY: f64 = 0.3;

/// The seed paper's attack and defence; stateless, everything is derived from the view.
#[derive(Clone, Copy, Debug, Default)]
pub struct SeedCv;

/// The CV of every cell of a board (0 for public cells), and the number of consistent deployments
/// with a not-yet-downed head on each cell.
pub(crate) fn cube_values(universe: &Universe, knowledge: &Knowledge) -> (Vec<u32>, Vec<u32>, usize) {
    let mut cv = vec![0u32; universe.cells];
    let mut heads = vec![0u32; universe.cells];
    let alive = knowledge.consistent(universe);
    for &i in &alive {
        let d = &universe.deployments[usize::from(i)];
        let planes: &[u8] = if d.planes[0] == d.planes[1] {
            &d.planes[..1]
        } else {
            &d.planes
        };
        for &p in planes {
            if knowledge.downed.contains(&p) {
                continue;
            }
            let mut cells = universe.placement_cells[usize::from(p)] & !knowledge.public;
            while cells != 0 {
                let c = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                cv[c] += 1;
            }
            let head = usize::from(universe.placement_head[usize::from(p)]);
            cv[head] += HEAD_WEIGHT - 1;
            heads[head] += 1;
        }
    }
    (cv, heads, alive.len())
}

/// The non-public cells of largest value, or all non-public cells when every value is 0.
pub(crate) fn argmax_cells(values: &[u32], public: u128) -> Vec<usize> {
    let open: Vec<usize> = (0..values.len()).filter(|c| public & (1u128 << c) == 0).collect();
    let best = open.iter().map(|&c| values[c]).max().unwrap_or(0);
    open.into_iter().filter(|&c| values[c] == best).collect()
}

impl SeedCv {
    /// The cell to fire at on one board.
    fn cell_on(&self, view: &View, board: &BoardView, rng: &mut dyn RngCore) -> Cell {
        let universe = Universe::of(view.config.variant);
        let knowledge = Knowledge::of_board(universe, board);
        let (cv, _, _) = cube_values(universe, &knowledge);
        let mine = board.shots.iter().filter(|s| s.by == me(view)).count();
        if mine < PROBES {
            let (initial, _, _) = cube_values(universe, &Knowledge::default());
            let weights: Vec<f64> = (0..universe.cells)
                .map(|c| {
                    let open = knowledge.public & (1u128 << c) == 0 && cv[c] > 0;
                    if open { f64::from(initial[c]) } else { 0.0 }
                })
                .collect();
            if weights.iter().any(|w| *w > 0.0) {
                return universe.cell(weighted_index(&weights, rng));
            }
        }
        universe.cell(pick(&argmax_cells(&cv, knowledge.public), rng))
    }
}

impl PlaneStrategy for SeedCv {
    fn deploy(&mut self, view: &View, rng: &mut dyn RngCore) -> Vec<Placement> {
        deploy::paper_mix(view.config.variant, rng)
    }

    fn fire(&mut self, view: &View, rng: &mut dyn RngCore) -> (Seat, Cell) {
        let boards = targets(view);
        let board = if boards.len() == 1 {
            boards[0]
        } else {
            let universe = Universe::of(view.config.variant);
            let safety = |b: &BoardView| {
                let k = Knowledge::of_board(universe, b);
                let (_, heads, alive) = cube_values(universe, &k);
                f64::from(heads.into_iter().max().unwrap_or(0)) / alive.max(1) as f64
            };
            let safe = boards
                .iter()
                .copied()
                .max_by(|a, b| safety(a).total_cmp(&safety(b)))
                .expect("two opponents");
            let top = boards
                .iter()
                .map(|b| view.totals[b.seat])
                .max()
                .expect("two opponents");
            let leaders: Vec<&BoardView> = boards
                .iter()
                .copied()
                .filter(|b| view.totals[b.seat] == top)
                .collect();
            if leaders.len() == 1 && rng.random_bool(RISKY_PROBABILITY) {
                leaders[0]
            } else {
                safe
            }
        };
        (board.seat, self.cell_on(view, board, rng))
    }
}
