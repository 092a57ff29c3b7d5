//! Whole plane battle matches played in-process through the real referee
//! ([`PlaneBattle`]), each strategy handed only its own seat's [`View`]: the 3-player measurement
//! behind `skirmish-bots eval --players 3`, and the budget tests.
//!
//! A series either lets each strategy deploy its own planes, or deals them as a duplicate
//! tournament does (server/src/tournament, `skirmish_protocol::deal`: every seat's board drawn
//! uniformly from the deal's seed, the round and the seat) and plays each deal at three tables,
//! the candidate in each seat once, so the luck of the boards cancels (issue 19 measured "108
//! matches, duplicate deals").

use std::time::{Duration, Instant};

use rand::RngCore;
use skirmish_games::plane::{Action, Config, Outcome, PlaneBattle, View};
use skirmish_games::{Game, Seat, Viewer};

use skirmish_protocol::deal::{deal_seed, plane_deployment};

use super::PlaneStrategy;

/// One decision a strategy took: whose, what kind, and how long it took (wall time).
#[derive(Clone, Copy, Debug)]
pub struct Decision {
    /// The seat that decided.
    pub seat: Seat,
    /// Whether it was a deployment (else a shot).
    pub deploy: bool,
    /// How long the strategy took to answer.
    pub elapsed: Duration,
}

/// Plays one match under `config` with `players[i]` in seat `i` (one per seat), until the
/// referee declares it over; `watch` sees every decision. Returns the outcome.
///
/// # Errors
/// The referee's refusal of a strategy's action (a strategy bug), as text naming the seat, or an
/// unplayable `config`.
pub fn play_match(
    config: Config,
    players: &mut [Box<dyn PlaneStrategy>],
    rng: &mut dyn RngCore,
    watch: impl FnMut(Decision),
) -> Result<Outcome, String> {
    play_dealt_match(config, players, None, rng, watch)
}

/// [`play_match`], with every deployment dealt from `deal` (a deal's seed, as
/// `skirmish_protocol::deal::plane_deployment` draws it for a duplicate tournament) when given:
/// the strategies then only fire, as on the server, and their `deploy` is never asked.
///
/// # Errors
/// As [`play_match`].
pub fn play_dealt_match(
    config: Config,
    players: &mut [Box<dyn PlaneStrategy>],
    deal: Option<u64>,
    rng: &mut dyn RngCore,
    mut watch: impl FnMut(Decision),
) -> Result<Outcome, String> {
    if players.len() != usize::from(config.players) {
        return Err(format!(
            "{} strategies for {} seats",
            players.len(),
            config.players
        ));
    }
    let (mut game, _) = PlaneBattle::new(config).map_err(|e| e.to_string())?;
    loop {
        if let Some(outcome) = game.outcome() {
            return Ok(outcome.clone());
        }
        for seat in game.to_act() {
            let view: View = game.view(Viewer::Seat(seat));
            let player = &mut players[seat.index()];
            let started = Instant::now();
            let (action, deploy) = if let Some(seed) = deal.filter(|_| game.deploying()) {
                let planes = plane_deployment(seed, view.round, seat, config.variant);
                (Action::Deploy { planes }, true)
            } else if game.deploying() {
                (
                    Action::Deploy {
                        planes: player.deploy(&view, rng),
                    },
                    true,
                )
            } else {
                let (target, cell) = player.fire(&view, rng);
                (Action::Fire { target, cell }, false)
            };
            watch(Decision {
                seat,
                deploy,
                elapsed: started.elapsed(),
            });
            game.apply(seat, action)
                .map_err(|err| format!("{seat}'s action refused: {err}"))?;
            if !game.deploying() && game.outcome().is_none() {
                // One shot at a time: the next attacker acts on the new position.
                break;
            }
        }
    }
}

/// What `candidate` scored over a series of matches against two opponents.
#[derive(Clone, Debug)]
pub struct Series {
    /// Matches played.
    pub matches: usize,
    /// The candidate's share of all points scored in each match (0 to 1).
    pub shares: Vec<f64>,
    /// Matches the candidate won (first place).
    pub firsts: usize,
    /// Matches per independent sample: 3 when the deployments are dealt (a deal's three tables
    /// are one sample), else 1.
    pub tables: usize,
}

impl Series {
    /// The mean share of the points and its 95% interval (normal approximation over the
    /// independent samples: matches, or deals when dealt, each deal's tables averaged).
    pub fn share(&self) -> (f64, f64, f64) {
        let samples: Vec<f64> = self
            .shares
            .chunks(self.tables.max(1))
            .map(|c| c.iter().sum::<f64>() / c.len() as f64)
            .collect();
        let n = samples.len().max(1) as f64;
        let mean = samples.iter().sum::<f64>() / n;
        let var = samples.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
        let half = 1.96 * (var / n).sqrt();
        (mean, mean - half, mean + half)
    }

    /// The share of first places and its 95% Wilson interval.
    pub fn first_rate(&self) -> (f64, f64, f64) {
        wilson(self.firsts, self.matches)
    }
}

/// A proportion `k / n` and its 95% Wilson score interval.
pub fn wilson(k: usize, n: usize) -> (f64, f64, f64) {
    if n == 0 {
        return (0.0, 0.0, 1.0);
    }
    let (k, n) = (k as f64, n as f64);
    let z = 1.96f64;
    let p = k / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    (p, centre - half, centre + half)
}

/// Plays `matches` 3-player matches of `config`: `make(0)` (the candidate) against `make(1)` and
/// `make(2)`, the candidate in seat `m mod 3` of match `m` (so each seat and each order of play
/// comes round equally), each match's random source seeded by `seed + m`. With `dealt`, the
/// deployments are dealt (duplicate): match `m` plays deal `m / 3` of a tournament seeded by
/// `seed` (`skirmish_protocol::deal::deal_seed`), so the three tables of a deal put the
/// candidate on each seat's boards once.
///
/// # Errors
/// A refused action (a strategy bug) or a `config` that is not for 3 players.
pub fn series(
    config: Config,
    matches: usize,
    seed: u64,
    dealt: bool,
    mut make: impl FnMut(usize) -> Box<dyn PlaneStrategy>,
) -> Result<Series, String> {
    use rand::SeedableRng;
    if config.players != 3 {
        return Err("a series is for 3 players".into());
    }
    let mut out = Series {
        matches,
        shares: Vec::with_capacity(matches),
        firsts: 0,
        tables: if dealt { 3 } else { 1 },
    };
    for m in 0..matches {
        let me = m % 3;
        let mut others = [1, 2].into_iter();
        let mut players: Vec<Box<dyn PlaneStrategy>> = (0..3)
            .map(|seat| {
                make(if seat == me {
                    0
                } else {
                    others.next().expect("two opponents")
                })
            })
            .collect();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed.wrapping_add(m as u64));
        let deal = dealt.then(|| deal_seed(seed, u32::try_from(m / 3).unwrap_or(u32::MAX)));
        let outcome = play_dealt_match(config, &mut players, deal, &mut rng, |_| {})?;
        let total: u32 = outcome.totals.0.iter().sum();
        let mine = outcome.totals.0[me];
        out.shares.push(f64::from(mine) / f64::from(total.max(1)));
        if outcome.winner == Seat(u8::try_from(me).expect("3 seats")) {
            out.firsts += 1;
        }
    }
    Ok(out)
}
