//! Quick match (快速开始): the rooms it made that still wait for players, and the one-at-a-time
//! turn that finding or making such a room takes, so that people quick-matching the same game at
//! the same moment meet in one room instead of making two.
//!
//! The session does the rest (`session/quick_match.rs`): it seats the person in the first of
//! these rooms with a free seat, or makes one within the person's and the address's open-room
//! limits, and has the room start with bots after the server's wait
//! ([`crate::Limits::quick_match_wait_ms`]).
//!
//! What a stranger costs: one entry here (a room id and a game, 24 bytes) per quick-match room,
//! and every such room is an open room its maker owns, counted by `--rooms-per-player` and
//! `--rooms-per-address`; an entry goes when its room leaves the lobby.

use std::sync::Mutex;

use skirmish_protocol::{BotLevel, GameConfig, GameKind, RoomId, RoomStatus, plane};

use super::Lobby;

/// The level of the bots a quick match's room starts with when people do not fill it: the
/// middle one, a fair first game for someone who did not choose.
pub const QUICK_MATCH_LEVEL: BotLevel = BotLevel::Medium;

/// The settings of a room quick match makes for `game`: the game's defaults, and for plane
/// battle its quickest match, two players over 3 rounds (the create form's "Quick" length,
/// docs/rules.md, plane battle, "Alternative match format").
pub fn quick_config(game: GameKind) -> GameConfig {
    match game {
        GameKind::Plane => GameConfig::Plane(plane::Config {
            players: 2,
            format: plane::MatchFormat::Rounds(3),
            ..plane::Config::default()
        }),
        GameKind::Gomoku => GameConfig::Gomoku(Default::default()),
        GameKind::Junqi => GameConfig::Junqi(Default::default()),
        GameKind::TicTacToe => GameConfig::TicTacToe(Default::default()),
    }
}

/// The rooms quick match made on this node, oldest first, and the turn quick matches take.
#[derive(Debug, Default)]
pub(super) struct QuickRooms {
    /// One quick match at a time: finding a room and joining it, or making one, await the
    /// rooms' actors, and two quick matches interleaved would both find no room and make two.
    turn: tokio::sync::Mutex<()>,
    /// Each quick-match room still listed, with its game. A std mutex: a few vector operations,
    /// never across an await.
    rooms: Mutex<Vec<(RoomId, GameKind)>>,
}

impl Lobby {
    /// Waits for the quick-match turn; the next quick match waits until the guard is dropped.
    pub async fn quick_turn(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.quick.turn.lock().await
    }

    /// Records that quick match made room `id` for `game`.
    pub fn mark_quick(&self, id: RoomId, game: GameKind) {
        self.quick.rooms.lock().expect("not poisoned").push((id, game));
    }

    /// Forgets room `id` as a quick-match room (it left the lobby).
    pub(super) fn forget_quick(&self, id: RoomId) {
        self.quick
            .rooms
            .lock()
            .expect("not poisoned")
            .retain(|(room, _)| *room != id);
    }

    /// Whether room `id` is a waiting quick-match room of `game`.
    pub fn is_quick_waiting(&self, id: RoomId, game: GameKind) -> bool {
        let quick = self
            .quick
            .rooms
            .lock()
            .expect("not poisoned")
            .contains(&(id, game));
        quick
            && self
                .local_summary(id)
                .is_some_and(|s| s.status == RoomStatus::Waiting)
    }

    /// The waiting quick-match rooms of `game` with a free seat, oldest first.
    pub fn quick_rooms(&self, game: GameKind) -> Vec<RoomId> {
        let ids: Vec<RoomId> = self
            .quick
            .rooms
            .lock()
            .expect("not poisoned")
            .iter()
            .filter(|(_, g)| *g == game)
            .map(|(id, _)| *id)
            .collect();
        ids.into_iter()
            .filter(|&id| {
                self.local_summary(id).is_some_and(|s| {
                    s.status == RoomStatus::Waiting && s.seats.iter().any(|seat| seat.occupant.is_none())
                })
            })
            .collect()
    }
}
