//! Dealt deployments of duplicate tournaments, derived from the tournament's secret seed so that
//! anyone can check every dealt board once the seed is revealed (docs/tournaments.md, "Seeds").
//!
//! A tournament deals its boards in numbered *deals* (0, 1, 2, ...). Deal `n`'s seed is the first
//! 8 bytes, little-endian, of SHA-256 of `skirmish-deal:<seed>:<n>` ([`deal_seed`]); the board of
//! seat `s` in plane battle round `r` of that deal is drawn uniformly among legal deployments
//! from a generator seeded by the deal's seed, `r` and `s` ([`plane_deployment`],
//! [`junqi_layout`]). Every table that plays deal `n` is dealt the same boards, seat by seat.

use rand_chacha::ChaCha12Rng;
use sha2::{Digest, Sha256};
use skirmish_games::{Seat, junqi, plane};

/// The seed of deal `deal` of a tournament whose seed is `tournament_seed`: the first 8 bytes
/// (little-endian) of SHA-256 of `skirmish-deal:<tournament_seed>:<deal>`, both in decimal.
/// Knowing one deal's seed tells nothing of another's, nor of the tournament's seed.
pub fn deal_seed(tournament_seed: u64, deal: u32) -> u64 {
    let digest = Sha256::digest(format!("skirmish-deal:{tournament_seed}:{deal}").as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(first)
}

/// The generator seat `seat`'s board in round `round` (plane battle; 0 in junqi) is drawn from,
/// for a deal whose seed is `deal_seed`: ChaCha12, whose stream is fixed by its specification
/// ([`skirmish_games::referee::deal_rng`]).
pub fn seat_rng(deal_seed: u64, round: u32, seat: Seat) -> ChaCha12Rng {
    skirmish_games::referee::deal_rng(deal_seed, round, seat)
}

/// Seat `seat`'s dealt planes in round `round` of a plane battle deal (uniform among legal
/// deployments of `variant`).
pub fn plane_deployment(
    deal_seed: u64,
    round: u32,
    seat: Seat,
    variant: plane::Variant,
) -> Vec<plane::Placement> {
    plane::random_deployment(variant, &mut seat_rng(deal_seed, round, seat))
}

/// Seat `seat`'s dealt junqi layout (uniform among legal layouts).
pub fn junqi_layout(deal_seed: u64, seat: Seat) -> junqi::Layout {
    junqi::Layout::random(&mut seat_rng(deal_seed, 0, seat))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deal_seeds_are_sha256_of_the_tournament_seed_and_the_number() {
        // Checked with `printf '%s' 'skirmish-deal:7:0' | sha256sum`: the first 8 bytes,
        // read little-endian.
        let digest = Sha256::digest(b"skirmish-deal:7:0");
        assert_eq!(deal_seed(7, 0).to_le_bytes(), digest[..8]);
        assert_ne!(deal_seed(7, 0), deal_seed(7, 1));
        assert_ne!(deal_seed(7, 0), deal_seed(8, 0));
    }

    /// Deal 0 of tournament seed 2026 as a literal: a change of generator, or of how `rand`
    /// draws an index from it, would change every published deal, and fails here first.
    #[test]
    fn deal_zero_of_a_fixed_seed_is_this_board() {
        let seed = deal_seed(2026, 0);
        let planes = plane_deployment(seed, 0, Seat(0), plane::Variant::Double);
        assert_eq!(seed, 6_527_334_661_995_259_099);
        assert_eq!(
            serde_json::to_string(&planes).unwrap(),
            r#"[{"head":"D7","facing":"left"},{"head":"E1","facing":"up"}]"#
        );
        assert_eq!(
            junqi_layout(seed, Seat(1)).to_string(),
            "idchfgfahggekekhjcbjildij"
        );
    }

    #[test]
    fn the_same_deal_deals_the_same_boards_seat_by_seat() {
        let seed = deal_seed(42, 3);
        let a = plane_deployment(seed, 1, Seat(0), plane::Variant::Double);
        assert_eq!(a, plane_deployment(seed, 1, Seat(0), plane::Variant::Double));
        assert_ne!(a, plane_deployment(seed, 1, Seat(1), plane::Variant::Double));
        assert_eq!(junqi_layout(seed, Seat(1)), junqi_layout(seed, Seat(1)));
    }
}
