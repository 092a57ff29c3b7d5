//! The `points` strategy: `bayes`'s search on each board, a 3-player attack that models the
//! `seed-cv` attackers, and deployments that hide from the seed paper's attacker (issue 19).
//!
//! **Deployment** (`double`): of [`DEPLOY_DRAWS`] uniformly random legal deployments, the one the
//! CV prior (`seed-cv`'s, and that of any attacker whose prior favours cells many placements
//! cover) rates least likely: the smallest sum of the fresh board's CV over its cells, heads
//! counted 5 times as the CV counts them. An attacker with a uniform prior (`bayes`) loses nothing
//! to this bias but gains nothing from it either. `classic` deploys uniformly at random (one
//! plane, no room to hide). Against two `seed-cv` on 9x9 this took the share of the points from
//! 36.8% to 39.6% (`skirmish-bots eval`, bots/README.md "3-player matches" has the command).
//!
//! **Attack** with two opponents left: a one-step Monte Carlo over the order of play
//! ([`rollout::search`]): for each board it may fire at (and, when it differs from the
//! largest-CV cell, that board's likeliest head), up to [`ROLLOUTS`] rollouts of the rest of the
//! round, the opponents' hidden planes drawn from what their boards show, the two opponents
//! playing `seed-cv`'s rule ([`rivals`]) and `points` itself the rules below; the first shot
//! with the most points on average wins, and its cell is `bayes`'s (or the head, when the head
//! won). It stops rolling out at [`ROLLOUT_BUDGET`] of wall time. The rules it rolls out with,
//! and plays itself when the search cannot run ([`Points::with_rollouts`]`(0)`):
//! 1. *Knockout within reach*: a board with one plane left whose likeliest head has probability
//!    at least [`SNIPE_HEAD`]: fire at that head (3 points the next attacker may take otherwise).
//! 2. *Turn the attackers away*: [`rivals`] predicts each opponent's next target under the
//!    `seed-cv` rule (the most resolved board, "safe", or the leader); `points` fires at the board
//!    whose owner is *not* the one predicted on it, which makes that board more resolved, so the
//!    other opponent turns on it. Ties (neither or both predicted on it) go to `bayes`'s rate of
//!    points per expected shot, then the higher match total.
//!
//! The cell is `bayes`'s (fewest expected shots to clear the board). With one opponent left it
//! plays `bayes`, with the learned prior below.
//!
//! **Deployment habits** ([`habits`]): from the boards every seat's view shows at each round's
//! end, `points` learns each opponent's deployment habits (a Dirichlet over 6 classes: boxes
//! intersecting or not, 0 to 2 boxes on the edge, starting from the uniform prior) and weighs
//! that opponent's consistent deployments by them: in `bayes`'s search (`plane::search` under
//! `plane::weighted`'s prior), in the search's likeliest-head candidate and in the rollouts' draws. With nothing learned yet
//! (the first round) it plays the uniform `bayes`, book and all. Against two `seed-cv` with dealt boards (54 matches) the search took
//! the share of the points from 38.8% (the rules alone) to 41.5% at 300 rollouts; the rules alone
//! had taken it from 39.7% to 42.5% with its own deployments (72 matches), measured with
//! `skirmish-bots eval`. The model only orders `points`'s own legal choices: an opponent that is not
//! `seed-cv` makes the prediction a guess, never an illegal shot.

use std::time::{Duration, Instant};

use rand::RngCore;
use skirmish_games::Seat;
use skirmish_games::plane::{Cell, Placement, Variant, View, random_deployment};

use skirmish_protocol::BotInfo;

use super::PlaneStrategy;
use super::bayes::Bayes;
use super::belief::{Knowledge, Universe};
use super::seed_cv::{argmax_cells, cube_values};
use super::{habits, rivals, rollout};

// One rule for `points`'s own play and its rollouts: defined with the rollouts, which `points`
// drives.
pub use super::rollout::SNIPE_HEAD;

/// Random deployments drawn to choose the least exposed one from (48 and 200 scored alike, so
/// the smaller keeps the choice less predictable).
pub const DEPLOY_DRAWS: usize = 48;

/// Rollouts per candidate first shot of the 3-player search ([`rollout::search`]): 32, 96,
/// 300 and 1,000 were measured (`skirmish-bots eval`), more doing better.
pub const ROLLOUTS: usize = 1_000;

/// Wall time from the start of a decision after which the 3-player search stops rolling out
/// (read after every rollout), leaving the rest of `bayes::DECISION_BUDGET` (300 ms) to
/// `bayes`'s cell.
pub const ROLLOUT_BUDGET: Duration = Duration::from_millis(120);

/// The `points` strategy (module docs).
pub struct Points {
    bayes: Bayes,
    rollouts: usize,
}

impl Default for Points {
    fn default() -> Points {
        Points::with_rollouts(ROLLOUTS)
    }
}

impl Points {
    /// A `points` whose 3-player search plays at most `rollouts` rollouts per candidate; 0 turns
    /// the search off and leaves the rules it rolls out with (a knockout within reach, else the
    /// board that turns the attackers away).
    pub fn with_rollouts(rollouts: usize) -> Points {
        Points {
            bayes: Bayes::default(),
            rollouts,
        }
    }
}

/// The CV exposure of a deployment: the fresh board's CV (`cv`, per cell) summed over its cells,
/// heads 5 times.
pub fn exposure(universe: &Universe, cv: &[u32], planes: &[Placement]) -> u64 {
    let side = universe.variant.side();
    planes
        .iter()
        .filter_map(|p| p.cells(side))
        .map(|cells| {
            let head = u64::from(cv[cells[0].index(side)]) * 4;
            head + cells.iter().map(|c| u64::from(cv[c.index(side)])).sum::<u64>()
        })
        .sum()
}

impl PlaneStrategy for Points {
    fn deploy(&mut self, view: &View, rng: &mut dyn RngCore) -> Vec<Placement> {
        let variant = view.config.variant;
        if variant == Variant::Classic {
            return random_deployment(variant, rng);
        }
        let universe = Universe::of(variant);
        let (cv, _, _) = cube_values(universe, &Knowledge::default());
        (0..DEPLOY_DRAWS)
            .map(|_| random_deployment(variant, rng))
            .min_by_key(|planes| exposure(universe, &cv, planes))
            .expect("at least one draw")
    }

    fn fire(&mut self, view: &View, rng: &mut dyn RngCore) -> (Seat, Cell) {
        let started = Instant::now();
        self.bayes.start_decision();
        let weights = habits::weights_by_seat(view);
        let prior = |seat: Seat| weights.get(seat.index()).and_then(|w| w.as_deref());
        if super::targets(view).len() == 1 {
            let seat = super::targets(view)[0].seat;
            return (seat, self.bayes.cell_at_weighted(view, seat, prior(seat), rng));
        }
        let best = rollout::search(view, rng, self.rollouts, started, ROLLOUT_BUDGET, &weights)
            .and_then(|search| search.best());
        if let Some(best) = best {
            let universe = Universe::of(view.config.variant);
            let knowledge = Knowledge::of_board(universe, &view.boards[best.target.index()]);
            let (cv, _, _) = cube_values(universe, &knowledge);
            if !argmax_cells(&cv, knowledge.public).contains(&best.cell) {
                // The likeliest head won: fire there (a plane, or a knockout, now).
                return (best.target, universe.cell(best.cell));
            }
            return (
                best.target,
                self.bayes
                    .cell_at_weighted(view, best.target, prior(best.target), rng),
            );
        }
        let rates = self.bayes.rates(view);
        let me = super::me(view);
        let boards = rivals::read_boards(view);
        if let Some(shot) = snipe(view, &boards, me) {
            return shot;
        }
        let target = divert(view, &boards, me, &rates);
        (
            target,
            self.bayes.cell_at_weighted(view, target, prior(target), rng),
        )
    }

    /// The filter's odds on every target board, each under the learned habits of its owner
    /// (the prior this strategy fires by; uniform for a seat not yet learned).
    fn info(&mut self, view: &View) -> Option<BotInfo> {
        let weights = habits::weights_by_seat(view);
        let prior = |seat: Seat| weights.get(seat.index()).and_then(|w| w.as_deref());
        Some(super::odds::board_odds(view, &prior))
    }
}

/// A knockout within reach: on a target board with one plane left whose likeliest head has
/// probability at least [`SNIPE_HEAD`], that head (the likeliest over such boards), or None.
fn snipe(view: &View, boards: &[rivals::BoardRead], me: Seat) -> Option<(Seat, Cell)> {
    let universe = Universe::of(view.config.variant);
    let (_, seat) = boards
        .iter()
        .filter(|b| b.seat != me && b.planes_left == 1 && b.best_head >= SNIPE_HEAD)
        .map(|b| (b.best_head, b.seat))
        .max_by(|a, b| a.0.total_cmp(&b.0))?;
    let knowledge = Knowledge::of_board(universe, &view.boards[seat.index()]);
    let (_, heads, _) = cube_values(universe, &knowledge);
    let cell = *argmax_cells(&heads, knowledge.public).first()?;
    Some((seat, universe.cell(cell)))
}

/// The target with two opponents left: the board whose owner is *not* the one predicted to fire
/// at me, i.e. the board with the largest probability that the other opponent fires at me next
/// (a shot there makes it more resolved, so `seed-cv`'s "safe" rule turns that opponent on it);
/// ties (neither or both predicted on me) go to `bayes`'s rate, then the higher match total.
fn divert(view: &View, boards: &[rivals::BoardRead], me: Seat, rates: &[(Seat, f64)]) -> Seat {
    let at_me = |shooter: Seat| {
        rivals::seed_cv_targets(view, boards, shooter)
            .into_iter()
            .find(|(s, _)| *s == me)
            .map_or(0.0, |(_, p)| p)
    };
    let mut best: Option<(f64, f64, u32, Seat)> = None;
    for &(seat, rate) in rates {
        let other = rates.iter().find(|(s, _)| *s != seat).map_or(seat, |x| x.0);
        let key = (at_me(other), rate, view.totals[seat], seat);
        let better = best.is_none_or(|b| {
            (key.0, key.1, key.2)
                .partial_cmp(&(b.0, b.1, b.2))
                .is_some_and(|o| o.is_gt())
        });
        if better {
            best = Some(key);
        }
    }
    best.map_or(rates[0].0, |b| b.3)
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::SmallRng;
    use skirmish_games::plane::{Config, PlaneBattle};
    use skirmish_games::{Game, Viewer};

    use super::*;
    use crate::plane::rollout::tests::down;
    use crate::plane::weighted::Weights;

    /// A 3-player view for seat 0 after every seat deployed (seed 5): the view and the deployments.
    fn three_player_view() -> (View, Vec<Vec<Placement>>) {
        crate::plane::rollout::tests::three_player_view(5)
    }

    /// Public shots by `by` on `board`: a `hit` on every non-head cell of `plane`.
    fn hit_body(board: &mut skirmish_games::plane::BoardView, plane: Placement, by: Seat) {
        use skirmish_games::plane::{ShotRecord, ShotResult};
        for cell in plane.cells(9).unwrap().into_iter().skip(1) {
            board.shots.push(ShotRecord {
                by,
                cell,
                result: ShotResult::Hit,
            });
        }
    }

    /// Seat 1 (a `seed-cv`) is predicted to fire at me (my board is more resolved than seat 2's
    /// fresh one), seat 2 at seat 1 (whose board is the most resolved).
    fn pressured(view: &mut View, planes: &[Vec<Placement>]) {
        use skirmish_games::plane::{ShotRecord, ShotResult};
        let mine = planes[0][0].cells(9).unwrap();
        for &cell in &mine[1..5] {
            view.boards[0].shots.push(ShotRecord {
                by: Seat(1),
                cell,
                result: ShotResult::Hit,
            });
        }
        hit_body(&mut view.boards[1], planes[1][1], Seat(2));
    }

    /// With a knockout in reach (seat 1's last plane found but for its head) it fires at that
    /// head, though the board choice alone would turn it on seat 2.
    #[test]
    fn takes_a_knockout_within_reach() {
        let (mut view, planes) = three_player_view();
        pressured(&mut view, &planes);
        down(&mut view.boards[1], planes[1][0], Seat(2));
        let mut rng = SmallRng::seed_from_u64(1);
        let shot = Points::default().fire(&view, &mut rng);
        assert_eq!(shot, (Seat(1), planes[1][1].head));
    }

    /// With seat 1 predicted to fire at it and seat 2 at seat 1, it fires at seat 2 (so seat 1
    /// turns on seat 2), where `bayes` fires at seat 1's nearly solved board.
    #[test]
    fn fires_at_the_board_that_turns_its_attacker_away() {
        let (mut view, planes) = three_player_view();
        pressured(&mut view, &planes);
        let boards = rivals::read_boards(&view);
        assert_eq!(
            rivals::seed_cv_targets(&view, &boards, Seat(1)),
            vec![(Seat(0), 1.0), (Seat(2), 0.0)]
        );
        let mut rng = SmallRng::seed_from_u64(1);
        assert_eq!(Bayes::default().fire(&view, &mut rng).0, Seat(1));
        let (target, cell) = Points::with_rollouts(0).fire(&view, &mut rng);
        assert_eq!(target, Seat(2));
        assert!(view.boards[2].shots.iter().all(|s| s.cell != cell));
    }

    /// What `points` learns from a view's revealed rounds reaches its search: after 8 rounds in
    /// which seat 1 deployed its planes close together, the weighted search values seat 1's board
    /// (one miss) at fewer expected shots than the uniform one (8.52 against 8.88), the search
    /// `points` fires by in a duel (seat 2 knocked out); with no round revealed nothing is
    /// weighted.
    #[test]
    fn the_learned_habits_reach_the_search() {
        use skirmish_games::plane::{ShotRecord, ShotResult};
        let (mut view, planes) = three_player_view();
        view.boards[2].knocked_out = true;
        let miss = (0..81)
            .map(|i| Cell::from_index(i, 9))
            .find(|c| planes[1].iter().all(|p| !p.cells(9).unwrap().contains(c)))
            .unwrap();
        view.boards[1].shots.push(ShotRecord {
            by: Seat(0),
            cell: miss,
            result: ShotResult::Miss,
        });
        assert!(habits::weights_by_seat(&view).iter().all(Option::is_none));
        learn_close_habit(&mut view, 8);
        let u = Universe::of(Variant::Double);
        let weights = habits::weights_by_seat(&view)[1].clone().expect("seat 1 learned");
        let know = Knowledge::of_board(u, &view.boards[1]);
        let alive = know.consistent(u);
        let mut solver = crate::plane::optimal::Solver::new(u, crate::plane::bayes::DOUBLE_EXACT_CAP);
        let ones = vec![1.0; weights.len()];
        let (learned, uniform) = (Weights(&weights), Weights(&ones));
        let learned = crate::plane::search::ranked(&mut solver, None, &learned, &know, &alive);
        let uniform = crate::plane::search::ranked(&mut solver, None, &uniform, &know, &alive);
        assert!(
            learned[0].1 < uniform[0].1 - 0.2,
            "{:?} vs {:?}",
            learned[0],
            uniform[0]
        );
        // The duel's cell is legal.
        let (target, cell) = Points::default().fire(&view, &mut SmallRng::seed_from_u64(2));
        assert_eq!(target, Seat(1));
        assert!(view.boards[1].shots.iter().all(|s| s.cell != cell));
    }

    /// `rounds` revealed rounds in which seat 1 deployed its planes close together (boxes
    /// intersecting) and the others at random.
    fn learn_close_habit(view: &mut View, rounds: u32) {
        use skirmish_games::PerSeat;
        use skirmish_games::plane::RoundResult;
        let mut rng = SmallRng::seed_from_u64(3);
        for round in 0..rounds {
            let close = habits::close_deployment(&mut rng);
            let others = random_deployment(Variant::Double, &mut rng);
            view.history.push(RoundResult {
                round,
                extra: false,
                survivor: Seat(0),
                points: PerSeat(vec![0; 3]),
                deployments: PerSeat(vec![others.clone(), close, others]),
            });
        }
    }

    /// `points`'s own decision fires by what it learned: in a duel against a seat that deployed
    /// its planes close together in 30 revealed rounds, with its first plane down, `points` fires
    /// at a cell that the uniform prior (`bayes`'s choices, which the weighted search gives too
    /// with equal weights) does not choose, and that cell downs the last plane in fewer expected
    /// shots than the uniform choice when the habit is real (exact values over the close partners
    /// alone: 3.97 against 4.00).
    #[test]
    fn fires_by_the_learned_habits() {
        use crate::plane::belief::last_plane_set;
        use crate::plane::deploy::close_together;
        let (mut view, planes) = three_player_view();
        view.boards[2].knocked_out = true;
        let first = planes[1][0];
        down(&mut view.boards[1], first, Seat(0));
        learn_close_habit(&mut view, 30);
        let u = Universe::of(Variant::Double);
        let know = Knowledge::of_board(u, &view.boards[1]);
        let alive = know.consistent(u);
        let mut points = Points {
            bayes: Bayes::with_budget(None),
            rollouts: 0,
        };
        let (target, cell) = points.fire(&view, &mut SmallRng::seed_from_u64(2));
        assert_eq!(target, Seat(1));
        let cell = u.bit(cell).trailing_zeros() as usize;
        let uniform = Bayes::with_budget(None).choices(u, &know, &alive);
        assert!(!uniform.contains(&cell), "{cell} in {uniform:?}");
        // The last plane's placements if the habit holds, equally likely.
        let close = (0..u.placements.len())
            .filter(|&p| close_together(first, u.placements[p], 9))
            .fold(0u128, |set, p| set | 1u128 << p)
            & last_plane_set(u, &know, &alive);
        let mut solver = crate::plane::optimal::Solver::new(u, u32::MAX);
        let mut truth = |c: usize| {
            let (hit, miss) = solver.split(close, c);
            1.0 + (f64::from(hit.count_ones()) * solver.value(hit)
                + f64::from(miss.count_ones()) * solver.value(miss))
                / f64::from(close.count_ones())
        };
        let learned = truth(cell);
        let plain: Vec<f64> = uniform.iter().map(|&c| truth(c)).collect();
        assert!(
            plain.iter().all(|&v| learned < v - 0.02),
            "{learned} vs {plain:?}"
        );
    }

    /// Its deployments are legal and less exposed to the CV prior than uniformly random ones.
    #[test]
    fn deployments_are_legal_and_hide_from_the_cv_prior() {
        let (game, _) = PlaneBattle::new(Config::default()).unwrap();
        let view = game.view(Viewer::Seat(Seat(0)));
        let universe = Universe::of(Variant::Double);
        let (cv, _, _) = cube_values(universe, &Knowledge::default());
        let mut rng = SmallRng::seed_from_u64(9);
        let (mut hidden, mut random) = (0u64, 0u64);
        for _ in 0..100 {
            let planes = Points::default().deploy(&view, &mut rng);
            PlaneBattle::check_deployment(Variant::Double, &planes).unwrap();
            hidden += exposure(universe, &cv, &planes);
            random += exposure(universe, &cv, &random_deployment(Variant::Double, &mut rng));
        }
        assert!(hidden * 10 < random * 8, "hidden {hidden}, random {random}");
    }
}
