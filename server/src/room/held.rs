//! What a room says, held until the journal has on disk the log entries it follows, then let out
//! in order: so that every event a player has been sent is on disk (docs/reliability.md, "What a
//! player can count on").
//!
//! The room says everything through [`Held`] while it handles a command or a deadline; then
//! [`Held::let_out`] hands it to the journal under the number of the room's last journal write
//! ([`Journal::after_commit`]), which lets it out right after that write's commit, on the
//! writer's task, without waking the room. Output that follows no new write is filed under the
//! same number, after the older output, so nothing overtakes it.

use std::cell::RefCell;
use std::sync::Arc;

use skirmish_protocol::ServerMsg;

use crate::error::ServerError;
use crate::journal::Journal;
use crate::outbox::Outbox;

/// Something a room said.
enum Out {
    /// A message for one connection.
    Msg(Outbox, Box<ServerMsg>),
    /// A message shared by several connections.
    Shared(Outbox, Arc<ServerMsg>),
    /// The answer to a command.
    Reply(Box<dyn FnOnce() + Send>),
}

impl Out {
    fn let_out(self) {
        match self {
            Out::Msg(outbox, msg) => {
                outbox.send(*msg);
            }
            Out::Shared(outbox, msg) => {
                outbox.send_shared(msg);
            }
            Out::Reply(reply) => reply(),
        }
    }
}

/// A room's held output.
#[derive(Default)]
pub(super) struct Held {
    /// What the room has said while handling the current command or deadline.
    said: RefCell<Vec<Out>>,
}

impl Held {
    /// Says `msg` to `outbox`, once what the room wrote before is on disk.
    pub(super) fn say(&self, outbox: &Outbox, msg: ServerMsg) {
        self.said
            .borrow_mut()
            .push(Out::Msg(outbox.clone(), Box::new(msg)));
    }

    /// Says a message shared by several connections, as [`Held::say`].
    pub(super) fn say_shared(&self, outbox: &Outbox, msg: Arc<ServerMsg>) {
        self.said.borrow_mut().push(Out::Shared(outbox.clone(), msg));
    }

    /// Answers a command, as [`Held::say`]; a `storage_unavailable` refusal at once, ahead of
    /// what is held: it tells nothing of the room (only of storage), and the player is not kept
    /// waiting for storage to come back.
    pub(super) fn reply<T: Send + 'static>(
        &self,
        reply: tokio::sync::oneshot::Sender<Result<T, ServerError>>,
        result: Result<T, ServerError>,
    ) {
        if matches!(result, Err(ServerError::StorageUnavailable)) {
            let _ = reply.send(result);
            return;
        }
        self.said.borrow_mut().push(Out::Reply(Box::new(move || {
            let _ = reply.send(result);
        })));
    }

    /// Drops what was said and not yet filed (a room rebuilt from its log said it to nobody).
    pub(super) fn forget_said(&mut self) {
        self.said.get_mut().clear();
    }

    /// Hands what was said to `journal`, to be let out, in order, once write number `written`
    /// (the room's last journal write) is on disk; lets it out at once without a journal.
    pub(super) fn let_out(&mut self, written: u64, journal: Option<&Journal>) {
        let said = std::mem::take(self.said.get_mut());
        if said.is_empty() {
            return;
        }
        let out = move || said.into_iter().for_each(Out::let_out);
        match journal {
            Some(journal) => journal.after_commit(written, Box::new(out)),
            None => out(),
        }
    }
}
