//! Deployments: uniformly random, or the seed paper's defensive mix for two planes (problem 3,
//! "防守"): planes close together (their 4x5 boxes intersect, which raises the Ef overlap and so
//! the attacker's ambiguity) most of the time, far apart (boxes disjoint) now and then.

use rand::{Rng, RngCore};
use skirmish_games::plane::{Placement, Variant, random_deployment};

/// The probability of a close-together deployment in the seed paper's mix. The paper asks for
/// `xd1 >> xd2` (close much more often than far) without solving for numbers; 0.8 is our choice.
pub(crate) const CLOSE_PROBABILITY: f64 = 0.8;

/// The 4x5 or 5x4 box a plane lies in: (top row, left col, bottom row, right col), inclusive.
fn bounding_box(p: Placement, side: u8) -> (u8, u8, u8, u8) {
    let cells = p.cells(side).expect("a legal placement");
    let rows = cells.iter().map(|c| c.row);
    let cols = cells.iter().map(|c| c.col);
    (
        rows.clone().min().expect("10 cells"),
        cols.clone().min().expect("10 cells"),
        rows.max().expect("10 cells"),
        cols.max().expect("10 cells"),
    )
}

/// Whether two planes' boxes intersect (the seed paper's "相互距离小", close together).
pub(crate) fn close_together(a: Placement, b: Placement, side: u8) -> bool {
    let (at, al, ab, ar) = bounding_box(a, side);
    let (bt, bl, bb, br) = bounding_box(b, side);
    at <= bb && bt <= ab && al <= br && bl <= ar
}

/// The seed paper's mixed deployment: for `double`, a uniformly random legal pair that is close
/// together with probability [`CLOSE_PROBABILITY`] and far apart otherwise; for `classic`,
/// uniformly random.
pub(crate) fn paper_mix(variant: Variant, rng: &mut dyn RngCore) -> Vec<Placement> {
    if variant.planes() < 2 {
        return random_deployment(variant, rng);
    }
    let want_close = rng.random_bool(CLOSE_PROBABILITY);
    loop {
        let planes = random_deployment(variant, rng);
        if close_together(planes[0], planes[1], variant.side()) == want_close {
            return planes;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    #[test]
    fn both_kinds_occur_and_are_legal() {
        let mut rng = SmallRng::seed_from_u64(7);
        let (mut close, mut far) = (0, 0);
        for _ in 0..200 {
            let planes = paper_mix(Variant::Double, &mut rng);
            skirmish_games::plane::PlaneBattle::check_deployment(Variant::Double, &planes).unwrap();
            if close_together(planes[0], planes[1], 9) {
                close += 1;
            } else {
                far += 1;
            }
        }
        assert!(close > far && far > 0, "close {close}, far {far}");
    }
}
