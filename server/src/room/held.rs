//! What a room says, held until the journal has on disk the log entries it follows, then let out
//! in order: so that every event a player has been sent is on disk (docs/reliability.md, "What a
//! player can count on").
//!
//! The room says everything through [`Held`] while it handles a command or a deadline; then
//! [`Held::let_out`] files it under the number of the room's last journal write and lets out
//! whatever the journal has committed, oldest first. Output that follows no new write waits
//! behind older held output, so nothing overtakes it.

use std::cell::RefCell;
use std::collections::VecDeque;
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
    /// What it said after journal writes not yet on disk: the last write's number, and what to
    /// let out once it is, oldest first.
    queue: VecDeque<(u64, Vec<Out>)>,
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

    /// Whether nothing waits to be let out.
    pub(super) fn is_empty(&self) -> bool {
        self.queue.is_empty() && self.said.borrow().is_empty()
    }

    /// Files what was said under `written`, the number of the room's last journal write, and
    /// lets out, in order, everything whose write `journal` has committed (everything, without
    /// a journal).
    pub(super) fn let_out(&mut self, written: u64, journal: Option<&Journal>) {
        let said = std::mem::take(self.said.get_mut());
        if !said.is_empty() {
            self.queue.push_back((written, said));
        }
        let committed = journal.map_or(u64::MAX, |j| *j.committed().borrow());
        while self.queue.front().is_some_and(|(w, _)| *w <= committed) {
            let (_, out) = self.queue.pop_front().expect("a front");
            out.into_iter().for_each(Out::let_out);
        }
    }

    /// Resolves once `journal` has on disk the write the oldest held output follows; never when
    /// nothing is held.
    pub(super) fn on_disk(&self, journal: Option<&Journal>) -> impl Future<Output = ()> + use<> {
        let wanted = self.queue.front().map(|(written, _)| *written);
        let committed = journal.map(Journal::committed);
        async move {
            match (wanted, committed) {
                (Some(wanted), Some(mut committed)) => {
                    if committed.wait_for(|c| *c >= wanted).await.is_err() {
                        std::future::pending::<()>().await;
                    }
                }
                _ => std::future::pending().await,
            }
        }
    }
}
