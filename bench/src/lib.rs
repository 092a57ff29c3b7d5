//! Skirmish's measuring instruments, kept apart from the product and from the bots: the load
//! generator ([`load`]), which plays rooms of random players against a server as fast as it
//! answers and measures it against a minimal WebSocket echo on the same stack ([`load::echo`]) in
//! the same run. docs/performance.md gives the commands and what was measured with them; the
//! comparison with peer servers (Colyseus, a minimal axum room) is `scripts/peers.sh`.
//!
//! The players are the bots' `random` strategies (`skirmish_bots`): this crate depends on the bots,
//! never the reverse.

pub mod load;
