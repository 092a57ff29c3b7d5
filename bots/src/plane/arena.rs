//! Whole plane battle matches played in-process through the real referee
//! ([`PlaneBattle`]), each strategy handed only its own seat's [`View`]: the 3-player measurement
//! behind `skirmish-bots eval --players 3`, and the budget tests.

use std::time::{Duration, Instant};

use rand::RngCore;
use skirmish_games::plane::{Action, Config, Outcome, PlaneBattle, View};
use skirmish_games::{Game, Seat, Viewer};

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
            let (action, deploy) = if game.deploying() {
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
