//! The fitting program behind `skirmish-bots gomoku-fit`: `pattern-search` plays itself with
//! short searches (a fixed number of nodes a move) from the empty board and the renju openings,
//! each game begun with a few random stones near the others for variety; every quiet position
//! (no five or flex four to make) is kept with its features ([`eval::features`]) and a target
//! for the side to move: the game's result blended (`--lambda`) with the win chance a search's
//! score gives the position, the self-play search's own or a deeper one (`--target-nodes`), as
//! chess engines' evaluation training blends results and deeper scores (a search sees further
//! than the features); a logistic
//! regression of the targets on the features, started from the current values, gives the new
//! values, written as `bots/data/gomoku_eval.json`.
//!
//! The regression is Newton's method on the log-loss (iteratively reweighted least squares,
//! its linear algebra `nalgebra`'s) with a small L2 pull towards the starting values; each
//! step is halved until it lowers the loss, so a fit never ends worse than it started before its rounding to whole centipawns (the
//! plain gradient descent it replaced could diverge where features move together). A samples
//! file (`--samples`) keeps one self-play's positions for several fits.

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
    /// Weight of the game's result in each target; the rest is a search's score for the
    /// position, as a win chance (1: results only).
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f64,
    /// Main-search nodes of the search that scores each kept position for the targets (0: the
    /// self-play search's own score; more: a deeper search than the games', as the targets of
    /// chess engines' evaluation training).
    #[arg(long, default_value_t = 0)]
    pub target_nodes: u64,
    /// Newton iterations, at most (the fit stops earlier once a step no longer lowers the loss).
    #[arg(long, default_value_t = 30)]
    pub steps: usize,
    /// A file of kept positions (JSON lines: features, result, search score as a win chance):
    /// read instead of playing when it exists, else written after the self-play, so that fits
    /// (other `--lambda`s) can be compared on the same data.
    #[arg(long)]
    pub samples: Option<std::path::PathBuf>,
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

/// One kept position as the self-play saw it: its features, the game's result for the side to
/// move (1 win, 0.5 draw, 0 loss) and a search's score of it as a win chance.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Record {
    /// [`eval::features`] of the position.
    pub features: Vec<i32>,
    /// The game's result for the side to move.
    pub result: f64,
    /// The win chance a search's score gives the side to move (see [`FitArgs::target_nodes`]).
    pub chance: f64,
}

impl Record {
    /// The sample of this position under `lambda` ([`FitArgs::lambda`]).
    ///
    /// # Errors
    /// The record holds another number of features than [`FEATURES`] (a file from another
    /// version of the evaluation).
    pub fn sample(&self, lambda: f64) -> anyhow::Result<Sample> {
        let features =
            self.features.clone().try_into().map_err(|_| {
                anyhow::anyhow!("a sample of {} features, not {FEATURES}", self.features.len())
            })?;
        Ok(Sample {
            features,
            result: lambda * self.result + (1.0 - lambda) * self.chance,
        })
    }
}

/// Plays the self-play games and returns the kept positions.
///
/// # Errors
/// A referee refusal (a bug: the engine plays legal stones only).
pub fn self_play(args: &FitArgs) -> anyhow::Result<Vec<Record>> {
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
    let mut judge = PatternSearch::with_level(Level {
        node_limit: Some(args.target_nodes.max(1)),
        ..level
    });
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
                    let mut score = f64::from(player.score().unwrap_or(0));
                    if args.target_nodes > 0 {
                        judge.act(&view, Budget::new(0, std::time::Duration::from_secs(1)), &mut rng);
                        score = f64::from(judge.score().unwrap_or(0));
                    }
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
            samples.push(Record {
                features: features.to_vec(),
                result,
                chance,
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
            cross_entropy(z, s.result)
        })
        .sum::<f64>()
        / n
}

/// The log-loss of a target `y` (a win chance) under the log-odds `z`.
fn cross_entropy(z: f64, y: f64) -> f64 {
    let p = (1.0 / (1.0 + (-z).exp())).clamp(1e-12, 1.0 - 1e-12);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// Fits values (centipawns) to `samples` by Newton's method on the log-loss (iteratively
/// reweighted least squares, at most `steps` iterations, each step halved while it does not
/// lower the loss), in units scaled by each feature's root mean square; `l2` pulls towards
/// `start` and keeps the Hessian invertible where features move together. A feature no sample
/// holds keeps its starting value.
pub fn fit(start: &[f64], samples: &[Sample], steps: usize, l2: f64) -> Vec<f64> {
    use nalgebra::{DMatrix, DVector};
    let n = samples.len().max(1) as f64;
    let mut spread = vec![0.0; FEATURES];
    for s in samples {
        for (k, &f) in s.features.iter().enumerate() {
            spread[k] += f64::from(f) * f64::from(f) / n;
        }
    }
    // The features some sample holds, and their scales.
    let live: Vec<usize> = (0..FEATURES).filter(|&k| spread[k] > 0.0).collect();
    let scale: Vec<f64> = live.iter().map(|&k| spread[k].sqrt()).collect();
    let m = live.len();
    let rows: Vec<Vec<f64>> = samples
        .iter()
        .map(|s| {
            live.iter()
                .zip(&scale)
                .map(|(&k, &c)| f64::from(s.features[k]) / c)
                .collect()
        })
        .collect();
    let u0 = DVector::from_iterator(
        m,
        live.iter()
            .zip(&scale)
            .map(|(&k, &c)| start[k] * LOGIT_PER_CP * c),
    );
    let loss = |u: &DVector<f64>| -> f64 {
        let data: f64 = rows
            .iter()
            .zip(samples)
            .map(|(x, s)| {
                let z: f64 = x.iter().zip(u.iter()).map(|(a, b)| a * b).sum();
                cross_entropy(z, s.result)
            })
            .sum::<f64>()
            / n;
        data + 0.5 * l2 * (u - &u0).norm_squared()
    };
    let mut u = u0.clone();
    let mut current = loss(&u);
    for _ in 0..steps {
        let mut grad = DVector::<f64>::zeros(m);
        let mut hess = DMatrix::<f64>::identity(m, m) * l2.max(1e-9);
        for (x, s) in rows.iter().zip(samples) {
            let z: f64 = x.iter().zip(u.iter()).map(|(a, b)| a * b).sum();
            let p = 1.0 / (1.0 + (-z).exp());
            let (e, h) = ((p - s.result) / n, p * (1.0 - p) / n);
            for a in 0..m {
                if x[a] == 0.0 {
                    continue;
                }
                grad[a] += e * x[a];
                for b in 0..m {
                    hess[(a, b)] += h * x[a] * x[b];
                }
            }
        }
        grad += (&u - &u0) * l2;
        let Some(step) = hess.cholesky().map(|c| c.solve(&grad)) else {
            break;
        };
        let mut t = 1.0;
        let mut improved = false;
        while t > 1e-4 {
            let next = &u - &step * t;
            let l = loss(&next);
            if l < current {
                u = next;
                current = l;
                improved = true;
                break;
            }
            t /= 2.0;
        }
        if !improved || step.norm() * t < 1e-7 {
            break;
        }
    }
    let mut w = start.to_vec();
    for ((&k, &c), &v) in live.iter().zip(&scale).zip(u.iter()) {
        w[k] = v / c / LOGIT_PER_CP;
    }
    w
}

fn write_records(mut file: std::fs::File, records: &[Record]) -> anyhow::Result<()> {
    use std::io::Write;
    let mut text = String::new();
    for r in records {
        text += &serde_json::to_string(r).context("a kept position as JSON")?;
        text.push('\n');
    }
    file.write_all(text.as_bytes())
        .context("writing the kept positions")
}

fn read_records(path: &std::path::Path) -> anyhow::Result<Vec<Record>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    text.lines()
        .map(|l| serde_json::from_str(l).context("a kept position"))
        .collect()
}

/// Runs the self-play, the fit, and writes the values.
///
/// # Errors
/// Self-play failing, or the output file not writable.
pub fn run(args: &FitArgs) -> anyhow::Result<()> {
    let read = args.samples.as_ref().is_some_and(|p| p.exists());
    let records = match &args.samples {
        Some(path) if read => read_records(path)?,
        Some(path) => {
            // Made before the games, so that a path it cannot write fails at once, not after them.
            let file = std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?;
            let records = self_play(args)?;
            write_records(file, &records)?;
            records
        }
        None => self_play(args)?,
    };
    let samples = records
        .iter()
        .map(|r| r.sample(args.lambda))
        .collect::<anyhow::Result<Vec<Sample>>>()?;
    anyhow::ensure!(!samples.is_empty(), "self-play kept no position");
    let start = Weights::fitted().as_vector();
    let before = log_loss(&start, &samples);
    let fitted = fit(&start, &samples, args.steps, 1e-3);
    // The values as written (whole centipawns), and their loss.
    let fitted = Weights::from_vector(&fitted, String::new()).as_vector();
    let after = log_loss(&fitted, &samples);
    println!(
        "{} samples: log-loss {before:.4} with the current values, {after:.4} fitted",
        samples.len()
    );
    // The self-play's arguments describe the data only when this run played it.
    let played = format!(
        "--games {} --nodes {} --random-stones {} --seed {} --target-nodes {}",
        args.games, args.nodes, args.random_stones, args.seed, args.target_nodes
    );
    let data = match &args.samples {
        Some(path) if read => format!("--samples {}", path.display()),
        Some(path) => format!("{played} --samples {}", path.display()),
        None => played,
    };
    let source = format!(
        "skirmish-bots gomoku-fit {data} --lambda {} --steps {}: {} samples, log-loss {before:.4} -> {after:.4}",
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
        let w = fit(&vec![0.0; FEATURES], &samples, 30, 0.0);
        assert!((w[4] - 100.0).abs() < 25.0, "{}", w[4]);
        assert!(
            (w[PATTERNS_OPP_F2] + 100.0).abs() < 25.0,
            "{}",
            w[PATTERNS_OPP_F2]
        );
        assert!(log_loss(&w, &samples) < log_loss(&vec![0.0; FEATURES], &samples));
    }

    #[test]
    fn a_fit_over_features_that_move_together_ends_below_its_start() {
        // Many features counting together (as a board's pattern counts do): the steps of a
        // plain gradient descent overshoot along their shared direction; the fit must still
        // lower the loss from its start.
        let mut rng = SmallRng::seed_from_u64(2);
        let samples: Vec<Sample> = (0..2_000)
            .map(|_| {
                let stones = rng.random_range(0..40);
                let mut features = [0; FEATURES];
                for (k, f) in features.iter_mut().enumerate() {
                    *f = stones * (1 + k as i32 % 3) + rng.random_range(0..2);
                }
                let z = f64::from(features[4] - features[PATTERNS_OPP_F2]) * 40.0 * LOGIT_PER_CP;
                let p = 1.0 / (1.0 + (-z).exp());
                Sample {
                    features,
                    result: if rng.random::<f64>() < p { 1.0 } else { 0.0 },
                }
            })
            .collect();
        let start = vec![0.0; FEATURES];
        let w = fit(&start, &samples, 3_000, 1e-3);
        assert!(log_loss(&w, &samples) < log_loss(&start, &samples));
        assert!(w[4] > w[PATTERNS_OPP_F2], "{} {}", w[4], w[PATTERNS_OPP_F2]);
    }

    #[test]
    fn kept_positions_read_back_as_written_and_another_feature_count_is_refused() {
        let path = std::env::temp_dir().join(format!("gomoku-fit-{}.jsonl", std::process::id()));
        let records = vec![
            Record {
                features: (0..FEATURES as i32).collect(),
                result: 1.0,
                chance: 0.25,
            },
            Record {
                features: vec![2; FEATURES],
                result: 0.5,
                chance: 0.75,
            },
        ];
        write_records(std::fs::File::create(&path).unwrap(), &records).unwrap();
        let back = read_records(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(back.len(), 2);
        assert_eq!(back[0].features, records[0].features);
        let sample = back[0].sample(0.5).unwrap();
        assert_eq!(sample.features[7], 7);
        assert!((sample.result - 0.625).abs() < 1e-12);
        let short = Record {
            features: vec![0; FEATURES - 1],
            ..records[1].clone()
        };
        assert!(short.sample(1.0).is_err());
    }

    const PATTERNS_OPP_F2: usize = super::super::line::PATTERNS + 4;
}
