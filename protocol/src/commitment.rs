//! Commit and reveal: how a player checks that the referee did not change a secret deployment.
//!
//! When a seat's deployment is fixed (a plane battle round's planes, a junqi layout), the server
//! sends every player a [`Commitment`]: the SHA-256 of a fresh random salt and the deployment's
//! text. The digest shows nothing of the deployment (the salt is 256 random bits), yet binds the
//! referee to it. When the game reveals the deployment (at the end of a plane battle round, at the
//! end of a junqi game), the server sends the [`Reveal`]: the text and the salt. Anyone can then
//! recompute the digest ([`Reveal::verify`]) and compare the text with the deployment the game
//! revealed and with every public result.
//!
//! The deployment's text: for plane battle, the planes as JSON (`[{"head":"C1","facing":"up"}]`,
//! as [`plane::Placement`](skirmish_games::plane::Placement) serializes them, in the order the
//! player gave); for junqi, the layout's 25 CAAI letters in the owner's frame
//! ([`junqi::Layout`](skirmish_games::junqi::Layout)). The digest is the lowercase hex SHA-256 of
//! the UTF-8 bytes of `salt + ":" + text`, where the salt is 64 lowercase hex digits.

use rand::RngCore;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::Seat;

/// A seat's committed deployment: its digest only.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Commitment {
    /// Whose deployment.
    pub seat: Seat,
    /// The plane battle round it belongs to (0-based); always 0 in junqi.
    pub round: u32,
    /// Lowercase hex SHA-256 of `salt + ":" + deployment` (64 hex digits).
    pub sha256: String,
}

/// A committed deployment, opened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Reveal {
    /// Whose deployment.
    pub seat: Seat,
    /// The plane battle round it belongs to (0-based); always 0 in junqi.
    pub round: u32,
    /// The deployment's text (see the module docs).
    pub deployment: String,
    /// The salt: 64 lowercase hex digits (256 random bits).
    pub salt: String,
}

/// A fresh salt: 256 bits from `rng` as 64 lowercase hex digits. Pass a cryptographically secure
/// generator (such as `rand::rng()`): a guessable salt would let a player test guesses of the
/// deployment against the digest.
pub fn new_salt(rng: &mut (impl RngCore + ?Sized)) -> String {
    let mut bytes = [0u8; 32];
    rng.fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// The digest of `deployment` under `salt`: lowercase hex SHA-256 of `salt + ":" + deployment`.
pub fn digest(salt: &str, deployment: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(salt.as_bytes());
    hasher.update(b":");
    hasher.update(deployment.as_bytes());
    hex::encode(hasher.finalize())
}

impl Reveal {
    /// Seals `deployment` of `seat` in `round` under a fresh salt from `rng`: the commitment to
    /// send now and the reveal to keep for later.
    pub fn seal(
        seat: Seat,
        round: u32,
        deployment: String,
        rng: &mut (impl RngCore + ?Sized),
    ) -> (Commitment, Reveal) {
        let salt = new_salt(rng);
        let commitment = Commitment {
            seat,
            round,
            sha256: digest(&salt, &deployment),
        };
        (
            commitment,
            Reveal {
                seat,
                round,
                deployment,
                salt,
            },
        )
    }

    /// Whether this reveal opens `commitment`: the same seat and round, and the digest of this
    /// deployment under this salt.
    pub fn verify(&self, commitment: &Commitment) -> bool {
        self.seat == commitment.seat
            && self.round == commitment.round
            && self.salt.len() == 64
            && digest(&self.salt, &self.deployment) == commitment.sha256
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digest_is_sha256_of_salt_colon_text() {
        // Checked with `printf '%s' 'abc:xyz' | sha256sum`.
        assert_eq!(
            digest("abc", "xyz"),
            "1282c93310045f22506caec3c92f2680c6cb35118b3108629ad860117c562168"
        );
    }

    #[test]
    fn a_reveal_opens_its_commitment_and_nothing_else() {
        let mut rng = rand::rng();
        let (commitment, reveal) = Reveal::seal(Seat(1), 3, "abccddeeffggghhhiiijjkklj".into(), &mut rng);
        assert_eq!(commitment.sha256.len(), 64);
        assert!(reveal.verify(&commitment));
        let mut other = reveal.clone();
        other.deployment = "abccddeeffggghhhiiijjkljk".into();
        assert!(!other.verify(&commitment), "another deployment");
        let mut other = reveal.clone();
        other.salt = new_salt(&mut rng);
        assert!(!other.verify(&commitment), "another salt");
        let mut other = reveal.clone();
        other.round = 4;
        assert!(!other.verify(&commitment), "another round");
        // The same deployment sealed twice gives unrelated digests.
        let (again, _) = Reveal::seal(Seat(1), 3, reveal.deployment.clone(), &mut rng);
        assert_ne!(again.sha256, commitment.sha256);
    }
}
