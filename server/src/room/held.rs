//! What a room says, held until the journal has on disk the log entries it follows, then let out
//! in order by the room itself: so that every event a player has been sent is on disk
//! (docs/reliability.md, "What a player can count on").
//!
//! The room says everything through [`Held`] while it handles a command or a deadline, as
//! finished frames: each message is serialised once, when it is said, and a message for several
//! connections is one [`Frame`] shared by all of them. Then [`Held::let_out`] files what was said
//! under the number of the room's last journal write and sends, oldest first, everything filed
//! under a number the journal has committed ([`Journal::committed`]). What is still held waits in
//! the room; its actor wakes when the journal commits the write the oldest of it follows, and no
//! other ([`Held::on_disk`], [`Journal::when_on_disk`]), and lets it out. Output
//! that follows no new write is filed after the older output, so nothing overtakes it. No lock is
//! held while frames are sent: the queue is the room's own.

use std::cell::RefCell;
use std::collections::VecDeque;

use skirmish_protocol::ServerMsg;
use tokio::sync::{oneshot, watch};
use tracing::warn;

use crate::error::ServerError;
use crate::journal::Journal;
use crate::outbox::{Frame, Outbox};

/// Something a room said.
enum Out {
    /// A finished frame for one connection (shared with the other connections it is for).
    Frame(Outbox, Frame),
    /// The answer to a command.
    Reply(Box<dyn FnOnce() + Send>),
}

impl Out {
    fn let_out(self) {
        match self {
            Out::Frame(outbox, frame) => {
                outbox.send_frame(frame);
            }
            Out::Reply(reply) => reply(),
        }
    }
}

/// A room's held output.
#[derive(Default)]
pub(super) struct Held {
    /// What the room has said while handling the current command or deadline. A `RefCell`: the
    /// room says things from `&self` methods (snapshots, broadcasts) that borrow its state.
    said: RefCell<Vec<Out>>,
    /// What was said and is not sent yet, oldest first: each batch under the number of the
    /// journal write it follows (numbers never decrease along the queue).
    filed: VecDeque<(u64, Vec<Out>)>,
    /// The number of the journal's last write on disk; `None` without a journal (a room being
    /// rebuilt from its log, or a test's), when output goes out at once.
    committed: Option<watch::Receiver<u64>>,
    /// The journal, to be woken by the commit of the write the oldest held output follows.
    journal: Option<Journal>,
    /// That wake, once asked for: the write's number and the receiver.
    waiting: Option<(u64, oneshot::Receiver<()>)>,
    /// Set once the journal's writer is gone (it panicked): nothing held is ever sent then.
    writer_gone: bool,
}

impl Held {
    /// Holds output from now on until `journal` has on disk the write it follows.
    pub(super) fn behind(&mut self, journal: &Journal) {
        self.committed = Some(journal.committed());
        self.journal = Some(journal.clone());
    }

    /// Says `msg` to `outbox`, once what the room wrote before is on disk.
    pub(super) fn say(&self, outbox: &Outbox, msg: &ServerMsg) {
        self.said
            .borrow_mut()
            .push(Out::Frame(outbox.clone(), Frame::new(msg)));
    }

    /// Says `msg` to every outbox of `to`, as [`Held::say`]: serialised once (and not at all
    /// when `to` is empty), the same frame queued for each.
    pub(super) fn say_all<'a>(&self, to: impl IntoIterator<Item = &'a Outbox>, msg: &ServerMsg) {
        let mut said = self.said.borrow_mut();
        let mut frame = None;
        for outbox in to {
            let frame = frame.get_or_insert_with(|| Frame::new(msg));
            said.push(Out::Frame(outbox.clone(), frame.clone()));
        }
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

    /// Drops what was said and not yet filed (a room rebuilt from its log said it to nobody; a
    /// room that broke down mid-command said it from a state nobody trusts).
    pub(super) fn forget_said(&mut self) {
        self.said.get_mut().clear();
    }

    /// Files what was said under `written`, the number of the room's last journal write, after
    /// everything filed before, and sends, in order, everything filed under a number the journal
    /// has committed (everything, without a journal).
    pub(super) fn let_out(&mut self, written: u64) {
        let said = self.said.get_mut();
        if !said.is_empty() {
            match self.filed.back_mut() {
                Some((last, out)) if *last == written => out.append(said),
                _ => self.filed.push_back((written, std::mem::take(said))),
            }
        }
        if !self.filed.is_empty() {
            let committed = self.committed.as_ref().map_or(u64::MAX, |c| *c.borrow());
            self.release(committed);
        }
    }

    /// Sends, in the order filed, everything filed under a number up to `committed`.
    fn release(&mut self, committed: u64) {
        while self
            .filed
            .front()
            .is_some_and(|(written, _)| *written <= committed)
        {
            let (_, out) = self.filed.pop_front().expect("a batch in front");
            out.into_iter().for_each(Out::let_out);
        }
    }

    /// Resolves once the journal has on disk the write the oldest held output follows (then
    /// [`Held::let_out`] sends it); never while nothing is held, without a journal, or once the
    /// journal's writer is gone.
    pub(super) async fn on_disk(&mut self) {
        let Some(&(wanted, _)) = self.filed.front() else {
            return std::future::pending().await;
        };
        if self.writer_gone {
            return std::future::pending().await;
        }
        let woken = if let Some(journal) = &self.journal {
            // Woken by that write's commit alone, not by every commit (a room of the next
            // batch would wake at each one for nothing). The wake is kept across the actor's
            // other branches, so it is asked for once.
            if self.waiting.as_ref().is_none_or(|(n, _)| *n != wanted) {
                match journal.when_on_disk(wanted) {
                    Some(rx) => self.waiting = Some((wanted, rx)),
                    None => {
                        self.waiting = None;
                        return;
                    }
                }
            }
            let (_, rx) = self.waiting.as_mut().expect("asked for above");
            let woken = rx.await.is_ok();
            self.waiting = None;
            woken
        } else {
            return std::future::pending().await;
        };
        if !woken {
            if !self.writer_gone {
                warn!(
                    waiting_for = wanted,
                    "the journal's writer is gone: what the room holds is never sent"
                );
                self.writer_gone = true;
            }
            std::future::pending().await
        }
    }

    /// For a room that ends (its match over, closed, expired, the server stopping): waits until
    /// the journal has on disk everything held is filed under, then sends it, so that the room
    /// does not take what it said last with it. While storage fails this lasts until a try to
    /// write goes through (the writer never drops a batch), and at most until the process ends;
    /// when the writer is gone, what is held is dropped at once.
    pub(super) async fn let_out_last(&mut self, written: u64) {
        self.let_out(written);
        let (Some(&(last, _)), Some(committed)) = (self.filed.back(), self.committed.as_mut()) else {
            return;
        };
        if committed.wait_for(|c| *c >= last).await.is_ok() {
            self.release(last);
        } else {
            warn!(
                waiting_for = last,
                "the journal's writer is gone: what the room said last is never sent"
            );
            self.filed.clear();
        }
    }

    /// For a room that broke down: drops what it was saying, sends what is on disk already, and
    /// drops the rest (its log is closed; its players are told the room broke down).
    pub(super) fn give_up(&mut self) {
        self.forget_said();
        if let Some(committed) = self.committed.as_ref().map(|c| *c.borrow()) {
            self.release(committed);
        }
        self.filed.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outbox::Inbox;

    /// No message.
    const NOTHING: [u64; 0] = [];

    fn pong(req: u64) -> ServerMsg {
        ServerMsg::Pong { req: Some(req) }
    }

    /// Held output behind a committed number the test moves itself.
    fn held() -> (Held, watch::Sender<u64>) {
        let (tx, rx) = watch::channel(0);
        let held = Held {
            committed: Some(rx),
            ..Held::default()
        };
        (held, tx)
    }

    /// The `req` of every pong queued in `inbox`, in order.
    fn received(inbox: &mut Inbox) -> Vec<u64> {
        std::iter::from_fn(|| inbox.rx.try_recv().ok())
            .map(
                |frame| match serde_json::from_str(frame.text().as_str()).unwrap() {
                    ServerMsg::Pong { req: Some(req) } => req,
                    other => panic!("{other:?}"),
                },
            )
            .collect()
    }

    #[test]
    fn output_goes_out_once_its_write_is_committed_in_the_order_said() {
        let (mut held, committed) = held();
        let (outbox, mut inbox) = Outbox::new();
        held.say(&outbox, &pong(1));
        held.say(&outbox, &pong(2));
        held.let_out(1);
        held.say(&outbox, &pong(3));
        held.let_out(2);
        assert_eq!(received(&mut inbox), NOTHING, "nothing is on disk yet");
        committed.send_replace(1);
        held.let_out(2);
        assert_eq!(received(&mut inbox), [1, 2], "what follows write 1, in order");
        committed.send_replace(2);
        held.let_out(2);
        assert_eq!(received(&mut inbox), [3]);
    }

    #[test]
    fn output_under_a_committed_number_never_overtakes_older_output() {
        let (mut held, committed) = held();
        let (outbox, mut inbox) = Outbox::new();
        held.say(&outbox, &pong(1));
        held.let_out(5);
        // Write 3 is on disk, write 5 is not: what follows write 3, said now, waits behind it.
        committed.send_replace(3);
        held.say(&outbox, &pong(2));
        held.let_out(3);
        assert_eq!(received(&mut inbox), NOTHING);
        committed.send_replace(5);
        held.say(&outbox, &pong(3));
        held.let_out(5);
        assert_eq!(received(&mut inbox), [1, 2, 3]);
        // Nothing held: what follows a committed write goes out at once.
        held.say(&outbox, &pong(4));
        held.let_out(5);
        assert_eq!(received(&mut inbox), [4]);
    }

    #[test]
    fn without_a_journal_output_goes_out_at_once() {
        let mut held = Held::default();
        let (outbox, mut inbox) = Outbox::new();
        held.say(&outbox, &pong(1));
        held.let_out(7);
        assert_eq!(received(&mut inbox), [1]);
    }

    #[test]
    fn a_message_for_several_connections_is_one_frame() {
        let mut held = Held::default();
        let (a, mut a_in) = Outbox::new();
        let (b, mut b_in) = Outbox::new();
        held.say_all([&a, &b], &pong(1));
        held.say_all([], &pong(2));
        held.let_out(0);
        let (fa, fb) = (a_in.rx.try_recv().unwrap(), b_in.rx.try_recv().unwrap());
        assert_eq!(fa.text().as_str(), serde_json::to_string(&pong(1)).unwrap());
        assert_eq!(
            fa.text().as_str().as_ptr(),
            fb.text().as_str().as_ptr(),
            "the same bytes"
        );
        assert!(a_in.rx.try_recv().is_err() && b_in.rx.try_recv().is_err());
    }

    #[test]
    fn a_refusal_for_failing_storage_goes_out_ahead_of_held_output() {
        let (held, _committed) = held();
        let (answer, mut answered) = tokio::sync::oneshot::channel::<Result<(), ServerError>>();
        held.reply(answer, Err(ServerError::StorageUnavailable));
        assert!(matches!(
            answered.try_recv(),
            Ok(Err(ServerError::StorageUnavailable))
        ));
    }

    #[tokio::test]
    async fn the_room_wakes_once_its_write_is_on_disk() {
        let journal = Journal::start(crate::store::Store::in_memory().await.unwrap());
        let mut held = Held::default();
        held.behind(&journal);
        let (outbox, mut inbox) = Outbox::new();
        let mine = journal.close(skirmish_protocol::RoomId::random());
        held.say(&outbox, &pong(1));
        held.let_out(mine);
        assert_eq!(received(&mut inbox), NOTHING, "not on disk yet");
        // Waits on `on_disk` in a task of its own, which gives `held` back.
        let wait = tokio::spawn(async move {
            held.on_disk().await;
            held
        });
        let mut held = wait.await.expect("no panic");
        assert!(
            *journal.committed().borrow() >= mine,
            "woken once its write is on disk"
        );
        assert_eq!(received(&mut inbox), NOTHING, "the room sends, not the wake");
        held.let_out(mine);
        assert_eq!(received(&mut inbox), [1]);
    }

    #[tokio::test]
    async fn a_room_that_ends_lets_out_what_it_holds_once_it_is_on_disk() {
        let (mut held, committed) = held();
        let (outbox, mut inbox) = Outbox::new();
        held.say(&outbox, &pong(1));
        held.let_out(1);
        held.say(&outbox, &pong(2));
        let last = tokio::spawn(async move {
            held.let_out_last(2).await;
        });
        committed.send_replace(1);
        for _ in 0..8 {
            tokio::task::yield_now().await;
        }
        assert!(!last.is_finished(), "the room waits for its last write");
        assert_eq!(received(&mut inbox), [1], "what is on disk goes out meanwhile");
        committed.send_replace(2);
        last.await.expect("no panic");
        assert_eq!(received(&mut inbox), [2]);
    }

    #[test]
    fn a_room_that_breaks_down_sends_what_is_on_disk_and_drops_the_rest() {
        let (mut held, committed) = held();
        let (outbox, mut inbox) = Outbox::new();
        held.say(&outbox, &pong(1));
        held.let_out(1);
        held.say(&outbox, &pong(2));
        held.let_out(2);
        committed.send_replace(1);
        held.say(&outbox, &pong(3));
        held.give_up();
        assert_eq!(received(&mut inbox), [1]);
        committed.send_replace(2);
        held.let_out(2);
        assert_eq!(received(&mut inbox), NOTHING);
    }

    #[tokio::test]
    async fn nothing_held_is_sent_once_the_writer_is_gone() {
        let (mut held, committed) = held();
        let (outbox, mut inbox) = Outbox::new();
        held.say(&outbox, &pong(1));
        held.let_out(1);
        drop(committed);
        held.let_out_last(1).await;
        assert_eq!(received(&mut inbox), NOTHING);
    }
}
