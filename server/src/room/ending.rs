//! How a match ends before or at its end: a forfeit, a waiting room's expiry, the finish (what is
//! still sealed is revealed, the journal closes the room, a tournament gets its report).

use skirmish_games::Seat;
use skirmish_protocol::tournament::{Forfeit, ForfeitReason};
use skirmish_protocol::{RoomStatus, ServerMsg};
use tokio::time::Instant;
use tracing::info;

use super::matches::MatchReport;
use super::{FINISHED_ROOM_LINGER, Room};
use crate::journal::Entry;

/// A forfeit's detail as kept and shown: what a name may not carry dropped
/// ([`skirmish_protocol::clean_name`]: control characters and bidirectional overrides), at most
/// [`skirmish_games::gomoku::MAX_REASON_BYTES`] (200) bytes, the most a game's resignation reason
/// may have, cut at a character boundary.
fn clean_detail(text: &str) -> String {
    let mut clean = skirmish_protocol::clean_name(text);
    let max = skirmish_games::gomoku::MAX_REASON_BYTES.min(skirmish_games::junqi::MAX_REASON_BYTES);
    if clean.len() > max {
        let mut end = max;
        while !clean.is_char_boundary(end) {
            end -= 1;
        }
        clean.truncate(end);
    }
    clean.trim_end().to_owned()
}

impl Room {
    /// `seat` loses the match without playing it out (a tournament's forfeit), for `reason`;
    /// `detail` says more, for people.
    pub(super) fn forfeit(&mut self, seat: Seat, reason: ForfeitReason, detail: Option<String>) {
        if self.status != RoomStatus::Playing {
            return;
        }
        let detail = detail.map(|d| clean_detail(&d)).filter(|d| !d.is_empty());
        info!(
            seat = seat.0,
            reason = reason.as_str(),
            detail = detail.as_deref().unwrap_or(""),
            "forfeit"
        );
        self.record(Entry::Forfeited {
            seat,
            reason: reason.as_str().to_owned(),
            detail: detail.clone(),
        });
        // The game's resignation says the cause first, then the detail: the whole end reason.
        let said = match &detail {
            Some(detail) => clean_detail(&format!("{reason}: {detail}")),
            None => reason.as_str().to_owned(),
        };
        if let Some(m) = self.kind.tournament_mut() {
            m.forfeit = Some(Forfeit { seat, reason, detail });
        }
        let applied = self.table.resign(seat, &said);
        self.dispatch(applied);
    }

    /// Closes a room whose match never started, at its expiry: tells its owner and everyone in
    /// it (`room_closed` with `room_expired`), frees its seats, deletes it from the journal and
    /// takes it out of the lobby. Waiting rooms were never bounded in time (issue 16, finding 2:
    /// 2,000 rooms made in 9 s stayed listed and stored for good).
    pub(super) fn expire(&mut self) {
        info!("room expired before its match started");
        self.close(
            skirmish_protocol::ErrorCode::RoomExpired,
            "the room waited too long for its players and is closed; create another",
        );
        if let Some(journal) = &self.journal {
            journal.discard(self.id);
        }
        self.lobby.remove_room(self.id);
    }

    /// Closes a tournament match whose tournament stopped (cancelled, or its runner died)
    /// before the match's end: tells everyone in it (`room_closed` with `match_abandoned`),
    /// frees its seats, records in the journal that it is over (it is not played on after a
    /// restart), and leaves the lobby at the actor's next turn. A finished match is left as it
    /// is.
    pub(super) fn abandon(&mut self) {
        if self.status == RoomStatus::Finished {
            return;
        }
        info!("match abandoned: its tournament stopped");
        self.status = RoomStatus::Finished;
        self.seats.values_mut().for_each(|s| {
            s.clock.stop();
            s.dropped = None;
        });
        self.close(
            skirmish_protocol::ErrorCode::MatchAbandoned,
            "this match's tournament was stopped; the match will not be played on",
        );
        if let Some(journal) = &self.journal {
            self.written = journal.close(self.id);
        }
        self.closes_at = Some(Instant::now());
    }

    /// Tells the room's owner and everyone in it that the room closed (`room_closed` with
    /// `code` and `message`) and frees its seats. The notice is held as everything the room says
    /// is (`room::held`): it cannot overtake events still waiting for the disk.
    fn close(&mut self, code: skirmish_protocol::ErrorCode, message: &str) {
        let notice = ServerMsg::RoomClosed {
            room: self.id,
            code,
            message: message.to_owned(),
        };
        let mut told = std::collections::HashSet::new();
        for holder in self.holders() {
            if told.insert(holder.member.id) {
                self.out.say(&holder.member.outbox, &notice);
            }
            self.lobby.unseated(holder.member.id, self.id);
        }
        for (id, member) in &self.spectators {
            if told.insert(*id) {
                self.out.say(&member.outbox, &notice);
            }
        }
        let owner = self.kind.owner();
        if told.insert(owner)
            && let Some(outbox) = self.lobby.outbox_of(owner)
        {
            self.out.say(&outbox, &notice);
        }
    }

    pub(super) fn finish(&mut self) {
        self.status = RoomStatus::Finished;
        self.seats.values_mut().for_each(|s| s.clock.stop());
        for holder in self.holders() {
            self.lobby.unseated(holder.member.id, self.id);
        }
        self.seats.values_mut().for_each(|s| s.dropped = None);
        self.closes_at = Some(Instant::now() + FINISHED_ROOM_LINGER);
        // Whatever the game has not revealed yet (a match ended mid-round) is no secret now.
        let rounds: Vec<u32> = self.sealed.iter().map(|r| r.round).collect();
        for round in rounds {
            self.reveal(round);
        }
        info!("match finished");
        if let Some(journal) = self.journal.clone() {
            self.keep_infos(&journal);
            self.keep(&journal);
            self.written = journal.close(self.id);
        }
        self.publish_summary();
        if let Some(m) = self.kind.tournament_mut()
            && let Some(report) = m.report.take()
            && let Some(mut result) = self.table.result()
        {
            if let Some(forfeit) = m.forfeit.take() {
                result.end = "forfeit".to_owned();
                result.forfeit = Some(forfeit);
            }
            let _ = report.send(MatchReport {
                result,
                events: std::mem::take(&mut m.log),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::clean_detail;

    #[test]
    fn a_forfeit_detail_loses_hidden_characters_and_is_bounded() {
        assert_eq!(clean_detail(" crashed\n\u{1b}[31m \u{202E}x "), "crashed[31m x");
        let long = clean_detail(&"é".repeat(500));
        assert!(long.len() <= 200 && long.chars().all(|c| c == 'é'), "{long}");
    }
}
