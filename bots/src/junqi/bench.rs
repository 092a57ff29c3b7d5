//! The offline benchmark behind `skirmish-bots junqi-bench`: strategy A plays strategy B
//! in-process through the real referee ([`Junqi`]), each strategy seeing only its own seat's
//! view, with the seats swapped every game; the results are summarised as wins, draws and losses,
//! a score with its 95% Wilson interval, an Elo difference, game lengths and A's time per move.

use std::time::{Duration, Instant};

use anyhow::Context;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use skirmish_games::junqi::{
    Action, Config, End, Junqi, Layout, Move, MoveRecord, MoveResult, Position, Rank,
};
use skirmish_games::{Game, Seat, Viewer};

use super::{Budget, JunqiStrategy, sparring, strategy};
use crate::gomoku::bench::{GameResult, Summary};

/// A game still running after this many moves is scored a draw (the no-attack limit normally ends
/// a game long before).
pub const MAX_MOVES: usize = 2000;

/// Command-line arguments of `skirmish-bots junqi-bench`.
#[derive(Debug, Clone, clap::Args)]
pub struct BenchArgs {
    /// Strategy A (the one measured).
    #[arg(long, default_value = "belief-search")]
    pub a: String,
    /// Strategy B (the opponent).
    #[arg(long, default_value = "seed-rules")]
    pub b: String,
    /// An outside engine speaking the CAAI junqi protocol as B instead of a strategy (a path);
    /// a game its failure ends (crash, timeout, illegal answer) is left out of the score and
    /// counted apart.
    #[arg(long)]
    pub b_engine: Option<std::path::PathBuf>,
    /// Arguments for B's engine program (repeat the flag for several).
    #[arg(long = "b-engine-arg", allow_hyphen_values = true)]
    pub b_engine_args: Vec<String>,
    /// Games to play; A takes seat 0 (moves first) in the even-numbered ones, seat 1 in the odd.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Thinking time per move for both sides, in milliseconds.
    #[arg(long, default_value_t = 200)]
    pub think_ms: u64,
    /// Seed of the strategies' random choices (deployments and moves).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The no-attack limit, in moves (0 off, 10 to 31; CAAI 31).
    #[arg(long, default_value_t = skirmish_games::junqi::CAAI_NO_ATTACK_LIMIT)]
    pub no_attack_limit: u8,
    /// Print one line per game (seat, result, moves, how it ended) as the games finish.
    #[arg(long)]
    pub progress: bool,
    /// Print the transcript of every game A lost (both layouts, each move with the ranks).
    #[arg(long)]
    pub show_losses: bool,
}

/// How one game went.
#[derive(Debug, Clone)]
pub struct GameReport {
    /// The winner (`None`: a draw).
    pub winner: Option<Seat>,
    /// Moves played.
    pub moves: usize,
    /// The game told move by move with every piece's rank ([`transcript`]); empty when the game
    /// did not end on the board (a refused action, the move cap).
    pub transcript: String,
    /// How it ended, in short (`flag`, `no-attack`, `no-move`, `refused`, `cap`, ...).
    pub end: String,
}

/// Plays one game between `players[0]` (seat 0) and `players[1]` (seat 1) through the referee,
/// each given only its own view. A strategy whose action the referee refuses loses; a game past
/// [`MAX_MOVES`] is a draw. `on_move(seat, time)` sees each decision's wall time.
///
/// # Errors
/// An invalid configuration.
pub fn play_game(
    config: Config,
    players: [&mut dyn JunqiStrategy; 2],
    think: Duration,
    rng: &mut SmallRng,
    mut on_move: impl FnMut(usize, Duration),
) -> anyhow::Result<GameReport> {
    let (mut game, _) = Junqi::new(config).context("bench configuration")?;
    for seat in Seat::all(2) {
        let view = game.view(Viewer::Seat(seat));
        let deployed = players[seat.index()].deploy(&view, Budget::new(0, think), rng);
        let refused = match deployed {
            Ok(layout) => game
                .apply(seat, Action::Deploy { layout })
                .err()
                .map(|e| e.to_string()),
            Err(reason) => Some(reason),
        };
        if let Some(err) = refused {
            return Ok(GameReport {
                winner: Some(Seat(1 - seat.0)),
                moves: 0,
                transcript: String::new(),
                end: format!("{seat} deployment refused: {err}"),
            });
        }
    }
    while game.outcome().is_none() {
        if game.moves().len() >= MAX_MOVES {
            return Ok(GameReport {
                winner: None,
                moves: game.moves().len(),
                transcript: String::new(),
                end: "cap".to_owned(),
            });
        }
        let seat = game.to_act()[0];
        let view = game.view(Viewer::Seat(seat));
        let start = Instant::now();
        let action = players[seat.index()].act(&view, Budget::new(0, think), rng);
        on_move(seat.index(), start.elapsed());
        if let Err(err) = game.apply(seat, action) {
            return Ok(GameReport {
                winner: Some(Seat(1 - seat.0)),
                moves: game.moves().len(),
                transcript: String::new(),
                end: format!("{seat} refused: {err}"),
            });
        }
    }
    let outcome = game.outcome().expect("the game is over");
    for seat in Seat::all(2) {
        players[seat.index()].finish(seat, outcome);
    }
    let told = match &outcome.layouts.0[..] {
        [Some(red), Some(blue)] => transcript([red, blue], game.moves()),
        _ => String::new(),
    };
    let end = match &outcome.end {
        End::FlagCaptured { .. } => "flag",
        End::NoAttackLimit { .. } => "no-attack",
        End::NoLegalMove { .. } => "no-move",
        End::NeitherCanMove => "neither-moves",
        End::TimedOut { .. } => "timeout",
        // The whole reason: an outside engine's failure says what went wrong.
        End::Resigned {
            reason: Some(reason), ..
        } => {
            return Ok(GameReport {
                winner: outcome.winner,
                moves: outcome.moves as usize,
                transcript: told,
                end: format!("resigned: {reason}"),
            });
        }
        End::Resigned { reason: None, .. } => "resigned",
    };
    Ok(GameReport {
        winner: outcome.winner,
        moves: outcome.moves as usize,
        transcript: told,
        end: end.to_owned(),
    })
}

/// A game told move by move from both layouts: `12 s1 F0-K0 d>g` is move 12, seat 1's brigadier
/// from F0 beating a captain on K0 (`>` won, `<` lost, `=` both removed, `-` no collision; CAAI
/// letters, docs/rules.md), with `FM` when a field marshal fell and its flag was shown.
pub fn transcript(layouts: [&Layout; 2], moves: &[MoveRecord]) -> String {
    let mut position = Position::new(layouts);
    let mut out = format!("layouts: seat 0 {}, seat 1 {}\n", layouts[0], layouts[1]);
    for record in moves {
        let mv = Move {
            from: record.from,
            to: record.to,
        };
        let mover = position.at(mv.from).map_or('?', |p| p.rank.letter());
        let defender = position.at(mv.to).map(|p| p.rank.letter());
        let played = position.play(mv);
        let sign = match played.result {
            MoveResult::Won => '>',
            MoveResult::Lost => '<',
            MoveResult::Traded => '=',
            MoveResult::Moved => '-',
        };
        let marshal = played
            .removed
            .iter()
            .flatten()
            .any(|p| p.rank == Rank::FieldMarshal);
        out += &format!(
            "{} s{} {}-{} {mover}{sign}{}{}\n",
            record.number,
            record.seat.0,
            mv.from,
            mv.to,
            defender.unwrap_or(' '),
            if marshal { " FM" } else { "" }
        );
    }
    out
}

/// The 95% Wilson score interval of a mean score `p` over `n` games (draws count a half).
pub fn wilson(p: f64, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let z = 1.96f64;
    let denominator = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denominator;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denominator;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Runs the benchmark and prints the games' summary.
///
/// # Errors
/// Unknown strategies or an invalid no-attack limit.
pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    let make = |name: &str| {
        strategy(name)
            .or_else(|| sparring(name))
            .with_context(|| format!("unknown strategy `{name}`"))
    };
    let make_b = || -> anyhow::Result<Box<dyn JunqiStrategy>> {
        match &args.b_engine {
            Some(path) => {
                anyhow::ensure!(path.exists(), "no engine at {}", path.display());
                Ok(Box::new(crate::caai::CaaiStrategy::with_args(
                    path.clone(),
                    args.b_engine_args.clone(),
                )))
            }
            None => make(&args.b),
        }
    };
    make(&args.a)?;
    make_b()?;
    let b_name = match &args.b_engine {
        Some(path) => std::iter::once(path.display().to_string())
            .chain(args.b_engine_args.iter().cloned())
            .collect::<Vec<_>>()
            .join(" "),
        None => args.b.clone(),
    };
    let mut engine_failures = Vec::new();
    let config = Config {
        no_attack_limit: args.no_attack_limit,
    };
    let think = Duration::from_millis(args.think_ms);
    let mut rng = SmallRng::seed_from_u64(args.seed);
    let mut results = Vec::new();
    let mut lengths = Vec::new();
    let mut times = Vec::new();
    let mut ends: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    println!(
        "junqi-bench: A = {} vs B = {b_name}, {} games, {} ms per move, no-attack limit {}, seed {}",
        args.a, args.games, args.think_ms, args.no_attack_limit, args.seed
    );
    for game in 0..args.games {
        let a_seat = game % 2;
        let mut a = make(&args.a)?;
        let mut b = make_b()?;
        let players: [&mut dyn JunqiStrategy; 2] = if a_seat == 0 {
            [a.as_mut(), b.as_mut()]
        } else {
            [b.as_mut(), a.as_mut()]
        };
        let report = play_game(config, players, think, &mut rng, |seat, t| {
            if seat == a_seat {
                times.push(t);
            }
        })?;
        // An engine's failure is no win on the board: left out of the score, listed apart.
        if b.engine_failed() {
            if args.progress {
                eprintln!("game {:>4}: A seat {a_seat}, void: {}", game + 1, report.end);
            }
            engine_failures.push(report.end);
            continue;
        }
        let result = match report.winner {
            None => GameResult::Draw,
            Some(s) if s.index() == a_seat => GameResult::Win,
            Some(_) => GameResult::Loss,
        };
        if args.show_losses && result == GameResult::Loss {
            eprintln!(
                "game {} lost, A in seat {a_seat}:\n{}",
                game + 1,
                report.transcript
            );
        }
        results.push(result);
        lengths.push(report.moves);
        let side = if result == GameResult::Win { "A" } else { "B" };
        let key = match result {
            GameResult::Draw => format!("draw by {}", report.end),
            _ => format!("{side} by {}", report.end),
        };
        *ends.entry(key).or_default() += 1;
        if args.progress {
            let score: f64 = results.iter().map(|r| r.score()).sum();
            eprintln!(
                "game {:>4}: A seat {a_seat}, {:?} in {} moves ({}); A {score}/{}",
                game + 1,
                result,
                report.moves,
                report.end,
                results.len()
            );
        }
    }
    let summary = Summary::of(&results);
    let (low, high) = wilson(summary.score, results.len());
    println!(
        "A {}W {}D {}L: score {:.1}% [{:.1}%, {:.1}%] (95% Wilson), Elo {:+.0} [{:+.0}, {:+.0}]",
        summary.wins,
        summary.draws,
        summary.losses,
        summary.score * 100.0,
        low * 100.0,
        high * 100.0,
        summary.elo,
        summary.elo_low,
        summary.elo_high
    );
    lengths.sort_unstable();
    if !lengths.is_empty() {
        let mean = lengths.iter().sum::<usize>() as f64 / lengths.len() as f64;
        println!(
            "moves per game: mean {mean:.1}, median {}, longest {}",
            lengths[lengths.len() / 2],
            lengths[lengths.len() - 1]
        );
    }
    times.sort_unstable();
    if !times.is_empty() {
        println!(
            "A's time per move: median {:.1} ms, worst {:.1} ms over {} moves",
            times[times.len() / 2].as_secs_f64() * 1e3,
            times[times.len() - 1].as_secs_f64() * 1e3,
            times.len()
        );
    }
    let ends: Vec<String> = ends.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    println!("endings: {}", ends.join(", "));
    if !engine_failures.is_empty() {
        println!(
            "left out, B's engine failed: {} ({})",
            engine_failures.len(),
            engine_failures.join("; ")
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_brackets_the_score() {
        let (low, high) = wilson(0.5, 100);
        assert!(
            (low - 0.404).abs() < 0.002 && (high - 0.596).abs() < 0.002,
            "{low} {high}"
        );
        let (low, high) = wilson(1.0, 20);
        assert!(low > 0.8 && low < 0.85 && high == 1.0, "{low}");
    }
}
