//! What the bots thought: each act's `info` ([`BotInfo`]), gathered sealed as the match is
//! played and written with its record when it ends, never sent to anyone during the match.
//!
//! Bounded per match: each seat's infos take at most its share of [`MAX_MATCH_INFO_BYTES`]
//! (256 KiB / seats, as compact JSON); an act whose info would go past its seat's share is
//! played and its info neither written to the room's log nor kept. A casual match's infos count against its replay's
//! [`MAX_REPLAY_EVENT_BYTES`] with its events: the events are kept first, and the infos only as
//! far as what is left (the earliest first).

use skirmish_games::Seat;
use skirmish_protocol::{BotInfo, MoveInfo};

use super::{Kind, Room};
use crate::journal::Journal;
use crate::store::MAX_REPLAY_EVENT_BYTES;

/// The most bytes of infos one match keeps (as compact JSON, split evenly between its seats):
/// 256 KiB, the size of a casual match's whole replay ([`MAX_REPLAY_EVENT_BYTES`]). At 4 KiB an
/// info, a 2-player gomoku bot keeps an info for each of its first 32 moves at worst; the
/// built-in strategies send 100 to 2,000 bytes a move.
pub const MAX_MATCH_INFO_BYTES: usize = MAX_REPLAY_EVENT_BYTES;

/// A match's infos so far.
#[derive(Debug, Default)]
pub(super) struct Thoughts {
    /// Every info kept, in the order of the acts.
    infos: Vec<MoveInfo>,
    /// The bytes kept so far, by seat index.
    bytes: Vec<usize>,
}

impl Room {
    /// Where the next act's events start in the match's record: how many events it has.
    fn record_len(&self) -> u32 {
        let len = match &self.kind {
            Kind::Match(m) => m.log.len(),
            Kind::Casual { .. } => self.keeping.as_ref().map_or(0, |k| k.len()),
        };
        u32::try_from(len).unwrap_or(u32::MAX)
    }

    /// Whether an info of `bytes` from `seat` fits in what is left of the seat's share of
    /// [`MAX_MATCH_INFO_BYTES`]. One that does not is neither written to the log nor kept, so
    /// that a bot sending 4 KiB with every move stores no more than its share.
    pub(super) fn info_fits(&self, seat: Seat, bytes: usize) -> bool {
        let share = MAX_MATCH_INFO_BYTES / self.seats.len().max(1);
        let spent = self.thoughts.bytes.get(seat.index()).copied().unwrap_or(0);
        spent + bytes <= share
    }

    /// Keeps `info` (checked already: `bytes` long) from `seat`'s act whose events are about to
    /// be dispatched, unless the seat's share of [`MAX_MATCH_INFO_BYTES`] is spent.
    pub(super) fn note_info(&mut self, seat: Seat, info: BotInfo, bytes: usize) {
        if !self.info_fits(seat, bytes) {
            tracing::debug!(seat = seat.0, bytes, "info past the seat's share, not kept");
            return;
        }
        let at = self.record_len();
        let thoughts = &mut self.thoughts;
        if thoughts.bytes.len() <= seat.index() {
            thoughts.bytes.resize(seat.index() + 1, 0);
        }
        thoughts.bytes[seat.index()] += bytes;
        thoughts.infos.push(MoveInfo { seat, at, info });
    }

    /// Hands the finished match's infos to `journal`, to be written in the batch that closes the
    /// room; a casual match's only as far as its replay's cap leaves room after its events (none
    /// when its events alone are over the cap: it keeps no replay).
    pub(super) fn keep_infos(&mut self, journal: &Journal) {
        let mut infos = std::mem::take(&mut self.thoughts.infos);
        if infos.is_empty() {
            return;
        }
        if let Some(keeping) = &self.keeping {
            let mut left = MAX_REPLAY_EVENT_BYTES.saturating_sub(keeping.events_bytes());
            let fits = infos
                .iter()
                .take_while(|m| {
                    // The record's JSON: the info and its place, a comma between.
                    let bytes = serde_json::to_string(m).map_or(usize::MAX, |t| t.len() + 1);
                    let fit = bytes <= left;
                    left = left.saturating_sub(bytes);
                    fit
                })
                .count();
            infos.truncate(fits);
        }
        if !infos.is_empty() {
            journal.keep_infos(self.id, infos);
        }
    }
}
