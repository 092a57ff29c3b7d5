//! What `/metrics` reports, in the Prometheus text format: connections, rooms by game and state,
//! messages in and out, errors by code, the time to referee a move, the bot pool's size, the
//! players the lobby remembers, and storage's failures and state.
//!
//! Counters and the histogram are updated where things happen (sessions); the room and bot gauges
//! are read from the lobby when `/metrics` is scraped, so they can never drift from it.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;
use skirmish_protocol::RoomStatus;

use crate::journal::Journal;
use crate::lobby::Lobby;

/// An error code's label.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CodeLabel {
    code: String,
}

/// A room's game and state.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RoomLabels {
    game: String,
    state: String,
}

/// The server's metrics, shared by every session.
#[derive(Debug)]
pub struct Metrics {
    registry: Mutex<Registry>,
    connections: Gauge,
    messages_in: Counter,
    messages_out: Counter,
    errors: Family<CodeLabel, Counter>,
    move_seconds: Histogram,
    rooms: Family<RoomLabels, Gauge>,
    bots: Gauge,
    players: Gauge,
    storage_failures: Counter,
    storage_available: Gauge,
}

impl Default for Metrics {
    fn default() -> Self {
        let metrics = Metrics {
            registry: Mutex::new(Registry::with_prefix("skirmish")),
            connections: Gauge::default(),
            messages_in: Counter::default(),
            messages_out: Counter::default(),
            errors: Family::default(),
            // 50 µs to about 1.6 s, doubling: a move is refereed in well under a millisecond.
            move_seconds: Histogram::new(exponential_buckets(0.000_05, 2.0, 16)),
            rooms: Family::default(),
            bots: Gauge::default(),
            players: Gauge::default(),
            storage_failures: Counter::default(),
            storage_available: Gauge::default(),
        };
        {
            let mut r = metrics.registry.lock().expect("not poisoned");
            r.register(
                "connections",
                "Open WebSocket connections",
                metrics.connections.clone(),
            );
            r.register("messages_in", "Client frames read", metrics.messages_in.clone());
            r.register(
                "messages_out",
                "Server messages written",
                metrics.messages_out.clone(),
            );
            r.register(
                "errors",
                "Error messages sent to clients, by code",
                metrics.errors.clone(),
            );
            r.register(
                "move_seconds",
                "Time to referee one act: from reading it to its events queued for every viewer",
                metrics.move_seconds.clone(),
            );
            r.register("rooms", "Rooms by game and state", metrics.rooms.clone());
            r.register(
                "bots",
                "Connected bot connections (the bot pool)",
                metrics.bots.clone(),
            );
            r.register(
                "players",
                "Players the lobby keeps a record of: connected, holding a seat, or owning an open room",
                metrics.players.clone(),
            );
            r.register(
                "storage_failures",
                "Failed tries to write the room journal or to check the database file",
                metrics.storage_failures.clone(),
            );
            r.register(
                "storage_available",
                "1 while storage works, 0 while it fails (rooms then refuse actions with storage_unavailable)",
                metrics.storage_available.clone(),
            );
        }
        metrics
    }
}

impl Metrics {
    /// A connection opened; the connection gauge goes down again when the guard is dropped.
    pub fn connection(self: &Arc<Self>) -> ConnectionGuard {
        self.connections.inc();
        ConnectionGuard(Arc::clone(self))
    }

    /// A client frame was read.
    pub fn message_in(&self) {
        self.messages_in.inc();
    }

    /// A message was written to a client; an error message is counted by its code too.
    pub fn message_out(&self, error_code: Option<&str>) {
        self.messages_out.inc();
        if let Some(code) = error_code {
            self.errors
                .get_or_create(&CodeLabel {
                    code: code.to_owned(),
                })
                .inc();
        }
    }

    /// One act was refereed in `elapsed`.
    pub fn move_refereed(&self, elapsed: Duration) {
        self.move_seconds.observe(elapsed.as_secs_f64());
    }

    /// The histogram of [`Metrics::move_refereed`], for a room's actor to observe its acts in
    /// (a clone shares the same counts).
    pub fn move_histogram(&self) -> &Histogram {
        &self.move_seconds
    }

    /// The metrics in the Prometheus text format, with the room and bot gauges read from `lobby`
    /// and the storage figures from `journal`.
    pub fn render(&self, lobby: &Lobby, journal: &Journal) -> String {
        let failures = journal.failures();
        let counted = self.storage_failures.get();
        if failures > counted {
            self.storage_failures.inc_by(failures - counted);
        }
        self.storage_available.set(i64::from(journal.available()));
        self.rooms.clear();
        for room in lobby.rooms() {
            let game = room.config.game.kind().tag();
            let state = match room.status {
                RoomStatus::Waiting => "waiting",
                RoomStatus::Playing => "playing",
                RoomStatus::Finished => "finished",
            };
            self.rooms
                .get_or_create(&RoomLabels {
                    game: game.to_owned(),
                    state: state.to_owned(),
                })
                .inc();
        }
        self.bots
            .set(i64::try_from(lobby.bots().len()).unwrap_or(i64::MAX));
        self.players
            .set(i64::try_from(lobby.player_count()).unwrap_or(i64::MAX));
        let mut text = String::new();
        prometheus_client::encoding::text::encode(&mut text, &self.registry.lock().expect("not poisoned"))
            .expect("writing to a String does not fail");
        text
    }
}

/// Keeps one connection counted while it lives.
#[derive(Debug)]
pub struct ConnectionGuard(Arc<Metrics>);

impl Drop for ConnectionGuard {
    fn drop(&mut self) {
        self.0.connections.dec();
    }
}
