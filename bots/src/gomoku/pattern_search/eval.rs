//! The static evaluation: a sum over the empty points of per-pattern values, for the side to
//! move's patterns and the opponent's apart, plus per-combination values; the values are
//! fitted from self-play (`skirmish-bots gomoku-fit`) and checked in as
//! `bots/data/gomoku_eval.json`.
//!
//! Scores are centipawn-like: from the side to move's view, 400 units multiply its odds of
//! winning by 10 (the logistic scale the fit uses, as chess engines' centipawns), so +100 is
//! about a 64% chance. Forced wins are scored apart ([`WIN`]).

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::board::Position;
use super::line::{COMBOS, PATTERNS};

/// The score of a five made now; a win found `n` plies ahead scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// Scores beyond this are forced wins or losses.
pub const WIN_THRESHOLD: i32 = WIN - 1_000;

/// Number of features: own and opponent counts of each pattern and each combination.
pub const FEATURES: usize = 2 * (PATTERNS + COMBOS);

/// The fitted values, in centipawns per point (or per point and line for patterns).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Weights {
    /// Per line pattern (`line::Pat`) of the side to move.
    pub own_pattern: [i32; PATTERNS],
    /// Per line pattern of the opponent.
    pub their_pattern: [i32; PATTERNS],
    /// Per combination (`line::Combo`) of the side to move.
    pub own_combo: [i32; COMBOS],
    /// Per combination of the opponent.
    pub their_combo: [i32; COMBOS],
    /// How the values were made (the fit's command and data), for the record.
    pub source: String,
}

impl Weights {
    /// The checked-in fitted values (`bots/data/gomoku_eval.json`).
    ///
    /// # Panics
    /// When the checked-in file does not parse (a test reads it).
    pub fn fitted() -> &'static Weights {
        static W: OnceLock<Weights> = OnceLock::new();
        W.get_or_init(|| {
            serde_json::from_str(include_str!("../../../data/gomoku_eval.json"))
                .expect("bots/data/gomoku_eval.json holds valid weights")
        })
    }

    /// Values read from a JSON file in `bots/data/gomoku_eval.json`'s shape (a fit's output, to
    /// measure it before it is checked in: `gomoku-bench --a-weights`). Leaked: a searcher
    /// holds its values for the process's life.
    ///
    /// # Errors
    /// The file cannot be read or does not hold weights.
    pub fn load(path: &std::path::Path) -> anyhow::Result<&'static Weights> {
        use anyhow::Context;
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let w: Weights =
            serde_json::from_str(&text).with_context(|| format!("{} holds no weights", path.display()))?;
        Ok(Box::leak(Box::new(w)))
    }

    /// The values as one vector in [`features`]'s order.
    pub fn as_vector(&self) -> Vec<f64> {
        self.own_pattern
            .iter()
            .chain(&self.their_pattern)
            .chain(&self.own_combo)
            .chain(&self.their_combo)
            .map(|&w| f64::from(w))
            .collect()
    }

    /// Values from a vector in [`features`]'s order, rounded to whole centipawns.
    ///
    /// # Panics
    /// When `v` does not hold [`FEATURES`] values.
    pub fn from_vector(v: &[f64], source: String) -> Weights {
        assert_eq!(v.len(), FEATURES, "one value per feature");
        let r = |x: f64| x.round() as i32;
        let mut w = Weights {
            own_pattern: [0; PATTERNS],
            their_pattern: [0; PATTERNS],
            own_combo: [0; COMBOS],
            their_combo: [0; COMBOS],
            source,
        };
        for i in 0..PATTERNS {
            w.own_pattern[i] = r(v[i]);
            w.their_pattern[i] = r(v[PATTERNS + i]);
        }
        for i in 0..COMBOS {
            w.own_combo[i] = r(v[2 * PATTERNS + i]);
            w.their_combo[i] = r(v[2 * PATTERNS + COMBOS + i]);
        }
        w
    }
}

/// The feature counts of `pos` from the side to move's view: own pattern counts, the
/// opponent's, own combination counts, the opponent's.
pub fn features(pos: &Position) -> [i32; FEATURES] {
    let s = pos.side();
    let o = s ^ 1;
    let mut f = [0; FEATURES];
    f[..PATTERNS].copy_from_slice(pos.pat_counts(s));
    f[PATTERNS..2 * PATTERNS].copy_from_slice(pos.pat_counts(o));
    f[2 * PATTERNS..2 * PATTERNS + COMBOS].copy_from_slice(pos.combo_counts(s));
    f[2 * PATTERNS + COMBOS..].copy_from_slice(pos.combo_counts(o));
    f
}

/// The static score of `pos` for the side to move, in centipawns (clamped inside
/// ±[`WIN_THRESHOLD`]).
pub fn evaluate(pos: &Position, w: &Weights) -> i32 {
    let s = pos.side();
    let o = s ^ 1;
    let (ps, po) = (pos.pat_counts(s), pos.pat_counts(o));
    let (cs, co) = (pos.combo_counts(s), pos.combo_counts(o));
    let mut score = 0;
    for i in 1..PATTERNS {
        score += w.own_pattern[i] * ps[i] + w.their_pattern[i] * po[i];
    }
    for i in 1..COMBOS {
        score += w.own_combo[i] * cs[i] + w.their_combo[i] * co[i];
    }
    score.clamp(-WIN_THRESHOLD + 1, WIN_THRESHOLD - 1)
}
