//! Each opponent's deployment habits, learned over a match from its boards revealed at each
//! round's end (docs/rules.md, plane battle, "Attack": "every board is shown"; the view's
//! `history[..].deployments`), as a prior over its next deployment (issue 19).
//!
//! A deployment falls in one of [`CLASSES`] classes: whether its planes' 4x5 boxes intersect (the
//! seed paper's "close together", `deploy::close_together`) times how many of its planes' boxes
//! touch the board's edge (0, 1 or 2). The model of a seat is a Dirichlet over the classes whose
//! prior is the uniform deployment's class shares `u_k` with [`PRIOR_STRENGTH`] pseudo-rounds;
//! after `n_k` of the seat's `N` revealed deployments fell in class `k`, the posterior mean is
//! `p_k = (A u_k + n_k) / (A + N)` and a deployment of class `k` weighs `p_k / u_k` against the
//! uniform prior (the weight of a deployment is the learned probability of its class spread
//! evenly over the class's deployments). Before any revealed round every weight is 1, so a
//! board dealt uniformly at random (a duplicate tournament's deal) is weighted close to 1 by
//! what it shows and the uniform filter is left nearly unchanged.
//!
//! Only what the seat's own view shows is read: the history of finished rounds, which the
//! referee sends to every seat once each round ends.

use std::sync::OnceLock;

use skirmish_games::Seat;
use skirmish_games::plane::{Placement, Variant, View};

use super::belief::{Deployment, Universe};
use super::deploy::close_together;

/// Number of deployment classes: boxes intersecting or not, times 0, 1 or 2 boxes on the edge.
pub const CLASSES: usize = 6;

/// The prior's weight in pseudo-rounds (`A`): how many revealed deployments it takes to move a
/// class's probability halfway from its uniform share to the observed frequency. 6 is ours (a
/// third of a default 18-round match).
pub const PRIOR_STRENGTH: f64 = 6.0;

/// The class of one deployment of planes `planes` on a board of side `side` (cells).
fn class_of(planes: &[Placement], side: u8) -> usize {
    let close = match planes {
        [a, b] => close_together(*a, *b, side),
        _ => false,
    };
    let edges = planes
        .iter()
        .filter(|p| {
            p.cells(side).is_some_and(|cells| {
                cells
                    .iter()
                    .any(|c| c.row == 0 || c.col == 0 || c.row + 1 == side || c.col + 1 == side)
            })
        })
        .count()
        .min(2);
    usize::from(close) * 3 + edges
}

/// Per variant: the class of every deployment of its universe, and each class's share of them
/// (the uniform prior's class probabilities `u_k`).
struct Classes {
    of: Vec<u8>,
    share: [f64; CLASSES],
}

impl Classes {
    fn of(variant: Variant) -> &'static Classes {
        static CLASSIC: OnceLock<Classes> = OnceLock::new();
        static DOUBLE: OnceLock<Classes> = OnceLock::new();
        let cell = match variant {
            Variant::Classic => &CLASSIC,
            Variant::Double => &DOUBLE,
        };
        cell.get_or_init(|| {
            let universe = Universe::of(variant);
            let of: Vec<u8> = universe
                .deployments
                .iter()
                .map(|d| class_of(&planes_of(universe, d), universe.side) as u8)
                .collect();
            let mut share = [0.0; CLASSES];
            for &k in &of {
                share[usize::from(k)] += 1.0;
            }
            share.iter_mut().for_each(|s| *s /= of.len() as f64);
            Classes { of, share }
        })
    }
}

/// The planes of a deployment (one for `classic`).
fn planes_of(universe: &Universe, d: &Deployment) -> Vec<Placement> {
    let [a, b] = d.planes;
    let mut planes = vec![universe.placements[usize::from(a)]];
    if b != a {
        planes.push(universe.placements[usize::from(b)]);
    }
    planes
}

/// What a seat's revealed deployments say about its next one.
#[derive(Clone, Debug, PartialEq)]
pub struct Habits {
    /// Revealed deployments per class.
    pub counts: [u32; CLASSES],
    /// The posterior mean probability of each class.
    pub probability: [f64; CLASSES],
}

impl Habits {
    /// The habits of `seat` learned from the finished rounds in `view.history` (its deployments,
    /// revealed to every seat at each round's end). No round: the uniform prior.
    pub fn learn(view: &View, seat: Seat) -> Habits {
        let side = view.config.variant.side();
        let mut counts = [0u32; CLASSES];
        for round in &view.history {
            let Some(planes) = round.deployments.0.get(seat.index()) else {
                continue;
            };
            if planes.len() == view.config.variant.planes() {
                counts[class_of(planes, side)] += 1;
            }
        }
        Habits::from_counts(view.config.variant, counts)
    }

    /// The posterior after `counts` revealed deployments per class.
    pub fn from_counts(variant: Variant, counts: [u32; CLASSES]) -> Habits {
        let share = &Classes::of(variant).share;
        let n: f64 = counts.iter().map(|&c| f64::from(c)).sum();
        let mut probability = [0.0; CLASSES];
        for k in 0..CLASSES {
            probability[k] = (PRIOR_STRENGTH * share[k] + f64::from(counts[k])) / (PRIOR_STRENGTH + n);
        }
        Habits { counts, probability }
    }

    /// Whether nothing was learned yet (every weight is 1).
    pub fn is_uniform(&self) -> bool {
        self.counts.iter().all(|&c| c == 0)
    }

    /// The prior weight of every deployment of the variant's [`Universe`] (indexed as
    /// [`Universe::deployments`]), relative to the uniform prior: `p_k / u_k` for its class `k`.
    /// None when nothing was learned (uniform).
    pub fn weights(&self, variant: Variant) -> Option<Vec<f64>> {
        if self.is_uniform() {
            return None;
        }
        let classes = Classes::of(variant);
        let ratio: Vec<f64> = (0..CLASSES)
            .map(|k| {
                if classes.share[k] > 0.0 {
                    self.probability[k] / classes.share[k]
                } else {
                    0.0
                }
            })
            .collect();
        Some(classes.of.iter().map(|&k| ratio[usize::from(k)]).collect())
    }
}

/// The learned prior weights of every seat's next deployment ([`Habits::weights`]), in seat order
/// (None for the viewer's own seat and for a seat with no revealed round).
pub fn weights_by_seat(view: &View) -> Vec<Option<Vec<f64>>> {
    let me = super::me(view);
    view.boards
        .iter()
        .map(|b| {
            if b.seat == me {
                None
            } else {
                Habits::learn(view, b.seat).weights(view.config.variant)
            }
        })
        .collect()
}

/// A uniformly drawn 9x9 deployment whose planes' boxes intersect (the seed paper's
/// "close together"): what the tests' opponents with a habit deploy.
#[cfg(test)]
pub(crate) fn close_deployment(rng: &mut (impl rand::Rng + ?Sized)) -> Vec<Placement> {
    loop {
        let planes = skirmish_games::plane::random_deployment(Variant::Double, rng);
        if close_together(planes[0], planes[1], 9) {
            return planes;
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::SmallRng;
    use skirmish_games::PerSeat;
    use skirmish_games::plane::{RoundResult, random_deployment};

    use super::*;
    use crate::plane::belief::Knowledge;
    use crate::plane::deploy::paper_mix;

    #[test]
    fn class_shares_sum_to_one_and_no_class_is_empty_on_9x9() {
        let classes = Classes::of(Variant::Double);
        let total: f64 = classes.share.iter().sum();
        assert!((total - 1.0).abs() < 1e-9);
        // About 55% of the uniform pairs are close together (boxes intersecting); two planes
        // can never both keep off the edge unless close.
        let close: f64 = classes.share[3..].iter().sum();
        assert!((0.5..0.6).contains(&close), "{:?}", classes.share);
        assert_eq!(classes.share[0], 0.0);
        // The uniform prior is a weight of 1 everywhere.
        assert_eq!(
            Habits::from_counts(Variant::Double, [0; CLASSES]).weights(Variant::Double),
            None
        );
    }

    /// Seat 0's 3-player view (seed 5) after `rounds` finished rounds in which seat 1 deployed
    /// `deploy`'s planes and the others uniformly random ones.
    fn view_after(rounds: u32, deploy: impl Fn(&mut SmallRng) -> Vec<Placement>) -> View {
        let (mut view, _) = crate::plane::rollout::tests::three_player_view(5);
        let mut rng = SmallRng::seed_from_u64(11);
        for round in 0..rounds {
            let deployments = (0..3)
                .map(|s| {
                    if s == 1 {
                        deploy(&mut rng)
                    } else {
                        random_deployment(Variant::Double, &mut rng)
                    }
                })
                .collect();
            view.history.push(RoundResult {
                round,
                extra: false,
                survivor: Seat(0),
                points: PerSeat(vec![0; 3]),
                deployments: PerSeat(deployments),
            });
        }
        view
    }

    /// An opponent that always deploys its planes close together (the seed paper's defence,
    /// boxes intersecting): after 8 rounds every close pair weighs more than 1 and every far pair
    /// less; the viewer's own seat and a seat with uniform deployments stay unweighted or near 1.
    #[test]
    fn learns_an_opponent_that_deploys_close_together() {
        let view = view_after(8, close_deployment);
        let u = Universe::of(Variant::Double);
        let weights = weights_by_seat(&view);
        assert!(weights[0].is_none(), "no weights for the viewer's own board");
        let w = weights[1].as_ref().expect("seat 1 has revealed rounds");
        let (mut close_weight, mut total) = (0.0, 0.0);
        for (d, &wd) in u.deployments.iter().zip(w) {
            let planes = planes_of(u, d);
            total += wd;
            if close_together(planes[0], planes[1], 9) {
                close_weight += wd;
            } else {
                assert!(wd < 0.5, "far pair weighs {wd}");
            }
        }
        // (6 x 0.547 + 8) / 14 = 0.80, up from the uniform 0.547.
        assert!(close_weight / total > 0.75, "{}", close_weight / total);
        // No consistent deployment is ever ruled out by a habit: an opponent that changes its
        // ways costs the filter shots, never the truth.
        assert!(
            w.iter().all(|&wd| wd > 0.2),
            "{:?}",
            w.iter().copied().reduce(f64::min)
        );
        // Before any round is revealed nothing is learned.
        assert!(weights_by_seat(&view_after(0, close_deployment))[1].is_none());
    }

    /// Against the seed paper's 80/20 mix the learned probability of "close" approaches 0.8 from
    /// the uniform share (0.547), and against uniform deployments it stays near that share
    /// (60 rounds: a match with extra rounds, or a long one).
    #[test]
    fn the_close_share_moves_towards_what_is_seen() {
        let share = Classes::of(Variant::Double).share;
        let uniform_close: f64 = share[3..].iter().sum();
        let close_of = |h: &Habits| h.probability[3..].iter().sum::<f64>();
        let mixed = Habits::learn(&view_after(60, |rng| paper_mix(Variant::Double, rng)), Seat(1));
        let uniform = Habits::learn(
            &view_after(60, |rng| random_deployment(Variant::Double, rng)),
            Seat(1),
        );
        assert!(
            close_of(&mixed) > uniform_close + 0.15,
            "{mixed:?} vs {uniform_close}"
        );
        assert!(
            (close_of(&uniform) - uniform_close).abs() < 0.1,
            "{uniform:?} vs {uniform_close}"
        );
    }

    /// The filter's head probabilities follow the learned prior: with seat 1's first plane down
    /// and its habit of close pairs learned, the standing plane's head is likelier on a placement
    /// whose box meets the downed plane's than the uniform filter says.
    #[test]
    fn learned_weights_move_the_head_probabilities_towards_close_partners() {
        let view = view_after(8, close_deployment);
        let u = Universe::of(Variant::Double);
        let w = Habits::learn(&view, Seat(1)).weights(Variant::Double).unwrap();
        let downed = u.placement_index(u.placements[40]).unwrap();
        let mut know = Knowledge::default();
        know.record(
            u,
            usize::from(u.placement_head[usize::from(downed)]),
            skirmish_games::plane::ShotResult::Down,
            Some(downed),
        );
        let alive = know.consistent(u);
        let (mut near_uniform, mut near_weighted, mut all_weighted) = (0.0, 0.0, 0.0);
        for &i in &alive {
            let d = &u.deployments[usize::from(i)];
            let other = if d.planes[0] == downed {
                d.planes[1]
            } else {
                d.planes[0]
            };
            let near = close_together(
                u.placements[usize::from(downed)],
                u.placements[usize::from(other)],
                9,
            );
            let wd = w[usize::from(i)];
            all_weighted += wd;
            if near {
                near_uniform += 1.0;
                near_weighted += wd;
            }
        }
        let uniform_p = near_uniform / alive.len() as f64;
        let weighted_p = near_weighted / all_weighted;
        assert!(weighted_p > uniform_p + 0.1, "{weighted_p} vs {uniform_p}");
    }
}
