//! The offline benchmark behind `skirmish-bots eval`: each strategy clears thousands of uniformly
//! random boards alone (one attacker, one opponent board, no network, no referee round-trips), and
//! the mean number of shots to down every plane is printed per strategy and variant.
//!
//! The boards are the same for every strategy (same seed), so differences between strategies are
//! not board luck. Also reported for `bayes` on `double`: the wall time of one decision.

use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use skirmish_games::plane::{
    BoardView, Config, FirstAttacker, MatchFormat, PhaseView, Placement, PlaneBattle, ShotRecord, ShotResult,
    Variant, View, random_deployment,
};
use skirmish_games::{PerSeat, Seat, Viewer};

use crate::plane::{PlaneStrategy, STRATEGIES, strategy};

/// Command-line arguments of `skirmish-bots eval`.
#[derive(Debug, Clone, clap::Args)]
pub struct EvalArgs {
    /// Boards per strategy and variant.
    #[arg(long, default_value_t = 3000)]
    pub boards: usize,
    /// Seed of the boards (and of the strategies' random choices).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Strategies to evaluate, comma-separated (default: all, strongest first).
    #[arg(long, value_delimiter = ',')]
    pub strategies: Vec<String>,
    /// Board variant: `classic` (7x7, one plane), `double` (9x9, two planes) or `both`.
    #[arg(long, default_value = "both")]
    pub variant: String,
    /// 1: each strategy clears boards alone (shots to clear); 3: 3-player matches through the
    /// referee, the first of `--strategies` against the other two (default `bayes,seed-cv,seed-cv`),
    /// its seat rotating, and its share of the points is reported.
    #[arg(long, default_value_t = 1)]
    pub players: u8,
    /// 3-player matches to play.
    #[arg(long, default_value_t = 36)]
    pub matches: usize,
    /// Rounds per 3-player match.
    #[arg(long, default_value_t = 18)]
    pub rounds: u32,
    /// Instead of drawing boards: walk `bayes`'s whole decision tree over every deployment of the
    /// variant (unclocked, every tie choice weighted), and print its exact expected shots and its
    /// worst board (`plane::exhaustive`).
    #[arg(long)]
    pub exhaustive: bool,
    /// Threads for `--exhaustive` (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// With `--exhaustive`: also walk `bayes` without its opening book, to show what the book buys.
    #[arg(long)]
    pub unbooked: bool,
    /// Build `bayes`'s 9x9 opening book (`plane::exhaustive::build_opening`) and write it to this
    /// file as Rust source (`bots/src/plane/opening/table.rs`); rebuild to play it.
    #[arg(long)]
    pub write_opening: Option<std::path::PathBuf>,
    /// Book building: passes of policy improvement.
    #[arg(long, default_value_t = 2)]
    pub book_passes: usize,
    /// Book building: the fewest consistent deployments a position needs to enter the book.
    #[arg(long, default_value_t = 256)]
    pub book_min_pairs: usize,
    /// Book building: cells tried per position (the search's best this many, and the current).
    #[arg(long, default_value_t = 6)]
    pub book_candidates: usize,
    /// 3-player matches with dealt deployments, as a duplicate tournament plays them: each deal
    /// at three tables, the candidate in each seat once (`--matches` rounded up to a multiple of
    /// 3); without it every strategy deploys its own planes.
    #[arg(long)]
    pub dealt: bool,
    /// 3-player matches: every seat playing `seed-cv` takes its risky target (the single leader
    /// on match totals) with this probability instead of `seed_cv::RISKY_PROBABILITY` (0.3); 0 is
    /// the seed paper's pure safe attacker. A measurement of what the leader rule costs the
    /// candidate (bots/README.md, "3-player matches"); `points` still models 0.3.
    #[arg(long)]
    pub seed_cv_risky: Option<f64>,
}

/// One strategy clearing one board alone: the attacker is seat 0, the board is seat 1's.
///
/// Builds the attacker's [`View`] by hand from the shots so far, exactly as the referee would show
/// it (shots with public results, downed planes revealed), and applies each shot's result.
pub struct SoloBoard {
    variant: Variant,
    planes: Vec<Placement>,
    cells: Vec<[skirmish_games::plane::Cell; 10]>,
    shots: Vec<ShotRecord>,
    downed: Vec<Placement>,
}

impl SoloBoard {
    /// A board holding `planes` (a legal deployment for `variant`).
    ///
    /// # Panics
    /// If the deployment is not legal.
    pub fn new(variant: Variant, planes: Vec<Placement>) -> SoloBoard {
        let cells = PlaneBattle::check_deployment(variant, &planes).expect("a legal deployment");
        SoloBoard {
            variant,
            planes,
            cells,
            shots: Vec::new(),
            downed: Vec::new(),
        }
    }

    /// Whether every plane is down.
    pub fn cleared(&self) -> bool {
        self.downed.len() == self.planes.len()
    }

    /// Shots fired so far.
    pub fn shots(&self) -> usize {
        self.shots.len()
    }

    /// The attacker's view now.
    pub fn view(&self) -> View {
        let board = |seat: u8, shots: Vec<ShotRecord>, downed: Vec<Placement>| BoardView {
            seat: Seat(seat),
            playing: true,
            knocked_out: false,
            shots,
            downed,
            planes: None,
            points: 0,
        };
        View {
            config: Config {
                variant: self.variant,
                players: 2,
                format: MatchFormat::Rounds(1),
                first_attacker: FirstAttacker::Fixed,
            },
            viewer: Viewer::Seat(Seat(0)),
            round: 0,
            extra: false,
            phase: PhaseView::Attack { attacker: Seat(0) },
            boards: vec![
                board(0, Vec::new(), Vec::new()),
                board(1, self.shots.clone(), self.downed.clone()),
            ],
            totals: PerSeat(vec![0, 0]),
            round_wins: PerSeat(vec![0, 0]),
            history: Vec::new(),
            outcome: None,
        }
    }

    /// Fires at `cell` and returns the result.
    ///
    /// # Errors
    /// A shot at a public cell or off the board.
    pub fn fire(&mut self, cell: skirmish_games::plane::Cell) -> anyhow::Result<ShotResult> {
        let side = self.variant.side();
        let public = self.shots.iter().any(|s| s.cell == cell)
            || self
                .downed
                .iter()
                .any(|p| p.cells(side).is_some_and(|c| c.contains(&cell)));
        if !cell.on_board(side) || public {
            bail!("illegal shot at {cell}");
        }
        let struck = self.cells.iter().position(|c| c.contains(&cell));
        let result = match struck {
            Some(i) if self.cells[i][0] == cell => {
                self.downed.push(self.planes[i]);
                ShotResult::Down
            }
            Some(_) => ShotResult::Hit,
            None => ShotResult::Miss,
        };
        self.shots.push(ShotRecord {
            by: Seat(0),
            cell,
            result,
        });
        Ok(result)
    }
}

/// Lets `strategy` clear `board` and returns the shots it took; each decision's wall time is
/// pushed onto `times`.
///
/// # Errors
/// An illegal shot or a shot at another seat.
pub fn clear(
    strategy: &mut dyn PlaneStrategy,
    board: &mut SoloBoard,
    rng: &mut SmallRng,
    times: &mut Vec<Duration>,
) -> anyhow::Result<usize> {
    let limit = usize::from(board.variant.side()).pow(2);
    while !board.cleared() {
        let view = board.view();
        let start = Instant::now();
        let (target, cell) = strategy.fire(&view, rng);
        times.push(start.elapsed());
        if target != Seat(1) {
            bail!("fired at {target}, not the only opponent");
        }
        board.fire(cell)?;
        if board.shots() > limit {
            bail!("more shots than cells");
        }
    }
    Ok(board.shots())
}

/// Summary of one strategy on one variant.
#[derive(Debug, Clone)]
pub struct Summary {
    /// Boards cleared.
    pub boards: usize,
    /// Mean shots to clear a board.
    pub mean: f64,
    /// Standard error of the mean.
    pub stderr: f64,
    /// Most shots any board needed.
    pub worst: usize,
    /// Decision times (wall clock), in decision order.
    pub times: Vec<Duration>,
}

/// Lets a fresh `name` strategy clear `boards` uniformly random boards of `variant` (seeded by
/// `seed`; the same boards for every strategy).
///
/// # Errors
/// An unknown strategy name, or an illegal shot.
pub fn evaluate(name: &str, variant: Variant, boards: usize, seed: u64) -> anyhow::Result<Summary> {
    let mut player = strategy(name).with_context(|| format!("unknown strategy `{name}`"))?;
    let mut board_rng = SmallRng::seed_from_u64(seed);
    let mut play_rng = SmallRng::seed_from_u64(seed ^ 0x5eed);
    let mut counts = Vec::with_capacity(boards);
    let mut times = Vec::new();
    for _ in 0..boards {
        let mut board = SoloBoard::new(variant, random_deployment(variant, &mut board_rng));
        counts.push(clear(player.as_mut(), &mut board, &mut play_rng, &mut times)?);
    }
    let n = counts.len().max(1) as f64;
    let mean = counts.iter().sum::<usize>() as f64 / n;
    let var = counts.iter().map(|&c| (c as f64 - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    Ok(Summary {
        boards,
        mean,
        stderr: (var / n).sqrt(),
        worst: counts.iter().copied().max().unwrap_or(0),
        times,
    })
}

/// Runs `skirmish-bots eval`: prints a Markdown table of shots to clear per strategy and variant,
/// then the decision times of `bayes` on `double`.
///
/// # Errors
/// An unknown strategy or variant name.
pub fn run(args: &EvalArgs) -> anyhow::Result<()> {
    if args.players == 3 {
        return run_matches(args);
    }
    if args.players != 1 {
        bail!("--players is 1 (boards alone) or 3 (matches)");
    }
    let variants = match args.variant.as_str() {
        "classic" => vec![Variant::Classic],
        "double" => vec![Variant::Double],
        "both" => vec![Variant::Classic, Variant::Double],
        other => bail!("unknown variant `{other}`: expected classic, double or both"),
    };
    if args.exhaustive || args.write_opening.is_some() {
        return run_exhaustive(args, &variants);
    }
    let names: Vec<String> = if args.strategies.is_empty() {
        STRATEGIES.iter().map(ToString::to_string).collect()
    } else {
        args.strategies.clone()
    };
    println!("| strategy | variant | boards | mean shots | std. error | worst |");
    println!("|---|---|---|---|---|---|");
    let mut timing = None;
    for variant in &variants {
        for name in &names {
            let start = Instant::now();
            let s = evaluate(name, *variant, args.boards, args.seed)?;
            let label = match variant {
                Variant::Classic => "classic 7x7",
                Variant::Double => "double 9x9",
            };
            println!(
                "| {name} | {label} | {} | {:.3} | {:.3} | {} |",
                s.boards, s.mean, s.stderr, s.worst
            );
            tracing::debug!(strategy = %name, elapsed = ?start.elapsed(), "evaluated");
            if name == "bayes" && *variant == Variant::Double {
                timing = Some(s.times);
            }
        }
    }
    if let Some(times) = timing {
        let mut sample: Vec<Duration> = times.into_iter().take(1000).collect();
        sample.sort();
        if let (Some(median), Some(worst)) = (sample.get(sample.len() / 2), sample.last()) {
            println!();
            println!(
                "bayes on double 9x9, one decision over the first {} decisions: median {:.2} ms, worst {:.2} ms",
                sample.len(),
                median.as_secs_f64() * 1e3,
                worst.as_secs_f64() * 1e3
            );
        }
    }
    Ok(())
}

/// One exhaustive walk: a variant and a thread count to its exact figures.
type ExactRun = fn(Variant, usize) -> crate::plane::exhaustive::Exact;

/// `eval --exhaustive`: `bayes`'s exact expected shots over every deployment, per variant.
fn run_exhaustive(args: &EvalArgs, variants: &[Variant]) -> anyhow::Result<()> {
    if args.strategies.iter().any(|s| s != "bayes") {
        bail!("--exhaustive walks `bayes` only (the other strategies draw at random beyond ties)");
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
        .max(1);
    use crate::plane::exhaustive::{BookPlan, build_opening, exact_bayes, exact_bayes_unbooked};
    if let Some(path) = &args.write_opening {
        let plan = BookPlan {
            passes: args.book_passes,
            min_pairs: args.book_min_pairs,
            candidates: args.book_candidates,
            threads,
        };
        let start = Instant::now();
        let book = build_opening(plan, |pass, n, value, cell| {
            eprintln!("pass {pass}: {n} deployments, cell {cell}, {value:.5} shots");
        });
        std::fs::write(path, book.to_source()).with_context(|| format!("writing {}", path.display()))?;
        println!(
            "opening book: {} positions written to {} in {:.0} s (rebuild to use it)",
            book.len(),
            path.display(),
            start.elapsed().as_secs_f64()
        );
        return Ok(());
    }
    println!("| strategy | variant | deployments | exact mean shots | worst | decisions | wall time |");
    println!("|---|---|---|---|---|---|---|");
    for variant in variants {
        let label = match variant {
            Variant::Classic => "classic 7x7",
            Variant::Double => "double 9x9",
        };
        let mut runs: Vec<(&str, ExactRun)> = vec![("bayes (unclocked)", exact_bayes)];
        if args.unbooked && *variant == Variant::Double {
            runs.push(("bayes (unclocked, no opening book)", exact_bayes_unbooked));
        }
        for (name, run) in runs {
            let start = Instant::now();
            let exact = run(*variant, threads);
            println!(
                "| {name} | {label} | {} | {:.5} | {} | {} | {:.1} s |",
                exact.deployments,
                exact.mean,
                exact.worst,
                exact.decisions,
                start.elapsed().as_secs_f64()
            );
        }
    }
    Ok(())
}

/// `eval --players 3`: the candidate's share of the points against two opponents, per variant.
fn run_matches(args: &EvalArgs) -> anyhow::Result<()> {
    let names: Vec<String> = if args.strategies.is_empty() {
        vec!["bayes".into(), "seed-cv".into(), "seed-cv".into()]
    } else {
        args.strategies.clone()
    };
    if names.len() != 3 {
        bail!("--players 3 takes three strategies: the candidate and its two opponents");
    }
    for name in &names {
        if strategy(name).is_none() {
            bail!("unknown strategy `{name}`");
        }
    }
    if let Some(p) = args.seed_cv_risky {
        if !(0.0..=1.0).contains(&p) {
            bail!("--seed-cv-risky is a probability, 0 to 1: {p}");
        }
        if !names.iter().any(|n| n == "seed-cv") {
            bail!("--seed-cv-risky needs a `seed-cv` among --strategies");
        }
    }
    let opponents = match args.seed_cv_risky {
        Some(p) => format!("{}, {} (seed-cv risky {p})", names[1], names[2]),
        None => format!("{}, {}", names[1], names[2]),
    };
    let variants = match args.variant.as_str() {
        "classic" => vec![Variant::Classic],
        "double" | "both" => vec![Variant::Double],
        other => bail!("unknown variant `{other}`: expected classic or double"),
    };
    println!(
        "| candidate | opponents | variant | deployments | matches | share of points (95%) | first places (95% Wilson) |"
    );
    println!("|---|---|---|---|---|---|---|");
    for variant in variants {
        let config = Config {
            variant,
            players: 3,
            format: MatchFormat::Rounds(args.rounds),
            first_attacker: FirstAttacker::Rotating,
        };
        let matches = if args.dealt {
            args.matches.div_ceil(3) * 3
        } else {
            args.matches
        };
        let series = crate::plane::arena::series(config, matches, args.seed, args.dealt, |i| {
            seat_strategy(&names, args.seed_cv_risky, i)
        })
        .map_err(anyhow::Error::msg)?;
        let (share, lo, hi) = series.share();
        let (first, flo, fhi) = series.first_rate();
        println!(
            "| {} | {opponents} | {variant:?} | {} | {} | {:.1}% [{:.1}, {:.1}] | {:.1}% [{:.1}, {:.1}] |",
            names[0],
            if args.dealt { "dealt (duplicate)" } else { "own" },
            series.matches,
            share * 100.0,
            lo * 100.0,
            hi * 100.0,
            first * 100.0,
            flo * 100.0,
            fhi * 100.0
        );
    }
    Ok(())
}

/// The strategy of seat `i` in `eval --players 3`: `names[i]`, and for a `seed-cv` seat the
/// risky probability `risky` (`--seed-cv-risky`) when given.
///
/// # Panics
/// For an unknown name or a `risky` outside 0 to 1 (`run_matches` checks both first).
fn seat_strategy(names: &[String], risky: Option<f64>, i: usize) -> Box<dyn crate::plane::PlaneStrategy> {
    match risky {
        Some(p) if names[i] == "seed-cv" => Box::new(crate::plane::SeedCv::with_risky(p)),
        _ => strategy(&names[i]).expect("a known strategy"),
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: EvalArgs,
    }

    fn args(line: &str) -> EvalArgs {
        Cli::try_parse_from(std::iter::once("eval").chain(line.split_whitespace()))
            .expect("parses")
            .args
    }

    /// `--seed-cv-risky` is refused outside 0 to 1, and without a `seed-cv` to apply to, before
    /// any match is played; within them the matches run.
    #[test]
    fn seed_cv_risky_is_checked_before_any_match() {
        let base = "--players 3 --matches 3 --rounds 1 --variant double";
        let err = run(&args(&format!(
            "{base} --strategies random,seed-cv,seed-cv --seed-cv-risky 2"
        )))
        .unwrap_err();
        assert!(err.to_string().contains("0 to 1"), "{err}");
        let err = run(&args(&format!(
            "{base} --strategies random,bayes,bayes --seed-cv-risky 0"
        )))
        .unwrap_err();
        assert!(err.to_string().contains("needs a `seed-cv`"), "{err}");
        run(&args(&format!(
            "{base} --strategies random,seed-cv,seed-cv --seed-cv-risky 0 --dealt"
        )))
        .expect("three 1-round matches");
    }

    /// The seats' strategies follow `--seed-cv-risky`: the same seeded matches give the same
    /// shares with 0.3 (the default's probability) as without the flag, and other shares with 1
    /// (the `seed-cv` seats then always attack a single leader).
    #[test]
    fn seed_cv_risky_reaches_the_seed_cv_seats() {
        let names = ["random", "seed-cv", "seed-cv"].map(String::from);
        let config = Config {
            variant: Variant::Double,
            players: 3,
            format: MatchFormat::Rounds(6),
            first_attacker: FirstAttacker::Rotating,
        };
        let shares = |risky: Option<f64>| {
            crate::plane::arena::series(config, 3, 1, true, |i| seat_strategy(&names, risky, i))
                .expect("matches")
                .shares
        };
        let default = shares(None);
        assert_eq!(shares(Some(0.3)), default);
        assert_ne!(shares(Some(1.0)), default);
    }
}
