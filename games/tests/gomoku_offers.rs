//! Gomoku's draw offers and takebacks (docs/rules.md, gomoku, "Draw offers and takebacks"): what
//! each does to the position and the result, who may answer what, when an offer lapses, the
//! limits that bound a game, renju's forbidden points after a takeback, and random games where
//! every takeback gives back exactly the position it returns to.

use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use skirmish_games::gomoku::{
    Action, Config, End, Event, Gomoku, MAX_TAKEBACKS, Move, Opening, Point, Rule, RuleError, Stone, View,
};
use skirmish_games::{Game, Seat, Viewer};

const BLACK: Seat = Seat(0);
const WHITE: Seat = Seat(1);

fn p(s: &str) -> Point {
    s.parse().expect("a point")
}

fn place(game: &mut Gomoku, seat: Seat, point: &str) {
    game.apply(seat, Action::Place { point: p(point) })
        .unwrap_or_else(|e| panic!("{seat} at {point}: {e}"));
}

fn code(game: &mut Gomoku, seat: Seat, action: Action) -> &'static str {
    let before = game.view(Viewer::Spectator);
    let err = game.apply(seat, action.clone()).unwrap_err();
    assert_eq!(
        game.view(Viewer::Spectator),
        before,
        "{action:?} changed the game"
    );
    err.code()
}

const ACCEPT: Action = Action::AnswerTakeback { accept: true };

#[test]
fn a_takeback_takes_off_the_askers_stone_or_the_stone_and_the_reply_after_it() {
    let (mut game, _) = Gomoku::new(Config::default()).unwrap();
    let empty = game.view(Viewer::Spectator);
    place(&mut game, BLACK, "h8");
    // Black asks while white thinks: only black's stone comes off.
    let asked = game.apply(BLACK, Action::AskTakeback).unwrap();
    assert_eq!(asked, vec![Event::TakebackAsked { seat: BLACK }]);
    assert_eq!(game.view(Viewer::Spectator).offers.takeback, Some(BLACK));
    assert_eq!(game.to_act(), vec![WHITE], "asking is no move");
    let taken = game.apply(WHITE, ACCEPT).unwrap();
    assert_eq!(
        taken,
        vec![Event::TakenBack {
            seat: BLACK,
            moves: vec![Move {
                stone: Stone::Black,
                point: p("h8")
            }],
        }]
    );
    assert_eq!(game.to_act(), vec![BLACK]);
    assert_eq!(game.board().get(p("h8")), None);
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.moves, empty.moves);
    assert_eq!(view.offers.taken_back, [1, 0]);
    assert_eq!(view.offers.takeback, None);

    // White replied already: both stones come off, and it is black's turn again.
    place(&mut game, BLACK, "h8");
    place(&mut game, WHITE, "h9");
    game.apply(BLACK, Action::AskTakeback).unwrap();
    let taken = game.apply(WHITE, ACCEPT).unwrap();
    let Event::TakenBack { seat, moves } = &taken[0] else {
        panic!("{taken:?}")
    };
    assert_eq!(*seat, BLACK);
    assert_eq!(
        moves.iter().map(|m| m.point.to_string()).collect::<Vec<_>>(),
        ["h8", "h9"],
        "in the order played"
    );
    assert_eq!(game.to_act(), vec![BLACK]);
    assert_eq!(game.board().stones(), 0);
    assert_eq!(game.view(Viewer::Spectator).offers.taken_back, [2, 0]);
}

#[test]
fn nobody_takes_back_the_other_players_stone_or_the_opening() {
    let (mut game, _) = Gomoku::new(Config {
        opening: Some(Opening::Named("kansei".to_owned())),
        ..Config::default()
    })
    .unwrap();
    // The opening's three stones are nobody's to take back.
    assert_eq!(
        code(&mut game, WHITE, Action::AskTakeback),
        "nothing_to_take_back"
    );
    assert_eq!(
        code(&mut game, BLACK, Action::AskTakeback),
        "nothing_to_take_back"
    );
    place(&mut game, WHITE, "a1");
    // Black has no stone of its own after the opening: white's stone is white's.
    assert_eq!(
        code(&mut game, BLACK, Action::AskTakeback),
        "nothing_to_take_back"
    );
    // White's takeback takes white's stone only, never black's.
    place(&mut game, BLACK, "a3");
    game.apply(WHITE, Action::AskTakeback).unwrap();
    game.apply(BLACK, ACCEPT).unwrap();
    assert_eq!(game.board().get(p("a1")), None);
    assert_eq!(game.board().get(p("a3")), None);
    assert_eq!(game.moves().len(), 3, "the opening stays");
    assert_eq!(game.to_act(), vec![WHITE]);
}

#[test]
fn only_the_other_player_answers_and_only_once() {
    let (mut game, _) = Gomoku::new(Config::default()).unwrap();
    place(&mut game, BLACK, "h8");
    assert_eq!(code(&mut game, WHITE, ACCEPT), "no_takeback", "nothing asked");
    game.apply(BLACK, Action::AskTakeback).unwrap();
    // The asker cannot grant its own request, nor ask again while it waits.
    assert_eq!(code(&mut game, BLACK, ACCEPT), "no_takeback");
    assert_eq!(code(&mut game, BLACK, Action::AskTakeback), "takeback_pending");
    assert_eq!(code(&mut game, WHITE, Action::AskTakeback), "takeback_pending");
    let declined = game
        .apply(WHITE, Action::AnswerTakeback { accept: false })
        .unwrap();
    assert_eq!(declined, vec![Event::TakebackDeclined { seat: WHITE }]);
    assert_eq!(
        game.board().get(p("h8")),
        Some(Stone::Black),
        "declined: the stone stays"
    );
    // Answered: a second answer finds nothing, and black asks again only after its next stone.
    assert_eq!(code(&mut game, WHITE, ACCEPT), "no_takeback");
    assert_eq!(
        code(&mut game, BLACK, Action::AskTakeback),
        "takeback_asked_already"
    );
    place(&mut game, WHITE, "h9");
    assert_eq!(
        code(&mut game, BLACK, Action::AskTakeback),
        "takeback_asked_already"
    );
    place(&mut game, BLACK, "a1");
    game.apply(BLACK, Action::AskTakeback).unwrap();
    // Granted: black takes back once between two of its stones.
    game.apply(WHITE, ACCEPT).unwrap();
    assert_eq!(
        code(&mut game, BLACK, Action::AskTakeback),
        "takeback_asked_already"
    );
}

#[test]
fn a_takeback_lapses_when_a_stone_is_placed() {
    let (mut game, _) = Gomoku::new(Config::default()).unwrap();
    place(&mut game, BLACK, "h8");
    game.apply(BLACK, Action::AskTakeback).unwrap();
    place(&mut game, WHITE, "h9");
    assert_eq!(game.view(Viewer::Spectator).offers.takeback, None);
    assert_eq!(code(&mut game, WHITE, ACCEPT), "no_takeback");
    assert_eq!(game.moves().len(), 2);
}

#[test]
fn each_seat_is_granted_at_most_the_limit_of_takebacks_a_game() {
    let (mut game, _) = Gomoku::new(Config::default()).unwrap();
    for i in 0..MAX_TAKEBACKS {
        place(&mut game, BLACK, "h8");
        game.apply(BLACK, Action::AskTakeback).unwrap();
        game.apply(WHITE, ACCEPT).unwrap();
        assert_eq!(game.offers().takebacks_left(BLACK), MAX_TAKEBACKS - i - 1);
    }
    place(&mut game, BLACK, "h8");
    assert_eq!(code(&mut game, BLACK, Action::AskTakeback), "takeback_limit");
    // White's own count is its own.
    place(&mut game, WHITE, "h9");
    game.apply(WHITE, Action::AskTakeback).unwrap();
    game.apply(BLACK, ACCEPT).unwrap();
    assert_eq!(game.offers().taken_back, [MAX_TAKEBACKS, 1]);
}

#[test]
fn renjus_forbidden_points_are_those_of_the_position_taken_back_to() {
    // Black's g8 i8 h9 h7 make h8 a double-three for black.
    let (mut game, _) = Gomoku::new(Config {
        rule: Rule::Renju,
        opening: Some(Opening::Moves(
            ["g8", "a1", "i8", "a3", "h9", "a5", "h7", "a7"]
                .iter()
                .map(|s| p(s))
                .collect(),
        )),
        ..Config::default()
    })
    .unwrap();
    let before = game.view(Viewer::Seat(BLACK));
    assert_eq!(before.forbidden, vec![p("h8")]);
    // Black blocks its own shape; white replies; the forbidden point is gone.
    place(&mut game, BLACK, "f8");
    place(&mut game, WHITE, "o15");
    assert!(game.view(Viewer::Seat(BLACK)).forbidden.is_empty());
    assert_eq!(
        code(&mut game, BLACK, Action::Place { point: p("f8") }),
        "point_occupied"
    );
    game.apply(BLACK, Action::AskTakeback).unwrap();
    game.apply(WHITE, ACCEPT).unwrap();
    let after = game.view(Viewer::Seat(BLACK));
    assert_eq!(after.forbidden, vec![p("h8")], "h8 is forbidden again");
    assert_eq!(after.moves, before.moves);
    assert_eq!(after.to_move, Some(BLACK));
    let err = game.apply(BLACK, Action::Place { point: p("h8") }).unwrap_err();
    assert!(matches!(err, RuleError::Forbidden { .. }), "{err:?}");
}

#[test]
fn a_draw_offer_accepted_ends_the_game_drawn() {
    let (mut game, _) = Gomoku::new(Config::default()).unwrap();
    place(&mut game, BLACK, "h8");
    let offered = game.apply(WHITE, Action::OfferDraw).unwrap();
    assert_eq!(offered, vec![Event::DrawOffered { seat: WHITE }]);
    assert_eq!(game.to_act(), vec![WHITE], "offering is no move");
    // White cannot accept its own offer.
    assert_eq!(
        code(&mut game, WHITE, Action::AnswerDraw { accept: true }),
        "no_draw_offer"
    );
    assert_eq!(code(&mut game, BLACK, Action::OfferDraw), "draw_pending");
    let ended = game.apply(BLACK, Action::AnswerDraw { accept: true }).unwrap();
    let Event::Ended { outcome } = &ended[0] else {
        panic!("{ended:?}")
    };
    assert_eq!(outcome.winner, None);
    assert_eq!(outcome.end, End::DrawAgreed { offered_by: WHITE });
    assert_eq!(outcome.stones, 1);
    assert!(game.to_act().is_empty());
    assert_eq!(
        game.view(Viewer::Spectator).offers.draw,
        None,
        "nothing waits in a game over"
    );
    assert_eq!(code(&mut game, BLACK, Action::AskTakeback), "game_over");
}

#[test]
fn a_draw_offer_declined_or_lapsed_leaves_the_game_going_on() {
    let (mut game, _) = Gomoku::new(Config::default()).unwrap();
    game.apply(BLACK, Action::OfferDraw).unwrap();
    let declined = game.apply(WHITE, Action::AnswerDraw { accept: false }).unwrap();
    assert_eq!(declined, vec![Event::DrawDeclined { seat: WHITE }]);
    assert_eq!(game.outcome(), None);
    assert_eq!(game.to_act(), vec![BLACK]);
    assert_eq!(
        code(&mut game, WHITE, Action::AnswerDraw { accept: true }),
        "no_draw_offer"
    );
    // Once between two of one's stones.
    assert_eq!(code(&mut game, BLACK, Action::OfferDraw), "draw_offered_already");
    place(&mut game, BLACK, "h8");
    // An offer stands through the offerer's own stone...
    game.apply(BLACK, Action::OfferDraw).unwrap();
    place(&mut game, WHITE, "h9");
    // ... and lapses with the other's.
    assert_eq!(game.view(Viewer::Spectator).offers.draw, None);
    assert_eq!(
        code(&mut game, WHITE, Action::AnswerDraw { accept: true }),
        "no_draw_offer"
    );
    game.apply(WHITE, Action::OfferDraw).unwrap();
    place(&mut game, BLACK, "a1");
    game.apply(WHITE, Action::OfferDraw).unwrap_err();
    place(&mut game, WHITE, "a2");
    // A granted takeback changes the position: the offer made on the old one goes.
    place(&mut game, BLACK, "a3");
    game.apply(BLACK, Action::OfferDraw).unwrap();
    game.apply(BLACK, Action::AskTakeback).unwrap();
    game.apply(WHITE, ACCEPT).unwrap();
    assert_eq!(game.view(Viewer::Spectator).offers.draw, None);
}

/// The parts of a view a takeback must give back: the stones, whose turn, the forbidden points.
fn position(view: &View) -> (Vec<Move>, Option<Seat>, Vec<Point>) {
    (view.moves.clone(), view.to_move, view.forbidden.clone())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_granted_takeback_gives_back_the_position_it_returns_to(
        seed in any::<u64>(),
        renju in any::<bool>(),
    ) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let rule = if renju { Rule::Renju } else { Rule::Freestyle };
        let (mut game, _) = Gomoku::new(Config { size: 9, rule, opening: None }).unwrap();
        // The position after each number of stones, as first reached.
        let mut seen = vec![position(&game.view(Viewer::Spectator))];
        let mut granted = [0u8; 2];
        while game.outcome().is_none() {
            let to_move = game.to_act()[0];
            let asker = Seat(rng.random_range(0..2));
            if rng.random_bool(0.25) && game.apply(asker, Action::AskTakeback).is_ok() {
                let size = game.takeback_size(asker).unwrap();
                let events = game.apply(Seat(1 - asker.0), ACCEPT).unwrap();
                let undone = matches!(&events[0], Event::TakenBack { moves, .. } if moves.len() == size);
                prop_assert!(undone, "{:?}", events);
                granted[asker.index()] += 1;
                let n = game.moves().len();
                prop_assert_eq!(&position(&game.view(Viewer::Spectator)), &seen[n]);
                prop_assert_eq!(game.to_act(), vec![asker]);
                seen.truncate(n + 1);
                continue;
            }
            let Some(point) = game.random_point(&mut rng) else { break };
            game.apply(to_move, Action::Place { point }).unwrap();
            seen.truncate(game.moves().len());
            seen.push(position(&game.view(Viewer::Spectator)));
        }
        prop_assert!(granted.iter().all(|&g| g <= MAX_TAKEBACKS));
        prop_assert_eq!(game.offers().taken_back, granted);
    }
}
