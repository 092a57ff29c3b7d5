//! Every plane strategy only ever produces legal actions: whole matches through the referee
//! (`PlaneBattle`), 2 and 3 players, both variants, with the engine refusing nothing.

use rand::SeedableRng;
use rand::rngs::SmallRng;
use skirmish_bots::plane::{PlaneStrategy, STRATEGIES, strategy};
use skirmish_games::plane::{Action, Config, FirstAttacker, MatchFormat, PhaseView, PlaneBattle, Variant};
use skirmish_games::{Game, Viewer};

/// Plays a whole match with one strategy per seat; panics on any refused action.
fn play(variant: Variant, names: &[&str], rounds: u32, seed: u64) {
    let config = Config {
        variant,
        players: names.len() as u8,
        format: MatchFormat::Rounds(rounds),
        first_attacker: FirstAttacker::Rotating,
    };
    let (mut game, _) = PlaneBattle::new(config).expect("a valid config");
    let mut players: Vec<Box<dyn PlaneStrategy>> = names
        .iter()
        .map(|n| strategy(n).expect("a known strategy"))
        .collect();
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut actions = 0;
    while game.outcome().is_none() {
        for seat in game.to_act() {
            let view = game.view(Viewer::Seat(seat));
            let action = match view.phase {
                PhaseView::Deploy { .. } => Action::Deploy {
                    planes: players[seat.index()].deploy(&view, &mut rng),
                },
                PhaseView::Attack { .. } => {
                    let (target, cell) = players[seat.index()].fire(&view, &mut rng);
                    Action::Fire { target, cell }
                }
                PhaseView::Over => unreachable!("no seat acts once the match is over"),
            };
            if let Err(e) = game.apply(seat, action.clone()) {
                panic!("{} ({seat}) played {action:?}, refused: {e}", names[seat.index()]);
            }
            actions += 1;
            assert!(actions < 100_000, "the match ends");
        }
    }
}

#[test]
fn every_pairing_plays_legally_in_two_player_matches() {
    for variant in [Variant::Classic, Variant::Double] {
        for (i, a) in STRATEGIES.iter().enumerate() {
            for b in STRATEGIES {
                play(variant, &[a, b], 3, i as u64);
            }
        }
    }
}

#[test]
fn three_player_matches_play_legally() {
    for variant in [Variant::Classic, Variant::Double] {
        for seed in 0..2 {
            play(variant, &["bayes", "seed-cv", "random"], 4, seed);
            play(variant, &["random", "bayes", "seed-cv"], 4, seed + 10);
            play(variant, &["seed-cv", "seed-cv", "bayes"], 4, seed + 20);
            play(variant, &["points", "seed-cv", "bayes"], 4, seed + 30);
        }
    }
}

/// A whole 18-round match of three `bayes` seats is played legally to its end. (How long its
/// decisions take is measured by `skirmish-bots eval`, not asserted here.)
#[test]
fn a_full_three_player_bayes_match_ends() {
    play(Variant::Double, &["bayes", "bayes", "bayes"], 18, 99);
}
