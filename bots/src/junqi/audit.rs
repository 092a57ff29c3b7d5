//! Junqi's part of the check on the referee ([`crate::audit`]): each opened layout must be the
//! one the game's end revealed for its seat, and once both are open every move of the game,
//! replayed through the rules engine from them, must be legal and give the result the referee
//! reported; in a duplicate tournament, every dealt layout must be the one the deal's seed gives.

use skirmish_games::junqi::{Event, Layout, Move, MoveRecord, Position};
use skirmish_games::{PerSeat, Seat};
use skirmish_protocol::{GameConfig, GameEvent, GameView, deal};

use crate::audit::{GameAudit, Mismatch, NotDealt};

/// What one junqi game has shown so far.
#[derive(Debug, Default)]
pub struct JunqiAudit {
    /// Every move, in order.
    moves: Vec<MoveRecord>,
    /// The layouts the game revealed at its end.
    layouts: Option<PerSeat<Option<Layout>>>,
    /// The layouts opened so far, by seat.
    opened: [Option<Layout>; 2],
}

impl GameAudit for JunqiAudit {
    fn view(&mut self, view: &GameView) {
        if let GameView::Junqi(view) = view {
            self.moves.clone_from(&view.moves);
        }
    }

    fn record(&mut self, event: &GameEvent) -> bool {
        let GameEvent::Junqi(event) = event else {
            return false;
        };
        match event {
            Event::Moved { record } => self.moves.push(*record),
            Event::Ended { outcome } => self.layouts = Some(outcome.layouts.clone()),
            _ => {}
        }
        true
    }

    fn open(&mut self, seat: Seat, _round: u32, deployment: &str) -> Result<(), Mismatch> {
        let layouts = self.layouts.as_ref().ok_or(Mismatch::NotRevealed)?;
        let layout: Layout = deployment.parse().map_err(|_| Mismatch::NotRevealed)?;
        if layouts.0.get(usize::from(seat.0)).copied().flatten() != Some(layout) {
            return Err(Mismatch::NotRevealed);
        }
        self.opened[usize::from(seat.0).min(1)] = Some(layout);
        if let [Some(red), Some(blue)] = self.opened {
            return self.check_moves([&red, &blue]);
        }
        Ok(())
    }

    /// A junqi game's reveals follow its end: once all are checked, nothing is left.
    fn done(&self, opened: usize, committed: usize) -> bool {
        self.layouts.is_some() && opened == committed
    }

    fn check_deal(
        &mut self,
        _game: &GameConfig,
        events: &[GameEvent],
        deal_seed: u64,
    ) -> Result<usize, NotDealt> {
        let mut boards = 0;
        for event in events {
            if let GameEvent::Junqi(Event::Deployment { seat, layout }) = event {
                if deal::junqi_layout(deal_seed, *seat) != *layout {
                    return Err(NotDealt {
                        seat: *seat,
                        round: 0,
                    });
                }
                boards += 1;
            }
        }
        Ok(boards)
    }
}

impl JunqiAudit {
    /// Replays every move from both layouts: each result must be what the ranks give.
    fn check_moves(&self, layouts: [&Layout; 2]) -> Result<(), Mismatch> {
        let mut position = Position::new(layouts);
        for record in &self.moves {
            let mv = Move {
                from: record.from,
                to: record.to,
            };
            let legal = position.check_move(record.seat, mv).is_ok() && position.to_move() == record.seat;
            if !legal || position.play(mv).result != record.result {
                return Err(Mismatch::Inconsistent(format!(
                    "junqi move {} ({mv}) cannot give {:?}",
                    record.number, record.result
                )));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_opens_before_the_game_reveals_its_layouts() {
        let mut audit = JunqiAudit::default();
        let layout = deal::junqi_layout(7, Seat(0));
        assert!(audit.record(&GameEvent::Junqi(Event::Deployment {
            seat: Seat(0),
            layout
        })));
        assert_eq!(
            audit.open(Seat(0), 0, &layout.to_string()),
            Err(Mismatch::NotRevealed)
        );
        assert!(!audit.done(0, 2), "the game goes on");
    }

    #[test]
    fn dealt_layouts_are_checked_seat_by_seat() {
        let game = GameConfig::Junqi(skirmish_games::junqi::Config::default());
        let deployed = |seat, of| {
            GameEvent::Junqi(Event::Deployment {
                seat,
                layout: deal::junqi_layout(7, of),
            })
        };
        let events = [deployed(Seat(0), Seat(0)), deployed(Seat(1), Seat(1))];
        assert_eq!(JunqiAudit::default().check_deal(&game, &events, 7), Ok(2));
        let swapped = [deployed(Seat(0), Seat(1)), deployed(Seat(1), Seat(0))];
        assert_eq!(
            JunqiAudit::default().check_deal(&game, &swapped, 7),
            Err(NotDealt {
                seat: Seat(0),
                round: 0
            })
        );
    }
}
