//! Deployments for the built-in strategies: a few formations of piece classes (the flag in a
//! headquarters with landmines round it, bombs in the second and third rows, strong officers on
//! the railway and at the front), each drawn with its classes shuffled and mirrored left to right
//! at random, so that a deployment is not predictable.
//!
//! The formations are ours (the seed paper, seeds/004, says nothing of deployment); they follow the
//! common advice of junqi players: guard the flag with landmines (三雷护旗), keep bombs off the front
//! and behind the strong pieces, spread the engineers.

use rand::Rng;
use rand::seq::SliceRandom;
use skirmish_games::junqi::{Layout, Rank};

/// The formations, one letter per layout slot in CAAI order (G0-G4, H0 H2 H4, I0 I1 I3 I4,
/// J0 J2 J4, K0-K4, L0-L4 in the owner's frame): `S` strong (field marshal, general, major
/// generals, brigadiers), `m` middle (colonels, majors), `w` weak (captains, lieutenants), `E`
/// engineer, `B` bomb, `M` landmine, `F` flag.
pub const FORMATIONS: [&str; 3] = [
    // Flag at L1 under three landmines (L0, L2, K1); bombs at I1 and J2.
    "SmSwS SEm SBwS mBw EMwmE MFMww",
    // The same guard; bombs at H2 and J2, engineers on I0, I4 and K3.
    "wSmSm SBw ESwE mBS wMmEw MFMwS",
    // Landmines at K0, K1 and L2, a lieutenant or captain in the corner L0 as a decoy.
    "SwSmS mEw SBmS SBE MMwmE wFMww",
];

/// The ranks each class letter stands for.
fn class(letter: char) -> &'static [Rank] {
    use Rank::*;
    match letter {
        'S' => &[
            FieldMarshal,
            General,
            MajorGeneral,
            MajorGeneral,
            Brigadier,
            Brigadier,
        ],
        'm' => &[Colonel, Colonel, Major, Major],
        'w' => &[Captain, Captain, Captain, Lieutenant, Lieutenant, Lieutenant],
        'E' => &[Engineer, Engineer, Engineer],
        'B' => &[Bomb, Bomb],
        'M' => &[Landmine, Landmine, Landmine],
        _ => &[Flag],
    }
}

/// The layout slot of the same post seen in a mirror (column c to 4 - c), for each slot.
const MIRROR: [usize; 25] = [
    4, 3, 2, 1, 0, 7, 6, 5, 11, 10, 9, 8, 14, 13, 12, 19, 18, 17, 16, 15, 24, 23, 22, 21, 20,
];

/// One deployment of formation `index` (into [`FORMATIONS`]), with each class's ranks shuffled
/// over its slots and, half the time, mirrored. Every one obeys [`Layout::check`] (tested).
///
/// # Panics
/// When `index` is 3 or more.
pub fn formation(index: usize, rng: &mut (impl Rng + ?Sized)) -> Layout {
    let letters: Vec<char> = FORMATIONS[index].chars().filter(|c| !c.is_whitespace()).collect();
    let mut ranks = [Rank::Flag; 25];
    for letter in ['S', 'm', 'w', 'E', 'B', 'M', 'F'] {
        let mut pool = class(letter).to_vec();
        pool.shuffle(rng);
        for (slot, _) in letters.iter().enumerate().filter(|(_, c)| **c == letter) {
            ranks[slot] = pool.pop().expect("a formation holds each class's count");
        }
    }
    if rng.random_bool(0.5) {
        let mirrored = std::array::from_fn(|slot| ranks[MIRROR[slot]]);
        ranks = mirrored;
    }
    Layout(ranks)
}

/// A deployment of a formation drawn at random (see [`formation`]).
pub fn any_formation(rng: &mut (impl Rng + ?Sized)) -> Layout {
    let index = rng.random_range(0..FORMATIONS.len());
    formation(index, rng)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;
    use skirmish_games::Seat;
    use skirmish_games::junqi::layout_post;

    #[test]
    fn every_formation_fills_its_classes_and_obeys_the_rules() {
        let mut rng = SmallRng::seed_from_u64(1);
        for (i, f) in FORMATIONS.iter().enumerate() {
            let letters: String = f.chars().filter(|c| !c.is_whitespace()).collect();
            assert_eq!(letters.len(), 25, "formation {i}");
            for letter in ['S', 'm', 'w', 'E', 'B', 'M', 'F'] {
                assert_eq!(
                    letters.chars().filter(|&c| c == letter).count(),
                    class(letter).len(),
                    "formation {i}, class {letter}"
                );
            }
            let mut seen = std::collections::HashSet::new();
            for _ in 0..300 {
                let layout = formation(i, &mut rng);
                assert_eq!(layout.check(), Ok(()), "formation {i}: {layout}");
                seen.insert(layout);
            }
            assert!(
                seen.len() > 200,
                "formation {i} varies: {} of 300 differ",
                seen.len()
            );
        }
    }

    #[test]
    fn the_mirror_maps_each_slot_to_its_mirrored_post() {
        for (slot, &mirrored) in MIRROR.iter().enumerate() {
            let (a, b) = (layout_post(Seat(0), slot), layout_post(Seat(0), mirrored));
            assert_eq!(a.row(), b.row());
            assert_eq!(a.column(), 4 - b.column());
        }
    }
}
