//! Arbitrary plane battle actions from any seat, legal or not: the referee never panics, and a
//! refused action leaves its state exactly as it was.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skirmish_games::plane::{Action, Cell, Config, Facing, MatchFormat, Placement, PlaneBattle, Variant};
use skirmish_games::{Game, Seat};

fuzz_target!(|data: &[u8]| {
    let mut bytes = data.iter().copied();
    let mut next = move || bytes.next();
    let Some(head) = next() else { return };
    let config = Config {
        variant: if head & 1 == 0 {
            Variant::Classic
        } else {
            Variant::Double
        },
        players: 2 + (head >> 1) % 2,
        format: MatchFormat::Rounds(1 + u32::from(head >> 2) % 3),
        ..Config::default()
    };
    let Ok((mut game, _)) = PlaneBattle::new(config) else {
        return;
    };
    let cell = |r: u8, c: u8| Cell::new(r % 10, c % 10);
    while let (Some(kind), Some(seat)) = (next(), next()) {
        let seat = Seat(seat % 4);
        let action = if kind % 3 == 0 {
            let count = 1 + kind / 3 % 3;
            let mut planes = Vec::new();
            for _ in 0..count {
                let (Some(r), Some(c), Some(f)) = (next(), next(), next()) else {
                    return;
                };
                planes.push(Placement::new(cell(r, c), Facing::ALL[usize::from(f % 4)]));
            }
            Action::Deploy { planes }
        } else {
            let (Some(t), Some(r), Some(c)) = (next(), next(), next()) else {
                return;
            };
            Action::Fire {
                target: Seat(t % 4),
                cell: cell(r, c),
            }
        };
        let before = format!("{game:?}");
        if game.apply(seat, action).is_err() {
            assert_eq!(format!("{game:?}"), before, "a refusal changed the state");
        }
    }
});
