//! The offline benchmark behind `skirmish-bots gomoku-bench`: strategy A plays strategy B
//! in-process through the real referee ([`Gomoku`]), from a set of balanced openings, each
//! opening played with both colours, and the results are summarised as a score and an Elo
//! difference with a 95% interval.
//!
//! The default openings are the empty board plus the renju openings renju.net rates about equal
//! or only slightly better for one side (sosei, zuisei, chosei, ryusei, kyugetsu, shogetsu,
//! shagetsu; see [`skirmish_games::gomoku::openings::RENJU`]), so that colour does not decide
//! the games.

use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use skirmish_games::gomoku::{Config, Gomoku, Opening, Rule};
use skirmish_games::{Game, Seat, Viewer};

use super::pattern_search::{self, Level, PatternSearch, eval::Weights};
use super::{Budget, GomokuStrategy, strategy};

/// The default openings: `empty` (the empty board) and seven renju openings rated about equal or
/// slightly better for one side.
pub const DEFAULT_OPENINGS: &[&str] = &[
    "empty", "sosei", "zuisei", "chosei", "ryusei", "kyugetsu", "shogetsu", "shagetsu",
];

/// Command-line arguments of `skirmish-bots gomoku-bench`.
#[derive(Debug, Clone, clap::Args)]
pub struct BenchArgs {
    /// Strategy A (the one measured).
    #[arg(long, default_value = "pattern-search")]
    pub a: String,
    /// Strategy B (the opponent).
    #[arg(long, default_value = "seed-minimax")]
    pub b: String,
    /// An outside piskvork engine as B instead of a strategy (path to a pbrain-* program).
    #[arg(long)]
    pub b_engine: Option<std::path::PathBuf>,
    /// An outside piskvork engine as A instead of a strategy (path to a pbrain-* program). With
    /// the same program as `--b-engine`, the engine plays itself: a reference for what the
    /// openings leave to each colour. A's time per move is then the driver's wall time; speed
    /// and depth are printed when the engine reports them (`piskvork::search_report`).
    #[arg(long)]
    pub a_engine: Option<std::path::PathBuf>,
    /// Evaluation values for A (a `pattern-search` level) from this JSON file instead of the
    /// checked-in `bots/data/gomoku_eval.json`: a `gomoku-fit` output measured before it is
    /// checked in.
    #[arg(long)]
    pub a_weights: Option<std::path::PathBuf>,
    /// The same for B.
    #[arg(long)]
    pub b_weights: Option<std::path::PathBuf>,
    /// Rule set: freestyle, standard or renju.
    #[arg(long, default_value = "freestyle")]
    pub rule: String,
    /// Thinking time per move for both sides, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub think_ms: u64,
    /// B's thinking time per move, in milliseconds, when it differs from A's (`--think-ms`): to
    /// measure what a budget is worth, as the bot levels do (bots/README.md, "Levels").
    #[arg(long)]
    pub b_think_ms: Option<u64>,
    /// Openings, comma-separated: names from the games' openings list, or `empty`
    /// (default: [`DEFAULT_OPENINGS`]).
    #[arg(long, value_delimiter = ',')]
    pub openings: Vec<String>,
    /// Games per opening and colour (each opening is played this many times with A as black and
    /// as many with A as white).
    #[arg(long, default_value_t = 1)]
    pub games_per_opening: usize,
    /// Seed of the strategies' random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Board size, in lines.
    #[arg(long, default_value_t = 15)]
    pub size: u8,
    /// Print each game's final board.
    #[arg(long)]
    pub show: bool,
}

/// The result of one game, from A's side.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GameResult {
    /// A won.
    Win,
    /// Drawn.
    Draw,
    /// A lost.
    Loss,
}

impl GameResult {
    /// A's score: 1, 0.5 or 0.
    pub fn score(self) -> f64 {
        match self {
            GameResult::Win => 1.0,
            GameResult::Draw => 0.5,
            GameResult::Loss => 0.0,
        }
    }
}

/// What one side's decisions cost over a match.
#[derive(Debug, Clone, Default)]
pub struct Costs {
    /// Wall time of each of the side's moves.
    pub times: Vec<Duration>,
    /// Nodes the side reported (see [`super::SearchStats`]).
    pub nodes: u64,
    /// Time of the moves whose nodes were counted (as the strategy measured it).
    pub searched: Duration,
    /// Depth reached by each move the side searched (a depth above 0), in plies.
    pub depths: Vec<u32>,
    /// Share of its think time each searched move took (wall time over think time).
    pub shares: Vec<f64>,
}

impl Costs {
    fn record(&mut self, elapsed: Duration, think: Duration, stats: Option<super::SearchStats>) {
        self.times.push(elapsed);
        // Saturating: an outside engine's report (`piskvork::search_report`) may be absurd.
        if let Some(s) = stats {
            self.nodes = self.nodes.saturating_add(s.nodes);
            self.searched = self.searched.saturating_add(s.elapsed);
            if s.depth > 0 {
                self.depths.push(s.depth);
                self.shares
                    .push(elapsed.as_secs_f64() / think.as_secs_f64().max(1e-9));
            }
        }
    }

    /// One line: median and worst time, speed, median depth and budget share (what the side
    /// reports; an outside engine's only when its `MESSAGE` lines say, as
    /// `piskvork::search_report` reads them).
    fn line(&self, side: &str) -> Option<String> {
        let mut times = self.times.clone();
        times.sort();
        let (&median, &worst) = (times.get(times.len() / 2)?, times.last()?);
        let mut text = format!(
            "{side}'s time per move: median {} ms, worst {} ms over {} moves",
            median.as_millis(),
            worst.as_millis(),
            times.len()
        );
        if self.searched.as_secs_f64() > 0.0 {
            text += &format!(
                "; speed {:.0} nodes/s",
                self.nodes as f64 / self.searched.as_secs_f64()
            );
        }
        let mut depths = self.depths.clone();
        depths.sort_unstable();
        let mut shares = self.shares.clone();
        shares.sort_by(f64::total_cmp);
        if let (Some(d), Some(sh)) = (depths.get(depths.len() / 2), shares.get(shares.len() / 2)) {
            text += &format!(
                "; searched moves {}, median depth {d} (max {}), median budget share {:.0}%",
                depths.len(),
                depths.last().unwrap_or(d),
                sh * 100.0
            );
        }
        Some(text)
    }
}

fn parse_rule(rule: &str) -> anyhow::Result<Rule> {
    Ok(match rule {
        "freestyle" => Rule::Freestyle,
        "standard" => Rule::Standard,
        "renju" => Rule::Renju,
        other => bail!("unknown rule `{other}`: freestyle, standard or renju"),
    })
}

/// Plays one game from `opening` with `black` in seat 0 and `white` in seat 1, each thinking
/// for its own `think` (seat order) a move, through the referee. Returns the winner (`None`: a draw), the number of stones, and how it ended. A
/// strategy whose action the referee refuses loses.
///
/// # Errors
/// An invalid configuration.
pub fn play_game(
    config: Config,
    players: [&mut dyn GomokuStrategy; 2],
    think: [Duration; 2],
    rng: &mut SmallRng,
    mut on_move: impl FnMut(usize, Duration, Option<super::SearchStats>),
    show: bool,
) -> anyhow::Result<(Option<Seat>, u32, String)> {
    let (mut game, _) = Gomoku::new(config).context("bench configuration")?;
    let [p0, p1] = players;
    let mut players: [&mut dyn GomokuStrategy; 2] = [p0, p1];
    while game.outcome().is_none() {
        let seat = game.to_act()[0];
        let view = game.view(Viewer::Seat(seat));
        let player = &mut players[usize::from(seat.0)];
        let think = think[usize::from(seat.0)];
        let start = Instant::now();
        let action = player.act(&view, Budget::new(0, think), rng);
        let elapsed = start.elapsed();
        if elapsed > think.mul_f64(1.5) {
            let moves: Vec<String> = view.moves.iter().map(|m| m.point.to_string()).collect();
            eprintln!(
                "slow move: seat {} took {} ms ({:?}) after {}",
                seat.0,
                elapsed.as_millis(),
                player.stats(),
                moves.join(" ")
            );
        }
        on_move(usize::from(seat.0), elapsed, player.stats());
        if let Err(err) = game.apply(seat, action.clone()) {
            let outcome_seat = Seat(1 - seat.0);
            return Ok((
                Some(outcome_seat),
                game.moves().len() as u32,
                format!("{seat} refused: {err}"),
            ));
        }
    }
    let outcome = game.outcome().expect("the game is over").clone();
    if show {
        let board = game.board();
        let size = board.size();
        let last = game.moves().last().map(|m| m.point);
        for y in (0..size).rev() {
            let row: String = (0..size)
                .map(|x| {
                    let p = skirmish_games::gomoku::Point::new(x, y);
                    match board.get(p) {
                        Some(skirmish_games::gomoku::Stone::Black) if Some(p) == last => 'X',
                        Some(skirmish_games::gomoku::Stone::White) if Some(p) == last => 'O',
                        Some(skirmish_games::gomoku::Stone::Black) => 'x',
                        Some(skirmish_games::gomoku::Stone::White) => 'o',
                        None => '.',
                    }
                })
                .collect();
            eprintln!("{:2} {row}", y + 1);
        }
        let moves: Vec<String> = game.moves().iter().map(|m| m.point.to_string()).collect();
        eprintln!("moves: {}", moves.join(" "));
    }
    Ok((
        outcome.winner,
        outcome.stones,
        // The whole end, reason included: an outside engine's failure says what went wrong.
        format!("{:?}", outcome.end),
    ))
}

/// Runs the benchmark, prints per-opening results and a summary, and returns the summary with the
/// games an engine's failure voided.
///
/// # Errors
/// Unknown strategies, rule or openings; an engine path that does not exist.
pub fn run(args: &BenchArgs) -> anyhow::Result<Report> {
    let rule = parse_rule(&args.rule)?;
    let weights = |path: &Option<std::path::PathBuf>| path.as_deref().map(Weights::load).transpose();
    let (a_weights, b_weights) = (weights(&args.a_weights)?, weights(&args.b_weights)?);
    let make_a = || player(&args.a, args.a_engine.as_deref(), a_weights);
    let make_b = || player(&args.b, args.b_engine.as_deref(), b_weights);
    make_a()?;
    make_b()?;
    let a_name = label(&args.a, args.a_engine.as_deref(), args.a_weights.as_deref());
    let b_name = label(&args.b, args.b_engine.as_deref(), args.b_weights.as_deref());
    let openings: Vec<String> = if args.openings.is_empty() {
        DEFAULT_OPENINGS.iter().map(|s| (*s).to_owned()).collect()
    } else {
        args.openings.clone()
    };
    let think = Duration::from_millis(args.think_ms);
    let b_think = args.b_think_ms.map_or(think, Duration::from_millis);
    let mut rng = SmallRng::seed_from_u64(args.seed);
    let mut results = Vec::new();
    let mut void = Vec::new();
    // A's costs, then B's.
    let mut costs = [Costs::default(), Costs::default()];
    println!(
        "gomoku-bench: A = {a_name} vs B = {b_name}, rule {:?}, {} ms per move (B: {} ms), {}x{}",
        rule,
        args.think_ms,
        b_think.as_millis(),
        args.size,
        args.size
    );
    println!(
        "{:<12} {:>6} {:>8} {:>8}  games (A's colour: result in stones)",
        "opening", "W", "D", "L"
    );
    for name in &openings {
        let opening = match name.as_str() {
            "empty" => None,
            other => {
                skirmish_games::gomoku::named_opening(other)
                    .with_context(|| format!("unknown opening `{other}`"))?;
                Some(Opening::Named(other.to_owned()))
            }
        };
        let mut line = Vec::new();
        let mut tally = [0usize; 3];
        for _ in 0..args.games_per_opening {
            for a_seat in [0usize, 1] {
                let mut a = make_a()?;
                let mut b = make_b()?;
                let config = Config {
                    size: args.size,
                    rule,
                    opening: opening.clone(),
                };
                let players: [&mut dyn GomokuStrategy; 2] = if a_seat == 0 {
                    [a.as_mut(), b.as_mut()]
                } else {
                    [b.as_mut(), a.as_mut()]
                };
                let (winner, stones, end) = play_game(
                    config,
                    players,
                    if a_seat == 0 {
                        [think, b_think]
                    } else {
                        [b_think, think]
                    },
                    &mut rng,
                    |seat, t, stats| {
                        if seat == a_seat {
                            costs[0].record(t, think, stats);
                        } else {
                            costs[1].record(t, b_think, stats);
                        }
                    },
                    args.show,
                )?;
                let colour = if a_seat == 0 { "B" } else { "W" };
                // An engine's failure is no result on the board (issue 19): the game is left out
                // of the score and listed apart, whichever side's engine failed.
                let failed = [("A", &a), ("B", &b)]
                    .into_iter()
                    .find(|(_, side)| side.engine_failed());
                if let Some((side, _)) = failed {
                    line.push(format!("{colour}:void {stones} ({end})"));
                    let a_colour = if a_seat == 0 { "black" } else { "white" };
                    void.push(format!("{name}, A {a_colour}: {side}'s engine failed: {end}"));
                    continue;
                }
                let result = match winner {
                    None => GameResult::Draw,
                    Some(s) if usize::from(s.0) == a_seat => GameResult::Win,
                    Some(_) => GameResult::Loss,
                };
                tally[match result {
                    GameResult::Win => 0,
                    GameResult::Draw => 1,
                    GameResult::Loss => 2,
                }] += 1;
                results.push(result);
                let r = match result {
                    GameResult::Win => "win",
                    GameResult::Draw => "draw",
                    GameResult::Loss => "loss",
                };
                let note = if end.starts_with("Five") {
                    String::new()
                } else {
                    format!(" ({end})")
                };
                line.push(format!("{colour}:{r} {stones}{note}"));
            }
        }
        println!(
            "{:<12} {:>6} {:>8} {:>8}  {}",
            name,
            tally[0],
            tally[1],
            tally[2],
            line.join(", ")
        );
    }
    let summary = Summary::of(&results);
    if results.is_empty() {
        println!("total: no game reached a result on the board");
    } else {
        println!(
            "total: {} games, A {}W {}D {}L, score {:.1}%, Elo {:+.0} [{:+.0}, {:+.0}] (95%)",
            results.len(),
            summary.wins,
            summary.draws,
            summary.losses,
            summary.score * 100.0,
            summary.elo,
            summary.elo_low,
            summary.elo_high
        );
    }
    if !void.is_empty() {
        println!(
            "left out of the score, an engine failed: {} games (each shown above as `void`)",
            void.len()
        );
    }
    for (side, cost) in ["A", "B"].iter().zip(&costs) {
        if let Some(line) = cost.line(side) {
            println!("{line}");
        }
    }
    Ok(Report { summary, void })
}

/// What [`run`] measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The games played to a result on the board (win, draw or loss), from A's side.
    pub summary: Summary,
    /// The games an outside engine's failure ended (crash, timeout, refusal, illegal answer),
    /// left out of `summary`: one line each, the opening, A's colour, whose engine and why.
    pub void: Vec<String>,
}

/// One side of the bench: the outside engine at `engine_path` if given, else the strategy `name`
/// (a `pattern-search` level evaluating with `weights` when given).
fn player(
    name: &str,
    engine_path: Option<&std::path::Path>,
    weights: Option<&'static Weights>,
) -> anyhow::Result<Box<dyn GomokuStrategy>> {
    match (engine_path, weights) {
        (Some(path), None) => engine(path),
        (None, None) => strategy(name).with_context(|| format!("unknown strategy `{name}`")),
        (Some(_), Some(_)) => bail!("weights are for a pattern-search level, not an outside engine"),
        (None, Some(w)) => {
            let level = match name {
                "pattern-search" => Some(Level::FULL),
                _ => name
                    .strip_prefix("pattern-search-")
                    .and_then(pattern_search::level),
            }
            .with_context(|| format!("weights are for a pattern-search level, not `{name}`"))?;
            Ok(Box::new(PatternSearch::with_weights(level, w)))
        }
    }
}

/// How the summary names a side: the engine's path, else the strategy's name (with its weights'
/// file when given).
fn label(name: &str, engine_path: Option<&std::path::Path>, weights: Option<&std::path::Path>) -> String {
    match (engine_path, weights) {
        (Some(path), _) => path.display().to_string(),
        (None, Some(w)) => format!("{name} ({})", w.display()),
        (None, None) => name.to_owned(),
    }
}

/// An outside piskvork brain as A or B, driven by [`crate::piskvork::PiskvorkStrategy`] (started on
/// its first move, ended when the game's strategy is dropped).
fn engine(path: &std::path::Path) -> anyhow::Result<Box<dyn GomokuStrategy>> {
    anyhow::ensure!(path.exists(), "no engine at {}", path.display());
    Ok(Box::new(crate::piskvork::PiskvorkStrategy::new(path)))
}

/// Wins, draws, losses, score and Elo with a 95% interval (normal approximation of the mean
/// per-game score, mean ± 1.96 standard errors; when every game scored alike, the rule of three;
/// Elo = -400 log10(1/score - 1), scores clamped to [0.001, 0.999], so ±1200 at most).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    /// Games A won.
    pub wins: usize,
    /// Games drawn.
    pub draws: usize,
    /// Games A lost.
    pub losses: usize,
    /// A's mean score, 0 to 1.
    pub score: f64,
    /// Elo difference A minus B.
    pub elo: f64,
    /// Lower end of the 95% interval, in Elo.
    pub elo_low: f64,
    /// Upper end of the 95% interval, in Elo.
    pub elo_high: f64,
}

impl Summary {
    /// The summary of `results`.
    pub fn of(results: &[GameResult]) -> Summary {
        let n = results.len().max(1) as f64;
        let scores: Vec<f64> = results.iter().map(|r| r.score()).collect();
        let mean = scores.iter().sum::<f64>() / n;
        let var = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
        // All games alike (say, all wins): the sample variance is 0, so take the interval's far
        // end from the "rule of three" (95%: a rate of at most 3/n for what never happened).
        let se = if var == 0.0 {
            3.0 / n / 1.96
        } else {
            (var / n).sqrt()
        };
        let elo = |p: f64| {
            let p = p.clamp(0.001, 0.999);
            -400.0 * (1.0 / p - 1.0).log10()
        };
        Summary {
            wins: results.iter().filter(|r| **r == GameResult::Win).count(),
            draws: results.iter().filter(|r| **r == GameResult::Draw).count(),
            losses: results.iter().filter(|r| **r == GameResult::Loss).count(),
            score: mean,
            elo: elo(mean),
            elo_low: elo(mean - 1.96 * se),
            elo_high: elo(mean + 1.96 * se),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_absurd_engine_report_saturates_the_sums() {
        let absurd = crate::piskvork::search_report("MESSAGE Depth 9 | Node 99999999999G | Time 1e15s")
            .expect("a report");
        assert_eq!(absurd.nodes, u64::MAX);
        let mut costs = Costs::default();
        for _ in 0..3 {
            costs.record(Duration::from_millis(5), Duration::from_millis(10), Some(absurd));
        }
        assert_eq!(costs.nodes, u64::MAX);
        assert!(costs.line("B").is_some());
    }

    #[test]
    fn summary_scores_and_elo() {
        use GameResult::{Draw, Loss, Win};
        let even = Summary::of(&[Win, Loss, Draw, Draw]);
        assert_eq!((even.wins, even.draws, even.losses), (1, 2, 1));
        assert!(even.elo.abs() < 1e-9);
        assert!(even.elo_low < 0.0 && even.elo_high > 0.0);
        let three_to_one = Summary::of(&[Win, Win, Win, Loss]);
        assert!((three_to_one.elo - 190.85).abs() < 0.1, "{}", three_to_one.elo);
        // All wins: the interval's lower end comes from the rule of three, 1 - 3/n.
        let sweep = Summary::of(&[Win; 12]);
        assert!(sweep.elo_low > 0.0 && sweep.elo_low < sweep.elo);
    }
}
