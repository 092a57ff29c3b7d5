//! What a casual room keeps of its match for the replay: every event in order and the people
//! who played, gathered from the start, and the record handed to the journal at the end
//! ([`crate::store::KeptMatch`]). A tournament match keeps its own record
//! ([`super::matches`]).

use skirmish_games::Seat;
use skirmish_protocol::{GameEvent, PlayerId};

use super::{Kind, Room};
use crate::journal::Journal;
use crate::store::{KeptMatch, ReplaySeat, ReplaySummary};

/// A casual match's record as it is played.
#[derive(Debug, Default)]
pub(super) struct Keeping {
    /// Every event so far, whatever its audience.
    events: Vec<GameEvent>,
    /// The people who held a seat since the match started (bots left out), in the order they
    /// sat.
    people: Vec<(Seat, PlayerId)>,
}

impl Keeping {
    /// How many events the record has.
    pub(super) fn len(&self) -> usize {
        self.events.len()
    }

    /// The bytes the record's events take as the store writes them (compact JSON).
    pub(super) fn events_bytes(&self) -> usize {
        serde_json::to_string(&self.events).map_or(usize::MAX, |t| t.len())
    }
}

impl Room {
    /// The match started: a casual room starts its record with the people seated now.
    pub(super) fn start_keeping(&mut self) {
        if !matches!(self.kind, Kind::Casual { .. }) {
            return;
        }
        let mut keeping = Keeping::default();
        for (seat, state) in self.seats.iter() {
            if let Some(h) = state.holder.as_ref().filter(|h| h.bot.is_none()) {
                keeping.people.push((seat, h.member.id));
            }
        }
        self.keeping = Some(Box::new(keeping));
    }

    /// Adds `event` to the record, when the room keeps one.
    pub(super) fn keep_event(&mut self, event: &GameEvent) {
        if let Some(keeping) = &mut self.keeping {
            keeping.events.push(event.clone());
        }
    }

    /// A person took `seat` during the match: they played it too.
    pub(super) fn keep_player(&mut self, seat: Seat, player: PlayerId) {
        if let Some(keeping) = &mut self.keeping
            && !keeping.people.contains(&(seat, player))
        {
            keeping.people.push((seat, player));
        }
    }

    /// Hands the finished match's record to `journal` (a casual room's; nothing otherwise), with
    /// each player's resume token digest as the lobby knows it.
    pub(super) fn keep(&mut self, journal: &Journal) {
        let Some(keeping) = self.keeping.take() else {
            return;
        };
        let Keeping { events, people } = *keeping;
        let players = people
            .into_iter()
            .filter_map(|(seat, player)| {
                let token = self.lobby.token_digest(player).filter(|t| !t.is_empty())?;
                Some((seat, token))
            })
            .collect();
        let seats = self
            .seats
            .values()
            .map(|state| match &state.holder {
                Some(h) => ReplaySeat {
                    name: h.member.name.clone(),
                    bot: h.bot.clone(),
                    took_over_from: h.took_over_from.clone(),
                },
                None => ReplaySeat {
                    name: String::new(),
                    bot: None,
                    took_over_from: None,
                },
            })
            .collect();
        journal.keep(KeptMatch {
            summary: ReplaySummary {
                id: self.id,
                game: self.config.game.clone(),
                seats,
                result: self.table.result(),
                finished_ms: crate::wall_clock::now_ms(),
            },
            events,
            players,
        });
    }
}
