//! Sets of deployments as bits (for the rollouts of [`super::rollout`]): a set of a universe's
//! deployments is [`WORDS`] words of 64 bits, and per-cell and per-placement masks let a shot's
//! result filter a set 64 deployments at a time (docs/rules.md, plane battle, "Attack": `miss`,
//! `hit`, `down`).

use std::sync::OnceLock;

use skirmish_games::plane::Variant;

use super::belief::Universe;

/// Words of a deployment set: 2,352 deployments of `double` in 37 words of 64 bits.
pub(crate) const WORDS: usize = 37;

/// Placements of the largest universe (9x9: 120).
pub(crate) const MAX_PLACEMENTS: usize = 120;

/// A set of deployments of a universe: bit `i` (word `i / 64`) is `universe.deployments[i]`.
pub(crate) type Bits = [u64; WORDS];

/// Per variant, deployment sets by cell and by placement, so that a shot's result filters the
/// consistent deployments 64 at a time.
pub(crate) struct Masks {
    /// Per cell: the deployments covering it.
    pub(crate) cover: Vec<Bits>,
    /// Per cell: the deployments with a head on it.
    pub(crate) head: Vec<Bits>,
    /// Per placement: the deployments holding it.
    pub(crate) has: Vec<Bits>,
    /// Per deployment: its planes (`Deployment::planes`, kept apart from the masks so that the
    /// filter's walk over dropped deployments stays in the first-level cache).
    pub(crate) planes: Vec<[u8; 2]>,
}

impl Masks {
    /// The masks of `universe`'s variant, built on first use.
    pub(crate) fn of(universe: &Universe) -> &'static Masks {
        static CLASSIC: OnceLock<Masks> = OnceLock::new();
        static DOUBLE: OnceLock<Masks> = OnceLock::new();
        let cell = match universe.variant {
            Variant::Classic => &CLASSIC,
            Variant::Double => &DOUBLE,
        };
        cell.get_or_init(|| {
            let universe = Universe::of(universe.variant);
            assert!(
                universe.deployments.len() <= WORDS * 64,
                "deployment sets fit in {WORDS} words"
            );
            assert!(
                universe.placements.len() <= MAX_PLACEMENTS,
                "at most {MAX_PLACEMENTS} placements"
            );
            let mut masks = Masks {
                cover: vec![[0; WORDS]; universe.cells],
                head: vec![[0; WORDS]; universe.cells],
                has: vec![[0; WORDS]; universe.placements.len()],
                planes: universe.deployments.iter().map(|d| d.planes).collect(),
            };
            for (i, d) in universe.deployments.iter().enumerate() {
                let (w, bit) = (i / 64, 1u64 << (i % 64));
                for c in 0..universe.cells {
                    if d.occupied & (1u128 << c) != 0 {
                        masks.cover[c][w] |= bit;
                    }
                    if d.heads & (1u128 << c) != 0 {
                        masks.head[c][w] |= bit;
                    }
                }
                for p in d.planes {
                    masks.has[usize::from(p)][w] |= bit;
                }
            }
            masks
        })
    }
}

/// The set of deployment indices `list`.
pub(crate) fn bits_of(list: &[u16]) -> Bits {
    let mut bits = [0; WORDS];
    for &i in list {
        bits[usize::from(i) / 64] |= 1u64 << (i % 64);
    }
    bits
}
