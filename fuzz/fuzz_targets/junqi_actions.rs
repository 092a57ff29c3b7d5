//! Arbitrary junqi deployments and moves from any seat, legal or not: the referee never panics,
//! a refused action leaves its state exactly as it was, and every move it lists is accepted.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skirmish_games::junqi::{Action, Config, Junqi, Layout, POSTS, Post, Rank};
use skirmish_games::{Game, Seat};

/// Two layouts that pass the rules, to get the battle going often.
const GOOD: [&str; 2] = ["abccddeeffggghhhiiijjkklj", "abcchddheefhfigiijggjjklk"];

fuzz_target!(|data: &[u8]| {
    let mut bytes = data.iter().copied();
    let mut next = move || bytes.next();
    let Some(head) = next() else { return };
    let config = Config {
        no_attack_limit: [31, 10, 0, 17][usize::from(head % 4)],
    };
    let Ok((mut game, _)) = Junqi::new(config) else {
        return;
    };
    while let (Some(kind), Some(seat)) = (next(), next()) {
        let seat = Seat(seat % 3);
        let action = match kind % 8 {
            0 => {
                // Any 25 ranks.
                let mut ranks = [Rank::Flag; 25];
                for r in &mut ranks {
                    let Some(b) = next() else { return };
                    *r = Rank::ALL[usize::from(b % 12)];
                }
                Action::Deploy {
                    layout: Layout(ranks),
                }
            }
            1 => Action::Deploy {
                layout: GOOD[usize::from(kind / 8 % 2)].parse().expect("a layout"),
            },
            2 => {
                // One of the moves the engine lists, which must be accepted.
                let legal = game.position().legal_moves(game.position().to_move());
                let Some(&mv) = legal.get(usize::from(kind / 8) % legal.len().max(1)) else {
                    continue;
                };
                if game.to_act() == [game.position().to_move()] {
                    let seat = game.position().to_move();
                    game.apply(
                        seat,
                        Action::Move {
                            from: mv.from,
                            to: mv.to,
                        },
                    )
                    .expect("a listed move is legal");
                }
                continue;
            }
            3 => Action::Resign {
                reason: Some("x".repeat(usize::from(kind))),
            },
            _ => {
                let (Some(from), Some(to)) = (next(), next()) else {
                    return;
                };
                Action::Move {
                    from: Post::from_index(usize::from(from) % POSTS),
                    to: Post::from_index(usize::from(to) % POSTS),
                }
            }
        };
        let before = format!("{game:?}");
        if game.apply(seat, action).is_err() {
            assert_eq!(format!("{game:?}"), before, "a refusal changed the state");
        }
    }
});
