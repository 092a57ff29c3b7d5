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

/// The seed paper's attack and defence; everything is derived from the view.
#[derive(Clone, Copy, Debug)]
pub struct SeedCv {
    /// The probability of the risky target choice with two opponents left.
    risky: f64,
}

impl Default for SeedCv {
    /// The strategy as `seed-cv` plays it: risky with [`RISKY_PROBABILITY`].
    fn default() -> SeedCv {
        SeedCv {
            risky: RISKY_PROBABILITY,
        }
    }
}

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
    /// A `seed-cv` whose risky choice (the single leader on match totals) has probability
    /// `risky` instead of [`RISKY_PROBABILITY`]: 0 is the paper's pure safe attacker (稳妥型),
    /// which `eval --seed-cv-risky` uses to measure what the leader rule costs the candidate.
    ///
    /// # Panics
    /// If `risky` is not within 0 to 1.
    pub fn with_risky(risky: f64) -> SeedCv {
        assert!((0.0..=1.0).contains(&risky), "a probability, 0 to 1: {risky}");
        SeedCv { risky }
    }

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
            if leaders.len() == 1 && rng.random_bool(self.risky) {
                leaders[0]
            } else {
                safe
            }
        };
        (board.seat, self.cell_on(view, board, rng))
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::SmallRng;
    use skirmish_games::Seat;
    use skirmish_games::plane::{ShotRecord, ShotResult};

    use super::super::PlaneStrategy;
    use super::super::rollout::tests::{down, three_player_view};
    use super::*;

    /// Seat 0 to fire, seat 1 the single leader on match totals, seat 2's board the "safe" one
    /// (a plane down, the other hit everywhere but its head): how often each `risky`
    /// probability picks the leader over 200 shots.
    fn leader_picks(risky: Option<f64>) -> usize {
        let (mut view, planes) = three_player_view(5);
        view.totals[Seat(1)] = 5;
        down(&mut view.boards[2], planes[2][0], Seat(1));
        for cell in planes[2][1].cells(9).expect("on the board").into_iter().skip(1) {
            view.boards[2].shots.push(ShotRecord {
                by: Seat(1),
                cell,
                result: ShotResult::Hit,
            });
        }
        let mut player = risky.map_or_else(SeedCv::default, SeedCv::with_risky);
        let mut rng = SmallRng::seed_from_u64(9);
        (0..200)
            .filter(|_| player.fire(&view, &mut rng).0 == Seat(1))
            .count()
    }

    /// The risky choice goes to the single leader with the probability asked: never at 0 (the
    /// paper's pure safe attacker), always at 1, and about 30% of the time as `seed-cv` plays.
    #[test]
    fn the_risky_probability_sets_how_often_the_leader_is_attacked() {
        assert_eq!(leader_picks(Some(0.0)), 0);
        assert_eq!(leader_picks(Some(1.0)), 200);
        let default = leader_picks(None);
        assert!(
            (35..=85).contains(&default),
            "{default} of 200, about 60 expected"
        );
    }

    #[test]
    #[should_panic(expected = "a probability")]
    fn a_risky_probability_outside_0_to_1_is_refused() {
        let _ = SeedCv::with_risky(1.5);
    }
}
