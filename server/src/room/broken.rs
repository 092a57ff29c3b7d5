//! A room whose actor panicked: a bug of ours in an engine or in the room, which no player's input
//! should reach (the fuzz targets look for such inputs). The room is marked broken: every seated
//! player and spectator is told at once with `room_broken`, after what the room said before and
//! has on disk (what still waits for the disk is dropped; a player not connected is told when
//! they resume, as after a room that a restart could not restore), its seats are given back, it
//! leaves the lobby, and its log is closed so that a restart does not bring back a room whose
//! seats are gone. The rest of the server goes on.

use std::panic::{AssertUnwindSafe, catch_unwind};

use skirmish_protocol::{ErrorCode, ServerMsg};
use tracing::error;

use super::Room;

/// The room broke down: its actor must end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct BrokeDown;

impl Room {
    /// Runs `work` on the room; after a panic in it, breaks the room down and says so.
    ///
    /// The room's state after the panic is not trusted for anything but the list of the people
    /// to tell: nothing of it is sent, stored or played on.
    pub(super) fn guarded(&mut self, work: impl FnOnce(&mut Room)) -> Result<(), BrokeDown> {
        match catch_unwind(AssertUnwindSafe(|| work(self))) {
            Ok(()) => Ok(()),
            Err(payload) => {
                let cause = payload
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".to_owned());
                self.break_down(&cause);
                Err(BrokeDown)
            }
        }
    }

    fn break_down(&mut self, cause: &str) {
        error!(room = %self.id, cause, "the room's actor panicked: the room is broken and closed");
        // What is on disk goes out before the notice; what the panic interrupted, and what
        // follows writes not yet on disk, never does.
        self.out.give_up();
        let notice = ServerMsg::Error {
            req: None,
            code: ErrorCode::RoomBroken,
            message: format!(
                "room {} broke down on the server (our fault, and logged); it is closed, and your seat there is gone",
                self.id
            ),
        };
        for holder in self.holders() {
            if holder.connected {
                holder.member.outbox.send(notice.clone());
                self.lobby.unseated(holder.member.id, self.id);
            } else {
                self.lobby.room_broken(holder.member.id, self.id);
            }
        }
        for member in self.spectators.values() {
            member.outbox.send(notice.clone());
        }
        self.lobby.remove_room(self.id);
        if let Some(journal) = &self.journal {
            journal.close(self.id);
        }
    }
}
