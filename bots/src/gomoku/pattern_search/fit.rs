//! The fitting program behind `skirmish-bots gomoku-fit`: `pattern-search` plays itself with
//! short searches (a fixed number of nodes a move) from the empty board and the renju openings,
//! each game begun with a few random stones near the others for variety; every quiet position
//! (no five or flex four to make) is kept with its features ([`eval::features`]) and a target
//! for the side to move: the game's result blended (`--lambda`) with the win chance the
//! self-play search's own score gives the position (as chess engines' evaluation training
//! blends results and deeper scores: a search sees further than the features); a logistic
//! regression of the targets on the features, started from the current values, gives the new
//! values, written as `bots/data/gomoku_eval.json`.
//!
//! The regression is a plain full-batch gradient descent on the log-loss with a small L2 pull
//! towards the starting values: 42 weights and a few thousand samples do not call for a
//! machine-learning library.

use anyhow::Context;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use skirmish_games::gomoku::{Action, Config, Gomoku, Opening, Rule, openings};
use skirmish_games::{Game, Viewer};

use super::board::{Position, side_of};
use super::eval::{self, FEATURES, Weights};
use super::line::{C_F4, C_FIVE};
use super::{Level, PatternSearch};
use crate::Budget;
use crate::gomoku::GomokuStrategy;

/// Natural log-odds per centipawn: 400 centipawns multiply the odds by 10.
pub const LOGIT_PER_CP: f64 = std::f64::consts::LN_10 / 400.0;

/// Command-line arguments of `skirmish-bots gomoku-fit`.
#[derive(Debug, Clone, clap::Args)]
pub struct FitArgs {
    /// Self-play games (each opening in turn).
    #[arg(long, default_value_t = 216)]
    pub games: usize,
    /// Main-search nodes a move in self-play.
    #[arg(long, default_value_t = 3_000)]
    pub nodes: u64,
    /// Random stones (near the others) played after each opening.
    #[arg(long, default_value_t = 2)]
    pub random_stones: usize,
    /// Seed of the random stones.
    #[arg(long, default_value_t = 38)]
    pub seed: u64,
    /// Weight of the game's result in each target; the rest is the self-play search's score
    /// for the position, as a win chance (1: results only).
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f64,
    /// Gradient-descent steps.
    #[arg(long, default_value_t = 3_000)]
    pub steps: usize,
    /// Where to write the fitted values (JSON).
    #[arg(long, default_value = "bots/data/gomoku_eval.json")]
    pub out: std::path::PathBuf,
}

/// One kept position: its features for the side to move and that side's target: its result (1
/// win, 0.5 draw, 0 loss) blended with its search's score as a win chance (see
/// [`FitArgs::lambda`]).
#[derive(Clone, Debug)]
pub struct Sample {
    /// [`eval::features`] of the position.
    pub features: [i32; FEATURES],
    /// The side to move's target, a win chance in [0, 1].
    pub result: f64,
}

/// Plays the self-play games and returns the samples.
///
/// # Errors
/// A referee refusal (a bug: the engine plays legal stones only).
pub fn self_play(args: &FitArgs) -> anyhow::Result<Vec<Sample>> {
    let names: Vec<Option<&str>> = std::iter::once(None)
        .chain(openings::RENJU.iter().map(|o| Some(o.name)))
        .collect();
    let mut rng = SmallRng::seed_from_u64(args.seed);
    let mut samples = Vec::new();
    let level = Level {
        node_limit: Some(args.nodes),
        ignore_clock: true,
        ..Level::FULL
    };
    for game_no in 0..args.games {
        let opening = names[game_no % names.len()].map(|n| Opening::Named(n.to_owned()));
        let (mut game, _) = Gomoku::new(Config {
            size: 15,
            rule: Rule::Freestyle,
            opening,
        })
        .context("a self-play opening")?;
        let mut players = [PatternSearch::with_level(level), PatternSearch::with_level(level)];
        // The mover, the features and the mover's search score (a win chance).
        let mut kept: Vec<(usize, [i32; FEATURES], f64)> = Vec::new();
        let mut stones = 0;
        while let Some(&seat) = game.to_act().first() {
            let view = game.view(Viewer::Seat(seat));
            let me = side_of(view.stone_to_move().context("a stone to move")?);
            let board = view.board();
            let action = if stones < args.random_stones && board.stones() > 0 {
                let near: Vec<_> = board
                    .empty_points()
                    .filter(|&q| {
                        board
                            .points()
                            .any(|r| board.get(r).is_some() && r.distance(q) <= 1)
                    })
                    .collect();
                Action::Place {
                    point: near[rng.random_range(0..near.len())],
                }
            } else {
                let pos = Position::new(&board, Rule::Freestyle, me);
                let quiet =
                    pos.has(me, C_FIVE) == 0 && pos.has(me, C_F4) == 0 && pos.has(me ^ 1, C_FIVE) == 0;
                let player = &mut players[usize::from(seat.0)];
                let action = player.act(&view, Budget::new(0, std::time::Duration::from_secs(1)), &mut rng);
                if quiet && board.stones() >= 6 {
                    let score = f64::from(player.score().unwrap_or(0));
                    let chance = 1.0 / (1.0 + (-score * LOGIT_PER_CP).exp());
                    kept.push((me, eval::features(&pos), chance));
                }
                action
            };
            stones += 1;
            game.apply(seat, action)
                .context("the referee accepts self-play stones")?;
        }
        let winner = game.outcome().and_then(|o| o.winner).map(|s| usize::from(s.0));
        for (side, features, chance) in kept {
            let result = match winner {
                None => 0.5,
                Some(w) if w == side => 1.0,
                Some(_) => 0.0,
            };
            samples.push(Sample {
                features,
                result: args.lambda * result + (1.0 - args.lambda) * chance,
            });
        }
        if (game_no + 1) % 24 == 0 {
            eprintln!("{} games, {} samples", game_no + 1, samples.len());
        }
    }
    Ok(samples)
}

/// The mean log-loss of `w` (centipawns) on `samples`.
pub fn log_loss(w: &[f64], samples: &[Sample]) -> f64 {
    let n = samples.len().max(1) as f64;
    samples
        .iter()
        .map(|s| {
            let z: f64 = s
                .features
                .iter()
                .zip(w)
                .map(|(&f, &w)| f64::from(f) * w)
                .sum::<f64>()
                * LOGIT_PER_CP;
            let p = 1.0 / (1.0 + (-z).exp());
            let p = p.clamp(1e-9, 1.0 - 1e-9);
            -(s.result * p.ln() + (1.0 - s.result) * (1.0 - p).ln())
        })
        .sum::<f64>()
        / n
}

/// Fits values (centipawns) to `samples` by gradient descent from `start`, each feature's step
/// scaled by its spread; `l2` pulls towards `start`.
pub fn fit(start: &[f64], samples: &[Sample], steps: usize, l2: f64) -> Vec<f64> {
    let n = samples.len().max(1) as f64;
    let mut spread = vec![0.0; FEATURES];
    for s in samples {
        for (k, &f) in s.features.iter().enumerate() {
            spread[k] += f64::from(f) * f64::from(f) / n;
        }
    }
    // Weights in log-odds per feature, scaled by each feature's root mean square.
    let scale: Vec<f64> = spread
        .iter()
        .map(|&v| if v > 0.0 { v.sqrt() } else { 0.0 })
        .collect();
    let mut u: Vec<f64> = start
        .iter()
        .zip(&scale)
        .map(|(&w, &c)| w * LOGIT_PER_CP * c)
        .collect();
    let u0 = u.clone();
    let rate = 0.5;
    for _ in 0..steps {
        let mut grad = vec![0.0; FEATURES];
        for s in samples {
            let z: f64 = (0..FEATURES)
                .filter(|&k| scale[k] > 0.0)
                .map(|k| f64::from(s.features[k]) / scale[k] * u[k])
                .sum();
            let err = 1.0 / (1.0 + (-z).exp()) - s.result;
            for k in (0..FEATURES).filter(|&k| scale[k] > 0.0) {
                grad[k] += err * f64::from(s.features[k]) / scale[k] / n;
            }
        }
        for k in 0..FEATURES {
            if scale[k] > 0.0 {
                u[k] -= rate * (grad[k] + l2 * (u[k] - u0[k]));
            }
        }
    }
    u.iter()
        .zip(&scale)
        .zip(start)
        .map(|((&u, &c), &w)| if c > 0.0 { u / c / LOGIT_PER_CP } else { w })
        .collect()
}

/// Runs the self-play, the fit, and writes the values.
///
/// # Errors
/// Self-play failing, or the output file not writable.
pub fn run(args: &FitArgs) -> anyhow::Result<()> {
    let samples = self_play(args)?;
    anyhow::ensure!(!samples.is_empty(), "self-play kept no position");
    let start = Weights::fitted().as_vector();
    let before = log_loss(&start, &samples);
    let fitted = fit(&start, &samples, args.steps, 1e-3);
    let after = log_loss(&fitted, &samples);
    println!(
        "{} samples from {} games: log-loss {before:.4} with the current values, {after:.4} fitted",
        samples.len(),
        args.games
    );
    let source = format!(
        "skirmish-bots gomoku-fit --games {} --nodes {} --random-stones {} --seed {} --lambda {} --steps {}: {} samples, log-loss {before:.4} -> {after:.4}",
        args.games,
        args.nodes,
        args.random_stones,
        args.seed,
        args.lambda,
        args.steps,
        samples.len()
    );
    let weights = Weights::from_vector(&fitted, source);
    let json = serde_json::to_string_pretty(&weights).context("weights as JSON")?;
    std::fs::write(&args.out, json + "\n").with_context(|| format!("writing {}", args.out.display()))?;
    println!("wrote {}", args.out.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_recovers_a_planted_weight() {
        // One feature decides: results follow its sign (through a logistic of 100 cp a count).
        let mut rng = SmallRng::seed_from_u64(1);
        let samples: Vec<Sample> = (0..2_000)
            .map(|_| {
                let mut features = [0; FEATURES];
                features[4] = rng.random_range(0..6);
                features[PATTERNS_OPP_F2] = rng.random_range(0..6);
                let z =
                    (f64::from(features[4]) - f64::from(features[PATTERNS_OPP_F2])) * 100.0 * LOGIT_PER_CP;
                let p = 1.0 / (1.0 + (-z).exp());
                Sample {
                    features,
                    result: if rng.random::<f64>() < p { 1.0 } else { 0.0 },
                }
            })
            .collect();
        let w = fit(&vec![0.0; FEATURES], &samples, 2_000, 0.0);
        assert!((w[4] - 100.0).abs() < 25.0, "{}", w[4]);
        assert!(
            (w[PATTERNS_OPP_F2] + 100.0).abs() < 25.0,
            "{}",
            w[PATTERNS_OPP_F2]
        );
        assert!(log_loss(&w, &samples) < log_loss(&vec![0.0; FEATURES], &samples));
    }

    const PATTERNS_OPP_F2: usize = super::super::line::PATTERNS + 4;
}
