//! Skirmish's bots: AI strategies as a library (so they can be evaluated offline, in-process) and
//! the bot client program, a thin network shell that plays them in seats the server hands it.

pub mod caai;
pub mod client;
mod engine_process;
pub mod eval;
pub mod gomoku;
pub mod junqi;
pub mod piskvork;
pub mod plane;
