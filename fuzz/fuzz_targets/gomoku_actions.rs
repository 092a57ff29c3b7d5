//! Arbitrary gomoku actions from any seat, legal or not, under each rule, draw offers and
//! takebacks among them: the referee never panics, and a refused action leaves its state exactly
//! as it was.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skirmish_games::gomoku::{Action, Config, Gomoku, Point, Rule};
use skirmish_games::{Game, Seat};

fuzz_target!(|data: &[u8]| {
    let mut bytes = data.iter().copied();
    let mut next = move || bytes.next();
    let Some(head) = next() else { return };
    let config = Config {
        size: [15, 19, 9, 5][usize::from(head % 4)],
        rule: [Rule::Freestyle, Rule::Standard, Rule::Renju][usize::from(head / 4 % 3)],
        opening: None,
    };
    let Ok((mut game, _)) = Gomoku::new(config) else {
        return;
    };
    while let (Some(kind), Some(seat)) = (next(), next()) {
        let seat = Seat(seat % 3);
        let action = if kind == 255 {
            Action::Resign {
                reason: Some("x".repeat(usize::from(seat.0) * 150)),
            }
        } else if kind >= 249 {
            match kind {
                249 => Action::OfferDraw,
                250 => Action::AnswerDraw { accept: true },
                251 => Action::AnswerDraw { accept: false },
                252 => Action::AskTakeback,
                253 => Action::AnswerTakeback { accept: true },
                _ => Action::AnswerTakeback { accept: false },
            }
        } else {
            let Some(y) = next() else { return };
            Action::Place {
                point: Point::new(kind % 27, y % 27),
            }
        };
        let before = format!("{game:?}");
        if game.apply(seat, action).is_err() {
            assert_eq!(format!("{game:?}"), before, "a refusal changed the state");
        }
    }
});
